#!/bin/sh
# Under a service manager (a stand-in for systemd's notify socket, at an
# abstract address): READY=1 only once the control socket answers and
# every child runs with the config; STATUS= counts sandboxes;
# RELOADING=1/READY=1 around good and bad reloads; WATCHDOG=1 stops
# while a child is stopped and comes back with it.  The master raises
# its RLIMIT_NOFILE to the hard limit; a sandbox still has its policy's.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 24

setup_users
write_conf 'policy "few" {
	limits { nofile 300 }
}'
N="$T/notify.log"
ip netns add "$NS" && ip -n "$NS" link set lo up
# Abstract addresses are per network namespace: listen in the suite's.
ip netns exec "$NS" python3 "$ROOT/regress/daemon/notifysock.py" \
    "@sbxnotify$$" "$N" "$SANDBOXCTL" -s "$SOCK" -j status &
wait_for 5 grep -q listening "$N"
export NOTIFY_SOCKET="@sbxnotify$$" WATCHDOG_USEC=2000000
# As systemd starts a service: soft 1024, hard above (this machine
# lacks CAP_SYS_RESOURCE, so the hard limit is what we were given).
hard=$(ulimit -Hn)
ulimit -Sn 1024
check "suite starts" suite_run
unset NOTIFY_SOCKET WATCHDOG_USEC

# notified KEY=VALUE-PATTERN: a datagram with that line came.
notified() { grep -E -q "^[0-9.]+ $SBX_PID (.*\|)?$1(\||$)" "$N"; }
# after A B: the first line matching B comes after the last matching A.
after() {
	a=$(grep -n -E "$1" "$N" | tail -1 | cut -d: -f1)
	b=$(awk -v from="${a:-0}" -v re="$2" 'NR > from && $0 ~ re { print NR; exit }' "$N")
	[ -n "$a" ] && [ -n "$b" ]
}

check "READY=1 is sent, from the master's pid" wait_for 5 notified READY=1
rc=$(awk '/^ready-check/ { print $2; exit }' "$N")
is "$rc" 0 "the control socket answered when READY=1 came"
running=$(awk '/^ready-check/ { print; exit }' "$N" | tr '|' '\n' |
    grep -c '"state":"running","root"')
is "$running" 5 "and every process was running then"
check "READY=1 came once, at start" [ "$(grep -c -E ' READY=1$' "$N")" = 1 ]
check "a STATUS= line says starting before" grep -q "STATUS=starting: " "$N"

# Watchdog: WATCHDOG_USEC=2s is fed every 500 ms while all answer.
sleep 1.5
n=$(grep -c ' WATCHDOG=1$' "$N")
check "WATCHDOG=1 is sent several times a second ($n so far)" [ "$n" -ge 3 ]

# STATUS= counts the live sandboxes.
a=$(sbx_create); b=$(sbx_create)
check "STATUS= counts two sandboxes" wait_for 5 notified \
    "STATUS=2 sandboxes, 0/0 services running, config generation 1"
ctl destroy "$a" >/dev/null; ctl destroy "$b" >/dev/null
check "and none once they are destroyed" wait_for 5 sh -c \
    "tail -n 3 '$N' | grep -q 'STATUS=0 sandboxes'"

# A good reload: RELOADING=1 with MONOTONIC_USEC, then READY=1, and
# sandboxctl hears back only once the children have the new config.
out=$(ctl reload 2>&1)
is "$?:$out" "0:reloaded" "a good reload succeeds"
is "$(child_field runnerd conf_generation)" 2 "and runnerd had confirmed it when sandboxctl heard so"
check "RELOADING=1 with MONOTONIC_USEC was sent" notified \
    "RELOADING=1\|MONOTONIC_USEC=[0-9]+"
check "then READY=1" after "RELOADING=1" " READY=1$"

# A bad reload: the parser's file:line, the running config kept.
cp "$T/sandboxd.conf" "$T/good.conf"
printf 'policy "broken" {\n\tlimits { nofile many }\n}\n' >> "$T/sandboxd.conf"
line=$(grep -n 'nofile many' "$T/sandboxd.conf" | cut -d: -f1)
out=$(ctl reload 2>&1)
is "$?" 125 "a bad reload fails"
check "with the parser's file:line: message ($out)" contains "$out" \
    "$T/sandboxd.conf:$line: "
is "$(child_field sandboxd conf_generation)" 2 "the running config stays in force"
check "and the manager hears RELOADING=1 then READY=1 again" sh -c \
    "[ \$(grep -c 'RELOADING=1' '$N') = 2 ] && [ \$(grep -c -E ' READY=1\$' '$N') = 3 ]"
cp "$T/good.conf" "$T/sandboxd.conf"

# A stopped child: no WATCHDOG=1 from a second on, and back after.
pid=$(child_field dnspind pid)
kill -STOP "$pid"
# Its last ping may be 500 ms old; it is hung 1 s later.
sleep 2
from=$(wc -l < "$N")
sleep 2
n=$(tail -n +"$((from + 1))" "$N" | grep -c WATCHDOG=1)
is "$n" 0 "no WATCHDOG=1 while dnspind is stopped"
check "STATUS= says which child does not answer" notified \
    "STATUS=.*; dnspind not answering"
kill -CONT "$pid"
check "WATCHDOG=1 resumes once it answers" wait_for 5 sh -c \
    "tail -n 2 '$N' | grep -q WATCHDOG=1"

# RLIMIT_NOFILE: the master and children at the hard limit, a sandbox
# at its policy's.
is "$(awk '/Max open files/ { print $4 ":" $5 }' /proc/$SBX_PID/limits)" \
    "$hard:$hard" "the master raised its soft nofile limit from 1024 to the hard one"
is "$(awk '/Max open files/ { print $4 }' /proc/$(child_field runnerd pid)/limits)" \
    "$hard" "runnerd inherits it"
is "$(run_sbx -p few -- sh -c 'echo $(ulimit -Sn):$(ulimit -Hn)')" 300:300 \
    "a sandbox's nofile is its policy's, not the master's"
check "suite stops" suite_stop
done_testing
