#!/bin/sh
# sandboxd -vv: every process logs each message it queues and takes
# (lib/imsg.c), and regress/lib/imsgwalk.py turns one networked run
# into its walk through the processes, which lib/README cites.  Every
# message a child sends is taken by its peer; the run's request goes
# sandboxctl > sandboxd > runnerd, and what runnerd, envd, netd and
# dnspind say to each other goes on their own channels, one hop.  At -v (sandboxctl log verbose) not
# one trace line is written: the trace costs nothing unless asked for.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 10

setup_users
write_conf 'policy "net" {
	network { egress allow }
}'
check "suite starts at -vv" suite_start -v -v

echo "--- walk start" >> "$LOG"
check "a networked run succeeds" ctl run -p net -- /bin/true
# Its last messages (the teardown's) come after the client's answer.
wait_for 5 sh -c "sed -n '/--- walk start/,\$p' '$LOG' |
    grep -q 'netd_reap: 1 sandboxes'"
sleep 0.3
echo "--- walk end" >> "$LOG"
W=$(python3 "$ROOT/regress/lib/imsgwalk.py" "$LOG" "--- walk start" \
    "--- walk end")
diag "$W"
walk_has() { printf '%s\n' "$W" | grep -Eq "$1"; }
walk_lacks() { ! walk_has "$1"; }
check "the run's request crosses sandboxctl > sandboxd > runnerd" \
    walk_has '^1 +CTL_RUN .* sandboxctl > sandboxd > runnerd$'
check "its network comes from netd directly, one hop" \
    walk_has 'NET_READY +[0-9]+ +1 +netd > runnerd$'
check "its environment comes from envd directly, with the broker's fd" \
    walk_has 'ENV_READY +[0-9]+ +1 +envd > runnerd \(\+fd\)$'
check "dnspind hears of the sandbox from runnerd directly" \
    walk_has 'DNS_SANDBOX +[0-9]+ +1 +runnerd > dnspind$'
check "no message between two children passes the master" walk_lacks \
    '(runnerd|envd|netd|dnspind) > sandboxd > (runnerd|envd|netd|dnspind)'
# Every send by a child, and every send by the master to a child, was
# taken: the hops matched are all the trace lines but the client's.
lines=$(sed -n '/--- walk start/,/--- walk end/p' "$LOG" |
    grep -c ': imsg [<>] ')
hops=$(printf '%s\n' "$W" |
    sed -n 's/^messages [0-9]*, hops \([0-9]*\),.*/\1/p')
client=$(printf '%s\n' "$W" | grep -c 'sandboxctl')
is "$lines" "$((2 * hops - client))" \
    "every message sent was taken by its peer ($hops hops)"

ctl log verbose >/dev/null
sleep 0.5	# the children take the new level from their channels
echo "--- quiet start" >> "$LOG"
check "a networked run at -v" ctl run -p net -- /bin/true
echo "--- quiet end" >> "$LOG"
n=$(sed -n '/--- quiet start/,/--- quiet end/p' "$LOG" |
    grep -c ': imsg [<>] ')
is "$n" 0 "at -v no message is traced"

done_testing
