#!/usr/bin/env bash
# A newer sway for the tests of ext-data-control-v1 (issue 30). Debian 12's sway 1.7 (wlroots 0.15) offers only
# wlr-data-control; ext_data_control_manager_v1 came with wlroots 0.19. This unpacks sway and every library it needs
# from Debian's next release (forky) into one folder, without installing any of it: nothing of the system changes,
# and the tests run that sway with the folder's own dynamic loader (SwayServer.Build.forky). Idempotent; run by
# install-deps.sh. The folder: $CLIPBRIDGE_TEST_SWAY, by default /opt/clipbridge-tests/sway-forky.
set -euo pipefail

target=${CLIPBRIDGE_TEST_SWAY:-/opt/clipbridge-tests/sway-forky}
suite=forky
[ -x "$target/usr/bin/sway" ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# apt with a state of its own: forky's package lists, an empty dpkg status (so the whole closure is fetched, libc
# included), Debian's archive keys (forky is signed with the trixie key, which Debian 12's keyring has).
mkdir -p "$work"/etc/apt/sources.list.d "$work"/etc/apt/preferences.d "$work"/var/lib/apt/lists/partial \
    "$work"/var/cache/apt/archives/partial "$work"/var/lib/dpkg
touch "$work/var/lib/dpkg/status"
cat > "$work/etc/apt/sources.list.d/$suite.sources" <<SOURCES
Types: deb
URIs: http://deb.debian.org/debian
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
apt=(apt-get -qq -o Dir="$work" -o Dir::State::status="$work/var/lib/dpkg/status" -o Dir::Etc::SourceList=/dev/null
    -o Dir::Etc::SourceParts="$work/etc/apt/sources.list.d" -o Dir::Etc::Preferences=/dev/null
    -o APT::Install-Recommends=false -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
echo "fetching sway from Debian $suite into $target (the ext-data-control tests)" >&2
"${apt[@]}" update
"${apt[@]}" install --download-only -y sway >/dev/null
$sudo mkdir -p "$(dirname "$target")"
$sudo rm -rf "$target.new"
$sudo mkdir -m 755 "$target.new"
for deb in "$work"/var/cache/apt/archives/*.deb; do $sudo dpkg-deb -x "$deb" "$target.new"; done
$sudo chmod 755 "$target.new"
"$target.new/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$target.new/usr/lib/x86_64-linux-gnu" \
    "$target.new/usr/bin/sway" --version >&2
$sudo rm -rf "$target"
$sudo mv "$target.new" "$target"
