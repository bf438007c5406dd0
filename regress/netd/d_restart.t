#!/bin/sh
# netd killed with -9 mid-traffic: flows go on and denials hold while
# it is gone (the datapath is in the kernel); restarted, it is told by
# runnerd which sandboxes are live and reconciles: orphans planted in
# the kernel go and every sandbox has exactly its policy.  runnerd and
# the master killed the same way leave no network behind either.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
need_root
# Orphans are planted with nft(8): the table must not be owned
# (-x nft-owner, as on a kernel before 5.12); failclosed.t has the
# owned table's kills and restarts.
SBX_WITHOUT=${SBX_WITHOUT:+$SBX_WITHOUT,}nft-owner

write_conf "
policy \"port\" {
	network { allow $PUB1 port 80 }
}
policy \"open\" {
	network { egress allow }
}"
dtopo_up || { echo "Bail out! the suite did not start"; exit 1; }

ifname() { ctl show "$1" | awk '/^network:/ { print $3 }'; }
A=$(ctl create -p port); B=$(ctl create -p open)
A_if=$(ifname $A); B_if=$(ifname $B)
check "two sandboxes with a network" test -n "$A_if" -a -n "$B_if"

nftx() { ip netns exec $NS nft "$@"; }
tbl() { nftx list table inet sandboxd; }
# An unknown sandbox's leftovers, and a stale rule for A.
nftx add element inet sandboxd src4 "{ \"sbxdeadbeef\" . 10.200.9.10 }"
nftx add element inet sandboxd host4 \
    "{ \"sbxdeadbeef\" . $PUB1 . tcp . 80 }"
nftx add counter inet sandboxd sbxdeadbeef
nftx add element inet sandboxd egress_allow "{ \"$A_if\" }"
ip -n $NS link add sbxdeadbeef type veth peer name xdeadbeef
check "orphans planted: elements, a counter, a link" \
    sh -c "ip netns exec $NS nft list table inet sandboxd | grep -q sbxdeadbeef"

# A long transfer runs while netd is killed.
sprobe long -x $A -t 5 -d 2 "tcp $PUB1 80"
sleep 0.5
old=$(child_field netd pid)
kill -KILL "$old"
sprobe dead -x $A "tcp $PUB1 80" "tcp $PRIV10 80"
sprobe deadb -x $B "tcp $PUB2 81"
probe_wait
expect long "tcp $PUB1 80" ok "a transfer across netd's kill -9 completes"
expect dead "tcp $PUB1 80" ok "with netd dead, A's allowed flow still works"
expect dead "tcp $PRIV10 80" timeout "and its denials still hold"
expect deadb "tcp $PUB2 81" ok "B's egress allow too"

check "netd is restarted" wait_for 15 restarted netd "$old"
check "the unknown sandbox's elements and counter are gone" \
    wait_for 5 sh -c "! ip netns exec $NS nft list table inet sandboxd |
    grep -q sbxdeadbeef"
check "and its link" no_link sbxdeadbeef
check "A's stale egress allow element is gone" \
    sh -c "! ip netns exec $NS nft list set inet sandboxd egress_allow |
    grep -q $A_if"
has_link() { ip -n "$NS" link show "$1" > /dev/null 2>&1; }
check "A keeps its interface" has_link "$A_if"
check "and B" has_link "$B_if"
sprobe r -x $A "tcp $PUB1 80" "tcp $PUB2 81"
sprobe rb -x $B "tcp $PUB2 81"
sprobe n port "tcp $PUB1 80" "tcp $PUB2 81"
probe_wait
expect r "tcp $PUB1 80" ok "A keeps what its policy allows"
expect r "tcp $PUB2 81" timeout "and no more: the planted allow is gone"
expect rb "tcp $PUB2 81" ok "B keeps its egress allow"
expect n "tcp $PUB1 80" ok "a new sandbox after the restart gets its network"
expect n "tcp $PUB2 81" timeout "and its policy"
check "show still reads A's rules from the new netd" \
    sh -c "$SANDBOXCTL -s $SOCK show $A | grep -q 'tcp dport 80 accept'"

# runnerd killed: its sandboxes die with it; the next runnerd's sync
# takes their network away.
old=$(child_field runnerd pid)
kill -KILL "$old"
check "runnerd is restarted" wait_for 15 restarted runnerd "$old"
check "the dead sandboxes' interfaces go" \
    wait_for 5 sh -c "! ip -n $NS -o link | grep -q -e $A_if -e $B_if"
check "and their elements and counters" \
    sh -c "! ip netns exec $NS nft list table inet sandboxd |
    grep -q -e $A_if -e $B_if"
sprobe n2 port "tcp $PUB1 80"
probe_wait
expect n2 "tcp $PUB1 80" ok "a sandbox made after runnerd's restart works"

# The master killed: every child goes with it; a new suite removes
# what the old one left in the kernel.
C=$(ctl create -p open); C_if=$(ifname $C)
check "a sandbox before the master's kill" test -n "$C_if"
kill -KILL "$SBX_PID"
check "the old suite is gone" wait_for 10 sh -c \
    "! ip netns pids $NS | xargs -r ps -o comm= -p | grep -q -e netd -e runnerd"
suite_run || { echo "Bail out! the suite did not start again"; exit 1; }
check "the new suite removes the old sandbox's interface" \
    wait_for 5 no_link "$C_if"
check "and its elements" \
    sh -c "! ip netns exec $NS nft list table inet sandboxd | grep -q $C_if"
sprobe n3 port "tcp $PUB1 80"
probe_wait
expect n3 "tcp $PUB1 80" ok "and serves new sandboxes"
plan $tap_n
