#!/usr/bin/env bash
# Builds ClipBridge's fuzz targets (the package in Fuzz/, libFuzzer + AddressSanitizer) and runs each for a
# while over a copy of its seed corpus (Fuzz/Corpus/<target>), so CI never writes into the repository.
#
#   scripts/fuzz.sh [--merge] [SECONDS] [TARGET...]
#
# SECONDS per target (default 10); TARGETs by name (fuzz-bmp, or just bmp; default: all). Exits non-zero when
# a fuzzer finds a crash, a broken invariant, a leak, a timeout or an out-of-memory input, after printing the
# input's path and bytes (hex). Prints, per target, the inputs executed and the seconds fuzzed, and the total.
#
# --merge (for developers): afterwards, adds the inputs that reached new coverage to Fuzz/Corpus/<target>
# (libFuzzer's -merge=1 keeps only those); review and commit them.
#
# Environment: FUZZ_ARTIFACT_DIR (default Fuzz/.build/fuzz-artifacts) keeps crashing inputs;
# FUZZ_DETECT_LEAKS=0 turns LeakSanitizer off (it is on where it works: it needs ptrace, which some containers
# forbid; the script checks and says so). The build takes the lock /tmp/clipbridge-build.lock, so it never
# runs beside another build of the project on this machine (CLIPBRIDGE_BUILD_LOCK_HELD=1: the caller holds it).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

merge=0
seconds=10
targets=()
for argument in "$@"; do
    case "$argument" in
        --merge) merge=1 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        ''|*[!0-9]*) targets+=("fuzz-${argument#fuzz-}") ;;
        *) seconds=$argument ;;
    esac
done

# Each target with its -max_len: room for what it parses (an image within the 256 × 256 pixel cap, a
# configuration file, an event sequence), small enough that libFuzzer explores rather than grows inputs.
declare -A max_len=(
    [fuzz-bmp]=8192 [fuzz-netpbm]=4096 [fuzz-image-decoder]=8192 [fuzz-daemon-settings]=4096
    [fuzz-declarations]=4096 [fuzz-shared-mime-info]=8192 [fuzz-dropped-content]=2048 [fuzz-html-text]=32768
    [fuzz-color-text]=64 [fuzz-properties]=2048 [fuzz-xdnd-messages]=64 [fuzz-read-machine]=4096
    [fuzz-xdnd-machines]=2048 [fuzz-history-entry]=4096 [fuzz-history-sealed]=4096 [fuzz-link-decoder]=8192
)
all=(
    fuzz-bmp fuzz-netpbm fuzz-image-decoder fuzz-daemon-settings fuzz-declarations fuzz-shared-mime-info
    fuzz-dropped-content fuzz-html-text fuzz-color-text fuzz-properties fuzz-xdnd-messages fuzz-read-machine
    fuzz-xdnd-machines fuzz-history-entry fuzz-history-sealed fuzz-link-decoder
)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for target in "${targets[@]}"; do
    [ -n "${max_len[$target]:-}" ] || { echo "fuzz.sh: unknown target $target (known: ${all[*]})" >&2; exit 64; }
done

# The build: debug (SwiftPM then enables testability, which the targets' @testable imports need), every Swift
# module instrumented. ld.gold warns once per AddressSanitizer symbol it cannot export (hundreds of lines per
# link, harmless): those lines are dropped.
echo "==== building the fuzz targets ($(date -u +%H:%M:%S))"
build_start=$(date +%s)
# The machine-wide build lock (one build at a time on 2 cores). A caller that already holds it (a `flock` around
# `make test`) sets CLIPBRIDGE_BUILD_LOCK_HELD=1, or this would wait for itself; the wait is bounded anyway.
lock=(flock -w 3600 /tmp/clipbridge-build.lock)
{ command -v flock >/dev/null && [ "${CLIPBRIDGE_BUILD_LOCK_HELD:-0}" != 1 ]; } || lock=()
"${lock[@]}" swift build -c debug --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 \
    | grep -v "warning: Cannot export local symbol"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || { echo "fuzz.sh: the build failed ($status)" >&2; exit "$status"; }
bin=$root/Fuzz/.build/debug
echo "built in $(( $(date +%s) - build_start )) s"

