#!/bin/sh
# Egress, with packets: each denial next to its allowed twin.  Four
# sandboxes: deny with literal rules, egress allow, egress allow with
# private ranges named by allow cidr, and block-all.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/topo.sh"
need_root

topo_up || { echo "1..0 # SKIP cannot build the topology"; exit 0; }
netd_start || { echo "Bail out! netd_test serve did not start"; exit 1; }
for s in e1 e2 e3 e4; do mksbx sbxs$$$s; done
sbx_add E1 00000000000000e1 /run/netns/sbxs$$e1 host=$PUB1:80 \
    host=$PUB1:81/udp host=[$PUB6A]:80 cidr=198.51.100.0/25 \
    cidr=2001:db8:2::/48
sbx_add E2 00000000000000e2 /run/netns/sbxs$$e2 egress=allow
sbx_add E3 00000000000000e3 /run/netns/sbxs$$e3 egress=allow \
    cidr=10.9.0.0/16 cidr=169.254.169.254/32 cidr=$ULA6/128
sbx_add E4 00000000000000e4 /run/netns/sbxs$$e4 block-all egress=allow \
    host=$PUB1:80 inbound=allow
check "four sandboxes with different policies" \
    test -n "$E1_guest" -a -n "$E2_guest" -a -n "$E3_guest" -a -n "$E4_guest"

probe e1 sbxs$$e1 "tcp $PUB1 80" "tcp $PUB1 81" "tcp $PUB2 80" \
    "udp $PUB1 80" "udp $PUB1 81" "tcp $CIDR_IN 80" "tcp $CIDR_OUT 80" \
    "tcp $PUB6A 80" "tcp $PUB6A 81" "tcp $PUB6B 83" "tcp $ULA6 80" \
    "tcp $META 80" "tcp $PRIV10 80" "udp $RESOLVER 53"
probe e2 sbxs$$e2 "tcp $PUB1 80" "tcp $PUB2 81" "udp $PUB2 443" \
    "tcp $PRIV10 80" "tcp $META 80" "tcp $PRIV172 80" "tcp $PRIV192 80" \
    "tcp $PUB6A 80" "tcp $ULA6 80" "udp $RESOLVER 53" "tcp $CGNAT 80"
probe e3 sbxs$$e3 "tcp $PRIV10 80" "tcp $META 80" "tcp $ULA6 80" \
    "tcp $PRIV172 80" "tcp $PRIV192 80" "tcp $PUB2 80"
probe e4 sbxs$$e4 "tcp $PUB1 80" "tcp $PUB2 80" "tcp $PUB6A 80" \
    "udp $RESOLVER 53" "tcp $RESOLVER 53"
probe_wait

# deny with literal rules
expect e1 "tcp $PUB1 80" ok "allowed IP:port connects"
expect e1 "tcp $PUB1 81" timeout "same IP, another port: blocked"
expect e1 "tcp $PUB2 80" timeout "another IP, the allowed port: blocked"
expect e1 "udp $PUB1 80" timeout "UDP where only TCP is allowed: blocked"
expect e1 "udp $PUB1 81" ok "UDP where UDP is allowed passes"
expect e1 "tcp $CIDR_IN 80" ok "allow cidr admits inside (198.51.100.0/25)"
expect e1 "tcp $CIDR_OUT 80" timeout "and not outside"
expect e1 "tcp $PUB6A 80" ok "an IPv6 IP:port rule connects"
expect e1 "tcp $PUB6A 81" timeout "the same IPv6 address, another port: blocked"
expect e1 "tcp $PUB6B 83" ok "an IPv6 allow cidr admits inside"
expect e1 "tcp $ULA6 80" timeout "IPv6 is default-deny outside the rules"
expect e1 "tcp $META 80" timeout "deny: metadata address blocked"
expect e1 "tcp $PRIV10 80" timeout "deny: 10/8 blocked"
expect e1 "udp $RESOLVER 53" ok "DNS to the resolver still works under deny"

# egress allow: the internet, not private ranges
expect e2 "tcp $PUB1 80" ok "egress allow reaches a public-range peer"
expect e2 "tcp $PUB2 81" ok "on any port"
expect e2 "udp $PUB2 443" ok "and UDP"
expect e2 "tcp $PRIV10 80" timeout "egress allow still blocks 10/8"
expect e2 "tcp $META 80" timeout "and 169.254.169.254"
expect e2 "tcp $PRIV172 80" timeout "and 172.16/12"
expect e2 "tcp $PRIV192 80" timeout "and 192.168/16"
expect e2 "tcp $CGNAT 80" timeout "and 100.64/10, the shared address space"
expect e2 "tcp $PUB6A 80" ok "egress allow reaches public IPv6"
expect e2 "tcp $ULA6 80" timeout "but not fc00::/7"
expect e2 "udp $RESOLVER 53" ok "and asks the resolver"

# private ranges named by allow cidr
expect e3 "tcp $PRIV10 80" ok "allow cidr 10.9.0.0/16 opens it under egress allow"
expect e3 "tcp $META 80" ok "allow cidr 169.254.169.254/32 opens the metadata address"
expect e3 "tcp $ULA6 80" ok "allow cidr fd00:9::5/128 opens that ULA"
expect e3 "tcp $PRIV172 80" timeout "an unnamed private range stays closed"
expect e3 "tcp $PRIV192 80" timeout "192.168/16 too"
expect e3 "tcp $PUB2 80" ok "the internet still open"

# block-all overrides egress allow, a host rule and DNS
expect e4 "tcp $PUB1 80" timeout "block-all: its own host rule is blocked"
expect e4 "tcp $PUB2 80" timeout "block-all: egress allow is blocked"
expect e4 "tcp $PUB6A 80" timeout "block-all: IPv6 is blocked"
expect e4 "udp $RESOLVER 53" timeout "block-all: DNS over UDP is blocked"
expect e4 "tcp $RESOLVER 53" timeout "block-all: DNS over TCP is blocked"

show=$(nd show 00000000000000e1)
contains "$show" "ip daddr $PUB1 tcp dport 80 accept" &&
    contains "$show" "ip daddr 198.51.100.0/25 accept" &&
    contains "$show" "ip6 daddr 2001:db8:2::/48 accept" &&
    contains "$show" "ip saddr != $E1_guest drop" &&
    contains "$show" "ip daddr $RESOLVER udp dport 53 accept" &&
    ok "show renders the rules of E1 in nft syntax" ||
    { notok "show renders the rules of E1 in nft syntax"; diag "$show"; }
contains "$show" "$PUB2" && notok "show has nothing of other sandboxes" ||
    ok "show has nothing of other sandboxes"
show=$(nd show 00000000000000e4)
contains "$show" "drop # block-all" &&
    ! contains "$show" "tcp dport 80 accept" &&
    ok "show of a block-all sandbox: drop, nothing else" ||
    { notok "show of a block-all sandbox: drop, nothing else"; diag "$show"; }
show=$(nd show 00000000000000e2)
contains "$show" "ip daddr != { 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16 } accept" &&
    ok "show of egress allow lists the private ranges it refuses" ||
    { notok "show of egress allow lists the private ranges"; diag "$show"; }
ctr=$(nd counter 00000000000000e2 | awk '{ print $4 }')
check "E2's egress counter counted its traffic ($ctr bytes)" test "${ctr:-0}" -gt 0
check "netd's sources run no program (nft, ip, conntrack)" \
    fails grep -n -E "exec[lv]|system\\(|popen" $ROOT/cmd/netd/*.c
plan $tap_n
done_testing
