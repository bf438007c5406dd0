#!/bin/sh
# Pause and resume on pure cgroup v2 (Debian 12's 6.1, systemd): pause
# writes cgroup.freeze and waits for "frozen 1" in cgroup.events; a busy
# loop's cpu.stat usage_usec stays flat while frozen and grows again
# after resume; the ttl does not run while paused; an exec is refused
# with 125; a paused sandbox is destroyed at once, cgroup and processes
# gone (v2 delivers SIGKILL to frozen tasks, and we thaw too); a short
# ttl expires with its audit line in the journal.
. "${SBX_SRC:-.}/regress/host/guest/lib.sh"
plan 15

check "sandboxd.service is active and answers" wait_for 60 sbx_ready
U=$(systemctl show -p ControlGroup --value sandboxd)
sget() {
	sandboxctl -j show "$1" | python3 -c '
import json, sys
for l in sys.stdin:
    s = json.loads(l)
    if s.get("event") == "sandbox":
        print(eval(sys.argv[1])); break' "$2"
}
usage() { awk '$1 == "usage_usec" { print $2 }' "$S/cpu.stat"; }

id=$(sandboxctl create --ttl 600s)
S=/sys/fs/cgroup$U/sandboxes/$id
uid=$(sget "$id" 's["uid"]')
sandboxctl exec "$id" -- sh -c 'while :; do :; done' >/dev/null 2>&1 &
epid=$!
u0=$(usage); sleep 2
check "a busy loop takes CPU (usage_usec $u0 -> $(usage))" [ "$(usage)" -gt "$u0" ]
sandboxctl pause "$id" >/dev/null
is "$?" 0 "sandboxctl pause"
is "$(cat "$S/cgroup.freeze")" 1 "cgroup.freeze is 1"
check "cgroup.events says frozen 1" grep -qx "frozen 1" "$S/cgroup.events"
u1=$(usage); ttl1=$(sget "$id" 's["ttl"]["left"]')
sleep 3
is "$(usage)" "$u1" "paused: usage_usec stays flat over 3s"
is "$(sget "$id" 's["ttl"]["left"]')" "$ttl1" "and the ttl does not run"
out=$(sandboxctl exec "$id" -- true 2>&1)
is "$?" 125 "an exec into it is refused with 125: $out"
sandboxctl resume "$id" >/dev/null
u2=$(usage); sleep 2
check "resumed: the loop takes CPU again ($u2 -> $(usage))" [ "$(usage)" -gt "$u2" ]
sandboxctl pause "$id" >/dev/null
t0=$(date +%s)
sandboxctl destroy "$id" >/dev/null
is "$?" 0 "destroy of the paused sandbox"
check "returns within 5s ($(( $(date +%s) - t0 ))s)" [ $(( $(date +%s) - t0 )) -le 5 ]
wait "$epid"
nouid() { [ "$(ps -eo uid= | awk -v u="$uid" '$1 == u' | wc -l)" = 0 ]; }
check "no process of it is left" wait_for 10 nouid
check "its cgroup is gone" wait_for 10 test ! -d "$S"

id=$(sandboxctl create --ttl 2s)
gone() { ! sandboxctl ps | grep -q "^$id "; }
check "a 2s ttl destroys the sandbox" wait_for 20 gone
audit() {
	journalctl --no-pager -b -u sandboxd | grep '"audit":"sandbox.expire"' |
	    grep "\"sandbox\":\"$id\"" | grep -q '"reason":"ttl"'
}
check "with an audit line, reason ttl, in the journal" wait_for 10 audit
done_testing
