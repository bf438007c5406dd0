#!/bin/sh
# kill -9 of runnerd, then of the master: declared services come back,
# and exactly one instance of each runs afterwards (processes counted
# by the tag on their command line, sandboxes by ps).  A service
# started by sandboxctl outlives runnerd (the master keeps it) but not
# the master, as sandboxd(8) says.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 23
setup_users
S=$ROOT/regress/services
TAG=t$$
write_conf "
policy \"svc\" {
	filesystem { read \"$S\" }
}
service \"d1\" { policy \"svc\"; command \"python3 $S/svc_plugin.py --tag d1-$TAG\" }
service \"d2\" {
	policy \"svc\"
	command \"python3\" \"$S/svc_plugin.py\" \"--tag\" \"d2-$TAG\"
}"
suite_start || { notok "suite started"; exit 1; }
ok "suite started"
. "$S/svc.sh"

nproc() { pgrep -fc -- "svc_plugin.py --tag $1-$TAG\$"; }
# nsbx NAME: sandboxes ps shows for service NAME
nsbx() {
	ctl -j ps | python3 -c '
import json, sys
print(sum(1 for l in sys.stdin if json.loads(l).get("service") == sys.argv[1]))' "$1"
}
# one NAME WHEN: exactly one process and one sandbox, as TAP lines
one() {
	is "$(nproc "$1")" 1 "$2: one $1 process runs"
	is "$(nsbx "$1")" 1 "$2: one $1 sandbox in ps"
}

check "declared services start at boot" svc_wait 10 d1 state=running declared=true
check "... both" svc_wait 10 d2 state=running
ctl service start adhoc -p svc -- python3 $S/svc_plugin.py --tag adhoc-$TAG >/dev/null
check "one started by sandboxctl runs too" svc_wait 10 adhoc state=running
one d1 "at first"

kill -9 "$(child_field runnerd pid)"
check "after kill -9 of runnerd the services come back" \
    svc_wait 20 d1 state=running starts=2
svc_wait 10 d2 state=running starts=2
svc_wait 10 adhoc state=running starts=2
sleep 2
one d1 "after runnerd"
one d2 "after runnerd"
is "$(nproc adhoc)" 1 "after runnerd: the sandboxctl one runs once too"
check "each was started exactly once more" \
    svc_is d1 starts=2 restarts=0
is "$($A d1 count service.lost)" 1 "the loss is audited, not counted as a crash"

kill -9 "$SBX_PID"
wait "$SBX_PID" 2>/dev/null
check "with the master gone, every service process is gone" \
    wait_for 10 sh -c "! pgrep -f -- '--tag [a-z0-9]*-$TAG\$' >/dev/null"
suite_run || { notok "the suite started again"; exit 1; }
ok "the suite started again"
check "after kill -9 of the master the declared services come back" \
    svc_wait 20 d1 state=running starts=1
svc_wait 10 d2 state=running
sleep 2
one d1 "after the master"
one d2 "after the master"
is "$(nproc adhoc)" 0 "the service sandboxctl started did not outlive the master"
out=$(ctl service status adhoc 2>&1)
check "... and the new master does not know it" contains "$out" 'no such service: adhoc'

done_testing
