#!/bin/sh
# service attach, stop, restart, status and list, and the services in
# sandboxctl status and ps: one attached client at a time, bytes round
# trip exactly, detaching leaves the service running; unattached its
# output is drained and dropped and its input sees nothing; bad
# requests get clear errors; a reload starts and stops declared ones.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 46
setup_users
S=$ROOT/regress/services
write_conf "
policy \"svc\" {
	filesystem { read \"$S\" }
	restart never
}
service \"decl\" { policy \"svc\"; command \"python3 $S/svc_plugin.py\" }"
suite_start || { notok "suite started"; exit 1; }
ok "suite started"
. "$S/svc.sh"
svc_wait 10 decl state=running

ctl service start p -p svc -- python3 $S/svc_plugin.py >/dev/null
check "a service runs" svc_wait 10 p state=running
pid=$(svc_field p pid)

out=$(python3 $S/svc_client.py --bytes 40 $SANDBOXCTL -s $SOCK service attach p)
diag "$out"
check "attach: 40 requests of every byte value, up to 256 KB, back byte for byte" \
    contains "$out" '^byte-exact 40 of 40$'
check "... and attach ends when its input does" contains "$out" '^exit 0$'
check "detached, the service goes on running, the same instance" \
    svc_is p state=running attached=false pid=$pid starts=1

# A first client that stays attached; a second is refused.
mkfifo "$T/in"
$SANDBOXCTL -s $SOCK service attach p <"$T/in" >"$T/att.out" 2>&1 &
att=$!
exec 7>"$T/in"
check "the first client is attached" svc_wait 5 p attached=true
out=$(ctl service attach p </dev/null 2>&1; echo "rc=$?")
check "a second attach is refused, saying why" \
    contains "$out" 'service p has a client attached already; one at a time'
