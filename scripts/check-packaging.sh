#!/usr/bin/env bash
# Part of `make test`: what a user of the package meets beyond the tests.
#   1. The DocC catalogs build, with warnings as failures (swift-docc-plugin).
#   2. Fixtures/ExamplePackage, a package outside this one depending on its products by path, builds, and
#      copies and pastes a Transferable value through a private Xvfb.
#   3. `make install PREFIX=…` installs the binary, the man page, the completions, the daemon's systemd user
#      unit and autostart entry (naming the installed binary), and `make uninstall` removes them.
# SWIFT_SCRATCH_PATH (default .build) is where swift builds, as for scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${SWIFT_SCRATCH_PATH:-.build}
work=$(mktemp -d "${TMPDIR:-/tmp}/clipbridge-packaging.XXXXXX")
xvfb_pid=""
cleanup() {
    if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; wait "$xvfb_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
step() { printf '\n==> %s\n' "$*"; }

step "documentation: every DocC catalog, warnings as errors"
mkdir -p "$work/docs"
for catalog in Sources/*/*.docc; do
    target=$(basename "$(dirname "$catalog")")
    swift package --scratch-path "$scratch" --allow-writing-to-directory "$work/docs" \
        generate-documentation --target "$target" --warnings-as-errors --output-path "$work/docs/$target" >/dev/null
    echo "  $target: ok"
done

step "Fixtures/ExamplePackage: the products used from another package"
swift build --package-path Fixtures/ExamplePackage --scratch-path "$scratch-example"
mkfifo "$work/displayfd"
Xvfb -displayfd 3 -nolisten tcp 3>"$work/displayfd" >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
read -r -t 20 number <"$work/displayfd" || { cat "$work/xvfb.log" >&2; echo "Xvfb did not start" >&2; exit 1; }
example="$(swift build --package-path Fixtures/ExamplePackage --scratch-path "$scratch-example" --show-bin-path)/ClipboardExample"
output=$(DISPLAY=":$number" timeout 60 "$example")
echo "  $output"
grep -q "pasted 1 note(s), equal: true" <<<"$output" || { echo "the example did not round-trip its note" >&2; exit 1; }
grep -q "image round trip: true, exported as public.jpeg" <<<"$output" || { echo "the example's image round trip failed" >&2; exit 1; }

step "make install / make uninstall"
prefix="$work/prefix"
make --no-print-directory install PREFIX="$prefix" >/dev/null
for file in bin/clipbridge share/man/man1/clipbridge.1 share/bash-completion/completions/clipbridge \
    share/zsh/site-functions/_clipbridge share/fish/vendor_completions.d/clipbridge.fish \
    lib/systemd/user/clipbridge-daemon.service share/clipbridge/clipbridge-daemon.desktop; do
    [ -s "$prefix/$file" ] || { echo "make install did not install $file" >&2; exit 1; }
done
"$prefix/bin/clipbridge" --version
grep -qE '^\.(TH|Dt) ' "$prefix/share/man/man1/clipbridge.1" || { echo "clipbridge.1 is not a man page" >&2; exit 1; }
grep -q "paste" "$prefix/share/man/man1/clipbridge.1" || { echo "clipbridge.1 lacks the subcommands" >&2; exit 1; }
grep -qx "ExecStart=$prefix/bin/clipbridge daemon" "$prefix/lib/systemd/user/clipbridge-daemon.service" \
    || { echo "the systemd unit does not run the installed binary" >&2; exit 1; }
grep -qx "Exec=$prefix/bin/clipbridge daemon" "$prefix/share/clipbridge/clipbridge-daemon.desktop" \
    || { echo "the autostart entry does not run the installed binary" >&2; exit 1; }
make --no-print-directory uninstall PREFIX="$prefix" >/dev/null
[ -z "$(find "$prefix" -type f)" ] || { echo "make uninstall left files behind" >&2; exit 1; }
echo "  installed and removed: ok"
