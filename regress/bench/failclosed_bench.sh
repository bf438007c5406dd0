#!/bin/sh
# Fail-closed recovery: how long after each event that could open or
# break the datapath the allowed twin is reachable again, in ms; make
# bench runs it.  The topology and events are regress/netd/failclosed.t's
# (the suite in the "host" netns of dtopo.sh, the peer beside it): a
# sandbox of policy "port" (PUB1 port 80 allowed, the rest denied)
# connects to the allowed twin every 10 ms and sends a datagram to a
# denied port of the peer between, printing the time of each success;
# the events, in turn, NSEC apart: nft flush ruleset; a replacement
# ruleset (flush ruleset and a permissive inet filter table) by nft -f;
# nft delete table of every table listed; kill -9 of netd.  The
# recovery of one is the first success at or after the event less the
# event's time (a 10 ms probe interval is its floor).  Then kill -9 of
# the master, and the suite started again at once, as a supervisor
# would: its recovery is the kill to the first success of a new sandbox
# of the same policy.  ROUNDS rounds; each figure is the worst round's.
# bench.json: failclosed_recovery_EVENT_ms for each, their maximum
# failclosed_recovery_ms_max, and failclosed_denied_pkts, the packets
# from the sandboxes the peer's counter saw on the denied port
# (anything but 0 is a hole).  BENCH_SMOKE=1: one round, 0.3 s apart.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
. "$ROOT/regress/bench/kv.sh"
need_root
setup_users

ROUNDS=${FAILCLOSED_BENCH_ROUNDS:-3}
NSEC=1
if [ "$BENCH_SMOKE" = 1 ]; then
	ROUNDS=1 NSEC=0.3
fi
EVENTS="flush replace delete netd"

write_conf "
policy \"port\" {
	network { allow $PUB1 port 80 }
}"
# dtopo_up says what it waited for if it fails.
t0=$(date +%s.%N)
dtopo_up || { echo "failclosed_bench: the suite did not start" >&2; exit 1; }
echo "# the topology and the suite up in $(echo "$(date +%s.%N) $t0" |
    awk '{ printf "%.1f", $1 - $2 }') s"
ip netns exec $P nft -f - <<NFT || exit 1
table inet count {
	chain input {
		type filter hook input priority 0; policy accept;
		ip saddr 10.200.0.0/15 ip daddr $PUB2 udp dport 81 counter
	}
}
NFT
denied_pkts() {
	ip netns exec $P nft list chain inet count input |
	    awk '/counter/ { for (i = 1; i < NF; i++) if ($i == "packets")
	    n += $(i + 1) } END { print n + 0 }'
}

# PROBE SECONDS: "ok TIME" for each connect to the twin that succeeds.
PROBEPY='
import socket, sys, time
end = time.monotonic() + float(sys.argv[1])
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.setblocking(False)
while time.monotonic() < end:
    s = socket.socket()
    s.settimeout(0.2)
    try:
        s.connect(("'$PUB1'", 80))
        print("ok %.6f" % time.time(), flush=True)
    except OSError:
        pass
    s.close()
    try:
        u.sendto(b"x", ("'$PUB2'", 81))
    except OSError:
        pass
    time.sleep(0.01)
'
now() { date +%s.%N; }
nftx() { ip netns exec $NS nft "$@"; }
REPLACE="flush ruleset
table inet filter {
	chain input { type filter hook input priority 0; policy accept; }
	chain forward { type filter hook forward priority 0; policy accept; }
	chain output { type filter hook output priority 0; policy accept; }
}"
# recovery OUT T0: ms from T0 to the first success in OUT at or after it.
recovery() {
	awk -v t0="$2" '$1 == "ok" && $2 >= t0 {
	    printf "%.1f\n", ($2 - t0) * 1000; found = 1; exit }
	    END { if (!found) print "-" }' "$1"
}
# worst EVENT MS: keep the largest of the rounds' figures.
worst() {
	eval "_w=\${worst_$1:-}"
	if [ "$2" = - ] || [ "$_w" = - ]; then
		eval "worst_$1=-"
	elif [ -z "$_w" ] || awk -v a="$2" -v b="$_w" \
	    'BEGIN { exit !(a > b) }'; then
		eval "worst_$1=$2"
	fi
}

base=$(denied_pkts)
rc=0
r=1
while [ $r -le "$ROUNDS" ]; do
	A=$(ctl create -p port) || { rc=1; break; }
	ctl exec "$A" -- python3 -c "$PROBEPY" 60 > "$T/probe.$r" 2>&1 &
	probe=$!
	wait_for 10 grep -q '^ok' "$T/probe.$r" || {
		echo "failclosed_bench: the twin never answered" >&2
		rc=1
	}
	for ev in $EVENTS; do
		sleep "$NSEC"
		t0=$(now)
		case $ev in
		flush)	nftx flush ruleset ;;
		replace) printf '%s\n' "$REPLACE" | nftx -f - ;;
		delete)	nftx list tables | while read -r _ fam name; do
				nftx delete table "$fam" "$name" 2>/dev/null
			done ;;
		netd)	old=$(child_field netd pid)
			kill -KILL "$old"
			wait_for 15 restarted netd "$old" || rc=1 ;;
		esac
		echo "$ev $t0" >> "$T/events.$r"
	done
	sleep "$NSEC"
	# The master: its sandboxes go with it; a new suite, a new sandbox.
	t0=$(now)
	kill -KILL "$SBX_PID"
	wait "$probe" 2>/dev/null
	wait_for 10 sh -c "! ip netns pids $NS | xargs -r ps -o comm= -p |
	    grep -q -e netd -e runnerd"
	suite_run || { echo "failclosed_bench: no restart" >&2; rc=1; break; }
	A=$(ctl create -p port) &&
	    ctl exec "$A" -- python3 -c "$PROBEPY" 0.5 > "$T/master.$r" 2>&1
	ctl destroy "$A" > /dev/null 2>&1
	while read -r ev t; do
		worst "$ev" "$(recovery "$T/probe.$r" "$t")"
	done < "$T/events.$r"
	worst master "$(recovery "$T/master.$r" "$t0")"
	r=$((r + 1))
done

denied=$(( $(denied_pkts) - base ))
printf '\n%-32s %10s\n' "fail-closed recovery, worst of $ROUNDS" "ms"
max=0
for ev in $EVENTS master; do
	eval "v=\${worst_$ev:--}"
	printf '%-32s %10s\n' "$ev" "$v"
	bench_kv "failclosed_recovery_${ev}_ms" "$v"
	if [ "$v" = - ]; then
		max=- rc=1
	elif [ "$max" != - ]; then
		max=$(awk -v a="$v" -v b="$max" 'BEGIN { print (a > b ? a : b) }')
	fi
done
printf '%-32s %10s  target: < 1000\n' "max" "$max"
printf '%-32s %10s  target: 0\n' "denied packets at the peer" "$denied"
bench_kv failclosed_recovery_ms_max "$max"
bench_kv failclosed_denied_pkts "$denied"
exit $rc
