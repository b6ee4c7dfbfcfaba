#!/usr/bin/env bash
# make demo: a real clipboard round trip with clipbridge. Builds the CLI (release), then on $DISPLAY — or on
# a private Xvfb started here when DISPLAY is unset — copies a typed item (a JSON note with a plain-text
# fallback), lists what the clipboard offers, and pastes both representations back through xclip, an
# independent X client. Everything it does is printed.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }

# SWIFT_SCRATCH_PATH (default .build) is where swift build works, as for Benchmarks/run.sh.
scratch=${SWIFT_SCRATCH_PATH:-.build}
step "building clipbridge (swift build -c release --product clipbridge)"
swift build -c release --scratch-path "$scratch" --product clipbridge >&2
cb="$(cd "$(swift build -c release --scratch-path "$scratch" --show-bin-path)" && pwd)/clipbridge"
clipbridge() { "$cb" "$@"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/clipbridge-demo.XXXXXX")
xvfb_pid=""
cleanup() {
    cd /
    if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; wait "$xvfb_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

if [ -z "${DISPLAY:-}" ]; then
    step "DISPLAY is not set: starting a private Xvfb (Xvfb -displayfd)"
    mkfifo "$work/displayfd"
    Xvfb -displayfd 3 -nolisten tcp 3>"$work/displayfd" >"$work/xvfb.log" 2>&1 &
    xvfb_pid=$!
    if ! read -r -t 10 number <"$work/displayfd" || [ -z "$number" ]; then
        cat "$work/xvfb.log" >&2
        echo "Xvfb did not start" >&2
        exit 1
    fi
    export DISPLAY=":$number"
    echo "using DISPLAY=$DISPLAY (stopped when the demo ends)"
else
    step "using your display, DISPLAY=$DISPLAY (the demo replaces your clipboard content)"
fi

cd "$work"
cat >note.json <<'JSON'
{"title": "Groceries", "items": ["eggs", "milk", "bread"], "due": "2026-11-22"}
JSON
printf 'Groceries: eggs, milk, bread (due 2026-11-22)\n' >note.txt
echo "clipbridge is $cb; working in $work"

step "copy a typed item: the JSON note first, a plain-text fallback second (the copy returns at once)"
show clipbridge copy --add application/json=note.json --add text/plain=note.txt

step "what the clipboard offers, richest first, with each target's UTType"
show clipbridge paste --list-types

step "paste it back through xclip: the JSON representation"
show xclip -selection clipboard -o -t application/json
xclip -selection clipboard -o -t application/json | cmp -s - note.json || { echo "MISMATCH: the JSON differs" >&2; exit 1; }

step "paste it back through xclip: the text an editor or terminal gets"
show xclip -selection clipboard -o
xclip -selection clipboard -o | cmp -s - note.txt || { echo "MISMATCH: the text differs" >&2; exit 1; }

step "what ClipBridge knows about the type"
show clipbridge type application/json

step "round trip OK: both representations came back byte-exact through xclip"
