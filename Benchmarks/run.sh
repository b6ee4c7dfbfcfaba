#!/usr/bin/env bash
# ClipBridge benchmarks: X11Selection between two processes, side by side with a minimal C Xlib pair (the
# ceiling) and with xclip, on a private Xvfb this script starts itself. Figures are medians.
#
#   Benchmarks/run.sh [--quick] [--only SECTION[,SECTION...]]
#
# Sections (in order): throughput, latency, watch, rss, cli, readers, scaling, manager, history, images, bridge, wayland, remote, dnd. `cli` (issue 5: `clipbridge
# copy/paste` against `xclip -i/-o`), `readers` (GTK 4, Qt 5 and python-xlib reading 50 MiB from `clipbridge
# copy` and from `xclip -i`) and `scaling` (peer-chosen sizes: MULTIPLE and TARGETS at 10k, 100k and 1M items)
# and `manager` (issue 14: a GTK 3 app's SAVE_TARGETS handover of 1 MiB and 50 MiB to `clipbridge daemon` and to
# Xfce's xfsettingsd; the daemon's idle CPU and its RSS while holding 50 MiB) and `history` (issue 28, in
# Benchmarks/history.sh: the history against CopyQ — a copy until it reads back, 10,000 entries listed and searched,
# a 50 MiB entry restored and read by GTK 4, the daemon's RSS over a 1 GiB history) and `images` (issue 15: a 3840×2160
# screenshot PNG → JPEG and JPEG → PNG pasted through `clipbridge paste -t`, against ImageMagick's `convert` and
# the raw libpng/libjpeg-turbo calls in C; peak RSS of the paste) and `bridge` (issue 16: `xclip -o` of 16 B and
# 50 MiB across `clipbridge bridge` to a second Xvfb, against the same paste on the owner's display; the
# bridge's peak RSS) and `wayland` (issue 30: 16 B and 50 MiB pasted across `clipbridge bridge` between the Xvfb and
# sway headless, both ways, against the same paste within one side; the bridge's peak RSS; and issue 40, in
# Benchmarks/wayland-native.sh: copy, paste and the history natively on sway against wl-clipboard) and `remote` (issue 41,
# in Benchmarks/remote.sh: 16 B and 50 MiB across `clipbridge bridge … ssh:` to a second Xvfb behind sshd on loopback,
# against `ssh cat` of the same bytes and the same paste on one display; both bridges' RSS after 20 × 50 MiB) and `dnd` (issue 13: XdndDrop to the last byte in a GTK 4 drop handler, 16 B and 50 MiB,
# from `clipbridge drag` and from a GTK 4 drag source) run only when the `clipbridge` executable builds. `--quick` does fewer runs (a smoke test).
#
# Environment: SWIFT_SCRATCH_PATH (default .build) for `swift build`; BENCH_STATIC=0 to link the Swift
# runtime dynamically (default: --static-swift-stdlib, as a shipped binary would be); CLIPBRIDGE_BIN to use an
# already built `clipbridge`.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
scratch=${SWIFT_SCRATCH_PATH:-$root/.build}
quick=0
only="throughput,latency,watch,rss,cli,readers,scaling,manager,history,images,bridge,wayland,remote,dnd"
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1 ;;
        --only) only=$2; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
wants() { [[ ",$only," == *",$1,"* ]]; }

if [ $quick -eq 1 ]; then
    runs64=2; runs512=1; latency_count=200; latency_runs=2; watch_count=100; watch_runs=1; process_runs=20
else
    runs64=11; runs512=5; latency_count=1000; latency_runs=15; watch_count=300; watch_runs=3; process_runs=100
fi

# --- Scaffolding --------------------------------------------------------------------------------------------

work=$(mktemp -d "${TMPDIR:-/tmp}/clipbridge-bench.XXXXXX")
background=()
xvfb_pid=""
cleanup() {
    for pid in "${background[@]}"; do kill "$pid" 2>/dev/null || true; done
    if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; wait "$xvfb_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
trap 'note "run.sh: line $LINENO failed: $BASH_COMMAND"' ERR

note() { printf '%s\n' "$*" >&2; }
die() { note "run.sh: $*"; exit 1; }

# wait_beyond FILE TEXT COUNT SECONDS: until FILE has more than COUNT lines holding TEXT (a bridge's next "bridged").
wait_beyond() {
    local deadline=$((SECONDS + $4))
    until [ "$(grep -c "$2" "$1" || true)" -gt "$3" ]; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.01
    done
}

# wait_for FILE REGEX SECONDS [OTHER_FILE]: until a line of FILE (or of OTHER_FILE) matches REGEX.
wait_for() {
    local deadline=$((SECONDS + $3))
    until grep -qE "$2" "$1" ${4:+"$4"} 2>/dev/null; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.01
    done
}

# start NAME COMMAND...: runs COMMAND in the background (stdout NAME.out, stderr NAME.err); sets $started.
start() {
    local name=$1; shift
    "$@" >"$work/$name.out" 2>"$work/$name.err" &
    started=$!
    background+=("$started")
}

# stop PID: SIGTERM, and reap.
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

# start_owner NAME READY_REGEX STDIN COMMAND...: a selection owner, once it says it owns the selection.
start_owner() {
    local name=$1 ready=$2 input=$3; shift 3
    "$@" <"$input" >"$work/$name.out" 2>"$work/$name.err" &
    started=$!
    background+=("$started")
    # xclip -quiet says it serves on stderr; the benchmark programs print READY on stdout.
    if ! wait_for "$work/$name.out" "$ready" "${ready_timeout:-60}" "$work/$name.err"; then
        note "$name did not become ready:"; cat "$work/$name.err" >&2; return 1
    fi
}

# median VALUES...: the (lower) median, "nan" values (failed runs) left out.
median() { printf '%s\n' "$@" | awk '$1 != "nan" && $1 != ""' | sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "nan" }'; }
# field LINE KEY: the value of KEY=VALUE in LINE. (No `| head`: with pipefail, SIGPIPE would fail the script.)
field() { awk -v key="$2" '{ for (i = 1; i <= NF; i++) if (index($i, key "=") == 1) { print substr($i, length(key) + 2); exit } }' <<<"$1"; }
now_ns() { date +%s%N; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b == "nan" || b == 0) print "-"; else printf "%.2f×", a / b }'; }

# interleaved ROUNDS PER [-i INPUT]: runs peer_command and our_command alternately, a batch of PER each per round, so
# that load from anything else on the machine falls on both alike; sets peer_ms and our_ms (the medians of the
# per-round medians) and ratio_x (the median of the per-round ratios).
interleaved() {
    local rounds=$1 per=$2; shift 2
    local rows=$work/interleaved.txt
    : >"$rows"
    for ((round = 0; round < rounds; round++)); do
        local p o
        p=$("$cbin/benchrun" -n "$per" "$@" -- "${peer_command[@]}")
        o=$("$cbin/benchrun" -n "$per" "$@" -- "${our_command[@]}")
        echo "$(field "$p" median_ms) $(field "$o" median_ms)" >>"$rows"
    done
    read -r peer_ms our_ms ratio_x < <(awk '
        function median(values, n,   i, j, t) {
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (values[j] < values[i]) { t = values[i]; values[i] = values[j]; values[j] = t }
            return n % 2 ? values[(n + 1) / 2] : (values[n / 2] + values[n / 2 + 1]) / 2
        }
        { n++; p[n] = $1; o[n] = $2; r[n] = $2 / $1 }
        END { printf "%.3f %.3f %.2f\n", median(p, n), median(o, n), median(r, n) }' "$rows")
}
# round_ratios OURS THEIRS: OURS and THEIRS are space-separated figures, one per round, where round i of both
# ran back to back (so a burst of load elsewhere on the machine hits both alike). Prints the median of the
# per-round ratios OURS/THEIRS and their range, "1.05× (0.98–1.20)", or "-" when no round has both. Rounds
# where either failed ("nan") are left out.
round_ratios() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        n = split(a, x, " "); m = split(b, y, " "); k = 0
        for (i = 1; i <= n && i <= m; i++)
            if (x[i] != "nan" && y[i] != "nan" && y[i] + 0 > 0) r[++k] = x[i] / y[i]
        if (k == 0) { print "-"; exit }
        for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
        mid = k % 2 ? r[(k + 1) / 2] : (r[k / 2] + r[k / 2 + 1]) / 2
        printf "%.2f× (%.2f–%.2f)", mid, r[1], r[k]
    }'
}
results=()
row() { results+=("$(printf "$@")"); printf "$@" >&2; printf '\n' >&2; }
heading() { results+=("" "$1"); note ""; note "== $1"; }