work=$(mktemp -d -t clipbridge-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
artifacts=${FUZZ_ARTIFACT_DIR:-$root/Fuzz/.build/fuzz-artifacts}
mkdir -p "$artifacts"

# The Swift runtime's backtracer and AddressSanitizer's handlers fight over a crash (the backtracer reads the
# stack ASan poisons): libFuzzer's own handler prints the stack instead.
export SWIFT_BACKTRACE=enable=no
# LeakSanitizer stops the process's threads with ptrace; where that is forbidden it fails every run.
detect_leaks=${FUZZ_DETECT_LEAKS:-1}
if [ "$detect_leaks" = 1 ]; then
    probe_out=$(ASAN_OPTIONS=detect_leaks=1 "$bin/fuzz-color-text" -runs=1 2>&1)
    if grep -q "LeakSanitizer has encountered a fatal error\|LeakSanitizer does not work under ptrace" <<<"$probe_out"; then
        echo "fuzz.sh: LeakSanitizer cannot run here (no ptrace); leaks are not checked" >&2
        detect_leaks=0
    fi
fi
export ASAN_OPTIONS="detect_leaks=$detect_leaks:allocator_may_return_null=1:handle_abort=1"
# A leak in FoundationEssentials, not ours (see Fuzz/lsan-suppressions.txt).
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan-suppressions.txt:print_suppressions=0"
# Scratch files of the targets that parse files (declarations, shared-mime-info) go here.
export TMPDIR="$work"

failed=()
total_seconds=0
total_execs=0
summary=()
for target in "${targets[@]}"; do
    corpus="$work/corpus-$target"
    mkdir -p "$corpus"
    [ -d "Fuzz/Corpus/$target" ] && cp -R "Fuzz/Corpus/$target/." "$corpus/"
    log="$work/$target.log"
    # The tokens of its format, for the text parsers (libFuzzer splices them in).
    dict=()
    [ -f "Fuzz/Dictionaries/$target.dict" ] && dict=(-dict="$root/Fuzz/Dictionaries/$target.dict")
    echo "==== $target: ${seconds} s, -max_len=${max_len[$target]}, $(find "$corpus" -type f | wc -l) seed inputs"
    started=$(date +%s.%N)
    ( cd "$work" && exec "$bin/$target" "$corpus" -max_total_time="$seconds" -max_len="${max_len[$target]}" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/$target-" "${dict[@]}" ) >"$log" 2>&1
    status=$?
    elapsed=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    execs=${execs:-0}
    # The lines that matter: coverage at the end, and anything that went wrong.
    grep -E "^#[0-9]+.*(DONE|pulse)|INITED|stat::" "$log" | tail -4
    total_execs=$((total_execs + execs))
    total_seconds=$(awk -v a="$total_seconds" -v b="$elapsed" 'BEGIN { printf "%.1f", a + b }')
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
        echo "---- $target FAILED (exit $status):"
        grep -E -A40 "INVARIANT BROKEN|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|Fatal error|deadly signal|==[0-9]+==ERROR" "$log" \
            | grep -v "^\s*$" | head -60
        for artifact in $(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log"); do
            echo "input: $artifact ($(wc -c <"$artifact") bytes)"
            echo "hex:   $(head -c 4096 "$artifact" | xxd -p | tr -d '\n')"
            echo "rerun: $bin/$target $artifact"
        done
        cp "$log" "$artifacts/$target.log"
        echo "log:   $artifacts/$target.log"
    fi
    summary+=("$(awk -v t="$target" -v n="$execs" -v s="$elapsed" -v r="$([ "$status" -eq 0 ] && echo ok || echo FAILED)" \
        'BEGIN { printf "%-24s %12d execs %8.1f s %10.0f execs/s  %s", t, n, s, n / (s + 0.001), r }')")
    if [ "$merge" = 1 ] && [ "$status" -eq 0 ]; then
        mkdir -p "Fuzz/Corpus/$target"
        before=$(find "Fuzz/Corpus/$target" -type f | wc -l)
        ( cd "$work" && "$bin/$target" -merge=1 -max_len="${max_len[$target]}" -timeout=10 "$root/Fuzz/Corpus/$target" "$corpus" ) \
            >"$work/$target.merge.log" 2>&1 || echo "fuzz.sh: merging $target failed (see $work/$target.merge.log)" >&2
        echo "merged: $(( $(find "Fuzz/Corpus/$target" -type f | wc -l) - before )) new inputs in Fuzz/Corpus/$target"
    fi
done

echo
echo "==== fuzzing summary (leak detection: $([ "$detect_leaks" = 1 ] && echo on || echo off))"
printf '%s\n' "${summary[@]}"
awk -v n="$total_execs" -v s="$total_seconds" \
    'BEGIN { printf "total: %d execs in %.1f s = %.4f CPU-hours (one core per target)\n", n, s, s / 3600 }'
if [ ${#failed[@]} -gt 0 ]; then
    echo "FAILED: ${failed[*]} (inputs in $artifacts; a crash becomes a regression input in Fuzz/Corpus/<target>, see Fuzz/README.md)"
    exit 1
fi
echo "fuzz targets: ${#targets[@]} clean, none failing"
