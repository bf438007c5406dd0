#!/bin/sh
# Inbound to the guest, and the host's own addresses seen from a
# sandbox: each denial next to its allowed twin.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/topo.sh"
need_root

topo_up || { echo "1..0 # SKIP cannot build the topology"; exit 0; }
netd_start || { echo "Bail out! netd_test serve did not start"; exit 1; }

for s in i1 i2 i3; do mksbx sbxs$$$s; done
sbx_add I1 1a00000000000001 /run/netns/sbxs$$i1 host=$PUB1:80
sbx_add I2 2a00000000000002 /run/netns/sbxs$$i2 from=192.0.2.0/24 \
    from=2001:db8:ff::/64
sbx_add I3 3a00000000000003 /run/netns/sbxs$$i3 inbound=allow
for s in i1 i2 i3; do servers sbxs$$$s $s 8080; done

# Unsolicited inbound from the peer, from two sources: its link
# address (192.0.2.2, inside 192.0.2.0/24) and 203.0.113.10 (outside).
probe p1 $P "tcp $I1_guest 8080" "udp $I1_guest 8080" "tcp $I1_guest6 8080" \
    "tcp $I2_guest 8080" "udp $I2_guest 8080" "tcp $I2_guest6 8080" \
    "tcp $I3_guest 8080" "tcp $I3_guest6 8080"
probe p2 $P -s $PUB1 "tcp $I2_guest 8080" "udp $I2_guest 8080" \
    "tcp $I3_guest 8080"
probe p3 $P -s $PUB6A "tcp $I2_guest6 8080" "tcp $I3_guest6 8080"
# The sandbox's own outbound replies flow while inbound is denied.
probe i1 sbxs$$i1 "tcp $PUB1 80"
# The host: gateway, other interfaces, resolver.
probe h1 sbxs$$i1 "tcp $I1_gw 22" "tcp $I1_gw 80" "udp $I1_gw 53" \
    "tcp $I1_gw6 22" "tcp $HOSTLINK 22" "tcp $HOSTOTHER 22" \
    "tcp $RESOLVER 80" "udp $RESOLVER 53" "tcp $RESOLVER 53" \
    "tcp $I2_gw 22"
probe h3 sbxs$$i3 "tcp $I3_gw 22" "udp $RESOLVER 53"
# The host itself, as a local process: the listeners exist, and
# inbound policy holds for it too.
probe hl $H "tcp $I1_gw 22" "tcp $HOSTLINK 22" "udp $RESOLVER 53" \
    "tcp $I1_guest 8080" "tcp $I3_guest 8080"
probe_wait

expect p1 "tcp $I1_guest 8080" timeout "inbound deny: unsolicited TCP to the guest dropped"
expect p1 "udp $I1_guest 8080" timeout "inbound deny: unsolicited UDP dropped"
expect p1 "tcp $I1_guest6 8080" timeout "inbound deny: unsolicited IPv6 dropped"
expect i1 "tcp $PUB1 80" ok "while the guest's own outbound connection gets its replies"
expect p1 "tcp $I2_guest 8080" ok "inbound allow from 192.0.2.0/24 admits 192.0.2.2"
expect p1 "udp $I2_guest 8080" ok "over UDP too"
expect p2 "tcp $I2_guest 8080" timeout "and not 203.0.113.10, outside the CIDR"
expect p2 "udp $I2_guest 8080" timeout "nor its UDP"
expect p1 "tcp $I2_guest6 8080" ok "inbound allow from 2001:db8:ff::/64 admits the peer's link"
expect p3 "tcp $I2_guest6 8080" timeout "and not 2001:db8:1::10"
expect p1 "tcp $I3_guest 8080" ok "inbound allow (any) admits the peer"
expect p2 "tcp $I3_guest 8080" ok "from any source"
expect p1 "tcp $I3_guest6 8080" ok "and over IPv6"
expect p3 "tcp $I3_guest6 8080" ok "from any IPv6 source"

expect hl "tcp $I1_gw 22" ok "the host listens on the gateway address (twin)"
expect h1 "tcp $I1_gw 22" timeout "a sandbox cannot reach the gateway's port 22"
expect h1 "tcp $I1_gw 80" timeout "nor port 80"
expect h1 "udp $I1_gw 53" timeout "nor DNS at the gateway address: only the resolver"
expect h1 "tcp $I1_gw6 22" timeout "nor the IPv6 gateway"
expect hl "tcp $HOSTLINK 22" ok "the host listens on its other interface (twin)"
expect h1 "tcp $HOSTLINK 22" timeout "a sandbox cannot reach the host's other interface"
expect h1 "tcp $HOSTOTHER 22" timeout "nor another host address"
expect h1 "tcp $I2_gw 22" timeout "nor another sandbox's gateway"
expect h1 "tcp $RESOLVER 80" timeout "nor the resolver address on another port"
expect hl "udp $RESOLVER 53" ok "the resolver answers the host (twin)"
expect h1 "udp $RESOLVER 53" ok "a sandbox may ask the resolver over UDP"
expect h1 "tcp $RESOLVER 53" ok "and over TCP"
expect h3 "tcp $I3_gw 22" timeout "inbound allow does not open the host to the sandbox"
expect h3 "udp $RESOLVER 53" ok "which still has DNS"
expect hl "tcp $I1_guest 8080" timeout "inbound deny holds for the host's own processes"
expect hl "tcp $I3_guest 8080" ok "inbound allow admits them"

show=$(nd show 2a00000000000002)
contains "$show" "ip saddr 192.0.2.0/24 accept" &&
    contains "$show" "ip6 saddr 2001:db8:ff::/64 accept" &&
    ok "show lists the inbound sources" ||
    { notok "show lists the inbound sources"; diag "$show"; }
plan $tap_n
done_testing