check "... with exit status 125, as sandboxctl(8) says" contains "$out" '^rc=125$'
body='{"jsonrpc":"2.0","id":7,"method":"x"}'
printf 'Content-Length: %d\r\n\r\n%s' ${#body} "$body" >&7
sleep 0.5
check "the attached one still talks to it" grep -q '"id": 7' "$T/att.out"
exec 7>&-
wait "$att"
check "closing its input detaches it" svc_wait 5 p attached=false state=running pid=$pid
out=$(talk p '[["echo",[2]]]')
check "and the next client may attach" contains "$out" '^\[2\]$'

# Nobody attached: output drained and dropped, input silent.
ctl service start chatter -p svc -- sh -c 'while :; do echo tick; done' >/dev/null
ctl service start reader -p svc -- sh -c 'read x; echo "got $x" >&2; exit 7' >/dev/null
svc_wait 10 chatter state=running
svc_wait 10 reader state=running
sleep 2
d1=$(svc_field chatter stdout_dropped)
sleep 1
d2=$(svc_field chatter stdout_dropped)
check "unattached output is read and dropped (${d1} then ${d2} bytes), never blocks" \
    test "$d2" -gt "$d1" -a "$d1" -gt 0
rss=$(proc_status "$SBX_PID" VmRSS)
sleep 2
rss2=$(proc_status "$SBX_PID" VmRSS)
check "... and the master does not grow with it (${rss} kB, then ${rss2} kB)" \
    test "$rss2" -lt $((rss + 1024))
check "an unattached service's input sees nothing: it is still waiting" \
    svc_is reader state=running starts=1

# stderr has no cap for a service: one that floods it grows no daemon.
ctl service start errflood -p svc -- sh -c 'exec yes flooding >&2' >/dev/null
svc_wait 10 errflood state=running
rpid=$(child_field runnerd pid)
sleep 1
r1=$(proc_status "$rpid" VmRSS); m1=$(proc_status "$SBX_PID" VmRSS)
sleep 3
r2=$(proc_status "$rpid" VmRSS); m2=$(proc_status "$SBX_PID" VmRSS)
check "a service flooding stderr: runnerd ${r1} then ${r2} kB, the master ${m1} then ${m2} kB" \
    test "$r2" -lt $((r1 + 4096)) -a "$m2" -lt $((m1 + 4096))
# The master stopped: runnerd stops reading the service's stderr once 64
# messages wait for the master, instead of queueing without bound; the
# service then blocks on its full pipe.  It goes on when the master does.
ypid=$(svc_field errflood pid)
wchar() { awk '$1 == "wchar:" { print $2 }' /proc/$ypid/io; }
kill -STOP $SBX_PID
sleep 1
w1=$(wchar); sleep 1; w2=$(wchar); r3=$(proc_status "$rpid" VmRSS)
kill -CONT $SBX_PID
sleep 1
w3=$(wchar)
check "the master stopped: the service's writes stop (${w1} then ${w2} bytes), runnerd ${r2} then ${r3} kB" \
    test "$w1" = "$w2" -a "$r3" -lt $((r2 + 8192))
check "... and go on once it runs again (${w3} bytes)" test "$w3" -gt "$w2"
ctl service stop errflood >/dev/null
check "... the master took it all along: the stop line has its last lines" \
    contains "$($A errflood field service.stop stderr)" '^\["flooding", "flooding", '

# status, ps, list
out=$(ctl status)
check "sandboxctl status lists the services" contains "$out" '^p  *running  *svc '
check "... declared ones too" contains "$out" '^decl  *running '
out=$(ctl -j status | jfield name service)
is "$out" "decl" "status -j: a service event per service"
out=$(ctl ps)
check "sandboxctl ps names each sandbox's service" \
    contains "$out" "^$(svc_field p sandbox) .* p\$"
out=$(ctl service list)
check "service list has a row per service" \
    test "$(printf '%s\n' "$out" | grep -c ' running ')" -eq 4
out=$(ctl service status p)
check "service status NAME says it all" contains "$out" '^restart:  *never max 5 per 600s$'
check "... the command" contains "$out" "^command:  *python3 $S/svc_plugin.py\$"

# stop, restart
out=$(ctl service stop chatter)
is "$out" "stopped" "service stop answers once it has stopped"
check "... and it shows stopped" svc_is chatter state=stopped pid=0
is "$(ctl -j ps | grep -c '"service":"chatter"')" 0 "... with no sandbox left"
is "$($A chatter count service.stop)" 1 "the stop is audited"
out=$(ctl service restart p)
check "service restart" svc_wait 10 p state=running starts=2
check "... a new instance" test "$(svc_field p pid)" != 0
out=$(ctl service start chatter)
check "a stopped service starts again by name" svc_wait 10 chatter state=running starts=2

# errors
out=$(ctl service stop nope 2>&1)
check "an unknown service: a clear error" contains "$out" 'no such service: nope'
out=$(ctl service start p -- true 2>&1)
check "a running one is not started twice" contains "$out" 'service p is already running'
out=$(ctl service start decl -- true 2>&1)
check "a declared one is not redefined" contains "$out" 'declared in the config'
out=$(ctl service start 'b c' -- true 2>&1)
check "a bad name is refused by sandboxctl" contains "$out" 'bad service name'
out=$(ctl service start x -p nope -- true 2>&1)
check "an unknown policy: a clear error" contains "$out" 'no such policy: nope'

# reload: a new declared service starts, a dropped one stops.
write_conf "
policy \"svc\" {
	filesystem { read \"$S\" }
	restart never
}
service \"later\" { policy \"svc\"; command \"python3 $S/svc_plugin.py\" }
service \"bad\" { policy \"svc\"; command \"false\" }"
ctl reload >/dev/null
check "reload starts a newly declared service" svc_wait 10 later state=running declared=true
out=$(ctl service status decl 2>&1)
check "... and stops and forgets one no longer declared" \
    wait_for 10 sh -c "$SANDBOXCTL -s $SOCK service status decl 2>&1 | grep -q 'no such service'"
check "a declared service that fails (restart never) shows failed" \
    svc_wait 10 bad state=failed starts=1
ctl reload >/dev/null
check "a reload starts a failed declared service again" \
    svc_wait 10 bad starts=2
check "... and leaves an unchanged running one alone" svc_is later starts=1 state=running

# A reload that changes the policy a running service is under makes it
# again under the new one; a change to another policy does not.
conf2() {
	write_conf "
policy \"svc\" {
	filesystem { read \"$S\" }
	restart never
	$1
}
policy \"other\" { $2 }
service \"later\" { policy \"svc\"; command \"python3 $S/svc_plugin.py\" }"
}
pstarts=$(svc_field p starts)
conf2 "" "limits { pids 50 }"
ctl reload >/dev/null
sleep 1
check "a reload that changes another policy leaves a service alone" \
    svc_is later starts=1 state=running
conf2 "limits { pids 99 }" "limits { pids 50 }"
ctl reload >/dev/null
check "one that changes its own policy makes it again" \
    svc_wait 10 later starts=2 state=running
is "$(cat /sys/fs/cgroup/pids/$(cgroup_group)/$(svc_field later sandbox)/pids.max)" \
    99 "... under the new limits"
check "... a service started by sandboxctl under that policy too" \
    svc_wait 10 p starts=$((pstarts + 1)) state=running

done_testing