# --- Build --------------------------------------------------------------------------------------------------

command -v Xvfb >/dev/null || die "Xvfb is not installed (scripts/install-deps.sh)"
command -v xclip >/dev/null || die "xclip is not installed (scripts/install-deps.sh)"
cbin=$here/c/bin
mkdir -p "$cbin"
for program in owner requestor claimer watcher; do
    gcc -O2 -Wall -o "$cbin/$program" "$here/c/$program.c" -lX11 -lXfixes
done
gcc -O2 -Wall -o "$cbin/benchrun" "$here/c/benchrun.c"

swift_flags=(-c release --scratch-path "$scratch")
[ "${BENCH_STATIC:-1}" = 1 ] && swift_flags+=(--static-swift-stdlib)
note "building clipbridge-bench (swift build ${swift_flags[*]})"
(cd "$root" && swift build "${swift_flags[@]}" --product clipbridge-bench >&2) || die "clipbridge-bench does not build"
bin=$(cd "$root" && swift build "${swift_flags[@]}" --show-bin-path) || die "swift build --show-bin-path failed"
bench=$bin/clipbridge-bench
cli=${CLIPBRIDGE_BIN:-}
if [ -z "$cli" ] && { wants cli || wants readers || wants scaling || wants manager || wants history || wants images || wants bridge || wants wayland || wants remote || wants dnd; }; then
    if (cd "$root" && swift build "${swift_flags[@]}" --product clipbridge >"$work/cli-build.log" 2>&1); then
        cli=$bin/clipbridge
    else
        note "clipbridge does not build: the cli section is skipped. The build said:"
        grep -E 'error|warning: ' "$work/cli-build.log" | head -5 >&2 || tail -5 "$work/cli-build.log" >&2
    fi
fi

# --- A private X server -------------------------------------------------------------------------------------

Xvfb -displayfd 3 -nolisten tcp -noreset -screen 0 1280x800x24 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
wait_for "$work/display" '^[0-9]+$' 20 || { cat "$work/xvfb.log" >&2; die "Xvfb did not start"; }
export DISPLAY=":$(head -1 "$work/display")"
unset WAYLAND_DISPLAY XAUTHORITY
octet=application/octet-stream

results+=("ClipBridge benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), Xvfb $DISPLAY")
results+=("source: $(git -C "$root" describe --always --dirty 2>/dev/null || echo 'not a git checkout')")
results+=("load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on this machine skews figures)")
results+=("Swift runtime: $([ "${BENCH_STATIC:-1}" = 1 ] && echo static || echo shared); runs: 64 MiB ×$runs64, 512 MiB ×$runs512, latency $latency_runs×$latency_count, watch $watch_runs×$watch_count$([ $quick = 1 ] && echo ' (quick)' || true)")

# --- Throughput ---------------------------------------------------------------------------------------------
#
# Every owner runs at once, each on its own selection (xclip can only use the standard ones), and the runs of
# the pairs are interleaved, so a burst of load on this shared machine hits all pairs alike.

# request KIND SELECTION TARGET [ARGS...]: one read by a requestor of KIND; prints its RESULT line.
request() {
    local kind=$1 selection=$2 target=$3; shift 3
    case "$kind" in
        c) timeout 300 "$cbin/requestor" -s "$selection" -t "$target" "$@" ;;
        clipbridge) timeout 300 "$bench" requestor --selection "$selection" --target "$target" "$@" ;;
        xclip) echo "RESULT read bytes=$(timeout 300 xclip -o -selection "$selection" -t "$target" | wc -c) seconds=nan" ;;
    esac
}

# owner_selection KIND: the selection the owner of KIND serves.
owner_selection() { case "$1" in c) echo BENCH_C ;; clipbridge) echo BENCH_CLIPBRIDGE ;; xclip) echo clipboard ;; esac; }

# start_owners FILE TARGET: one owner of each kind serving FILE as TARGET; sets $owner_pids.
start_owners() {
    local file=$1 target=$2
    owner_pids=()
    start_owner owner-c READY /dev/null "$cbin/owner" -s BENCH_C -f "$file" -t "$target"
    owner_pids+=("$started")
    start_owner owner-clipbridge READY /dev/null "$bench" owner --selection BENCH_CLIPBRIDGE --file "$file" --target "$target"
    owner_pids+=("$started")
    start_owner owner-xclip "Waiting for selection" "$file" xclip -quiet -i -selection clipboard -t "$target"
    owner_pids+=("$started")
}
stop_owners() { for pid in "${owner_pids[@]}"; do stop "$pid"; done; }

pairs=("c c C → C (ceiling)" "clipbridge clipbridge ClipBridge → ClipBridge" "xclip xclip xclip → xclip"
    "c clipbridge C owner → ClipBridge requestor" "clipbridge c ClipBridge owner → C requestor")

if wants throughput || wants rss; then
    note "generating 64 MiB and 512 MiB of random data"
    head -c $((64 << 20)) /dev/urandom >"$work/64.bin"
    head -c $((512 << 20)) /dev/urandom >"$work/512.bin"
fi

if wants throughput; then
    # One list per pair and size, one entry per round ("nan" for a failed run), so entry i of every list
    # comes from round i: the ratio to C → C is taken per round, between runs made back to back.
    declare -A rates walls
    for size in 64 512; do
        file=$work/$size.bin
        bytes_expected=$(stat -c %s "$file")
        runs=$([ $size = 64 ] && echo "$runs64" || echo "$runs512")
        note "throughput $size MiB: $runs interleaved rounds of ${#pairs[@]} pairs"
        start_owners "$file" "$octet"
        for ((run = 0; run < runs; run++)); do
            for pair in "${pairs[@]}"; do
                read -r owner requestor _ <<<"$pair"
                begin=$(now_ns)
                line=$(request "$requestor" "$(owner_selection "$owner")" "$octet" || true)
                end=$(now_ns)
                got=$(field "$line" bytes)
                if [ "$got" != "$bytes_expected" ]; then
                    note "$owner → $requestor, $size MiB: got ${got:-nothing} of $bytes_expected bytes"
                    rates[$owner-$requestor-$size]+=" nan"
                    walls[$owner-$requestor-$size]+=" nan"
                    continue
                fi
                seconds=$(field "$line" seconds)
                rates[$owner-$requestor-$size]+=" $(awk -v b="$got" -v s="$seconds" 'BEGIN { if (s == "nan") print "nan"; else printf "%.1f", b / 1048576 / s }')"
                walls[$owner-$requestor-$size]+=" $(awk -v b="$got" -v d="$((end - begin))" 'BEGIN { printf "%.1f", b / 1048576 / (d / 1e9) }')"
            done
        done
        stop_owners
    done
    heading "Throughput, MiB/s (median; transfer time measured in the requestor; wall time of the requestor process in brackets). vs C → C: median of the per-round ratios (each round runs every pair back to back, C → C first), range in brackets"
    row '  %-40s %20s %20s   %s' "owner → requestor" "64 MiB" "512 MiB" "vs C → C: 64 MiB / 512 MiB"
    # shellcheck disable=SC2086 # the lists are space-separated numbers
    for pair in "${pairs[@]}"; do
        read -r owner requestor label <<<"$pair"
        key=$owner-$requestor
        r64=$(median ${rates[$key-64]:-nan}); r512=$(median ${rates[$key-512]:-nan})
        w64=$(median ${walls[$key-64]:-nan}); w512=$(median ${walls[$key-512]:-nan})
        if [ "$key" = c-c ]; then
            versus="1.00× / 1.00×"
        elif [ "$key" = xclip-xclip ]; then  # xclip has no in-process figure: compare wall with wall
            versus="$(round_ratios "${walls[$key-64]:-}" "${walls[c-c-64]:-}") / $(round_ratios "${walls[$key-512]:-}" "${walls[c-c-512]:-}") (wall)"
        else
            versus="$(round_ratios "${rates[$key-64]:-}" "${rates[c-c-64]:-}") / $(round_ratios "${rates[$key-512]:-}" "${rates[c-c-512]:-}")"
        fi
        row '  %-40s %20s %20s   %s' "$label" "$r64 ($w64)" "$r512 ($w512)" "$versus"
    done
fi

# --- Small-paste latency ------------------------------------------------------------------------------------

