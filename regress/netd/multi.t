#!/bin/sh
# Two sandboxes with different policies side by side: each keeps its
# own verdicts, a packet with the other's source address is dropped
# (root in the sandbox can add any address: a VM guest can), and the
# egress counter grows with what a sandbox sends.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/topo.sh"
need_root

topo_up || { echo "1..0 # SKIP cannot build the topology"; exit 0; }
netd_start || { echo "Bail out! netd_test serve did not start"; exit 1; }

mksbx sbxs$$m1; mksbx sbxs$$m2
sbx_add M1 4d00000000000001 /run/netns/sbxs$$m1 host=$PUB1:80 \
    host=[$PUB6A]:80 host=$PUB1:443/udp
sbx_add M2 5d00000000000002 /run/netns/sbxs$$m2 egress=allow

# Both at once: M1's default drop next to M2's allowed flows.
probe a1 sbxs$$m1 "tcp $PUB1 80" "tcp $PUB2 81" "udp $PUB2 81" \
    "tcp $PUB6B 80"
probe a2 sbxs$$m2 "tcp $PUB1 80" "tcp $PUB2 81" "udp $PUB2 81" \
    "tcp $PUB6B 80"
probe_wait
expect a1 "tcp $PUB1 80" ok "M1 reaches its allowed host"
expect a1 "tcp $PUB2 81" timeout "M1 is denied what its policy lacks"
expect a1 "udp $PUB2 81" timeout "M1: UDP too"
expect a1 "tcp $PUB6B 80" timeout "M1: IPv6 too"
expect a2 "tcp $PUB2 81" ok "at the same time M2 reaches it: M1's drop does not cut M2"
expect a2 "udp $PUB2 81" ok "M2: UDP"
expect a2 "tcp $PUB6B 80" ok "M2: IPv6"
expect a2 "tcp $PUB1 80" ok "M2 reaches M1's host as well"

# Spoofing: root in M2 takes M1's addresses, root in M1 takes M2's.
# A spoofed packet's answer goes to the real owner, so what counts is
# whether it arrived: the servers log every datagram ("got udp ...").
ip -n sbxs$$m2 addr add $M1_guest/32 dev eth0
ip -n sbxs$$m2 addr add $M1_guest6/128 dev eth0 nodad
ip -n sbxs$$m2 addr add 10.200.250.250/32 dev eth0
ip -n sbxs$$m1 addr add $M2_guest/32 dev eth0
probe s2 sbxs$$m2 -s $M1_guest "udp $PUB2 83" "udp $RESOLVER 53"
probe s6 sbxs$$m2 -s $M1_guest6 "udp $PUB6B 83"
probe s3 sbxs$$m2 -s 10.200.250.250 "udp $PUB2 82"
probe s1 sbxs$$m1 -s $M2_guest "udp $PUB1 443"
probe o1 sbxs$$m1 -s $M1_guest "udp $PUB1 443"
probe o2 sbxs$$m2 -s $M2_guest "udp $PUB2 443"
probe o6 sbxs$$m2 -s $M2_guest6 "udp $PUB6B 443"
probe_wait
got() { grep -q -F -x "got udp $1 $2 $3" "$T/$4.srv"; }
expect o2 "udp $PUB2 443" ok "M2 from its own address reaches $PUB2 (twin)"
check "the peer got it from M2's address" got $PUB2 443 $M2_guest peer
check "M2 with M1's address: nothing reaches the peer" \
    fails got $PUB2 83 $M1_guest peer
check "M2 with M1's address: nothing reaches the host's resolver" \
    fails got $RESOLVER 53 $M1_guest host
expect o6 "udp $PUB6B 443" ok "M2 from its own IPv6 address (twin)"
check "the peer got it from M2's IPv6 address" got $PUB6B 443 $M2_guest6 peer
check "M2 with M1's IPv6 address: nothing reaches the peer" \
    fails got $PUB6B 83 $M1_guest6 peer
check "an unassigned address of the subnet: nothing reaches the peer" \
    fails got $PUB2 82 10.200.250.250 peer
expect o1 "udp $PUB1 443" ok "M1 from its own address reaches its UDP host (twin)"
check "M1 with M2's address: nothing reaches M1's own allowed host" \
    fails got $PUB1 443 $M2_guest peer
expect s2 "udp $PUB2 83" timeout "the spoofing prober sees no answer"

# Counters: M1 sends 300000 bytes; M2, idle, is not charged.
c1=$(nd counter 4d00000000000001 | awk '{ print $4 }')
c2=$(nd counter 5d00000000000002 | awk '{ print $4 }')
probe n1 sbxs$$m1 -n 300000 "tcp $PUB1 80"
probe_wait
expect n1 "tcp $PUB1 80" ok "M1 sends 300000 bytes to its host"
d1=$(nd counter 4d00000000000001 | awk '{ print $4 }')
d2=$(nd counter 5d00000000000002 | awk '{ print $4 }')
check "M1's egress counter grew by at least that ($c1 -> $d1)" \
    test $((d1 - c1)) -ge 300000
check "and by less than twice that" test $((d1 - c1)) -lt 600000
is "$d2" "$c2" "M2's counter did not move"
show=$(nd show 4d00000000000001)
contains "$show" "packets [0-9]* bytes $d1" &&
    ok "show prints the counter" || { notok "show prints the counter"; diag "$show"; }

# Deleting M1 leaves M2 alone.
nd del 4d00000000000001
probe d2 sbxs$$m2 "tcp $PUB2 81"
probe_wait
expect d2 "tcp $PUB2 81" ok "M2 still works after M1 is deleted"
check "M1's interface is gone" no_link $M1_ifname
plan $tap_n
done_testing
