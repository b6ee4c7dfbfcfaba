#!/usr/bin/env bash
# Runs Xfce's real clipboard manager (xfsettingsd, Debian package xfce4-settings) on $DISPLAY for a test.
#
#   xfsettingsd_manager.sh [--timeout SECONDS] [--replace]
#
# xfsettingsd cannot start without a D-Bus session bus (it calls g_error() and aborts), and it only starts
# its clipboard manager after it owns org.xfce.SettingsDaemon on that bus. So this script starts, all under
# a temporary directory it creates and removes:
#   - a private dbus-daemon with its own config: a unix socket in the temp dir and NO service activation,
#     so nothing is D-Bus-activated behind our back (with Debian's stock session.conf, xfconfd, at-spi's
#     bus launcher and registry get activated, inherit the bus's HOME, and end up children of init, out of
#     reach of a kill by pid). xfconfd is not needed: the clipboard plugin never reads xfconf, and the other
#     plugins fall back to their defaults without a word.
#   - xfsettingsd --disable-wm-check --sm-client-disable, with HOME, XDG_*_HOME and XDG_RUNTIME_DIR in the
#     temp dir (it writes nothing to the real HOME), NO_AT_BRIDGE=1, stdin /dev/null and its output in a
#     log that is copied to stderr only if something fails.
# Then it waits (at most --timeout seconds, default 10; it takes ~0.15 s) until CLIPBOARD_MANAGER has an
# owner (a new one, with --replace), and prints "ready" on stdout. Nothing else is ever printed on stdout.
#
# It stops, killing what it started by pid (TERM, then KILL after 2 s) and removing the temp dir, on the
# first of: SIGTERM/SIGINT/SIGHUP; its parent process dying (it watches its own parent pid); end of file
# on stdin when stdin is a pipe or socket (with /dev/null, a file or a terminal, stdin is ignored).
# Exit status: 0 stopped on request (signal, parent gone, stdin closed); 1 failed to start or xfsettingsd
# died (its log on stderr); 2 usage. CLIPBOARD_MANAGER (and any CLIPBOARD the manager held) is unowned
# once this script has exited: the X server drops them with xfsettingsd's window.
#
# Needs: xfce4-settings, dbus-daemon (package dbus-daemon / dbus), python3-xlib for /usr/bin/python3.
# Not needed: dbus-x11 (dbus-launch), xfconf's daemon, a window manager, a session manager, a system bus.
set -uo pipefail

timeout=10
replace=""
while [ $# -gt 0 ]; do
    case "$1" in
        --timeout) timeout="${2:?--timeout needs a value}"; shift 2 ;;
        --replace) replace="--replace"; shift ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "xfsettingsd_manager: unknown argument: $1" >&2; exit 2 ;;
    esac
done
if [ -z "${DISPLAY:-}" ]; then
    echo "xfsettingsd_manager: DISPLAY is not set" >&2
    exit 2
fi
for program in xfsettingsd dbus-daemon /usr/bin/python3; do
    if ! command -v "$program" >/dev/null; then
        echo "xfsettingsd_manager: $program is not installed (apt-get install xfce4-settings dbus-daemon python3-xlib)" >&2
        exit 1
    fi
done

parent=$PPID
dir=$(mktemp -d "${TMPDIR:-/tmp}/xfsettingsd-manager.XXXXXX") || exit 1
bus_pid=""
xfs_pid=""
cleaned=""

log() { echo "xfsettingsd_manager: $*" >&2; }

alive() {  # alive PID: the process exists and is not a zombie (bash reaps late, inside a trap not at all)
    local line fields
    read -r line 2>/dev/null </proc/"$1"/stat || return 1
    fields=(${line##*) })
    [ "${fields[0]}" != Z ]
}

stop_pid() {  # stop_pid PID: TERM, wait up to 2 s, then KILL; PID is our own child.
    local pid=$1 i
    [ -n "$pid" ] || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 200; i++)); do
        alive "$pid" || break
        read -r -t 0.01 -u "$sleep_fd" _ 2>/dev/null
    done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    return 0
}

cleanup() {
    [ -n "$cleaned" ] && return
    cleaned=1
    stop_pid "$xfs_pid"   # first: its window, and with it CLIPBOARD_MANAGER, goes away at once
    stop_pid "$bus_pid"
    rm -rf "$dir"
}

