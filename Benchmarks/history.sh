# ClipBridge benchmarks: the clipboard history (issue 28) against CopyQ, the manager that keeps the most formats.
# Sourced by run.sh (its helpers: start, stop, wait_for, median, ratio, row, heading, note; $cli, $work, $quick).
#
# 1. From a copy (`xclip -i`: 1 MiB and 50 MiB of text, a 20 MiB PNG) until the entry reads back whole from the
#    command line — `clipbridge history show ID -t TARGET` against `copyq read MIME 0` — one manager running at a
#    time, each round's content unique (neither manager takes it for the previous copy).
# 2. Each manager's RSS after those copies (CopyQ: its server and its clipboard monitor together).
# 3. Listing and searching 10,000 entries: `clipbridge history` and `history search`, against CopyQ's script API
#    (`copyq eval`, its one way to list or search from the command line). Goal: < 50 ms each.
# 4. A 50 MiB entry restored (`clipbridge history restore`) and read by GTK 4, against the same read from
#    `xclip -i`. Goal: ≤ 1.1×.
# 5. The daemon's RSS while its history holds 1 GiB. Goal: ≤ 64 MiB.
# 6. Encrypted at rest (a key command): from a copy until readable, 1 MiB and 50 MiB, against the plain history in
#    the same run; sealing a plain history of 10,000 entries in place; listing and searching it (search then opens
#    each entry's text in memory). Goal: < 50 ms each, as plain.

history_runs=$([ "$quick" -eq 1 ] && echo 1 || echo 5)
history_dir=$work/history
copyq_dir=$work/copyq
peers=$root/Tests/Peers
mkdir -p "$copyq_dir"
# CopyQ's settings and items in the run's own directory, never the user's.
export COPYQ_SETTINGS_PATH=$copyq_dir

# rss_kb PID...: the resident set of these processes together, in KiB.
rss_kb() { ps -o rss= -p "$(IFS=,; echo "$*")" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# The payloads, each round's own: a first line naming the round, so no manager takes it for the last copy.
head -c $((1 << 20)) /dev/zero | tr '\0' 'a' >"$work/hist-1m.base"
head -c $((50 << 20)) /dev/zero | tr '\0' 'b' >"$work/hist-50m.base"
# A 20 MiB PNG of random RGB pixels (incompressible), made once; a round's copy has its marker after IEND, where
# decoders stop.
head -c $((2900 * 2400 * 3)) /dev/urandom >"$work/hist-20m.rgb"
convert -size 2900x2400 -depth 8 "rgb:$work/hist-20m.rgb" "png:$work/hist-20m.png.base" 2>/dev/null \
    || die "ImageMagick's convert is needed for the history benchmark"
rm -f "$work/hist-20m.rgb"
payload() {  # payload KIND RUN: writes the round's file, prints its path
    local kind=$1 run=$2 file="$work/hist-$1-$2"
    case "$kind" in
        png) { cat "$work/hist-20m.png.base"; printf 'round %s\n' "$run"; } >"$file" ;;
        *) { printf 'round %s\n' "$run"; cat "$work/hist-$kind.base"; } >"$file" ;;
    esac
    echo "$file"
}
target_of() { [ "$1" = png ] && echo image/png || echo UTF8_STRING; }
mime_of() { [ "$1" = png ] && echo image/png || echo text/plain; }

# clipbridge_until_readable FILE TARGET: seconds from the copy until `history show` of the newest entry gives FILE's
# size (nan after 60 s).
clipbridge_until_readable() {
    local file=$1 target=$2 size begin id before deadline=$((SECONDS + 60))
    size=$(stat -c %s "$file")
    # The newest entry before this copy (this runs in a command substitution: no state survives between rounds).
    before=$("$cli" history --directory "$history_dir" -n 1 2>/dev/null | cut -f1 || true)
    begin=$(now_ns)
    xclip -selection clipboard -t "$target" -i "$file" >/dev/null 2>&1
    while [ $SECONDS -lt $deadline ]; do
        id=$("$cli" history --directory "$history_dir" -n 1 --json 2>/dev/null | grep -F "\"bytes\":$size" | sed 's/.*"id":\([0-9]*\).*/\1/' || true)
        if [ -n "$id" ] && [ "$id" != "$before" ] \
            && [ "$("$cli" history show "$id" --directory "$history_dir" -t "$target" 2>/dev/null | wc -c)" = "$size" ]; then
            awk -v d="$(($(now_ns) - begin))" 'BEGIN { printf "%.3f", d / 1e9 }'
            "$cli" history show "$id" --directory "$history_dir" -t "$target" >"$work/clipbridge-shown" 2>&1 || true
            if cmp -s "$work/clipbridge-shown" "$file"; then
                echo yes >"$work/clipbridge-exact-${target%%/*}"
            else
                echo no >"$work/clipbridge-exact-${target%%/*}"
                note "history: entry $id differs from the copy: $(cmp "$work/clipbridge-shown" "$file" 2>&1 | head -1)"
            fi
            return
        fi
        sleep 0.01
    done
    echo nan
}