if wants latency; then
    # Each round runs, for every ClipBridge variant, the C pair and then the variant, back to back, so the
    # ratio is taken between two runs a few hundred milliseconds apart; the figure is the median of the
    # per-round ratios (the machine is shared: absolute medians drift by tens of percent within minutes).
    note "latency: $latency_runs rounds; each times C → C then one ClipBridge variant, $latency_count reads each"
    printf '0123456789abcdef' >"$work/16.txt"
    start_owners "$work/16.txt" UTF8_STRING
    # variant: KEY OWNER REQUESTOR PATH (PATH: the clipbridge-bench latency --path, or - for the C requestor)
    variants=("clipbridge-clipbridge clipbridge clipbridge default" "clipbridge-clipbridge-isolated clipbridge clipbridge isolated"
        "c-clipbridge c clipbridge default" "c-clipbridge-isolated c clipbridge isolated" "clipbridge-c clipbridge c -")
    declare -A latencies cpu_requestor cpu_owner
    loan_reads=0; loan_finished=0; loan_wakeups=0
    # owner_cpu_ns KIND: CPU time the owner of KIND has used so far, every thread (schedstat: nanoseconds;
    # printed with %.0f, as mawk's %d stops at 2^31 - about 2 s of CPU, which an owner passes mid-run).
    owner_cpu_ns() {
        local pid; case "$1" in c) pid=${owner_pids[0]} ;; clipbridge) pid=${owner_pids[1]} ;; esac
        cat /proc/"$pid"/task/*/schedstat 2>/dev/null | awk '{ sum += $1 } END { printf "%.0f", sum }'
    }
    # latency_once OWNER REQUESTOR PATH: "MEDIAN_µs REQUESTOR_CPU_µs OWNER_CPU_µs LOANS_FINISHED LOOP_WAKEUPS" of
    # one run of $latency_count reads; the CPU figures are per read (the requestor's around its timed loop, the
    # owner's over the run); the last two only for a ClipBridge requestor (how its reads ran: on loan or not).
    latency_once() {
        local selection out line cpu loans before after
        selection=$(owner_selection "$1")
        before=$(owner_cpu_ns "$1")
        case "$2" in
            c) out=$(timeout 120 "$cbin/requestor" -s "$selection" -t UTF8_STRING -r "$latency_count" || true) ;;
            clipbridge) out=$(timeout 120 "$bench" latency --path "$3" --selection "$selection" --target UTF8_STRING --count "$latency_count" || true) ;;
        esac
        after=$(owner_cpu_ns "$1")
        line=$(grep 'RESULT latency' <<<"$out" || true)
        cpu=$(grep 'RESULT cpu' <<<"$out" || true)
        loans=$(grep 'RESULT loans' <<<"$out" || true)
        local value; value=$(field "$line" median_us)
        local requestor_cpu; requestor_cpu=$(field "$cpu" per_read_us)
        local finished; finished=$(field "$loans" finished)
        local wakeups; wakeups=$(field "$loans" loop_wakeups)
        echo "${value:-nan} ${requestor_cpu:-nan} $(awk -v d="$((after - before))" -v n="$latency_count" 'BEGIN { printf "%.1f", d / 1e3 / n }') ${finished:--} ${wakeups:--}"
    }
    for ((run = 0; run < latency_runs; run++)); do
        for variant in "${variants[@]}"; do
            read -r key owner requestor path <<<"$variant"
            read -r c_value c_req c_own _ <<<"$(latency_once c c -)"
            latencies[c-c]+=" $c_value"
            latencies[c-c@$key]+=" $c_value"
            cpu_requestor[c-c]+=" $c_req"; cpu_requestor[c-c@$key]+=" $c_req"
            cpu_owner[c-c]+=" $c_own"; cpu_owner[c-c@$key]+=" $c_own"
            read -r value req own finished wakeups <<<"$(latency_once "$owner" "$requestor" "$path")"
            if [ "$path" = default ] && [ "$finished" != - ]; then
                loan_reads=$((loan_reads + latency_count))
                loan_finished=$((loan_finished + finished)); loan_wakeups=$((loan_wakeups + wakeups))
            fi
            latencies[$key]+=" $value"
            cpu_requestor[$key]+=" $req"
            cpu_owner[$key]+=" $own"
        done
    done
    # Context only: a failure here (another client took CLIPBOARD on this display) must not lose the figures.
    xclip_line=$("$cbin/benchrun" -n "$process_runs" -- xclip -o -selection clipboard -t UTF8_STRING || true)
    stop_owners
    # The floor under any read: one X round trip (XGetSelectionOwner), bare in C, through the actor in ClipBridge.
    c_roundtrip=(); cb_roundtrip=(); cb_roundtrip_isolated=()
    for ((run = 0; run < latency_runs; run++)); do
        c_roundtrip+=("$(field "$("$cbin/requestor" -R "$latency_count")" median_us)")
        cb_roundtrip+=("$(field "$("$bench" roundtrip --count "$latency_count")" median_us)")
        cb_roundtrip_isolated+=("$(field "$("$bench" roundtrip --path isolated --count "$latency_count")" median_us)")
    done
    heading "Small-paste latency, 16 bytes of UTF8_STRING (median of $latency_count reads in a row in one process; median over $latency_runs rounds; vs C → C: median of the per-round ratios to the C → C run just before, range in brackets)"
    # shellcheck disable=SC2086
    row '  %-40s %10s µs   %s' "C → C (ceiling)" "$(median ${latencies[c-c]:-nan})" "1.00×"
    labels=("ClipBridge → ClipBridge" "  same pair, reads in withIsolation" "C owner → ClipBridge requestor"
        "  same pair, reads in withIsolation" "ClipBridge owner → C requestor")
    for index in "${!variants[@]}"; do
        read -r key _ <<<"${variants[$index]}"
        # shellcheck disable=SC2086
        row '  %-40s %10s µs   %s' "${labels[$index]}" "$(median ${latencies[$key]:-nan})" \
            "$(round_ratios "${latencies[$key]:-}" "${latencies[c-c@$key]:-}")"
    done
    # How the default path's reads ran (X11EventLoop.lend): on loan the caller drives the connection itself.
    row '  %s' "default path: $loan_finished of $loan_reads reads finished on loan (the calling thread drove the connection), $loan_wakeups loop wake-ups"
    # What each side spends, not how long it waits. On a VM this too depends on where threads land: waking a
    # thread on the other CPU is an inter-processor interrupt, whose VM exit is charged to the waker.
    heading "CPU time per 16-byte paste, µs (the same runs: the requestor process around its timed loop, the owner process over the run, every thread). vs C → C: median of the per-round ratios, range in brackets"
    row '  %-40s %28s %28s' "owner → requestor" "requestor" "owner"
    # shellcheck disable=SC2086
    row '  %-40s %8s µs %-17s %8s µs %-17s' "C → C (ceiling)" "$(median ${cpu_requestor[c-c]:-nan})" "1.00×" "$(median ${cpu_owner[c-c]:-nan})" "1.00×"
    for index in "${!variants[@]}"; do
        read -r key _ <<<"${variants[$index]}"
        # shellcheck disable=SC2086
        row '  %-40s %8s µs %-17s %8s µs %-17s' "${labels[$index]}" \
            "$(median ${cpu_requestor[$key]:-nan})" "$(round_ratios "${cpu_requestor[$key]:-}" "${cpu_requestor[c-c@$key]:-}")" \
            "$(median ${cpu_owner[$key]:-nan})" "$(round_ratios "${cpu_owner[$key]:-}" "${cpu_owner[c-c@$key]:-}")"
    done
    heading "For context: a whole xclip process per paste, and one bare X round trip (the floor under any read)"
    row '  %-40s %10s ms   (a whole process per paste, for context; %s runs)' "xclip -o" "$(field "$xclip_line" median_ms)" "$process_runs"
    c_floor=$(median "${c_roundtrip[@]}")
    cb_floor=$(median "${cb_roundtrip[@]}")
    row '  %-40s %10s µs   %s' "X round trip, C (XGetSelectionOwner)" "$c_floor" ""
    row '  %-40s %10s µs   %s' "X round trip, ClipBridge (owner(of:))" "$cb_floor" "$(ratio "$cb_floor" "$c_floor")"
    cb_floor_isolated=$(median "${cb_roundtrip_isolated[@]}")
    row '  %-40s %10s µs   %s' "  same, inside withIsolation" "$cb_floor_isolated" "$(ratio "$cb_floor_isolated" "$c_floor")"
fi

# --- Owner-change notification latency ----------------------------------------------------------------------

if wants watch; then
    note "owner-change latency: $watch_runs interleaved runs of $watch_count claims per watcher"
    # watch_once KIND: median microseconds from a claim being flushed to the watcher of KIND seeing it.
    watch_once() {
        local kind=$1 name=watch-$1
        case "$kind" in
            c) start "$name" "$cbin/watcher" -n "$watch_count" ;;
            clipbridge) start "$name" "$bench" watch-latency --count "$watch_count" ;;
        esac
        local watcher=$started
        wait_for "$work/$name.out" READY 30 || { cat "$work/$name.err" >&2; die "$kind watcher not ready"; }
        "$cbin/claimer" -n "$watch_count" -i 3000 >"$work/claims.out"
        wait "$watcher" 2>/dev/null || true
        # Join claims and changes on the owner window (each claim uses a window of its own).
        awk '$1 == "CLAIM" { c[$2] = $3 } $1 == "CHANGE" { w[$2] = $3 }
            END { for (k in c) if (k in w) print (w[k] - c[k]) / 1000 }' "$work/claims.out" "$work/$name.out" |
            sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f\n", v[int((NR + 1) / 2)]; else print "nan" }'
    }
    watch_c=(); watch_cb=()
    for ((run = 0; run < watch_runs; run++)); do
        watch_c+=("$(watch_once c)")
        watch_cb+=("$(watch_once clipbridge)")
    done
    heading "Owner-change notification latency (XFixes; a C claimer flushes a claim → the watcher sees it; median of $watch_count claims, median of $watch_runs runs)"
    c_watch=$(median "${watch_c[@]}")
    cb_watch=$(median "${watch_cb[@]}")
    row '  %-40s %10s µs   %s' "C XFixes watcher (ceiling)" "$c_watch" "1.00×"
    row '  %-40s %10s µs   %s' "ClipBridge ownerChanges" "$cb_watch" "$(ratio "$cb_watch" "$c_watch")"
fi

# --- Peak memory receiving 512 MiB --------------------------------------------------------------------------

if wants rss; then
    heading "Peak RSS receiving 512 MiB into a file (wait4 ru_maxrss of the requestor process)"
    rss_of() {  # rss_of LABEL OWNER_PID_SETUP... then the requestor command via benchrun
        local label=$1; shift
        local line; line=$("$cbin/benchrun" -n 1 "$@")
        local size; size=$(stat -c %s "$work/received.bin" 2>/dev/null || echo 0)
        [ "$size" = $((512 << 20)) ] || note "$label: received $size bytes"
        row '  %-40s %10s MiB' "$label" "$(awk -v k="$(field "$line" maxrss_kib)" 'BEGIN { printf "%.1f", k / 1024 }')"
        rm -f "$work/received.bin"
    }
    start_owner rss-c READY /dev/null "$cbin/owner" -f "$work/512.bin" -t "$octet"
    rss_of "C requestor" -- "$cbin/requestor" -t "$octet" -o "$work/received.bin"
    rss_of "ClipBridge requestor (streamed)" -- "$bench" requestor --target "$octet" --output "$work/received.bin"
    stop "$started"
    start_owner rss-xclip "Waiting for selection" "$work/512.bin" xclip -quiet -i -selection clipboard -t "$octet"
    rss_of "xclip -o" -o "$work/received.bin" -- xclip -o -selection clipboard -t "$octet"
    stop "$started"
    # The owner side too: ClipBridge serving 512 MiB from a file it streams (VmHWM of the owner process).
    start_owner rss-cb-owner READY /dev/null "$bench" owner --file "$work/512.bin" --source file --target "$octet"
    owner_pid=$started
    "$cbin/requestor" -t "$octet" >/dev/null
    hwm=$(awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$owner_pid/status" 2>/dev/null || echo nan)
    stop "$owner_pid"
    row '  %-40s %10s MiB   (owner, --source file: VmHWM)' "ClipBridge owner serving the file" "$hwm"
fi

# --- The clipbridge CLI against xclip (issue 5) -------------------------------------------------------------

if wants cli && [ -n "$cli" ] && [ -x "$cli" ]; then
    heading "clipbridge CLI vs xclip, wall time of the command (interleaved rounds; median ratio; clipbridge: $cli)"
    printf 'clipbridge bench' >"$work/cli16.txt"
    awk 'BEGIN { line = "The quick brown fox jumps over the lazy dog 0123456789 ClipBridge benchmark text.\n";
        for (n = 0; n < (64 * 1048576) / length(line); n++) printf "%s", line }' >"$work/cli64.txt"
    # The peer and clipbridge run alternately, a short batch each, so that load from anything else on the
    # machine falls on both alike; the figure is the median of the per-round ratios (and the medians of
    # the per-round medians beside it). Each `copy` replaces the previous copy's server, which then exits:
    # that too happens on both sides.
    rounds=$([ $quick = 1 ] && echo 3 || echo 15)
    for size in 16 64; do
        file=$work/cli$size.txt
        label=$([ $size = 16 ] && echo "16 B" || echo "64 MiB")
        per=$([ $size = 16 ] && echo 10 || echo 1)
        size_rounds=$([ $size = 16 ] && echo "$rounds" || echo "$runs64")
        start_owner "cli-owner-$size" "Waiting for selection" "$file" xclip -quiet -i -selection clipboard
        peer_command=(xclip -o -selection clipboard); our_command=("$cli" paste)
        interleaved "$size_rounds" "$per"
        stop "$started"
        row '  %-40s %10s ms   xclip -o %s ms   %s×' "paste $label: clipbridge paste" "$our_ms" "$peer_ms" "$ratio_x"
        peer_command=(xclip -i -selection clipboard); our_command=("$cli" copy)
        interleaved "$size_rounds" "$per" -i "$file"
        row '  %-40s %10s ms   xclip -i %s ms   %s×' "copy $label: clipbridge copy" "$our_ms" "$peer_ms" "$ratio_x"
        # The last copy must really be on the clipboard.
        pasted=$(timeout 60 xclip -o -selection clipboard | cmp -s - "$file" && echo ok || echo MISMATCH)
        [ "$pasted" = ok ] || note "cli $label: the copied content does not paste back byte-exact"
    done
    peer_command=(xclip -version); our_command=("$cli" --version)
    interleaved "$rounds" 10
    row '  %-40s %10s ms   xclip -version %s ms   %s×' "start-up alone: clipbridge --version" "$our_ms" "$peer_ms" "$ratio_x"
    # What a text paste maps (the dynamic loader's own account: linked and dlopen'ed libraries alike), so a new
    # dependency on the fast path shows in the next run; and the binary's size.
    mapped() { LD_DEBUG=files "$@" 2>&1 >/dev/null </dev/null | sed -n 's/.*file=\([^ ]*\) .*/\1/p' | sort -u; }
    start_owner "cli-owner-libs" "Waiting for selection" "$work/cli16.txt" xclip -quiet -i -selection clipboard
    our_libraries=$(mapped "$cli" paste)
    peer_libraries=$(mapped xclip -o -selection clipboard)
    stop "$started"
    row '  %-40s %10s   xclip -o %s' "shared libraries a 16 B paste maps" "$(echo "$our_libraries" | grep -c .)" "$(echo "$peer_libraries" | grep -c .)"
    row '    clipbridge: %s' "$(echo "$our_libraries" | tr '\n' ' ')"
    row '    xclip:      %s' "$(echo "$peer_libraries" | tr '\n' ' ')"
    row '  %-40s %10s MB   xclip %s KB' "binary size" "$(awk -v b="$(stat -c %s "$cli")" 'BEGIN { printf "%.1f", b / 1e6 }')" \
        "$(awk -v b="$(stat -c %s "$(command -v xclip)")" 'BEGIN { printf "%.0f", b / 1e3 }')"
