#!/bin/sh
# 500 sandboxes, each with a netns of its own, a veth and a policy,
# created and destroyed: nothing of them stays behind (interface,
# address, route, set or map element, counter).  Also: creating the
# same sandbox twice, and the tap a VM backend gets.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/topo.sh"
need_root

topo_up || { echo "1..0 # SKIP cannot build the topology"; exit 0; }
netd_start || { echo "Bail out! netd_test serve did not start"; exit 1; }

count_links() { ip -n $H -o link show | grep -c ": sbx"; }
count_routes() { { ip -n $H route; ip -n $H -6 route; } |
    grep -c -e "^10\.200\." -e "^fd73:6278:"; }
count_addrs() { ip -n $H addr | grep -c -e " 10\.200\." -e " fd73:6278:"; }
count_elems() { nd elements | grep -c "$1"; }
count_nft() {	# what nft(8) itself lists of ours
	in_ns $H nft list table inet sandboxd | grep -c -e '"sbx[0-9a-f]\{8\}"' \
	    -e 'counter sbx'; }

t0=$(date +%s%N)
check "500 sandboxes up" nd churn-add 500 host=$PUB1:80 \
    cidr=198.51.100.0/24 from=192.0.2.0/24 name=example.com:443
t1=$(date +%s%N)
is "$(count_links)" 500 "500 interfaces"
is "$(count_routes)" 1000 "500 IPv4 and 500 IPv6 routes"
is "$(count_elems '^element src4 ')" 500 "500 address elements"
is "$(count_elems '^element counters ')" 500 "500 counter map entries"
is "$(count_elems '^counter ')" 500 "500 counters"
is "$(count_elems '^element host4 ')" 500 "500 host rule elements"
check "nft(8) lists them as well" test "$(count_nft)" -ge 1000
check "500 sandboxes down and reaped" nd churn-del
t2=$(date +%s%N)
diag "up $(( (t1 - t0) / 1000000 )) ms, down $(( (t2 - t1) / 1000000 )) ms for 500"
is "$(count_links)" 0 "no interface left"
is "$(count_addrs)" 0 "no address left"
is "$(count_routes)" 0 "no route left"
is "$(nd elements | wc -l)" 0 "no set element, map entry or counter left"
is "$(count_nft)" 0 "nft(8) lists nothing of them either"
is "$(in_ns $H ip -o link show group $(printf %d 0x73627864) | wc -l)" 0 \
    "nothing waits in the graveyard group"

# The same sandbox twice: one identity, one link, working.
ID=c1d0000000000001
mksbx sbxs$$i
sbx_add I1 $ID /run/netns/sbxs$$i host=$PUB1:80
sbx_add I2 $ID /run/netns/sbxs$$i host=$PUB1:80
is "$I2_ifname $I2_guest" "$I1_ifname $I1_guest" "adding a sandbox again gives it the same identity"
is "$(count_links)" 1 "and one interface"
probe i sbxs$$i "tcp $PUB1 80"
probe_wait
expect i "tcp $PUB1 80" ok "which works"
check "down, not yet reaped" nd down $ID
check "its rules are gone at once" fails nd_has "element src4 $I1_ifname "
is "$(count_links)" 1 "its link waits for the reap"
probe d sbxs$$i "tcp $PUB1 80" "udp $RESOLVER 53"
probe_wait
expect d "tcp $PUB1 80" timeout "and carries nothing"
expect d "udp $RESOLVER 53" timeout "not even DNS"
sbx_add I3 $ID /run/netns/sbxs$$i host=$PUB1:80
is "$I3_guest" "$I1_guest" "back before the reap: the same /30"
probe b sbxs$$i "tcp $PUB1 80"
probe_wait
expect b "tcp $PUB1 80" ok "and working again"
check "reap" nd reap
is "$(count_links)" 1 "the reap left the live sandbox's link"
nd del $ID
is "$(count_links)" 0 "deleted"

# A tap for a VMM running as uid 4242.
TID=d7a0000000000001
sbx_add TAP $TID tap:4242 host=$PUB1:80
info=$(ip -n $H -d link show $TAP_ifname 2>&1)
contains "$info" "tun type tap" && contains "$info" "user 4242" &&
    contains "$info" "persist on" &&
    ok "a persistent tap owned by uid 4242" ||
    { notok "a persistent tap owned by uid 4242"; diag "$info"; }
contains "$info" "$TAP_hostmac" && ok "with the host-side MAC" ||
    { notok "with the host-side MAC"; diag "$info"; }
check "and the gateway address" \
    sh -c "ip -n $H addr show dev $TAP_ifname | grep -q 'inet $TAP_gw/30'"
check "its datapath elements" nd_has "element src4 $TAP_ifname "
sbx_add TAP2 $TID tap:4242 host=$PUB1:80
is "$TAP2_ifname $(count_links)" "$TAP_ifname 1" "adding it again reuses the tap"
nd del $TID
is "$(count_links)" 0 "deleted, the tap is gone"
is "$(nd elements | wc -l)" 0 "and nothing of ours is left in the kernel"
plan $tap_n
done_testing