# copyq_until_readable FILE TARGET MIME: the same with CopyQ: its item count grows, then `copyq read MIME 0` gives
# FILE's size — or, for an image, any bytes: CopyQ re-encodes images (a 20,902,657-byte PNG read back as another
# size), so it is timed until it gives its own PNG, and whether that was byte-exact is noted (copyq-exact-*).
copyq_until_readable() {
    local file=$1 target=$2 mime=$3 size begin count got deadline=$((SECONDS + 60))
    size=$(stat -c %s "$file")
    count=$(copyq count 2>/dev/null || echo 0)
    begin=$(now_ns)
    xclip -selection clipboard -t "$target" -i "$file" >/dev/null 2>&1
    while [ $SECONDS -lt $deadline ]; do
        got=-1
        [ "$(copyq count 2>/dev/null || echo 0)" -gt "$count" ] && got=$(copyq read "$mime" 0 2>/dev/null | wc -c)
        if [ "$got" = "$size" ] || { [ "$mime" = image/png ] && [ "$got" -gt 0 ]; }; then
            # (A file: this runs in a command substitution's subshell.)
            copyq read "$mime" 0 2>/dev/null | cmp -s - "$file" && echo yes >"$work/copyq-exact-${mime%%/*}" \
                || echo no >"$work/copyq-exact-${mime%%/*}"
            awk -v d="$(($(now_ns) - begin))" 'BEGIN { printf "%.3f", d / 1e9 }'
            return
        fi
        sleep 0.01
    done
    echo nan
}

start_clipbridge_history() {  # [DAEMON OPTIONS...]
    "$cli" copy --clear >/dev/null 2>&1 || true
    start history-daemon "$cli" daemon --replace --config /dev/null --history-directory "$history_dir" \
        --max-size 2048 --max-flavour-size 1024 --history-size 4096 "$@"
    history_daemon_pid=$started
    wait_for "$work/history-daemon.err" 'keeping CLIPBOARD' 20 || die "clipbridge daemon did not start"
}
# start_copyq: CopyQ's server, once it answers and its clipboard monitor records copies; dies with its log when it
# does not. `copyq --start-server` forks the server (`copyq -s`) and exits. The previous server must have exited
# (stop_copyq): a second start while one still runs only hands its arguments to the first.
start_copyq() {
    "$cli" copy --clear >/dev/null 2>&1 || true
    start copyq copyq --start-server
    local answered=no
    for _ in $(seq 500); do copyq count >/dev/null 2>&1 && { answered=yes; break; }; sleep 0.02; done
    [ $answered = yes ] || die "CopyQ's server did not start: $(tail -5 "$work/copyq.err" "$work/copyq.out" 2>/dev/null)"
    copyq config maxitems 10000 >/dev/null
    # Its clipboard monitor is a process of its own that starts a moment after the server answers, and misses a copy
    # made before (seen: the first of two copies a second apart): copies, not timed, until one shows.
    local count attempt recorded=no
    for attempt in $(seq 20); do
        count=$(copyq count)
        echo "warm-up $attempt" | xclip -selection clipboard -i >/dev/null 2>&1
        for _ in $(seq 50); do [ "$(copyq count)" -gt "$count" ] && { recorded=yes; break; }; sleep 0.02; done
        [ $recorded = yes ] && break
    done
    [ $recorded = yes ] || die "CopyQ's clipboard monitor recorded none of 20 copies: $(tail -5 "$work/copyq.err" 2>/dev/null)"
    # Killed on the way out as the processes run.sh started are, should the run end before stop_copyq.
    # shellcheck disable=SC2207
    background+=($(copyq_pids))
}
# stop_copyq: asks the server to exit and waits until it and its monitor have (10 s), else kills them.
stop_copyq() {
    local pids; pids=$(copyq_pids)
    copyq exit >/dev/null 2>&1 || true
    for _ in $(seq 500); do
        local alive=no
        for pid in $pids; do kill -0 "$pid" 2>/dev/null && alive=yes; done
        [ $alive = no ] && return
        sleep 0.02
    done
    note "CopyQ did not exit within 10 s: killed"
    # shellcheck disable=SC2086
    kill -9 $pids 2>/dev/null || true
}
# The CopyQ processes of this run — the server and its monitor — told from any other CopyQ by the settings
# directory in their environment (this run's own, exported above).
copyq_pids() {
    local pid
    for pid in $(pgrep -x copyq || true); do
        tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "COPYQ_SETTINGS_PATH=$copyq_dir" && printf '%s ' "$pid"
    done
}