fi

# --- Real readers: GTK 4, Qt 5, python-xlib reading 50 MiB from clipbridge and from xclip (issue 11) ---------

peers=$root/Tests/Peers
if wants readers && [ -n "$cli" ] && [ -x "$cli" ]; then
    reader_rounds=$([ $quick = 1 ] && echo 2 || echo 9)
    head -c $((50 << 20)) /dev/urandom >"$work/50.bin"
    bench_type=application/x-clipbridge-bench
    # own KIND: KIND (clipbridge or xclip) owns CLIPBOARD with the 50 MiB as $bench_type; both fork a server
    # and return. The previous owner's server exits when replaced.
    own() {
        case "$1" in
            clipbridge) "$cli" copy -t "$bench_type" <"$work/50.bin" ;;
            xclip) xclip -selection clipboard -t "$bench_type" -i "$work/50.bin" >/dev/null 2>&1 ;;
        esac
        wait_for_owner
    }
    wait_for_owner() { for _ in $(seq 200); do xclip -o -selection clipboard -t TARGETS 2>/dev/null | grep -q "$bench_type" && return; sleep 0.01; done; }
    # read_once READER: wall seconds of one whole reader process, or nan when it got the wrong byte count.
    read_once() {
        local begin end count
        begin=$(now_ns)
        case "$1" in
            gtk4) count=$(timeout 120 /usr/bin/python3 "$peers/gtk4_clipboard.py" --timeout 60 --read-mime "$bench_type" 2>/dev/null | wc -c) ;;
            qt5) count=$(timeout 120 /usr/bin/python3 "$peers/qt5_clipboard.py" --timeout 60 --read-mime "$bench_type" 2>/dev/null | wc -c) ;;
            python-xlib) count=$(timeout 120 /usr/bin/python3 "$peers/hostile_requestor.py" convert --target "$bench_type" --timeout 60 2>/dev/null | grep -o '"bytes": [0-9]*' | grep -o '[0-9]*$') ;;
        esac
        end=$(now_ns)
        if [ "${count:-0}" = $((50 << 20)) ]; then awk -v d="$((end - begin))" 'BEGIN { printf "%.3f", d / 1e9 }'; else echo nan; fi
    }
    note "real readers: $reader_rounds rounds; each reader reads 50 MiB from clipbridge copy, then from xclip -i"
    declare -A reader_times
    for ((run = 0; run < reader_rounds; run++)); do
        for reader in gtk4 qt5 python-xlib; do
            for owner in clipbridge xclip; do
                own "$owner"
                reader_times[$reader-$owner]+=" $(read_once "$reader")"
            done
        done
    done
    "$cli" copy --clear >/dev/null 2>&1 || true
    heading "Real readers receiving 50 MiB (wall time of the whole reader process, start-up included; median of $reader_rounds rounds; vs xclip: median of the per-round ratios, range in brackets)"
    row '  %-40s %12s %12s   %s' "reader" "clipbridge" "xclip -i" "clipbridge vs xclip"
    for reader in gtk4 qt5 python-xlib; do
        label=$(case $reader in gtk4) echo "GTK 4 Gdk.Clipboard (read_async)" ;; qt5) echo "Qt 5 QClipboard (mimeData)" ;; *) echo "python-xlib (INCR loop)" ;; esac)
        # shellcheck disable=SC2086
        row '  %-40s %10s s %10s s   %s' "$label" "$(median ${reader_times[$reader-clipbridge]:-nan})" \
            "$(median ${reader_times[$reader-xclip]:-nan})" \
            "$(round_ratios "${reader_times[$reader-clipbridge]:-}" "${reader_times[$reader-xclip]:-}")"
    done
