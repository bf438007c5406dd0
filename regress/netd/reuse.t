#!/bin/sh
# Conntrack and the reuse of a /30: the node subnet here holds a single
# /30, so the second sandbox gets the first one's address.  While the
# first lives, its UDP flow's conntrack entry lets the peer's later
# packets in; after its release no entry is left, and the same packets
# to the new sandbox (inbound deny) are dropped.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/topo.sh"
need_root

topo_up || { echo "1..0 # SKIP cannot build the topology"; exit 0; }
netd_start subnet=10.201.0.0/30 ||
    { echo "Bail out! netd_test serve did not start"; exit 1; }

flow() {	# flow NETNS NAME [ADDR PORT]
	(in_ns "$1" python3 "$D/udpflow.py" 7000 $3 $4 > "$T/$2.rx" 2>&1 &)
	wait_for 5 grep -q ready "$T/$2.rx"
}
late() {	# late TEXT ADDR: from the peer, $PUB1:81 -> ADDR:7000
	in_ns $P python3 "$D/udpflow.py" -s $PUB1 81 "$2" 7000 "$1"
}

mksbx sbxs$$r1
sbx_add R1 6e00000000000001 /run/netns/sbxs$$r1 host=$PUB1:81/udp \
    host=[$PUB6A]:81/udp
flow sbxs$$r1 r1 $PUB1 81
probe r6 sbxs$$r1 "udp $PUB6A 81"
probe_wait
expect r6 "udp $PUB6A 81" ok "R1 has an IPv6 UDP flow too"
check "R1's UDP flow to $PUB1:81 got its answer" \
    wait_for 3 grep -q "^ok $PUB1 $R1_guest" "$T/r1.rx"
late late1 $R1_guest
check "the peer's later packet on that flow reaches R1 (twin)" \
    wait_for 3 grep -q late1 "$T/r1.rx"
n=$(nd ctcount $R1_guest)
check "conntrack holds R1's flow ($n entries)" test "${n:-0}" -gt 0
n=$(nd ctcount $R1_guest6)
check "and its IPv6 flow ($n entries)" test "${n:-0}" -gt 0

nd del 6e00000000000001
is "$(nd ctcount $R1_guest)" 0 "after R1's release no entry has its address"
is "$(nd ctcount $R1_guest6)" 0 "nor its IPv6 address"
check "R1's interface is gone" no_link $R1_ifname

mksbx sbxs$$r2
sbx_add R2 7e00000000000002 /run/netns/sbxs$$r2
is "$R2_guest" "$R1_guest" "R2 got the same /30 ($R2_guest)"
flow sbxs$$r2 r2
late late2 $R2_guest
sleep 1
check "the peer's packet on R1's old flow does not reach R2" \
    fails grep -q late2 "$T/r2.rx"
is "$(nd ctcount $R2_guest)" 0 "and left no conntrack entry"

# The same packet again, once R2's policy admits the peer: it arrives,
# so the drop above was R2's policy and not a broken path.
nd add 7e00000000000002 - inbound=allow > /dev/null
late late3 $R2_guest
check "with inbound allow, the same packet reaches R2 (twin)" \
    wait_for 3 grep -q late3 "$T/r2.rx"
plan $tap_n
done_testing