declare -A until_readable=()
for kind in 1m 50m png; do
    start_clipbridge_history
    for ((run = 0; run < history_runs; run++)); do
        until_readable[clipbridge-$kind]+=" $(clipbridge_until_readable "$(payload "$kind" "c$run")" "$(target_of "$kind")")"
    done
    clipbridge_rss=$(rss_kb "$history_daemon_pid")
    stop "$history_daemon_pid"
    start_copyq
    for ((run = 0; run < history_runs; run++)); do
        until_readable[copyq-$kind]+=" $(copyq_until_readable "$(payload "$kind" "q$run")" "$(target_of "$kind")" "$(mime_of "$kind")")"
    done
    # shellcheck disable=SC2046
    copyq_rss=$(rss_kb $(copyq_pids))
    stop_copyq
    rm -f "$work"/hist-"$kind"-[cq]*
done

heading "Clipboard history against CopyQ $(copyq --version 2>/dev/null | awk 'NR == 1 { print $NF }'): from a copy until the entry reads back whole from the command line (seconds, median of $history_runs)"
row '  %-44s %10s %10s   %s' "" "clipbridge" "CopyQ" "ratio"
for kind in 1m 50m png; do
    name=$(case $kind in 1m) echo "1 MiB of text" ;; 50m) echo "50 MiB of text" ;; png) echo "a 20 MiB PNG" ;; esac)
    # shellcheck disable=SC2086
    a=$(median ${until_readable[clipbridge-$kind]}); b=$(median ${until_readable[copyq-$kind]})
    row '  %-44s %8s s %8s s   %s' "$name" "$a" "$b" "$(ratio "$a" "$b")"
done
row '  %-44s %10s %10s' "read back byte-exact (text / PNG)" \
    "$(cat "$work/clipbridge-exact-UTF8_STRING" 2>/dev/null || echo '?') / $(cat "$work/clipbridge-exact-image" 2>/dev/null || echo '?')" "$(cat "$work/copyq-exact-text" 2>/dev/null || echo '?') / $(cat "$work/copyq-exact-image" 2>/dev/null || echo '?')"
row '  %-44s %7s MiB %7s MiB   %s' "RSS after the last copy (the 20 MiB PNG)" "$(mib "$clipbridge_rss")" "$(mib "$copyq_rss")" \
    "$(ratio "$clipbridge_rss" "$copyq_rss")"

# --- 10,000 entries ---------------------------------------------------------------------------------------------
#
# clipbridge's are put straight into its database (what the daemon would write for 10,000 short copies); CopyQ's
# through its script API. Listing prints every entry's line; searching finds the entries holding one word.
list_dir=$work/history-10k
"$cli" history --directory "$list_dir" -n 1 >/dev/null 2>&1 || true
sqlite3 "$list_dir/history.sqlite3" <<'SQL' || die "sqlite3 could not fill the history (scripts/install-deps.sh)"
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
INSERT INTO entry (selection, first_copied_at, copied_at, byte_count, fingerprint, summary)
    SELECT 'CLIPBOARD', i, i, length('entry number ' || i || ' word' || (i % 97)), randomblob(32),
           'entry number ' || i || ' word' || (i % 97) FROM n;
INSERT INTO flavour (entry_id, position, target, type, format, byte_count, bytes)
    SELECT id, 0, 'UTF8_STRING', 'UTF8_STRING', 8, byte_count, CAST(summary AS BLOB) FROM entry;
INSERT INTO entry_text (rowid, body) SELECT id, summary FROM entry;
COMMIT;
SQL
start_copyq
copyq eval 'for (var i = 1; i <= 10000; ++i) add("entry number " + i + " word" + (i % 97))' >/dev/null
declare -A listing=()
time_of() { local begin; begin=$(now_ns); "$@" >/dev/null 2>&1; awk -v d="$(($(now_ns) - begin))" 'BEGIN { printf "%.1f", d / 1e6 }'; }
for ((run = 0; run < history_runs * 2; run++)); do
    listing[clipbridge-list]+=" $(time_of "$cli" history --directory "$list_dir")"
    listing[copyq-list]+=" $(time_of copyq eval 'var s = ""; for (var i = 0; i < size(); ++i) s += i + "\t" + str(read(i)).split("\n")[0] + "\n"; print(s)')"
    listing[clipbridge-search]+=" $(time_of "$cli" history search word13 --directory "$list_dir")"
    listing[copyq-search]+=" $(time_of copyq eval 'var s = ""; for (var i = 0; i < size(); ++i) { var t = str(read(i)); if (t.indexOf("word13") >= 0) s += i + "\t" + t + "\n" } print(s)')"