fi

# --- Scaling: peer-chosen sizes in linear time (issue 11) ---------------------------------------------------

if wants scaling && [ -n "$cli" ] && [ -x "$cli" ]; then
    heading "Peer-chosen sizes (hostile peers of Tests/Peers; seconds, median of 3; per item in brackets: flat means linear time)"
    per_item() { awk -v s="$1" -v n="$2" 'BEGIN { if (s == "nan") print "-"; else printf "%.2f µs", s * 1e6 / n }'; }
    # MULTIPLE with N pairs sent to `clipbridge copy --foreground`: how long until it answers (or refuses).
    start cli-owner "$cli" copy --foreground "scaling"
    owner_pid=$started
    wait_for_owner_text() { for _ in $(seq 200); do [ "$(xclip -o -selection clipboard 2>/dev/null)" = scaling ] && return; sleep 0.01; done; }
    wait_for_owner_text
    for pairs in 10000 100000 1000000; do
        times=()
        for _ in 1 2 3; do
            line=$(timeout 60 /usr/bin/python3 "$peers/hostile_requestor.py" multiple --pairs "$pairs" --timeout 30 2>/dev/null | tail -1)
            times+=("$(grep -o '"seconds": [0-9.]*' <<<"$line" | grep -o '[0-9.]*$' || echo nan)")
        done
        refused=$(grep -q '"refused": true' <<<"$line" && echo refused || echo answered)
        t=$(median "${times[@]}")
        row '  %-40s %10s s   (%s; %s)' "MULTIPLE, $pairs pairs → clipbridge copy" "$t" "$refused" "$(per_item "$t" "$pairs")"
    done
    stop "$owner_pid"
    # TARGETS with N atoms (repeated, garbage and real ones) from a hostile owner: a bare paste and a paste -t.
    for count in 10000 100000 1000000; do
        start_owner hostile-$count READY /dev/null /usr/bin/python3 "$peers/hostile_owner.py" huge-targets --count "$count"
        hostile_pid=$started
        quick_times=(); full_times=()
        for _ in 1 2 3; do
            begin=$(now_ns); out=$("$cli" paste 2>/dev/null || true); end=$(now_ns)
            quick_times+=("$([ "$out" = huge-ok ] && awk -v d="$((end - begin))" 'BEGIN { printf "%.3f", d / 1e9 }' || echo nan)")
            begin=$(now_ns); out=$("$cli" paste -t application/x-test 2>/dev/null || true); end=$(now_ns)
            full_times+=("$([ "$out" = x-test-bytes ] && awk -v d="$((end - begin))" 'BEGIN { printf "%.3f", d / 1e9 }' || echo nan)")
        done
        stop "$hostile_pid"
        tq=$(median "${quick_times[@]}"); tf=$(median "${full_times[@]}")
        row '  %-40s %10s s   (%s)' "TARGETS, $count atoms: clipbridge paste" "$tq" "$(per_item "$tq" "$count")"
        row '  %-40s %10s s   (%s)' "  same: clipbridge paste -t a custom type" "$tf" "$(per_item "$tf" "$count")"
    done
    # TARGETS with N *distinct* atoms the owner interned itself (names nothing knows, each a dynamic type of
    # its own): every pass over the offer must be linear in distinct types. paste -t, --list-types and
    # watch --json --initial --once, beside xclip's reading of the same TARGETS (one XGetAtomName per atom).
    for count in 10000 100000 1000000; do
        ready_timeout=600 start_owner distinct-$count READY /dev/null /usr/bin/python3 "$peers/hostile_owner.py" distinct-targets \
            --count "$count" --exit-after 900 || continue
        distinct_pid=$started
        custom_times=(); list_times=(); watch_times=(); xclip_times=()
        for _ in 1 2 3; do
            begin=$(now_ns); out=$("$cli" paste -t application/x-test --timeout 60 2>/dev/null || true); end=$(now_ns)
            custom_times+=("$([ "$out" = x-test-bytes ] && awk -v d="$((end - begin))" 'BEGIN { printf "%.3f", d / 1e9 }' || echo nan)")
            begin=$(now_ns); lines=$("$cli" paste --list-types --timeout 60 2>/dev/null | wc -l); end=$(now_ns)
            list_times+=("$([ "$lines" -ge $((count - 1)) ] && awk -v d="$((end - begin))" 'BEGIN { printf "%.3f", d / 1e9 }' || echo nan)")
            begin=$(now_ns); out=$("$cli" watch --json --initial --once --timeout 60 2>/dev/null | grep -c application/x-test || true); end=$(now_ns)
            watch_times+=("$([ "$out" -ge 1 ] && awk -v d="$((end - begin))" 'BEGIN { printf "%.3f", d / 1e9 }' || echo nan)")
        done
        if [ "$count" -le 100000 ]; then
            begin=$(now_ns); lines=$(timeout 120 xclip -o -selection clipboard -t TARGETS 2>/dev/null | wc -l); end=$(now_ns)
            xclip_times+=("$([ "$lines" -ge "$count" ] && awk -v d="$((end - begin))" 'BEGIN { printf "%.3f", d / 1e9 }' || echo nan)")
        fi
        stop "$distinct_pid"
        tc=$(median "${custom_times[@]}"); tl=$(median "${list_times[@]}"); tw=$(median "${watch_times[@]}")
        row '  %-40s %10s s   (%s)' "TARGETS, $count distinct atoms: paste -t" "$tc" "$(per_item "$tc" "$count")"
        row '  %-40s %10s s   (%s)' "  same: clipbridge paste --list-types" "$tl" "$(per_item "$tl" "$count")"
        row '  %-40s %10s s   (%s)' "  same: clipbridge watch --json --initial" "$tw" "$(per_item "$tw" "$count")"
        if [ "$count" -le 100000 ]; then
            tx=$(median "${xclip_times[@]}")
            row '  %-40s %10s s   (%s)' "  same: xclip -o -t TARGETS (one run)" "$tx" "$(per_item "$tx" "$count")"
        fi
    done
fi

# --- Clipboard manager: handover and footprint (issue 14) --------------------------------------------------

