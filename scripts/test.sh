#!/usr/bin/env bash
# Builds and runs every test. When a test fails, the failures are printed again at the end: with
# `--parallel` the lines that say what failed sit among hundreds of others, and a CI log is often
# read from its tail only.
#
#   scripts/test.sh            everything (`make test`, what CI runs): the build and the fresh-machine check of what it
#                              compiled against, every suite, the check of every program the tests started, DocC, the
#                              outside package, install, fuzzing; the time of each phase at the end
#   scripts/test.sh --check    the edit-test loop (`make check`): the unit and Xvfb suites, without the suites that
#                              drive desktop applications or compositors ($desktop below), DocC and fuzzing
#   scripts/test.sh ARGS…      `swift test` with these arguments (e.g. --filter FileTransferTests)
#
# SWIFT_SCRATCH_PATH (default .build) is where swift builds, as for Benchmarks/run.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
scratch=${SWIFT_SCRATCH_PATH:-.build}

# The suites that start a desktop application (LibreOffice, the browsers, PCManFM, CopyQ, xfsettingsd, the Secret
# Service, Emacs, Tk, Java) or a compositor (sway, KWin, Weston with XWayland): left out of `make check`, always in `make test`.
# (The suites that run alone, below, are all among them.)
desktop_in_parallel='RemoteBridgeTests|WaylandBridgeTests|WaylandPairBridgeTests|WaylandPasteTests|WaylandCopyTests|WaylandDaemonTests|WaylandHostilePeerTests|WaylandKWinTests|WaylandWatchTests|WaylandReadTests|WaylandConnectionTests|FileManagerTests|ClipboardManagerPeerTests|DaemonManagerTests|HistoryEncryptionTests'
mode=full
if [ "${1:-}" = "--check" ]; then mode=check; shift; fi
[ $# -eq 0 ] || mode=filtered

phases=()
phase_started=$SECONDS
# Ends the phase that began at the previous call (or at the start): its name and seconds go to the summary.
phase() { phases+=("$(printf '%-44s %5d s' "$1" $((SECONDS - phase_started)))"); phase_started=$SECONDS; }
summary() {
    echo
    echo "==== where the time went ===="
    printf '%s\n' "${phases[@]}"
    printf '%-44s %5d s\n' "total" "$SECONDS"
}

swift build --build-tests --scratch-path "$scratch" || exit $?
phase "build (the package and its tests)"
# A fresh machine must have every header, library and program this machine used: the packages come from
# scripts/install-deps.sh, and CI's machine may hold some installed by hand (issue 37, libwayland-dev).
if [ $mode = full ]; then
    scripts/check-install-deps.py --build "$scratch" || exit $?
    phase "fresh-machine check: headers, libraries"
fi

log=$(mktemp -t clipbridge-tests.XXXXXX)
spawned=$(mktemp -t clipbridge-spawned.XXXXXX)
trap 'rm -f "$log" "$spawned"' EXIT
# Every program a test starts is written here (Tests/ClipBridgeTestSupport/Process/SpawnLog.swift).
export CLIPBRIDGE_SPAWN_LOG=$spawned
# At most two test cases at once (Swift Testing's default is twice the CPUs): the X11 tests each run Xvfb, peers and
# transfers of their own, and on a 2-CPU machine four at once starve the ones that bound a time. Tried again for issue
# 39, once the sleeps that stood for events were gone: `make check` passed at four (897 tests, 116 s), but the whole
# suite did not — beside sway and KWin, a decoy paste's 3 s bound took 9.4 s, a loan's 500 ms hand-back ran over, an
# X → Wayland bridge's paste timed out. SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH set by the caller wins.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-2}
# Suites with a desktop application that starves under the parallel run's load run alone afterwards: LibreOffice
# Writer refuses drops (from GTK 4's drag source as from ours) while its CPU is taken by other tests, and the
# browsers take long to start. And sway's XWayland: wlroots numbers it only within :0–:32 (xwayland/sockets.c), which
# the parallel run's Xvfb servers can all hold. And Tk and Java reading 18 MB copies (a JVM start each): beside them,
# the daemon's 50 MiB snapshot read of the SIGKILL test ran past its bound once.
alone='LibreOfficeDragTests|BrowserDropTests|WaylandFixtureTests|XWaylandBridgeTests|LegacyReaderTests'
desktop="$alone|$desktop_in_parallel"
skip=$alone
[ $mode = check ] && skip=$desktop
swift test --skip-build --scratch-path "$scratch" --parallel --skip "$skip" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
phase "suites in parallel"
if [ $mode = full ] || { [ $mode = filtered ] && printf '%s\n' "$@" | grep -qE "$alone"; }; then
    # One test at a time: Swift Testing runs tests in parallel without --parallel too, and on a fresh machine (cold
    # caches) Writer beside a starting browser or compositor refused every drop.
    SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 \
        swift test --skip-build --scratch-path "$scratch" --filter "$alone" 2>&1 | tee -a "$log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    phase "suites alone (${alone//|/, })"
fi
if [ "$status" -ne 0 ]; then
    echo
    echo "==== what failed (repeated from above) ===="
    # Swift Testing: "✘ Test … recorded an issue at File.swift:L:C: …" and its indented details;
    # XCTest: "error: …"; a crash: "Fatal error" / signal lines.
    grep -E -A6 'recorded an issue|✘ Test .* failed|error:|Fatal error|signal code|Unexpected signal' "$log" \
        | grep -v -E '^\s*$' | head -200
fi
if [ $mode = full ]; then
    # After a failure too: a program missing on a fresh machine is often why a test failed there.
    scripts/check-install-deps.py --spawn-log "$spawned" || status=1
    phase "fresh-machine check: programs the tests started"
fi
[ "$status" -eq 0 ] || { summary; exit "$status"; }
# A filtered run and `make check` stop here; the whole `make test` checks the packaging and fuzzes too.
[ $mode = full ] || { summary; exit 0; }
scripts/check-packaging.sh || exit $?
phase "packaging: DocC, the outside package, install"
# The fuzz targets (Fuzz/README.md): built with libFuzzer and AddressSanitizer, then 10 s each over a copy of each
# committed corpus, whose regression inputs (every crash once found) run first.
scripts/fuzz.sh 10 || exit $?
phase "fuzzing: 10 s a target"
summary
