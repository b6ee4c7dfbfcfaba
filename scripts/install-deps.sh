#!/usr/bin/env bash
# Installs the Debian packages ClipBridge builds, tests and benchmarks with. Idempotent: it asks apt
# only for what is missing, and uses sudo when not run as root.
set -euo pipefail

packages=(
    pkg-config libx11-dev libxfixes-dev   # CX11: Xlib + XFixes headers
    libx11-xcb-dev                        # CX11: XGetXCBConnection (property reads straight from XCB)
    libyaml-dev                           # CLibYAML: the daemon's settings file
    libwayland-dev                        # CWayland: wayland-client-core.h (the data-control client; the library is loaded on first use)
    libsqlite3-dev libssl3 libssl-dev     # the clipboard history: SQLite (FTS5 included), libcrypto (SHA-256, ChaCha20-Poly1305), loaded on first use; the headers type the calls
    xvfb xauth x11-utils                  # the private X server tests and the demo start
    xclip xsel                            # independent peers in tests and benchmarks
    python3 python3-gi gir1.2-gtk-4.0     # a real GTK 4 app as a peer
    python3-pyqt5                         # a real Qt 5 app as a peer
    python3-xlib                          # the hostile owner and requestor of Tests/Peers (python-xlib)
    python3-cryptography                  # an independent opener of the encrypted history format (Tests/Peers/history_open.py)
    gir1.2-gtk-3.0                        # a real GTK 3 app as a peer (it hands over to clipboard managers)
    xfce4-settings dbus-daemon            # xfsettingsd, Xfce's clipboard manager, on a private session bus
    gcc                                   # the C Xlib ceiling in Benchmarks/
    time                                  # GNU time: peak RSS of a command in the CLI tests
    shared-mime-info                      # the freedesktop MIME database UniformTypes reads
    libpng-dev libjpeg62-turbo-dev        # ImageCodecs: PNG, JPEG (libjpeg-turbo)
    libgif-dev libtiff-dev libwebp-dev    # ImageCodecs: GIF, TIFF, WebP
    imagemagick                           # an independent image peer: test fixtures and the codec benchmark
    pcmanfm                               # a real file manager (libfm): cut and paste under the daemon
    libreoffice-writer libreoffice-gtk3   # LibreOffice Writer as a drop target (VCL's GTK 3 plugin)
    chromium firefox-esr                  # browsers as drag sources (images, X Direct Save)
    fzf rofi                              # the pickers `history pick` runs (driven with --filter in tests)
    xdotool                               # finds rofi's window and types its Return in the picker test
    emacs-lucid                           # Emacs 28 handing its copy over to the daemon on exit (SAVE_TARGETS)
    tk8.6                                 # Tk 8.6 (wish) reading large copies: one property of at most 400,000 bytes
    openjdk-17-jdk-headless openjdk-17-jre  # Java 17's AWT reading large copies (the source launcher needs the JDK)
    sqlite3 copyq                         # the history benchmark: filling 10,000 entries; CopyQ, the manager to beat
    gnome-keyring libsecret-tools         # the history key in the Secret Service (secret-tool), on a private bus in tests
    sway xwayland wl-clipboard            # the Wayland side (issue 30): sway headless with XWayland, wl-copy and wl-paste
    x11-xserver-utils                     # xhost: sway's XWayland admits the tests' user
    qtwayland5 wtype                      # Qt 5 as a Wayland client; a key typed into a Wayland peer's window (its claim's serial)
    weston                                # a compositor without data-control (as GNOME's Mutter): the error naming both protocols
    kwin-wayland                          # KWin 5.27 headless (--virtual): the second compositor of the Wayland ↔ Wayland bridge
    openssh-server openssh-client         # the link across machines (issue 41): sshd on loopback as the far machine, ssh and ssh-keygen
    xterm tmux                            # OSC 52 when there is no display: a real terminal (xterm) setting the X clipboard, and tmux inside it
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# sway 1.12 from Debian forky, unpacked beside the system (not installed): the compositor offering
# ext-data-control-v1 in the tests.
"$(dirname "$0")/install-test-sway.sh"