if wants manager && [ -n "$cli" ] && [ -x "$cli" ]; then
    peers=$root/Tests/Peers
    manager_runs=$([ $quick -eq 1 ] && echo 1 || echo 5)
    heading "Clipboard manager: GTK 3 store() on exit until the manager answered (seconds, median of $manager_runs)"
    row '  %-40s %12s %12s   %s' "" "clipbridge" "xfsettingsd" "ratio"
    # handover MANAGER SIZE WHEN: one GTK 3 app copying SIZE bytes of text and quitting; prints the seconds from
    # its SIGTERM to its "stored" line (GTK's gtk_clipboard_store returning), or nan. WHEN is "later" (a real
    # user quits some time after copying: the daemon has read the copy by then, it said "kept") or "at once"
    # (quit right after the copy: the daemon's read of it is still under way or not begun).
    handover() {
        local manager=$1 size=$2 when=$3 text="$work/handover-$2.txt" pid begin end
        [ -s "$text" ] || head -c "$size" /dev/zero | tr '\0' 'x' >"$text"
        : >"$work/handover.out"
        /usr/bin/python3 "$peers/gtk3_copy.py" --file "$text" --timeout 120 </dev/null >"$work/handover.out" 2>/dev/null &
        pid=$!
        wait_for "$work/handover.out" '^ready' 30 || { stop "$pid"; echo nan; return; }
        if [ "$when" = "at once" ]; then
            :
        elif [ "$manager" = clipbridge ]; then
            local kept; kept=$(grep -c "kept CLIPBOARD" "$work/manager.err" || true)
            for _ in $(seq 3000); do [ "$(grep -c "kept CLIPBOARD" "$work/manager.err" || true)" -gt "$kept" ] && break; sleep 0.01; done
        else
            sleep 0.5
        fi
        begin=$(now_ns); kill -TERM "$pid"
        if wait_for "$work/handover.out" '^(stored|not-stored)' 60 && grep -q '^stored' "$work/handover.out"; then
            end=$(now_ns); awk -v d="$((end - begin))" 'BEGIN { printf "%.3f", d / 1e9 }'
        else
            echo nan
        fi
        wait "$pid" 2>/dev/null || true
    }
    declare -A handover_times=()
    for manager in clipbridge xfsettingsd; do
        "$cli" copy --clear >/dev/null 2>&1 || true
        if [ $manager = clipbridge ]; then
            start manager "$cli" daemon --replace
            wait_for "$work/manager.err" 'keeping CLIPBOARD' 20 || die "clipbridge daemon did not start"
        else
            start manager bash "$peers/xfsettingsd_manager.sh" --replace --timeout 20
            wait_for "$work/manager.out" '^ready' 30 || die "xfsettingsd did not start"
        fi
        manager_pid=$started
        for size in 1048576 52428800; do
            for when in later "at once"; do
                times=()
                for _ in $(seq "$manager_runs"); do times+=("$(handover $manager $size "$when")"); done
                handover_times[$manager-$size-$when]="${times[*]}"
            done
        done
        if [ $manager = clipbridge ]; then
            # Holding the 50 MiB copy just handed over (spooled to a file, not in memory), then idle.
            daemon_rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$manager_pid/status")
            cpu_before=$(awk '{ print $14 + $15 }' "/proc/$manager_pid/stat")
            sleep 5
            cpu_after=$(awk '{ print $14 + $15 }' "/proc/$manager_pid/stat")
            idle_cpu=$(awk -v t=$((cpu_after - cpu_before)) -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz / 5 * 100 }')
        else
            xfs_pid=$(pgrep -P "$manager_pid" -x xfsettingsd || true)
            xfs_rss=$([ -n "$xfs_pid" ] && awk '/^VmRSS/ { print $2 }' "/proc/$xfs_pid/status" || echo nan)
        fi
        stop "$manager_pid"
    done
    for size in 1048576 52428800; do
        for when in later "at once"; do
            # shellcheck disable=SC2086
            row '  %-40s %10s s %10s s   %s' "$((size >> 20)) MiB of text, quit $when" \
                "$(median ${handover_times[clipbridge-$size-$when]})" "$(median ${handover_times[xfsettingsd-$size-$when]})" \
                "$(round_ratios "${handover_times[clipbridge-$size-$when]}" "${handover_times[xfsettingsd-$size-$when]}")"
        done
    done
    row '  %-40s %10s KiB %8s KiB' "RSS holding the 50 MiB copy" "$daemon_rss" "$xfs_rss"
    row '  %-40s %10s %%' "clipbridge daemon idle CPU over 5 s" "$idle_cpu"
fi

# --- Clipboard history against CopyQ (issue 28): Benchmarks/history.sh ------------------------------------------

if wants history && [ -n "$cli" ] && [ -x "$cli" ]; then
    command -v copyq >/dev/null || die "CopyQ is not installed (scripts/install-deps.sh)"
    # shellcheck source=history.sh
    source "$here/history.sh"
fi

# --- Image conversion (issue 15) ----------------------------------------------------------------------------
#
# What a user waits for when an app asks for another format: `clipbridge paste -t image/jpeg` from an xclip
# owner of a 3840×2160 PNG (the transfer and the conversion), against converting the same file with
# ImageMagick's `convert` and with the raw library calls (Benchmarks/c/imageconv.c), all quality 90, in
# interleaved rounds.

if wants images && [ -n "$cli" ]; then
    gcc -O2 -Wall -o "$cbin/imageconv" "$here/c/imageconv.c" $(pkg-config --cflags --libs libpng libjpeg)
    magick=/usr/bin/convert
    [ -x "$magick" ] || die "ImageMagick is missing (scripts/install-deps.sh installs it)"
    # A screenshot-like picture: smooth gradients, a plasma texture, and hard-edged bars and a checkerboard
    # standing in for text and window chrome (no font is needed); 8 bits a sample, as screenshots are.
    "$magick" -size 3840x2160 gradient:'#20304a'-'#e8eef6' \( -size 960x540 plasma:fractal -resize 400% \) \
        -compose overlay -composite -fill '#202020' \
        -draw "rectangle 0,0 3839,48" -draw "rectangle 120,200 1900,230" -draw "rectangle 120,260 1500,290" \
        -draw "rectangle 120,320 1750,350" \( -size 1200x800 pattern:checkerboard \) -geometry +2400+1100 \
        -compose over -composite -depth 8 "$work/shot.png"
    "$magick" "$work/shot.png" -quality 90 "$work/shot.jpg"
    image_runs=$([ $quick = 1 ] && echo 2 || echo 7)
    declare -A image_times
    declare -A image_rss
    for direction in png2jpg jpg2png; do
        if [ $direction = png2jpg ]; then source=$work/shot.png from=image/png to=image/jpeg coder=jpg
        else source=$work/shot.jpg from=image/jpeg to=image/png coder=png; fi
        start_owner "images-$direction" "Waiting for selection" "$source" xclip -quiet -i -selection clipboard -t "$from"
        owner_pid=$started
        for ((run = 0; run < image_runs; run++)); do
            image_times[clipbridge-$direction]+=" $(field "$("$cbin/benchrun" -n 1 -- "$cli" paste -t "$to")" median_ms)"
            image_times[magick-$direction]+=" $(field "$("$cbin/benchrun" -n 1 -- "$magick" "$source" -quality 90 "$coder:-")" median_ms)"
            image_times[c-$direction]+=" $(field "$("$cbin/benchrun" -n 1 -- "$cbin/imageconv" "$direction" "$source")" median_ms)"
        done
        image_rss[$direction]=$(field "$("$cbin/benchrun" -n 3 -- "$cli" paste -t "$to")" maxrss_kib)
        stop "$owner_pid"
    done
    heading "Image conversion, 3840×2160 screenshot (wall time of the command, median of $image_runs interleaved rounds; ratio: median of the per-round ratios to ImageMagick)"
    row '  %-44s %10s %10s %10s   %s' "" "clipbridge" "convert" "C (libs)" "clipbridge vs convert"
    for direction in png2jpg jpg2png; do
        # shellcheck disable=SC2086
        row '  %-44s %8s ms %7s ms %7s ms   %s' \
            "$([ $direction = png2jpg ] && echo 'PNG → JPEG (paste -t image/jpeg)' || echo 'JPEG → PNG (paste -t image/png)')" \
            "$(median ${image_times[clipbridge-$direction]})" "$(median ${image_times[magick-$direction]})" \
            "$(median ${image_times[c-$direction]})" \
            "$(round_ratios "${image_times[clipbridge-$direction]}" "${image_times[magick-$direction]}")"
    done
    decoded_kib=$((3840 * 2160 * 4 / 1024))
    for direction in png2jpg jpg2png; do
        row '  %-44s %10s KiB = %s of the decoded image (%s KiB as RGBA)' \
            "peak RSS of paste -t image/$([ $direction = png2jpg ] && echo jpeg || echo png)" "${image_rss[$direction]}" \
            "$(ratio "${image_rss[$direction]}" "$decoded_kib")" "$decoded_kib"
    done
