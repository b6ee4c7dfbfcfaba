# ClipBridge benchmarks: one clipboard across machines over OpenSSH (issue 41). Sourced by run.sh in its remote
# section (its helpers: start, stop, wait_for, wait_beyond, median, row, heading, note, round_ratios, field; $cli, $cbin, $work,
# $quick, $octet, $DISPLAY).
#
# sshd on loopback with its own keys (as the tests' SSHServer) stands for the far machine, a second Xvfb for its display;
# `clipbridge bridge $DISPLAY ssh:HOST:$far` links them through `ssh -F`.
# 1. 50 MiB copied on the far display (xclip -i), pasted here (xclip -o) through the link, against `ssh HOST cat` of the
#    same bytes — over a connection already open (an ssh ControlMaster: the link's own connection is open too) and
#    over a new one. Goal: ≤ 1.3× `ssh HOST cat`.
# 2. 16 B the same way, against the same paste on one display. Goal: within 2 ms.
# 3. Both bridges' peak RSS after 20 pastes of 50 MiB at once. Goal: bounded (not 20 × 50 MiB).

if [ ! -x /usr/sbin/sshd ]; then
    note "remote: /usr/sbin/sshd is not installed (openssh-server): section skipped"
else
    ssh_dir=$work/sshd
    mkdir -p "$ssh_dir" && chmod 700 "$ssh_dir"
    ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/host_key"
    ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/user_key"
    cp "$ssh_dir/user_key.pub" "$ssh_dir/authorized_keys"
    [ "$(id -u)" != 0 ] || mkdir -p /run/sshd
    ssh_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    cat >"$ssh_dir/sshd_config" <<CONFIG
Port $ssh_port
ListenAddress 127.0.0.1
HostKey $ssh_dir/host_key
AuthorizedKeysFile $ssh_dir/authorized_keys
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin prohibit-password
PidFile none
MaxStartups 100:30:200
MaxSessions 100
CONFIG
    cat >"$ssh_dir/ssh_config" <<CONFIG
Host bench-machine
  HostName 127.0.0.1
  Port $ssh_port
  User $(id -un)
  IdentityFile $ssh_dir/user_key
  IdentitiesOnly yes
  IdentityAgent none
  BatchMode yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
  ControlPath $ssh_dir/master-%C
