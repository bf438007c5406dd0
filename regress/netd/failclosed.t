#!/bin/sh
# Fail closed: a sandbox floods a denied peer (UDP, TCP SYNs, IPv4 and
# IPv6) while the host's firewall is flushed, replaced by a permissive
# ruleset, has every table deleted, and netd is killed with -9; then
# the master is killed with -9 and the suite started again, and all of
# it once more.  A counter at the denied peer reads 0 packets from the
# sandboxes; the allowed twin, probed every 50 ms from the same
# sandbox, never goes a second without an answer.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
need_root

write_conf "
policy \"port\" {
	network { allow $PUB1 port 80 }
}
policy \"open\" {
	network { egress allow }
}"
dtopo_up || { echo "Bail out! the suite did not start"; exit 1; }

nftx() { ip netns exec $NS nft "$@"; }
# The denied peer counts what reaches it from the node subnets.
ip netns exec $P nft -f - <<NFT
table inet count {
	chain input {
		type filter hook input priority 0; policy accept;
		ip saddr 10.200.0.0/15 ip daddr $PUB2 counter
		ip6 saddr fd73:6278::/96 ip6 daddr $PUB6B counter
	}
}
NFT
denied_pkts() {
	ip netns exec $P nft list chain inet count input |
	    awk '/counter/ { for (i = 1; i < NF; i++) if ($i == "packets")
	    n += $(i + 1) } END { print n + 0 }'
}
FLOOD_PY=$(cat "$D/flood.py")
DENIED="udp $PUB2 81|tcp $PUB2 80|udp $PUB6B 83|tcp $PUB6B 83"
# flood KEY ID SECONDS: flood.py in sandbox ID, in the background.
flood() {
	_ifs=$IFS; IFS='|'
	set -- "$1" "$2" "$3" $DENIED
	IFS=$_ifs
	_k=$1 _id=$2 _s=$3; shift 3
	ctl exec "$_id" -- python3 -c "$FLOOD_PY" "$_s" "$PUB1 80" "$@" \
	    > "$T/flood.$_k" 2>&1 &
	FLOODS="$FLOODS $!"
}
flood_wait() {
	for _p in $FLOODS; do
		wait "$_p"
	done
	FLOODS=
}
# flood_check KEY: the flood ran, the allowed twin kept answering.
flood_check() {
	_k=$1
	set -- $(cat "$T/flood.$_k")
	check "flood $_k: the sandbox sent denied packets (${2:-none})" \
	    test "${2:-0}" -gt 1000
	check "flood $_k: the allowed twin answered throughout (${4:-0})" \
	    test "${4:-0}" -gt 20
	check "flood $_k: never 1 s without it (longest ${6:-?} s)" \
	    awk -v g="${6:-9}" 'BEGIN { exit !(g < 1.0) }'
}

# The twin of the counter: an egress allow sandbox reaches PUB2 and is
# counted; then the counter's base.
O=$(ctl create -p open)
ctl exec "$O" -- python3 -c "$(cat "$D/probe.py")" "udp $PUB2 81" \
    "tcp $PUB6B 83" > "$T/open.out" 2>&1
check "an egress allow sandbox reaches the peer" \
    test "$(grep -c ' ok$' "$T/open.out")" = 2
base=$(denied_pkts)
check "and the peer's counter sees it ($base packets)" test "$base" -gt 0
ctl destroy "$O" > /dev/null

owned() {
	nftx list table inet sandboxd | grep -q "flags owner"
}
has_table() { nftx list table inet sandboxd > /dev/null 2>&1; }
check "table inet sandboxd is owned" owned

# events: each host firewall event, then netd's kill, 1.5 s apart.
REPLACE="flush ruleset
table inet filter {
	chain input { type filter hook input priority 0; policy accept; }
	chain forward { type filter hook forward priority 0; policy accept; }
	chain output { type filter hook output priority 0; policy accept; }
}"
events() {
	sleep 1.5
	nftx flush ruleset
	check "$1: nft flush ruleset leaves table inet sandboxd" has_table
	sleep 1.5
	printf '%s\n' "$REPLACE" | nftx -f -
	check "$1: a permissive replacement loads beside it" \
	    sh -c "ip netns exec $NS nft list tables | grep -q 'inet filter'"
	sleep 1.5
	nftx list tables | while read -r _ fam name; do
		nftx delete table "$fam" "$name" 2>/dev/null
	done
	check "$1: nft delete table of every table leaves it" has_table
	check "$1: and the others are gone" \
	    sh -c "! ip netns exec $NS nft list tables | grep -q filter"
	sleep 1.5
	old=$(child_field netd pid)
	kill -KILL "$old"
	check "$1: netd killed is restarted" wait_for 15 restarted netd "$old"
	check "$1: its table still owned" owned
	printf '%s\n' "$REPLACE" | nftx -f -
	sleep 1.5
	nftx flush ruleset
	sleep 1.5
}

A=$(ctl create -p port)
check "a sandbox whose policy denies the peer" test -n "$A"
flood a "$A" 16
events "round 1"
flood_wait
flood_check a
is "$(( $(denied_pkts) - base ))" 0 "round 1: 0 packets reached the peer"

# The master killed: its children and sandboxes go with it; the table
# stays (persist), and the next suite claims it again.
kill -KILL "$SBX_PID"
check "the old suite is gone" wait_for 10 sh -c \
    "! ip netns pids $NS | xargs -r ps -o comm= -p | grep -q -e netd -e runnerd"
if "$SANDBOXD" -nv -f "$T/sandboxd.conf" 2>&1 >/dev/null |
    grep -q -E '^ +nft-table-persist +yes'; then
	check "table inet sandboxd survives the master (persist)" has_table
else
	check "without persist the table goes with the master" fails has_table
fi
suite_run || { echo "Bail out! the suite did not start again"; exit 1; }
check "the new master's netd owns it again" owned
check "and no one else can delete it" \
    fails nftx delete table inet sandboxd 2>/dev/null
t0=$(date +%s.%N)
A=$(ctl create -p port)
ctl exec "$A" -- python3 -c "$(cat "$D/probe.py")" "tcp $PUB1 80" \
    > "$T/again.out" 2>&1
t1=$(date +%s.%N)
check "a new sandbox reaches the allowed twin" grep -q ' ok$' "$T/again.out"
diag "create and first connect after the restart: $(echo "$t1 - $t0" | bc) s"
flood b "$A" 16
events "round 2"
flood_wait
flood_check b
is "$(( $(denied_pkts) - base ))" 0 "round 2: 0 packets reached the peer"
plan $tap_n