done
[ "$("$cli" history --directory "$list_dir" | wc -l)" = 10000 ] || die "clipbridge history did not list 10,000 entries"
[ "$(copyq count)" -ge 10000 ] || die "CopyQ did not keep 10,000 entries"
stop_copyq
heading "10,000 entries: the whole list, and a one-word search (milliseconds, whole processes, median of $((history_runs * 2)); CopyQ through copyq eval)"
row '  %-44s %10s %10s   %s' "" "clipbridge" "CopyQ" "ratio"
for what in list search; do
    # shellcheck disable=SC2086
    a=$(median ${listing[clipbridge-$what]}); b=$(median ${listing[copyq-$what]})
    row '  %-44s %7s ms %7s ms   %s' "$([ $what = list ] && echo 'history (every line)' || echo 'history search word13 (103 entries)')" "$a" "$b" "$(ratio "$a" "$b")"
done

# --- Restore of a 50 MiB entry, read by GTK 4 --------------------------------------------------------------------
start_clipbridge_history
restore_file=$(payload 50m restore)
xclip -selection clipboard -t UTF8_STRING -i "$restore_file" >/dev/null 2>&1
wait_for "$work/history-daemon.err" "history: entry" 60 || die "the 50 MiB copy was not recorded"
restore_id=$("$cli" history --directory "$history_dir" -n 1 | cut -f1)
declare -A gtk_reads=()
gtk_read() {  # seconds for GTK 4 to read the clipboard's text whole
    local begin got
    begin=$(now_ns)
    got=$(/usr/bin/python3 "$peers/gtk4_clipboard.py" --read-text --timeout 60 | wc -c)
    [ "$got" -ge $((50 << 20)) ] || { echo nan; return; }
    awk -v d="$(($(now_ns) - begin))" 'BEGIN { printf "%.3f", d / 1e9 }'
}
for ((run = 0; run < history_runs; run++)); do
    "$cli" history restore "$restore_id" --directory "$history_dir" >/dev/null
    sleep 0.3
    gtk_reads[restore]+=" $(gtk_read)"
    xclip -selection clipboard -t UTF8_STRING -i "$restore_file" >/dev/null 2>&1
    sleep 0.3
    gtk_reads[xclip]+=" $(gtk_read)"
done
heading "A 50 MiB history entry restored and read by GTK 4, against the same read from xclip -i (seconds, median of $history_runs; ratio: median of the per-round ratios)"
# shellcheck disable=SC2086
row '  %-44s %8s s %8s s   %s' "GTK 4 read_text" "$(median ${gtk_reads[restore]})" "$(median ${gtk_reads[xclip]})" \
    "$(round_ratios "${gtk_reads[restore]}" "${gtk_reads[xclip]}")"

# --- The daemon holding a 1 GiB history ----------------------------------------------------------------------------
for ((index = 0; index < 21; index++)); do
    file=$work/hist-gib-$index
    head -c $((50 << 20)) /dev/urandom >"$file"
    xclip -selection clipboard -t application/octet-stream -i "$file" >/dev/null 2>&1
    wait_for "$work/history-daemon.err" "history: entry $((restore_id + index + 1)):" 60 || note "history: copy $index not recorded"
    rm -f "$file"
done
history_bytes=$(du -sk "$history_dir" | cut -f1)
with_history=$(rss_kb "$history_daemon_pid")
stop "$history_daemon_pid"
# The same daemon without a history, after the same kind of copies: what the history itself adds.
"$cli" copy --clear >/dev/null 2>&1 || true
start plain-daemon "$cli" daemon --replace --config /dev/null --no-history --max-size 2048 --max-flavour-size 1024
plain_pid=$started
wait_for "$work/plain-daemon.err" 'keeping CLIPBOARD' 20 || die "clipbridge daemon --no-history did not start"
for ((index = 0; index < 5; index++)); do
    file=$work/hist-plain-$index
    head -c $((50 << 20)) /dev/urandom >"$file"
    xclip -selection clipboard -t application/octet-stream -i "$file" >/dev/null 2>&1
    wait_for "$work/plain-daemon.err" "kept CLIPBOARD" 60 || true
    for _ in $(seq 600); do [ "$(grep -c 'kept CLIPBOARD' "$work/plain-daemon.err")" -gt "$index" ] && break; sleep 0.05; done
    rm -f "$file"