CONFIG
    start sshd /usr/sbin/sshd -D -e -f "$ssh_dir/sshd_config"
    sshd_pid=$started
    wait_for "$work/sshd.err" 'Server listening' 20 || { cat "$work/sshd.err" >&2; die "sshd did not start"; }
    ssh_cmd=(ssh -F "$ssh_dir/ssh_config")
    Xvfb -displayfd 3 -nolisten tcp -noreset -screen 0 1280x800x24 3>"$work/display-far" >"$work/xvfb-far.log" 2>&1 &
    far_xvfb=$!
    background+=("$far_xvfb")
    wait_for "$work/display-far" '^[0-9]+$' 20 || { cat "$work/xvfb-far.log" >&2; die "the far Xvfb did not start"; }
    far=":$(head -1 "$work/display-far")"
    link="ssh:bench-machine:$far"
    start link-bridge "$cli" bridge "$DISPLAY" "$link" -s clipboard --ssh-command "${ssh_cmd[*]}" --remote-command "$cli"
    link_pid=$started
    wait_for "$work/link-bridge.err" "clipbridge: connected $far" 30 || { cat "$work/link-bridge.err" >&2; die "the link did not start"; }
    # The far bridge: the `--stdio` process under sshd, for its RSS.
    far_pid=$(pgrep -f -- "^$cli bridge --stdio .*$far\$" | head -1 || true)
    # An open connection for `ssh cat` to reuse, as the link reuses its own.
    "${ssh_cmd[@]}" -o ControlMaster=yes -o ControlPersist=600 -fN bench-machine

    remote_runs=$([ "$quick" = 1 ] && echo 2 || echo 9)
    declare -A remote_times
    printf 'sixteen bytes!!\n' >"$work/remote-16"
    head -c $((50 << 20)) /dev/urandom >"$work/remote-50m"
    for size in 16 50m; do
        bridged=$(grep -c "bridged CLIPBOARD from $link" "$work/link-bridge.err" || true)
        start_owner "remote-owner-$size" "Waiting for selection" "$work/remote-$size" \
            env DISPLAY="$far" xclip -quiet -i -selection clipboard -t "$octet"
        owner_pid=$started
        wait_beyond "$work/link-bridge.err" "bridged CLIPBOARD from $link" "$bridged" 20 \
            || { cat "$work/link-bridge.err" >&2; die "the link did not offer the $size copy"; }
        for ((run = 0; run < remote_runs; run++)); do
            remote_times[across-$size]+=" $(field "$("$cbin/benchrun" -n 1 -- xclip -o -selection clipboard -t "$octet")" median_ms)"
            remote_times[one-$size]+=" $(field "$("$cbin/benchrun" -n 1 -- env DISPLAY="$far" xclip -o -selection clipboard -t "$octet")" median_ms)"
            remote_times[cat-$size]+=" $(field "$("$cbin/benchrun" -n 1 -- "${ssh_cmd[@]}" -o ControlMaster=no bench-machine cat "$work/remote-$size")" median_ms)"
            remote_times[fresh-$size]+=" $(field "$("$cbin/benchrun" -n 1 -- "${ssh_cmd[@]}" -S none bench-machine cat "$work/remote-$size")" median_ms)"
        done
        xclip -o -selection clipboard -t "$octet" | cmp -s - "$work/remote-$size" || die "the $size paste across the link differs from the original"
        stop "$owner_pid"
    done
    # 20 pastes of 50 MiB, 10 at a time (the X side relays at most 16 at once), from a far owner that serves them all
    # at once (xclip serves one INCR transfer at a time), then both bridges' peak RSS.
    bridged=$(grep -c "bridged CLIPBOARD from $link" "$work/link-bridge.err" || true)
    DISPLAY="$far" "$cli" copy --file "$work/remote-50m" -t "$octet"
    wait_beyond "$work/link-bridge.err" "bridged CLIPBOARD from $link" "$bridged" 20 \
        || { cat "$work/link-bridge.err" >&2; die "the link did not offer the concurrent copy"; }
    concurrent_ok=0
    for batch in 0 1; do
        readers=()
        for ((reader = 0; reader < 10; reader++)); do
            xclip -o -selection clipboard -t "$octet" >"$work/remote-reader-$reader" 2>&1 &
            readers+=($!)
        done
        for ((reader = 0; reader < 10; reader++)); do
            wait "${readers[$reader]}" && cmp -s "$work/remote-reader-$reader" "$work/remote-50m" && concurrent_ok=$((concurrent_ok + 1))
            rm -f "$work/remote-reader-$reader"
        done
    done
    DISPLAY="$far" "$cli" copy --clear
    near_rss=$(awk '/^VmHWM/ { print $2 }' "/proc/$link_pid/status")
    far_rss=$([ -n "$far_pid" ] && awk '/^VmHWM/ { print $2 }' "/proc/$far_pid/status" 2>/dev/null || echo "?")
    stop "$link_pid"
    "${ssh_cmd[@]}" -O exit bench-machine 2>/dev/null || true
    stop "$sshd_pid"
    stop "$far_xvfb"

    heading "Across machines (sshd on loopback): xclip -o here of xclip's copy on the far display through clipbridge bridge … ssh:, against ssh cat of the same bytes and the same paste on one display (median of $remote_runs interleaved rounds; ratio: median of the per-round ratios)"
    row '  %-22s %10s %14s %12s %12s   %-24s %s' "" "across" "one display" "ssh cat" "ssh cat new" "across vs ssh cat (open)" "across vs one display"
    for size in 16 50m; do
        # shellcheck disable=SC2086
        row '  %-22s %7s ms %11s ms %9s ms %9s ms   %-24s %s' "$([ $size = 16 ] && echo '16 B' || echo '50 MiB')" \
            "$(median ${remote_times[across-$size]})" "$(median ${remote_times[one-$size]})" \
            "$(median ${remote_times[cat-$size]})" "$(median ${remote_times[fresh-$size]})" \
            "$(round_ratios "${remote_times[across-$size]}" "${remote_times[cat-$size]}")" \
            "+$(awk -v a="$(median ${remote_times[across-$size]})" -v b="$(median ${remote_times[one-$size]})" 'BEGIN { printf "%.2f ms", a - b }')"
    done
    row '  %-44s %s KiB here, %s KiB on the far side (%s of 20 byte-exact)' "peak RSS after 20 × 50 MiB pasted, 10 at a time" "$near_rss" "$far_rss" "$concurrent_ok"
fi