fail() {
    log "$*"
    for file in "$dir"/xfsettingsd.log "$dir"/dbus.log; do
        [ -s "$file" ] && { log "--- ${file##*/}:"; cat "$file" >&2; }
    done
    cleanup
    exit 1
}

trap 'cleanup; exit 0' TERM INT HUP
trap 'cleanup' EXIT

# A pipe nobody writes to: `read -t` on it sleeps without forking.
exec {sleep_fd}<> <(:)

mkdir -p "$dir/home/.config" "$dir/home/.cache" "$dir/home/.local/share" "$dir/runtime"
chmod 700 "$dir/runtime"

# Starting owner of CLIPBOARD_MANAGER, as a window id or 0.
owner_of_manager() {
    /usr/bin/python3 -c '
import sys
from Xlib import display, X
try:
    d = display.Display()
except Exception as error:
    sys.exit("python-xlib: %s" % error)
w = d.get_selection_owner(d.intern_atom("CLIPBOARD_MANAGER"))
print(w.id if w and w != X.NONE else 0)'
}
initial_owner=$(owner_of_manager) || fail "cannot open display $DISPLAY"
if [ "$initial_owner" != 0 ] && [ -z "$replace" ]; then
    fail "CLIPBOARD_MANAGER is already owned (window $(printf '0x%x' "$initial_owner")); pass --replace to take over"
fi

cat >"$dir/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$dir/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF

export HOME="$dir/home" XDG_CONFIG_HOME="$dir/home/.config" XDG_CACHE_HOME="$dir/home/.cache" \
    XDG_DATA_HOME="$dir/home/.local/share" XDG_RUNTIME_DIR="$dir/runtime" \
    NO_AT_BRIDGE=1 GDK_BACKEND=x11
unset SESSION_MANAGER XFSETTINGSD_NO_CLIPBOARD DBUS_SESSION_BUS_ADDRESS

dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile --print-address=1 \
    </dev/null >"$dir/bus.address" 2>"$dir/dbus.log" {sleep_fd}<&- &
bus_pid=$!
for ((i = 0; i < 500; i++)); do
    [ -s "$dir/bus.address" ] && break
    alive "$bus_pid" || fail "dbus-daemon exited"
    read -r -t 0.01 -u "$sleep_fd" _
done
read -r address <"$dir/bus.address" || fail "dbus-daemon printed no address"
export DBUS_SESSION_BUS_ADDRESS="$address"

xfsettingsd --disable-wm-check --sm-client-disable $replace </dev/null >"$dir/xfsettingsd.log" 2>&1 {sleep_fd}<&- &
xfs_pid=$!

# Wait until CLIPBOARD_MANAGER has an owner other than the initial one, polling every 10 ms.
/usr/bin/python3 - "$xfs_pid" "$timeout" "$initial_owner" 2>>"$dir/xfsettingsd.log" <<'EOF' || fail "xfsettingsd did not take CLIPBOARD_MANAGER within ${timeout}s"
import os, sys, time
from Xlib import display, X
pid, limit, initial = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
d = display.Display()
atom = d.intern_atom("CLIPBOARD_MANAGER")
deadline = time.monotonic() + limit
while time.monotonic() < deadline:
    w = d.get_selection_owner(atom)
    if w and w != X.NONE and w.id != initial:
        sys.exit(0)
    try:
        with open("/proc/%d/stat" % pid) as stat:
            if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                sys.exit(1)
    except OSError:
        sys.exit(1)
    time.sleep(0.01)
sys.exit(1)
EOF
alive "$xfs_pid" || fail "xfsettingsd exited"

echo ready 2>/dev/null

stdin_is_channel=""
if [ -p /dev/stdin ] || [ -S /dev/stdin ]; then
    stdin_is_channel=1
fi

while :; do
    if [ -n "$stdin_is_channel" ]; then
        read -r -t 0.1 -u 0 _
        status=$?
        if [ "$status" -ne 0 ] && [ "$status" -le 128 ]; then
            break  # end of file on stdin
        fi
    else
        read -r -t 0.1 -u "$sleep_fd" _
    fi
    read -r stat_line </proc/$$/stat
    stat_fields=(${stat_line##*) })
    [ "${stat_fields[1]}" = "$parent" ] || break                     # our parent is gone
    alive "$xfs_pid" || fail "xfsettingsd exited"
    alive "$bus_pid" || fail "dbus-daemon exited"
done
cleanup
exit 0
