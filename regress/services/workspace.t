#!/bin/sh
# keep-workspace: a service's workspace outlives its sandboxes.  A file
# written by one instance is read by the next after a crash, after
# service restart and after kill -9 of runnerd, with the same uid each
# time, a uid no other live sandbox has; without the statement the
# file is gone after a crash.  The kept workspace is not another
# sandbox's to see, keeps its quota, and service stop removes it from
# the host (directory and mount); a master killed with -9 leaves none.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 30
setup_users
S=$ROOT/regress/services
write_conf "
policy \"keep\" {
	keep-workspace
	limits { workspace 1M }
	filesystem { read \"$S\" }
}
policy \"fresh\" {
	filesystem { read \"$S\" }
}"
out=$("$SANDBOXD" -nv -f "$T/sandboxd.conf" 2>&1)
check "sandboxd -nv prints keep-workspace for the policy that has it" \
    contains "$(printf '%s\n' "$out" | sed -n '/^policy "keep"/,/^}/p')" \
    '^	keep-workspace$'
check "... and not for one without it" test -n \
    "$(printf '%s\n' "$out" | sed -n '/^policy "fresh"/,/^}/p')" -a -z \
    "$(printf '%s\n' "$out" | sed -n '/^policy "fresh"/,/^}/p' | grep keep)"
suite_start || { echo "Bail out! the suite did not start"; exit 1; }
. "$S/svc.sh"

uid_of() { talk "$1" '[["whoami",{}]]' | python3 -c '
import json, sys; print(json.loads(sys.stdin.read().splitlines()[0])["uid"])'; }
# in_runnerd CMD...: on the host, in runnerd's mount namespace
in_runnerd() { nsenter -m -t "$(child_field runnerd pid)" "$@"; }
# every live sandbox's uid, one a line
uids() { ctl -j ps | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("event") == "sandbox":
        print(r["uid"])'; }

ctl service start k -p keep -- python3 $S/svc_plugin.py >/dev/null
ctl service start f -p fresh -- python3 $S/svc_plugin.py >/dev/null
check "a service with keep-workspace runs" svc_wait 10 k state=running
check "one without it too" svc_wait 10 f state=running
id=$(svc_field k sandbox)
KEPT=$T/state/services/$id
is "$(talk k '[["write",{"path":"note","data":"kept-'$$'"}]]' | sed -n 1p)" \
    '"ok"' "the service writes a file to its workspace"
talk f '[["write",{"path":"note","data":"fresh-'$$'"}]]' >/dev/null
uid1=$(uid_of k)
diag "sandbox $id, uid $uid1"

talk k '[["exit",{"code":9}]]' >/dev/null
talk f '[["exit",{"code":9}]]' >/dev/null
check "it crashes and is restarted" svc_wait 10 k state=running starts=2
svc_wait 10 f state=running starts=2
is "$(talk k '[["read",{"path":"note"}]]' | sed -n 1p)" "\"kept-$$\"" \
    "the restarted instance reads the file the crashed one wrote"
is "$(talk f '[["read",{"path":"note"}]]' | sed -n 1p)" \
    '"failed: FileNotFoundError"' "without keep-workspace the file is gone"
is "$(uid_of k)" "$uid1" "the same uid as before the crash"

out=$(ctl service restart k)
check "service restart" svc_wait 10 k state=running starts=3
is "$(talk k '[["read",{"path":"note"}]]' | sed -n 1p)" "\"kept-$$\"" \
    "after service restart the file is still there"
is "$(uid_of k)" "$uid1" "... and the uid the same"

# Other sandboxes: their own uids and workspaces, no way to the kept one.
id2=$(ctl create -p keep)
ctl service start k2 -p keep -- python3 $S/svc_plugin.py >/dev/null
svc_wait 10 k2 state=running
diag "live uids: $(uids | tr '\n' ' ')"
is "$(uids | grep -cx "$uid1")" 1 "no other live sandbox has the service's uid"
is "$(uids | sort | uniq -d | wc -l)" 0 "no two live sandboxes share a uid"
is "$(talk k2 '[["read",{"path":"note"}]]' | sed -n 1p)" \
    '"failed: FileNotFoundError"' \
    "another service of the same policy does not see the file"
out=$(ctl exec "$id2" -- sh -c 'ls -A /workspace; cat '"$T/state/$id/workspace/note $KEPT/note"' 2>&1; echo end')
diag "$out"
check "another sandbox's workspace is empty, the service's files are out of its reach" \
    test "$out" = "$(printf '%s\n' \
    "cat: $T/state/$id/workspace/note: No such file or directory" \
    "cat: $KEPT/note: No such file or directory" end)"
out=$(ctl get "$id2" note "$T/got" 2>&1)
check "get from the other sandbox finds no such file" contains "$out" \
    'no such file'
ctl get "$id" note "$T/got" >/dev/null 2>&1
is "$(cat "$T/got" 2>/dev/null)" "kept-$$" \
    "... while get from the service's sandbox does, the twin"
is "$(in_runnerd stat -c '%a %u' "$T/state/$id/workspace")" "700 $uid1" \
    "on the host the workspace is the service uid's alone, mode 700"
is "$(talk k '[["write",{"path":"big","data":"x","times":500000}]]' | sed -n 1p)" \
    '"ok"' "a write within the quota (1M) succeeds"
out=$(talk k '[["write",{"path":"big","data":"x","times":1100000}]]' | sed -n 1p)
is "$out" '"failed: OSError"' "the quota still holds (1M; ENOSPC past it)"
talk k '[["write",{"path":"big","data":""}]]' >/dev/null

# runnerd dies: the live service's workspace is kept for it.
kill -9 "$(child_field runnerd pid)"
check "after kill -9 of runnerd the service is back" \
    svc_wait 20 k state=running starts=4
is "$(talk k '[["read",{"path":"note"}]]' | sed -n 1p)" "\"kept-$$\"" \
    "... with its kept workspace"
is "$(uid_of k)" "$uid1" "... and its uid"

# service stop: the workspace goes, directory and mount.
ctl service stop k >/dev/null
check "service stop removes the kept workspace's directory" \
    wait_for 5 test ! -e "$KEPT"
check "... and nothing of it is mounted any more" \
    sh -c "! nsenter -m -t $(child_field runnerd pid) grep -q '$id' /proc/self/mountinfo"
check "... nor its sandbox's directory" test ! -e "$T/state/$id"
ctl service start k >/dev/null
svc_wait 10 k state=running starts=1
is "$(talk k '[["read",{"path":"note"}]]' | sed -n 1p)" \
    '"failed: FileNotFoundError"' "started again, it has a fresh workspace"
talk k '[["write",{"path":"note","data":"again"}]]' >/dev/null

# A new master starts afresh: nothing kept by the last one is left.
kill -9 "$SBX_PID"
wait "$SBX_PID" 2>/dev/null
wait_for 10 sh -c "! pgrep -f -- 'svc_plugin.py\$' >/dev/null"
suite_run || { echo "Bail out! the suite did not start again"; exit 1; }
check "after kill -9 of the master, no kept workspace is left" \
    wait_for 10 sh -c "test -z \"\$(ls -A '$T/state/services' 2>/dev/null)\""
check "... mounted or not" \
    sh -c "! nsenter -m -t $(child_field runnerd pid) grep -q ' $T/state/services/' /proc/self/mountinfo"

done_testing