fi

# --- Display bridge (issue 16) ------------------------------------------------------------------------------
#
# What a user of a second X server waits for: `xclip -o` on that server of what xclip owns on the first, relayed
# by `clipbridge bridge` when asked (a conversion on the first display, streamed through), against the same
# `xclip -o` on the first display — the floor: a bridge cannot beat the transfer it relays. Interleaved rounds.

if wants bridge && [ -n "$cli" ]; then
    Xvfb -displayfd 3 -nolisten tcp -noreset -screen 0 1280x800x24 3>"$work/display2" >"$work/xvfb2.log" 2>&1 &
    xvfb2_pid=$!
    background+=("$xvfb2_pid")
    wait_for "$work/display2" '^[0-9]+$' 20 || { cat "$work/xvfb2.log" >&2; die "the second Xvfb did not start"; }
    second=":$(head -1 "$work/display2")"
    start bridge "$cli" bridge "$DISPLAY" "$second" -s clipboard
    bridge_pid=$started
    wait_for "$work/bridge.err" "connected $second" 20 || { cat "$work/bridge.err" >&2; die "the bridge did not start"; }
    bridge_runs=$([ $quick = 1 ] && echo 2 || echo 9)
    declare -A bridge_times
    printf 'sixteen bytes!!\n' >"$work/bridge-16"
    head -c $((50 << 20)) /dev/urandom >"$work/bridge-50m"
    for size in 16 50m; do
        bridged=$(grep -c "bridged CLIPBOARD" "$work/bridge.err" || true)
        start_owner "bridge-owner-$size" "Waiting for selection" "$work/bridge-$size" \
            xclip -quiet -i -selection clipboard -t "$octet"
        owner_pid=$started
        wait_beyond "$work/bridge.err" "bridged CLIPBOARD" "$bridged" 20 \
            || { cat "$work/bridge.err" >&2; die "the bridge did not offer the $size copy"; }
        for ((run = 0; run < bridge_runs; run++)); do
            bridge_times[floor-$size]+=" $(field "$("$cbin/benchrun" -n 1 -- xclip -o -selection clipboard -t "$octet")" median_ms)"
            bridge_times[across-$size]+=" $(field "$("$cbin/benchrun" -n 1 -- env DISPLAY="$second" xclip -o -selection clipboard -t "$octet")" median_ms)"
        done
        [ "$(DISPLAY=$second xclip -o -selection clipboard -t "$octet" | cmp - "$work/bridge-$size" && echo same)" = same ] \
            || die "the bridged $size paste differs from the original"
        stop "$owner_pid"
    done
    bridge_rss=$(awk '/^VmHWM/ { print $2 }' "/proc/$bridge_pid/status")
    stop "$bridge_pid"
    stop "$xvfb2_pid"
    heading "Display bridge: xclip -o of xclip's copy on another X server through clipbridge bridge, against the same paste on the owner's server (median of $bridge_runs interleaved rounds; ratio: median of the per-round ratios)"
    row '  %-44s %10s %10s   %s' "" "bridged" "one display" "bridged vs one display"
    for size in 16 50m; do
        # shellcheck disable=SC2086
        row '  %-44s %8s ms %8s ms   %s' "$([ $size = 16 ] && echo '16 B' || echo '50 MiB')" \
            "$(median ${bridge_times[across-$size]})" "$(median ${bridge_times[floor-$size]})" \
            "$(round_ratios "${bridge_times[across-$size]}" "${bridge_times[floor-$size]}")"
    done
    row '  %-44s %10s KiB' "the bridge's peak RSS (after relaying 50 MiB ×$((bridge_runs + 1)))" "$bridge_rss"
fi

# --- X ↔ Wayland bridge: a paste across `clipbridge bridge :N wayland:PATH` (issue 30) ------------------------
#
# sway headless (as the unprivileged user the tests use when run as root: sway refuses root) with the bridge
# between it and this script's Xvfb, CLIPBOARD only. Each round pastes across the bridge and, interleaved, the same
# size within one side on PRIMARY, which the bridge leaves alone: `wl-paste` of `wl-copy`'s copy for X → Wayland,
# `xclip -o` of `xclip -i`'s copy for Wayland → X.

if wants wayland && [ -n "$cli" ]; then
    command -v sway >/dev/null && command -v wl-copy >/dev/null || die "sway and wl-clipboard are not installed (scripts/install-deps.sh)"
    # Each compositor the tests use: Debian 12's sway 1.7 (wlr data-control) and, when scripts/install-test-sway.sh
    # has unpacked it, sway 1.12 from Debian forky (ext data-control), run with its own dynamic loader.
    sway_builds=(debian)
    forky_sway=${CLIPBRIDGE_TEST_SWAY:-/opt/clipbridge-tests/sway-forky}
    [ -x "$forky_sway/usr/bin/sway" ] && sway_builds+=(forky)
    for sway_build in "${sway_builds[@]}"; do
        if [ "$sway_build" = forky ]; then
            sway_binary=("$forky_sway/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path
                "$forky_sway/usr/lib/x86_64-linux-gnu" "$forky_sway/usr/bin/sway")
        else
            sway_binary=(sway)
        fi
        sway_user=clipbridge-sway
        sway_dir=$(mktemp -d /tmp/clipbridge-sway.XXXXXX)
        printf 'xwayland disable\n' >"$sway_dir/config"
        sway_command=(env -i PATH=/usr/bin:/bin WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1
            "XDG_RUNTIME_DIR=$sway_dir" "HOME=$sway_dir" "${sway_binary[@]}" -c "$sway_dir/config")
        if [ "$(id -u)" = 0 ]; then
            id "$sway_user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$sway_user"
            chown -R "$sway_user" "$sway_dir"
            sway_command=(runuser -u "$sway_user" -- "${sway_command[@]}")
        fi
        start sway "${sway_command[@]}"
        sway_pid=$started
        deadline=$((SECONDS + 30))
        until socket=$(ls "$sway_dir" 2>/dev/null | grep -E '^wayland-[0-9]+$' | head -1) && [ -n "$socket" ]; do
            [ $SECONDS -lt $deadline ] || { cat "$work/sway.err" >&2; die "sway did not start"; }
            sleep 0.02
        done
        wayland_env=(env "WAYLAND_DISPLAY=$sway_dir/$socket" "XDG_RUNTIME_DIR=$sway_dir")
        start wbridge "$cli" bridge "$DISPLAY" "wayland:$sway_dir/$socket" -s clipboard
        wbridge_pid=$started
        wait_for "$work/wbridge.err" "connected wayland:" 20 || { cat "$work/wbridge.err" >&2; die "the bridge did not start"; }
        wayland_runs=$([ $quick = 1 ] && echo 2 || echo 9)
        unset wayland_times
        declare -A wayland_times
        printf 'sixteen bytes!!\n' >"$work/wayland-16"
        head -c $((50 << 20)) /dev/urandom >"$work/wayland-50m"
        # until_bridged FROM COUNT: until the bridge has printed more than COUNT "bridged CLIPBOARD from FROM" lines.
        until_bridged() {
            local deadline=$((SECONDS + 30))
            until [ "$(grep -c "bridged CLIPBOARD from $1" "$work/wbridge.err" || true)" -gt "$2" ]; do
                [ $SECONDS -lt $deadline ] || { cat "$work/wbridge.err" >&2; die "the bridge did not offer the copy from $1"; }
                sleep 0.01
            done
        }
        for size in 16 50m; do
            file=$work/wayland-$size
            # X → Wayland: xclip's copy on X's CLIPBOARD crosses; wl-copy's on Wayland's PRIMARY is the one-side paste.
            before=$(grep -c "bridged CLIPBOARD from $DISPLAY" "$work/wbridge.err" || true)
            start_owner "wx-owner-$size" "Waiting for selection" "$file" xclip -quiet -i -selection clipboard -t "$octet"
            x_owner=$started
            until_bridged "$DISPLAY" "$before"
            "${wayland_env[@]}" wl-copy --primary --type "$octet" <"$file"
            for ((run = 0; run < wayland_runs; run++)); do
                wayland_times[xw-across-$size]+=" $(field "$("$cbin/benchrun" -n 1 -- "${wayland_env[@]}" wl-paste --no-newline --type "$octet")" median_ms)"
                wayland_times[xw-floor-$size]+=" $(field "$("$cbin/benchrun" -n 1 -- "${wayland_env[@]}" wl-paste --no-newline --primary --type "$octet")" median_ms)"
            done
            "${wayland_env[@]}" wl-paste --no-newline --type "$octet" | cmp -s - "$file" || die "the $size paste across the bridge (X → Wayland) differs"
            # Wayland → X: wl-copy's copy on Wayland's CLIPBOARD crosses; xclip's on X's PRIMARY is the one-side paste.
            before=$(grep -c "bridged CLIPBOARD from wayland:" "$work/wbridge.err" || true)
            "${wayland_env[@]}" wl-copy --type "$octet" <"$file"
            until_bridged "wayland:" "$before"
            stop "$x_owner"
            start_owner "wx-primary-$size" "Waiting for selection" "$file" xclip -quiet -i -selection primary -t "$octet"
            x_primary=$started
            for ((run = 0; run < wayland_runs; run++)); do
                wayland_times[wx-across-$size]+=" $(field "$("$cbin/benchrun" -n 1 -- xclip -o -selection clipboard -t "$octet")" median_ms)"
                wayland_times[wx-floor-$size]+=" $(field "$("$cbin/benchrun" -n 1 -- xclip -o -selection primary -t "$octet")" median_ms)"
            done
            xclip -o -selection clipboard -t "$octet" | cmp -s - "$file" || die "the $size paste across the bridge (Wayland → X) differs"
            stop "$x_primary"
        done
        wbridge_rss=$(awk '/^VmHWM/ { print $2 }' "/proc/$wbridge_pid/status")
        stop "$wbridge_pid"
        "${wayland_env[@]}" wl-copy --clear 2>/dev/null || true
        "${wayland_env[@]}" wl-copy --primary --clear 2>/dev/null || true
        # The commands natively on the compositor (issue 40).
        # shellcheck source=Benchmarks/wayland-native.sh
        . "$here/wayland-native.sh"
        stop "$sway_pid"
        rm -rf "$sway_dir"
        protocol=$(grep -o 'through [a-z_0-9]*' "$work/wbridge.err" | head -1 | cut -d' ' -f2)
        heading "X ↔ Wayland bridge: a paste across clipbridge bridge (sway $("${sway_binary[@]}" --version 2>/dev/null | awk '{ print $3 }') headless, $protocol), against the same paste within one side (median of $wayland_runs interleaved rounds; ratio: median of the per-round ratios)"
        row '  %-44s %10s %10s   %s' "" "bridged" "one side" "bridged vs one side"
        for size in 16 50m; do
            label=$([ $size = 16 ] && echo '16 B' || echo '50 MiB')
            # shellcheck disable=SC2086
            row '  %-44s %8s ms %8s ms   %s' "X → Wayland, $label (wl-paste; one side: of wl-copy)" \
                "$(median ${wayland_times[xw-across-$size]})" "$(median ${wayland_times[xw-floor-$size]})" \
                "$(round_ratios "${wayland_times[xw-across-$size]}" "${wayland_times[xw-floor-$size]}")"
            # shellcheck disable=SC2086
            row '  %-44s %8s ms %8s ms   %s' "Wayland → X, $label (xclip -o; one side: of xclip -i)" \
                "$(median ${wayland_times[wx-across-$size]})" "$(median ${wayland_times[wx-floor-$size]})" \
                "$(round_ratios "${wayland_times[wx-across-$size]}" "${wayland_times[wx-floor-$size]}")"
        done
        row '  %-44s %10s KiB' "the bridge's peak RSS (after relaying 50 MiB ×$((2 * wayland_runs + 2)))" "$wbridge_rss"
    done
