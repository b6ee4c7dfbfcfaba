#!/usr/bin/env bash
# make install / make uninstall: the static clipbridge binary, its man page (generated from the command
# definitions by swift-argument-parser's GenerateManual plugin) and bash, zsh and fish completions.
#
#   scripts/install.sh [--uninstall] PREFIX        (make install PREFIX=/usr/local [DESTDIR=...])
#
# Files: PREFIX/bin/clipbridge, PREFIX/share/man/man1/clipbridge.1,
# PREFIX/share/bash-completion/completions/clipbridge, PREFIX/share/zsh/site-functions/_clipbridge,
# PREFIX/share/fish/vendor_completions.d/clipbridge.fish, the daemon's systemd user unit
# PREFIX/lib/systemd/user/clipbridge-daemon.service and its XDG autostart entry
# PREFIX/share/clipbridge/clipbridge-daemon.desktop (copy it to ~/.config/autostart to use it). SWIFT_SCRATCH_PATH (default .build) is where swift
# builds, as for the other scripts.
set -euo pipefail
cd "$(dirname "$0")/.."

uninstall=0
if [ "${1:-}" = --uninstall ]; then uninstall=1; shift; fi
prefix=${1:?usage: scripts/install.sh [--uninstall] PREFIX}
scratch=${SWIFT_SCRATCH_PATH:-.build}

files=(
    "bin/clipbridge"
    "share/man/man1/clipbridge.1"
    "share/bash-completion/completions/clipbridge"
    "share/zsh/site-functions/_clipbridge"
    "share/fish/vendor_completions.d/clipbridge.fish"
    "lib/systemd/user/clipbridge-daemon.service"
    "share/clipbridge/clipbridge-daemon.desktop"
)

if [ $uninstall = 1 ]; then
    for file in "${files[@]}"; do
        [ -e "$prefix/$file" ] && rm -f "$prefix/$file" && echo "removed $prefix/$file"
    done
    exit 0
fi

echo "building clipbridge (release, static Swift runtime)" >&2
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product clipbridge >&2
binary="$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/clipbridge"

echo "generating the man page (swift package generate-manual)" >&2
# The plugin runs `clipbridge --experimental-dump-help` on a build of its own configuration (debug: the one the
# tests already built) and writes the page under the scratch path.
swift package --scratch-path "$scratch" generate-manual --configuration debug >&2
page="$scratch/plugins/GenerateManual/outputs/clipbridge/clipbridge.1"
[ -s "$page" ] || { echo "install: the man page was not generated" >&2; exit 1; }

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
    "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d" "$prefix/lib/systemd/user" \
    "$prefix/share/clipbridge"
install -m 755 "$binary" "$prefix/bin/clipbridge"
install -m 644 "$page" "$prefix/share/man/man1/clipbridge.1"
"$binary" --generate-completion-script bash >"$prefix/share/bash-completion/completions/clipbridge"
"$binary" --generate-completion-script zsh >"$prefix/share/zsh/site-functions/_clipbridge"
"$binary" --generate-completion-script fish >"$prefix/share/fish/vendor_completions.d/clipbridge.fish"
# The unit and the autostart entry name the installed binary (without DESTDIR, where it will run from).
bindir="${INSTALL_BINDIR:-$prefix/bin}"
sed "s|@BINDIR@|$bindir|g" Packaging/clipbridge-daemon.service.in >"$prefix/lib/systemd/user/clipbridge-daemon.service"
sed "s|@BINDIR@|$bindir|g" Packaging/clipbridge-daemon.desktop.in >"$prefix/share/clipbridge/clipbridge-daemon.desktop"
chmod 644 "$prefix/lib/systemd/user/clipbridge-daemon.service" "$prefix/share/clipbridge/clipbridge-daemon.desktop"
for file in "${files[@]}"; do echo "installed $prefix/$file"; done
