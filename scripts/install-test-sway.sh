#!/usr/bin/env bash
# A newer sway for the tests of ext-data-control-v1 (issue 30). Debian 12's sway 1.7 (wlroots 0.15) offers only
# wlr-data-control; ext_data_control_manager_v1 came with wlroots 0.19. This unpacks sway and every library it needs
# from Debian's next release (forky; unstable when forky cannot be had) into one folder, without installing any of
# it: nothing of the system changes, and the tests run that sway with the folder's own dynamic loader
# (SwayServer.Build.forky). Idempotent; run by install-deps.sh. The folder: $CLIPBRIDGE_TEST_SWAY, by default
# /opt/clipbridge-tests/sway-forky.
set -euo pipefail

target=${CLIPBRIDGE_TEST_SWAY:-/opt/clipbridge-tests/sway-forky}
[ -x "$target/usr/bin/sway" ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fetch SUITE: downloads sway and its whole closure from SUITE into $work (apt with a state of its own: the suite's
# package lists, an empty dpkg status so that everything is fetched, libc included, and Debian's archive keys — the
# suites after Debian 12 are signed with the trixie key, which Debian 12's keyring has).
fetch() {
    rm -rf "$work/apt"
    mkdir -p "$work"/apt/etc/apt/sources.list.d "$work"/apt/etc/apt/preferences.d "$work"/apt/var/lib/apt/lists/partial \
        "$work"/apt/var/cache/apt/archives/partial "$work"/apt/var/lib/dpkg
    touch "$work/apt/var/lib/dpkg/status"
    cat > "$work/apt/etc/apt/sources.list.d/$1.sources" <<SOURCES
Types: deb
URIs: http://deb.debian.org/debian
Suites: $1
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
    local apt=(apt-get -qq -o Dir="$work/apt" -o Dir::State::status="$work/apt/var/lib/dpkg/status"
        -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$work/apt/etc/apt/sources.list.d"
        -o Dir::Etc::Preferences=/dev/null -o APT::Install-Recommends=false -o Debug::NoLocking=1
        -o APT::Sandbox::User=root)
    "${apt[@]}" update && "${apt[@]}" install --download-only -y sway >/dev/null
}

# forky (testing) first; a testing suite is sometimes mid-transition, so unstable is the fallback. Both have sway
# on wlroots 0.19 or later.
fetched=""
for suite in forky sid; do
    echo "fetching sway from Debian $suite into $target (the ext-data-control tests)" >&2
    if fetch "$suite"; then fetched=$suite; break; fi
    echo "sway from Debian $suite could not be fetched" >&2
done
[ -n "$fetched" ] || { echo "install-test-sway.sh: no sway with ext-data-control could be fetched" >&2; exit 1; }

$sudo mkdir -p "$(dirname "$target")"
$sudo rm -rf "$target.new"
$sudo mkdir -m 755 "$target.new"
for deb in "$work"/apt/var/cache/apt/archives/*.deb; do $sudo dpkg-deb -x "$deb" "$target.new"; done
$sudo chmod 755 "$target.new"
"$target.new/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$target.new/usr/lib/x86_64-linux-gnu" \
    "$target.new/usr/bin/sway" --version >&2
$sudo rm -rf "$target"
$sudo mv "$target.new" "$target"
