# ClipBridge benchmarks: the commands natively on a Wayland compositor, no X (issue 40), against wl-clipboard.
# Sourced by run.sh in its wayland section, once per sway build (its helpers: start, stop, wait_for, median, row,
# heading, note, interleaved; $cli, $work, $quick, $sway_dir, $socket, $sway_build).
#
# 1. `clipbridge paste` and `copy` of 16 B and 64 MiB against `wl-paste` and `wl-copy`, interleaved rounds.
#    Goals: 16 B ≤ 1.2×; 64 MiB paste ≤ 0.8×.
# 2. (sway 1.7 only) From a 50 MiB copy until `clipbridge history` lists it: on the compositor (wl-copy, the daemon on
#    Wayland) against on X (xclip -i, the daemon on the Xvfb), both daemons running, rounds interleaved. Goal: no
#    slower than on X. Then the Wayland daemon's RSS once its history holds 1 GiB. Goal: ≤ 64 MiB.

native=(env -u DISPLAY "WAYLAND_DISPLAY=$sway_dir/$socket" "XDG_RUNTIME_DIR=$sway_dir")
native_rounds=$([ "$quick" = 1 ] && echo 3 || echo 15)
heading "On Wayland without X, sway $sway_build: clipbridge against wl-clipboard, wall time of the command (interleaved rounds; median ratio)"
printf 'clipbridge bench' >"$work/wl16.txt"
[ -f "$work/wl64.txt" ] || awk 'BEGIN { line = "The quick brown fox jumps over the lazy dog 0123456789 ClipBridge benchmark text.\n";
    for (n = 0; n < (64 * 1048576) / length(line); n++) printf "%s", line }' >"$work/wl64.txt"
for size in 16 64; do
    file=$work/wl$size.txt
    label=$([ $size = 16 ] && echo "16 B" || echo "64 MiB")
    per=$([ $size = 16 ] && echo 10 || echo 1)
    size_rounds=$([ $size = 16 ] && echo "$native_rounds" || echo "$runs64")
    "${native[@]}" wl-copy <"$file"
    peer_command=("${native[@]}" wl-paste --no-newline); our_command=("${native[@]}" "$cli" paste)
    interleaved "$size_rounds" "$per"
    row '  %-40s %10s ms   wl-paste %s ms   %s×' "paste $label: clipbridge paste" "$our_ms" "$peer_ms" "$ratio_x"
    peer_command=("${native[@]}" wl-copy); our_command=("${native[@]}" "$cli" copy)
    interleaved "$size_rounds" "$per" -i "$file"
    row '  %-40s %10s ms   wl-copy %s ms   %s×' "copy $label: clipbridge copy" "$our_ms" "$peer_ms" "$ratio_x"
    "${native[@]}" wl-paste --no-newline | cmp -s - "$file" || note "wayland native $label: the last copy does not paste back byte-exact"
done
"${native[@]}" wl-copy --clear

if [ "$sway_build" = debian ]; then
    x_history=$work/wl-history-x; w_history=$work/wl-history-w
    "$cli" copy --clear >/dev/null 2>&1 || true
    start wl-xdaemon "$cli" daemon --replace --config /dev/null --history-directory "$x_history" --max-size 2048 --max-flavour-size 1024
    x_daemon=$started
    start wl-wdaemon "${native[@]}" "$cli" daemon --config /dev/null --history-directory "$w_history" --max-size 2048 --max-flavour-size 1024
    w_daemon=$started
    wait_for "$work/wl-xdaemon.err" 'keeping CLIPBOARD' 20 || die "clipbridge daemon did not start on X"
    wait_for "$work/wl-wdaemon.err" 'keeping CLIPBOARD' 20 || die "clipbridge daemon did not start on Wayland"
    # until_listed DIRECTORY FILE COPY...: seconds from COPY (FILE on its standard input) until DIRECTORY's newest entry
    # is FILE's (its summary is FILE's first line: an entry's byte count is its flavours' sum, and a Wayland copy has
    # several), nan after 60 s.
    until_listed() {
        local directory=$1 file=$2 marker begin deadline=$((SECONDS + 60)); shift 2
        marker=$(head -1 "$file")
        begin=$(now_ns)
        "$@" <"$file" >/dev/null 2>&1
        while [ $SECONDS -lt $deadline ]; do
            if "$cli" history --directory "$directory" -n 1 2>/dev/null | grep -qF "$marker"; then
                awk -v d="$(($(now_ns) - begin))" 'BEGIN { printf "%.3f", d / 1e9 }'
                return
            fi
            sleep 0.005
        done
        echo nan
    }
    head -c $((50 << 20)) /dev/zero | tr '\0' 'w' >"$work/wl-50m.base"
    unset listed; declare -A listed
    for ((run = 0; run < $([ "$quick" = 1 ] && echo 2 || echo 5); run++)); do
        { printf 'round %s on X\n' "$run"; cat "$work/wl-50m.base"; } >"$work/wl-50m-x"
        { printf 'round %s on Wayland\n' "$run"; cat "$work/wl-50m.base"; } >"$work/wl-50m-w"
        listed[x]+=" $(until_listed "$x_history" "$work/wl-50m-x" xclip -selection clipboard -i)"
        listed[w]+=" $(until_listed "$w_history" "$work/wl-50m-w" "${native[@]}" wl-copy)"
    done
    stop "$x_daemon"
    # shellcheck disable=SC2086
    row '  %-40s %10s s   on X (xclip -i) %s s   %s' "50 MiB copy until history lists it" "$(median ${listed[w]})" \
        "$(median ${listed[x]})" "$(round_ratios "${listed[w]}" "${listed[x]}")"
    # The Wayland daemon's memory with 1 GiB of history: 21 more copies of 50 MiB, each different.
    recorded=$(grep -c 'history: entry' "$work/wl-wdaemon.err" || true)
    for ((index = 1; index <= 21; index++)); do
        head -c $((50 << 20)) /dev/urandom >"$work/wl-gib"
        "${native[@]}" wl-copy --type application/octet-stream <"$work/wl-gib"
        deadline=$((SECONDS + 60))
        until [ "$(grep -c 'history: entry' "$work/wl-wdaemon.err" || true)" -ge $((recorded + index)) ]; do
            [ $SECONDS -lt $deadline ] || { note "wayland history: copy $index not recorded"; break; }
            sleep 0.02
        done
    done
    rm -f "$work/wl-gib" "$work"/wl-50m-*
    w_rss=$(ps -o rss= -p "$w_daemon" | awk '{ printf "%.1f", $1 / 1024 }')
    w_bytes=$(du -sm "$w_history" | cut -f1)
    row '  %-40s %10s MiB (history on disk: %s MiB; goal ≤ 64 MiB)' "RSS of clipbridge daemon on Wayland" "$w_rss" "$w_bytes"
    stop "$w_daemon"
    "${native[@]}" wl-copy --clear
fi