done
without_history=$(rss_kb "$plain_pid")
stop "$plain_pid"
heading "The daemon with a history of $(mib "$history_bytes") MiB on disk (22 entries of 50 MiB)"
row '  %-44s %7s MiB' "RSS of clipbridge daemon (goal ≤ 64 MiB)" "$(mib "$with_history")"
row '  %-44s %7s MiB' "the same with --no-history, after 5 such copies" "$(mib "$without_history")"

# --- Encrypted at rest ---------------------------------------------------------------------------------------------
#
# The key from a key command in a settings file of the run's own (XDG_CONFIG_HOME), so the daemon and `history`
# both find it, as a user's would.
mkdir -p "$work/enc-config/clipbridge"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$work/enc-key"
printf 'history-key-command: cat %s\n' "$work/enc-key" >"$work/enc-config/clipbridge/daemon.yaml"
plain_history_dir=$history_dir
declare -A encrypted=()
for mode in plain encrypted; do
    history_dir=$work/history-$mode
    if [ $mode = encrypted ]; then
        export XDG_CONFIG_HOME=$work/enc-config
        start_clipbridge_history --history-key-command "cat $work/enc-key"
    else
        start_clipbridge_history
    fi
    for kind in 1m 50m; do
        for ((run = 0; run < history_runs; run++)); do
            encrypted[$mode-$kind]+=" $(clipbridge_until_readable "$(payload "$kind" "$mode$run")" UTF8_STRING)"
        done
        rm -f "$work"/hist-"$kind"-"$mode"*
    done
    stop "$history_daemon_pid"
    unset XDG_CONFIG_HOME
done
history_dir=$plain_history_dir
grep -q ', encrypted' "$work/history-daemon.err" || note "history: the daemon did not say it recorded encrypted"
# Sealing the 10,000 plain entries in place (the first open with a key), then the list and the search over them.
cp -r "$list_dir" "$work/history-10k-sealed"
sealing=$(XDG_CONFIG_HOME=$work/enc-config time_of "$cli" history --directory "$work/history-10k-sealed" -n 1)
for ((run = 0; run < history_runs * 2; run++)); do
    encrypted[list]+=" $(XDG_CONFIG_HOME=$work/enc-config time_of "$cli" history --directory "$work/history-10k-sealed")"
    encrypted[search]+=" $(XDG_CONFIG_HOME=$work/enc-config time_of "$cli" history search word13 --directory "$work/history-10k-sealed")"
done
found_plain=$("$cli" history search word13 --directory "$list_dir" | cut -f1 | sort)
found_sealed=$(XDG_CONFIG_HOME=$work/enc-config "$cli" history search word13 --directory "$work/history-10k-sealed" | cut -f1 | sort)
[ -n "$found_sealed" ] && [ "$found_sealed" = "$found_plain" ] \
    || die "the encrypted history's search did not find what the plain one finds ($(echo "$found_sealed" | grep -c .) against $(echo "$found_plain" | grep -c .))"
grep -q 'entry number 5000 word' "$work/history-10k-sealed/history.sqlite3" && die "the sealed history still holds plain text"
heading "Encrypted at rest (history-key-command), against the plain history in the same run"
row '  %-44s %10s %10s   %s' "" "encrypted" "plain" "ratio"
for kind in 1m 50m; do
    # shellcheck disable=SC2086
    a=$(median ${encrypted[encrypted-$kind]}); b=$(median ${encrypted[plain-$kind]})
    row '  %-44s %8s s %8s s   %s' "copy until readable, $([ $kind = 1m ] && echo '1 MiB' || echo '50 MiB') (median of $history_runs)" "$a" "$b" "$(ratio "$a" "$b")"
done
row '  %-44s %7s ms' "sealing 10,000 plain entries in place (once)" "$sealing"
# shellcheck disable=SC2086
row '  %-44s %7s ms %7s ms   %s' "history, 10,000 entries (median of $((history_runs * 2)))" "$(median ${encrypted[list]})" "$(median ${listing[clipbridge-list]})" "$(ratio "$(median ${encrypted[list]})" "$(median ${listing[clipbridge-list]})")"
# shellcheck disable=SC2086
row '  %-44s %7s ms %7s ms   %s' "history search word13 (103 found)" "$(median ${encrypted[search]})" "$(median ${listing[clipbridge-search]})" "$(ratio "$(median ${encrypted[search]})" "$(median ${listing[clipbridge-search]})")"
