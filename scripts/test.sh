#!/usr/bin/env bash
# Builds and runs every test. When a test fails, the failures are printed again at the end: with
# `--parallel` the lines that say what failed sit among hundreds of others, and a CI log is often
# read from its tail only.
# Arguments go to `swift test` (e.g. --filter FileTransferTests); SWIFT_SCRATCH_PATH (default .build)
# is where swift builds, as for Benchmarks/run.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
scratch=${SWIFT_SCRATCH_PATH:-.build}

swift build --build-tests --scratch-path "$scratch" || exit $?

log=$(mktemp -t clipbridge-tests.XXXXXX)
trap 'rm -f "$log"' EXIT
# At most two test cases at once (Swift Testing's default is twice the CPUs): the X11 tests each run Xvfb, peers and
# transfers of their own, and on a 2-CPU machine four at once starved the ones that bound a time (a loan's 500 ms, a
# cancellation's 2 s) — they failed there, and passed with two. SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH set
# by the caller wins.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-2}
# Suites with a desktop application that starves under the parallel run's load run alone afterwards: LibreOffice
# Writer refuses drops (from GTK 4's drag source as from ours) while its CPU is taken by other tests, and the
# browsers take long to start. And sway's XWayland: wlroots numbers it only within :0–:32 (xwayland/sockets.c), which
# the parallel run's Xvfb servers can all hold.
alone='LibreOfficeDragTests|BrowserDropTests|WaylandFixtureTests|XWaylandBridgeTests'
swift test --skip-build --scratch-path "$scratch" --parallel --skip "$alone" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ $# -eq 0 ] || printf '%s\n' "$@" | grep -qE "$alone"; then
    swift test --skip-build --scratch-path "$scratch" --filter "$alone" 2>&1 | tee -a "$log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi
if [ "$status" -ne 0 ]; then
    echo
    echo "==== what failed (repeated from above) ===="
    # Swift Testing: "✘ Test … recorded an issue at File.swift:L:C: …" and its indented details;
    # XCTest: "error: …"; a crash: "Fatal error" / signal lines.
    grep -E -A6 'recorded an issue|✘ Test .* failed|error:|Fatal error|signal code|Unexpected signal' "$log" \
        | grep -v -E '^\s*$' | head -200
    exit "$status"
fi
# With arguments (a filtered run) only the tests; the whole `make test` checks the packaging too.
[ $# -eq 0 ] || exit 0
scripts/check-packaging.sh || exit $?
# The fuzz targets (Fuzz/README.md): built with libFuzzer and AddressSanitizer, then 10 s each over a copy of each
# committed corpus, whose regression inputs (every crash once found) run first.
scripts/fuzz.sh 10
