#!/bin/sh
# netd killed mid-traffic: the datapath stays in the kernel, fail
# closed.  Restarted, netd re-adds the sandboxes it is told are live
# and reconciles: orphans planted in the kernel (elements, counter, map
# entry, pins and a link of an unknown sandbox) go, a live sandbox gets
# exactly its policy, a sandbox owned but not yet re-added is left
# alone, and a link not named like ours is never touched.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/topo.sh"
need_root
# Planted and deleted with nft(8): the table must not be owned
# (without=nft-owner, as on a kernel before 5.12).
SBX_WITHOUT=${SBX_WITHOUT:+$SBX_WITHOUT,}nft-owner

topo_up || { echo "1..0 # SKIP cannot build the topology"; exit 0; }
netd_start || { echo "Bail out! netd_test serve did not start"; exit 1; }

A=a1c0000000000001
B=b2c0000000000002
mksbx sbxs$$a; mksbx sbxs$$b
sbx_add A $A /run/netns/sbxs$$a host=$PUB1:80 host=$PUB2:80 name=example.com:82
sbx_add B $B /run/netns/sbxs$$b egress=allow

nftx() { in_ns $H nft "$@"; }
# An unknown sandbox's leftovers, and a stale rule and pins for A.
nftx add element inet sandboxd src4 "{ \"sbxdeadbeef\" . 10.200.9.10 }"
nftx add element inet sandboxd host4 \
    "{ \"sbxdeadbeef\" . $PUB1 . tcp . 80 }"
nftx add element inet sandboxd egress_allow "{ \"sbxdeadbeef\" }"
nftx add counter inet sandboxd sbxdeadbeef
nftx add element inet sandboxd counters "{ \"sbxdeadbeef\" : \"sbxdeadbeef\" }"
nftx add element inet sandboxd egress_allow "{ \"$A_ifname\" }"
nftx add element inet sandboxd pin4 \
    "{ \"$A_ifname\" . $PUB2 . tcp . 82 timeout 60s }"
nftx add element inet sandboxd pin4 \
    "{ \"$A_ifname\" . $PUB2 . tcp . 83 timeout 60s }"
ip -n $H link add sbxdeadbeef type veth peer name xdeadbeef
ip -n $H link add sbxkeepme type veth peer name xkeepme
check "orphans planted: elements, counter, map entry" nd_has "sbxdeadbeef"
check "and a link" fails no_link sbxdeadbeef

# A long transfer runs while netd is killed.
probe long sbxs$$a -t 5 -d 1.5 "tcp $PUB1 80"
sleep 0.5
netd_kill
probe dead sbxs$$a "tcp $PUB1 80" "tcp $PRIV10 80"
probe deadb sbxs$$b "tcp $PUB2 81"
probe_wait
expect long "tcp $PUB1 80" ok "a transfer across netd's kill -9 completes"
expect dead "tcp $PUB1 80" ok "with netd dead, A's allowed flow still works"
expect dead "tcp $PRIV10 80" timeout "and its denials still hold"
expect deadb "tcp $PUB2 81" ok "B's egress allow too"

netd_start || { echo "Bail out! netd_test serve did not restart"; exit 1; }
check "init after the restart keeps the sandboxes' elements" \
    nd_has "element src4 $A_ifname "
# The master says: A is live, now without the $PUB2 rule; B is live.
nd add $A - host=$PUB1:80 name=example.com:82 > /dev/null
check "A re-added, datapath only (its link is kept)" fails no_link $A_ifname
check "reconcile with A and B owned" nd reconcile $A $B
check "the unknown sandbox's elements and map entry are gone" \
    fails nd_has " sbxdeadbeef "
check "and its counter" fails nd_has "^counter sbxdeadbeef "
check "and its link" no_link sbxdeadbeef
check "a link not named like ours stays" fails no_link sbxkeepme
check "A's stale egress allow element is gone" \
    fails nd_has "element egress_allow $A_ifname "
check "A's pin of a port no rule names is gone" \
    fails nd_has "element pin4 $A_ifname .*0053"
check "A's pin of a named port is kept" \
    nd_has "element pin4 $A_ifname .*0052"
check "B, owned but not yet re-added, keeps its elements" \
    nd_has "element egress_allow $B_ifname"
probe r sbxs$$a "tcp $PUB1 80" "tcp $PUB2 80" "tcp $PUB2 81" "tcp $PUB2 82" \
    "tcp $PUB2 83"
probe rb sbxs$$b "tcp $PUB2 81"
probe_wait
expect r "tcp $PUB1 80" ok "A keeps what its policy allows"
expect r "tcp $PUB2 80" timeout "and lost the rule its policy dropped"
expect r "tcp $PUB2 81" timeout "and the stale egress allow"
expect r "tcp $PUB2 82" ok "its named port's pin admits"
expect r "tcp $PUB2 83" timeout "the other pin does not"
expect rb "tcp $PUB2 81" ok "B still works"

check "reconcile with A alone owned" nd reconcile $A
check "B's elements are gone" fails nd_has " $B_ifname "
check "and B's link" no_link $B_ifname
probe r2 sbxs$$a "tcp $PUB1 80"
probe r2b sbxs$$b "tcp $PUB2 81"
probe_wait
expect r2b "tcp $PUB2 81" ENETUNREACH "B has no network now: its link is gone"
expect r2 "tcp $PUB1 80" ok "A does"

nd del $A
check "deleting A removes the pin it adopted" fails nd_has "pin4"
check "and leaves nothing of ours in the kernel" fails nd_has "."
plan $tap_n
done_testing
