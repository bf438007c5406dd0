#!/bin/sh
# uplink IFACE: the node subnet is masqueraded on that interface (IPv4
# and the IPv6 /96), and only there; without it, the sandbox's own
# address is what the peer sees.  init is idempotent: restarting netd
# with and without an uplink adds and removes the rule.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/topo.sh"
need_root

topo_up || { echo "1..0 # SKIP cannot build the topology"; exit 0; }
netd_start uplink=hp0 ||
    { echo "Bail out! netd_test serve did not start"; exit 1; }

ID=e5a0000000000001
mksbx sbxs$$m
sbx_add M $ID /run/netns/sbxs$$m egress=allow
probe m sbxs$$m -b "tcp $PUB1 80" "udp $PUB2 81" "tcp $PUB6A 80"
probe_wait
expect m "tcp $PUB1 80" "ok $PUB1 $HOSTLINK" "with uplink hp0 the peer sees the host's address"
expect m "udp $PUB2 81" "ok $PUB2 $HOSTLINK" "for UDP too"
expect m "tcp $PUB6A 80" "ok $PUB6A 2001:db8:ff::1" "and for IPv6"
check "the masquerade rule names the uplink" \
    sh -c "ip netns exec $H nft list chain inet sandboxd postrouting | grep -q 'oifname \"hp0\".*masquerade'"

netd_kill
netd_start || { echo "Bail out! netd_test serve did not restart"; exit 1; }
check "restarted without an uplink, the nat chain is gone" fails sh -c \
    "ip netns exec $H nft list chain inet sandboxd postrouting 2>/dev/null"
probe n sbxs$$m -b "tcp $PUB1 80" "tcp $PUB6A 80"
probe_wait
expect n "tcp $PUB1 80" "ok $PUB1 $M_guest" "without it the peer sees the sandbox's address"
expect n "tcp $PUB6A 80" "ok $PUB6A $M_guest6" "over IPv6 too"
probe o sbxs$$m "tcp $PRIV10 80"
probe_wait
expect o "tcp $PRIV10 80" timeout "and the sandbox's policy held through both restarts"
plan $tap_n
done_testing
