#!/bin/sh
# make demo: the suite in a throwaway network namespace, shown working.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B="$ROOT/${SANDBOXD_BUILD:-build}"
T=$(mktemp -d /tmp/sbxdemo.XXXXXX)
NS="sbxdemo$$"
SOCK="$T/sandboxd.sock"
PID=

cleanup() {
	[ -n "$PID" ] && kill -TERM "$PID" 2>/dev/null && sleep 1
	ip netns del "$NS" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

say() { printf '\n==> %s\n' "$*"; }

[ "$(id -u)" = 0 ] || { echo "make demo needs root" >&2; exit 1; }
sh "$ROOT/rc/sandboxd-users.sh"

say "checking etc/sandboxd.conf"
"$B/sandboxd" -n -f "$ROOT/etc/sandboxd.conf" || exit 1

say "starting the suite in network namespace $NS"
ip netns add "$NS"
ip -n "$NS" link set lo up
ip netns exec "$NS" "$B/sandboxd" -d -f "$ROOT/etc/sandboxd.conf" \
    -s "$SOCK" 2>"$T/log" &
PID=$!
i=0
until "$B/sandboxctl" -s "$SOCK" status 2>/dev/null | grep -q 'dnspind.*running'; do
	i=$((i + 1)); [ $i -gt 100 ] && { cat "$T/log"; exit 1; }
	sleep 0.1
done

say "sandboxctl status"
"$B/sandboxctl" -s "$SOCK" status

say "killing netd with SIGKILL: the master restarts it"
kill -KILL "$("$B/sandboxctl" -s "$SOCK" -j status | grep '"netd"' |
    sed 's/.*"pid":\([0-9]*\).*/\1/')"
sleep 1
"$B/sandboxctl" -s "$SOCK" status | grep -E '^(NAME|netd)'

say "sandboxctl reload"
"$B/sandboxctl" -s "$SOCK" reload

say "the daemons' log"
cat "$T/log"

say "stopping"
kill -TERM "$PID"
wait "$PID" 2>/dev/null
PID=
echo "stopped; nothing is left in $NS: $(ip netns pids "$NS" | wc -l) processes"