fi

# --- Drag and drop: XdndDrop → data delivered, into a GTK 4 window (issue 13) --------------------------------
#
# The GTK 4 target (Tests/Peers/gtk4_dnd.py) times each drop itself, from its drop signal (XdndDrop received) to
# the last byte read (elapsed_ms). The drags come from `clipbridge drag --from-pointer --data` and from a GTK 4
# drag source (`--write-chunk` for 50 MiB: GTK's bytes provider otherwise writes one property, over the
# server's request size), alternately, with the pointer driven through XTEST.

# --- Across machines: a paste through `clipbridge bridge … ssh:HOST:DISPLAY` (issue 41), in Benchmarks/remote.sh ----

if wants remote && [ -n "$cli" ]; then
    # shellcheck source=Benchmarks/remote.sh
    . "$root/Benchmarks/remote.sh"
fi

if wants dnd && [ -n "$cli" ]; then
    dnd_type=application/x-clipbridge-bench
    dnd_runs=$([ $quick = 1 ] && echo 2 || echo 7)
    mkdir -p "$work/dnd-saved"
    printf 'sixteen bytes!!\n' >"$work/dnd-16"
    head -c $((50 << 20)) /dev/urandom >"$work/dnd-50m"
    start dnd-target /usr/bin/python3 "$peers/gtk4_dnd.py" --target --accept "$dnd_type" --save "$work/dnd-saved" \
        --geometry 400,300,300,200 --read-timeout 120 --timeout 3000
    dnd_target_pid=$started
    wait_for "$work/dnd-target.out" '^READY' 30 || { cat "$work/dnd-target.err" >&2; die "the GTK 4 drop target did not start"; }
    # dropped_after N: waits for the drop line after the first N; prints its elapsed_ms (nan when it failed).
    dropped_after() {
        local deadline=$((SECONDS + 120))
        until [ "$(grep -c '"event": "drop' "$work/dnd-target.out" || true)" -gt "$1" ]; do
            [ $SECONDS -lt $deadline ] || { echo nan; return; }
            sleep 0.02
        done
        grep '"event": "drop' "$work/dnd-target.out" | sed -n "$(($1 + 1))p" | grep -o '"elapsed_ms": [0-9.]*' | grep -o '[0-9.]*$' || echo nan
    }
    drops() { grep -c '"event": "drop' "$work/dnd-target.out" || true; }
    declare -A dnd_times
    for size in 16 50m; do
        chunk=(); [ $size = 50m ] && chunk=(--write-chunk 1048576)
        start "dnd-source-$size" /usr/bin/python3 "$peers/gtk4_dnd.py" --source --offer "$dnd_type" "$work/dnd-$size" \
            "${chunk[@]}" --geometry 20,20,200,150 --timeout 3000
        source_pid=$started
        wait_for "$work/dnd-source-$size.out" '^READY' 30 || die "the GTK 4 drag source did not start"
        for ((run = 0; run < dnd_runs; run++)); do
            before=$(drops)
            /usr/bin/python3 "$peers/pointer.py" move 5 5
            "$cli" drag --from-pointer --data -t "$dnd_type" --file "$work/dnd-$size" >"$work/dnd-drag.out" 2>"$work/dnd-drag.err" &
            drag_pid=$!
            wait_for "$work/dnd-drag.err" 'dragging from the pointer' 20 || die "clipbridge drag did not start"
            /usr/bin/python3 "$peers/pointer.py" glide 550 400 sleep 150 press sleep 30 release
            wait "$drag_pid" || note "dnd $size: clipbridge drag exited $?"
            dnd_times[clipbridge-$size]+=" $(dropped_after "$before")"
            [ $run = 0 ] && { cmp -s "$work/dnd-saved/drop-$((before + 1))" "$work/dnd-$size" || die "dnd $size: the drop from clipbridge differs"; }
            before=$(drops)
            /usr/bin/python3 "$peers/pointer.py" move 100 90 sleep 100 press glide 140 130 glide 550 400 sleep 200 release
            dnd_times[gtk4-$size]+=" $(dropped_after "$before")"
            [ $run = 0 ] && { cmp -s "$work/dnd-saved/drop-$((before + 1))" "$work/dnd-$size" || die "dnd $size: the drop from GTK 4 differs"; }
            rm -f "$work"/dnd-saved/*
        done
        stop "$source_pid"
    done
    stop "$dnd_target_pid"
    heading "Drag and drop into a GTK 4 window: XdndDrop to the last byte in the drop handler (the GTK 4 target's own clock; median of $dnd_runs interleaved rounds; ratio: median of the per-round ratios)"
    row '  %-44s %10s %10s   %s' "" "clipbridge" "GTK 4" "clipbridge vs GTK 4"
    for size in 16 50m; do
        # shellcheck disable=SC2086
        row '  %-44s %8s ms %8s ms   %s' "$([ $size = 16 ] && echo '16 B' || echo '50 MiB')" \
            "$(median ${dnd_times[clipbridge-$size]})" "$(median ${dnd_times[gtk4-$size]})" \
            "$(round_ratios "${dnd_times[clipbridge-$size]}" "${dnd_times[gtk4-$size]}")"
    done
fi

# --- Summary ------------------------------------------------------------------------------------------------

printf '%s\n' "${results[@]}"
