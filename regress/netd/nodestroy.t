#!/bin/sh
# Deletions without NFT_MSG_DESTROY* (kernels before 6.3), forced with
# without=nft-destroy (netd -x nft-destroy): netd deletes only what
# exists.  What it cannot know is asked of the kernel; what someone
# else deleted behind its back makes a batch fail with ENOENT, after
# which it is found gone and the batch goes again without it.  Each
# case ends with exactly the elements the policy wants, none left over.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/topo.sh"
need_root

# Deletions behind netd's back need a table anyone may change.
SBX_WITHOUT=nft-destroy,nft-owner
topo_up || { echo "1..0 # SKIP cannot build the topology"; exit 0; }
nftx() { in_ns $H nft "$@"; }

# A table of another layout (an older netd's): replaced whole, the old
# table deleted in the same batch since a get finds it.
nftx add table inet sandboxd
nftx add set inet sandboxd src4 "{ type ipv4_addr; }"
nftx add set inet sandboxd stale "{ type ipv4_addr; }"
netd_start || { echo "Bail out! netd_test serve did not start"; exit 1; }
check "netd started on a table of another layout" \
    grep -q "recreating table inet sandboxd" "$NLOG"
check "the old table is gone, set stale with it" \
    fails nftx list set inet sandboxd stale
contains "$(nftx list set inet sandboxd src4)" "ifname . ipv4_addr" &&
    ok "src4 has netd's layout" || notok "src4 has netd's layout"
check "and no destroy message was ever sent (netd would have died)" \
    nd elements

A=ad00000000000001
B=bd00000000000002
mksbx sbxs$$a; mksbx sbxs$$b
sbx_add A $A /run/netns/sbxs$$a host=$PUB1:80 host=$PUB2:80 \
    name=example.com:82
sbx_add B $B /run/netns/sbxs$$b host=$PUB1:80 name=example.com:82
check "A pinned to $PUB1 82/tcp" nd pin $A $PUB1 82 tcp 60
check "B pinned to $PUB2 82/tcp" nd pin $B $PUB2 82 tcp 60

# Behind netd's back: one of A's rules and its pin go.
nftx delete element inet sandboxd host4 \
    "{ \"$A_ifname\" . $PUB2 . tcp . 80 }"
nftx delete element inet sandboxd pin4 \
    "{ \"$A_ifname\" . $PUB1 . tcp . 82 }"
check "A deleted, though two of its elements were gone already" \
    nd down $A
check "a batch found them gone and went again" \
    grep -q "deletions found nothing, again" "$NLOG"
check "nothing of A is left in the kernel" fails nd_has " $A_ifname "
check "and not its counter" fails nd_has "^counter $A_ifname "
check "B is untouched" nd_has "element pin4 $B_ifname "

# B's pin is deleted by hand, then pinned again: the refresh deletes
# and adds it, and must not fail on the absent one.  It comes back with
# the minute its first pin was given, not the 30s asked now: a pin is
# never cut short (netd(8)).
nftx delete element inet sandboxd pin4 \
    "{ \"$B_ifname\" . $PUB2 . tcp . 82 }"
check "a pin deleted by hand is pinned again" nd pin $B $PUB2 82 tcp 30
set=$(nftx list set inet sandboxd pin4)
# nft prints the protocol by number on some kernels (6.1).
contains "$set" "$PUB2 \. \(tcp\|6\) \. 82 timeout \(1m\|60s\|59s\)" &&
    ok "it is back, with the time its first pin had left" ||
    { notok "it is back, with the time its first pin had left"; diag "$set"; }
probe p sbxs$$b "tcp $PUB2 82" "tcp $PUB1 82"
probe_wait
expect p "tcp $PUB2 82" ok "and admits"
expect p "tcp $PUB1 82" timeout "an address not pinned stays closed (twin)"

# A policy change whose removed rule was deleted by hand already.
nftx delete element inet sandboxd host4 \
    "{ \"$B_ifname\" . $PUB1 . tcp . 80 }"
check "B's policy changes though its old rule is gone" \
    nd add $B - host=$PUB2:80 name=example.com:82
check "the new rule is in" nd_has "element host4 $B_ifname "
probe c sbxs$$b "tcp $PUB2 80" "tcp $PUB1 80"
probe_wait
expect c "tcp $PUB2 80" ok "the new rule admits"
expect c "tcp $PUB1 80" timeout "the old one is gone"

# netd killed and restarted: C is new to it, but the kernel still
# holds C's elements and counter map entry.  netd asks, finds the entry
# and replaces it; the reconcile that follows deletes what it dumped.
C=cd00000000000003
mksbx sbxs$$c
sbx_add C $C /run/netns/sbxs$$c egress=allow
netd_kill
netd_start || { echo "Bail out! netd_test serve did not restart"; exit 1; }
check "C re-added over its own leftovers" nd add $C - egress=allow
check "B re-added" nd add $B - host=$PUB2:80 name=example.com:82
check "reconcile with B and C owned" nd reconcile $B $C
check "B's teardown" nd del $B
check "C's teardown" nd del $C
is "$(nd elements)" "" "nothing of ours is left in the kernel"
plan $tap_n
done_testing
