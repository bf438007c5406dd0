#!/bin/sh
# A timeout ends with 124 and no survivor; kill works the same way.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 17

setup_users
# A uid range of its own: other suites on this host do not count.
write_sandbox_conf "uid-range $((300000 + ($$ % 500) * 1000)) 1000"
check "suite starts" suite_start

survivors() {	# id: processes of the sandbox but its pid 1
	ctl -j show "$1" | jfield procs sandbox
}

s=$(sbx_create tight)
uid=$(in_sbx "$s" 'id -u')
t0=$(date +%s)
ctl exec -t 2 "$s" -- sh -c '
    (trap "" TERM; sleep 1000) &
    setsid sh -c "sleep 1000 & sleep 1000" &
    sh -c "sh -c \"sleep 1000\" &" &
    sleep 1000'
rc=$?
t1=$(date +%s)
is "$rc" 124 "a timeout exits with 124"
check "after about the timeout plus the grace period ($((t1 - t0))s)" [ $((t1 - t0)) -le 5 ]
is "$(survivors "$s")" 0 "no process survives: not one ignoring SIGTERM, not a double fork, not a new session"
is "$(pgrep -u "$uid" | wc -l)" 1 "the host sees only the sandbox's init with its uid"
is "$(in_sbx "$s" 'echo still usable')" "still usable" "the sandbox itself lives on"

r=$(ctl -j exec -t 1 "$s" -- sleep 100 | jfield reason exit)
is "$r" timeout "the result says timeout"
out=$(ctl exec -t 11 "$s" -- true 2>&1)
is "$?" 125 "a timeout above the policy's maximum is refused"
check "with a clear message" contains "$out" "exceeds the policy"

# sandboxctl kill runs the same sequence.
ctl -j exec "$s" -- sh -c '(trap "" TERM; sleep 1000) & sleep 1000' > "$T/kill.out" &
pid=$!
procs_ge2() { [ "$(survivors "$s")" -ge 2 ]; }
wait_for 5 procs_ge2
ctl kill "$s" >/dev/null
wait "$pid"
is "$?" 143 "kill ends the exec (SIGTERM: 128+15)"
is "$(jfield reason exit < "$T/kill.out")" killed "the result says killed"
is "$(survivors "$s")" 0 "kill leaves no survivor"

is "$(run_sbx -- sh -c 'exit 3'; echo $?)" 3 "run exits with the command's status"
is "$(run_sbx -- sh -c 'kill -9 $$'; echo $?)" 137 "run exits 128+N on signal N"
ctl destroy "$s" >/dev/null

# A client that goes away takes what it ran with it.
"$SANDBOXCTL" -s "$SOCK" run -- sh -c 'sleep 1000' >/dev/null 2>&1 &
cpid=$!
running() { [ "$(ctl ps | tail -n +2 | wc -l)" = 1 ]; }
check "a run sandbox is listed while its client waits" wait_for 5 running
ipid=$(ctl -j ps | jfield pid sandbox)
kill -KILL "$cpid"
gone() { [ "$(ctl ps | tail -n +2 | wc -l)" = 0 ]; }
check "when its client dies, the run sandbox is destroyed" wait_for 5 gone
# Its pid 1 gone, the kernel has killed every process of its pid ns.
dead() { ! kill -0 "$ipid" 2>/dev/null; }
check "and its pid 1 ($ipid) with every process in it" wait_for 5 dead
done_testing
