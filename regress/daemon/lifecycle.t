#!/bin/sh
# The suite starts and stops inside a namespace the test creates and
# leaves nothing behind; it refuses to start without its users.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 12

setup_users
write_conf ""
check "suite starts in namespace $NS" suite_start
check "control socket exists" test -S "$SOCK"
pids=$(ctl -j status | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
print(" ".join(str(r["pid"]) for r in rows if r["event"] == "proc.status"))')
is "$(echo $pids | wc -w)" 5 "five processes: the master and four children"
is "$(ip netns pids "$NS" | sort -n | tr '\n' ' ')" \
    "$(echo $pids | tr ' ' '\n' | sort -n | tr '\n' ' ')" \
    "exactly those processes live in the namespace"
for p in $pids; do
	[ "$p" = "$SBX_PID" ] && continue
	[ "$(awk '$1 == "PPid:" { print $2 }' /proc/$p/status)" = "$SBX_PID" ] ||
	    bad=$p
done
is "${bad:-}" "" "every child is the master's child"
check "SIGTERM stops the suite" suite_stop
left=""
for p in $pids; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
is "$left" "" "no process outlives the master"
check "the control socket is removed" test ! -e "$SOCK"
is "$(ip netns pids "$NS" | wc -l)" 0 "the namespace is empty"
check "the master said it terminated" grep -q "sandboxd.*terminating" "$LOG"

# A missing user is fatal, never a fallback to root.
userdel _sbxdnspind
ip netns exec "$NS" "$SANDBOXD" -d -f "$T/sandboxd.conf" -s "$SOCK" \
    >"$T/nouser.log" 2>&1
rc=$?
setup_users
check "without its users sandboxd refuses to start" [ "$rc" != 0 ]
check "and names the missing user" grep -q "_sbxdnspind does not exist" "$T/nouser.log"
done_testing
