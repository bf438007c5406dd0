#!/bin/sh
# Pins (dnspind's address . port admissions): a pin admits until it
# expires; a repeated pin restarts its timeout; only ports the policy
# allows by name can be pinned.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/topo.sh"
need_root

topo_up || { echo "1..0 # SKIP cannot build the topology"; exit 0; }
netd_start || { echo "Bail out! netd_test serve did not start"; exit 1; }

ID=8f00000000000001
mksbx sbxs$$p1
sbx_add P1 $ID /run/netns/sbxs$$p1 name=example.com:82 \
    name=example.net:83/udp

probe b sbxs$$p1 "tcp $PUB1 82" "tcp $PUB2 82" "udp $PUB1 83"
probe_wait
expect b "tcp $PUB1 82" timeout "before a pin, the named port is closed"

check "pin $PUB1 82/tcp for 3s" nd pin $ID $PUB1 82 tcp 3
check "pin $PUB2 82/tcp for 3s" nd pin $ID $PUB2 82 tcp 3
check "a batch: $PUB1 83/udp and [$PUB6A] 82/tcp" \
    nd pins $ID $PUB1,83,udp,30 $PUB6A,82,tcp,30
check "a port the policy does not name cannot be pinned" \
    fails nd pin $ID $PUB1 80 tcp 30
check "nor the named port with the other protocol" \
    fails nd pin $ID $PUB1 82 udp 30
probe p sbxs$$p1 "tcp $PUB1 82" "tcp $PUB2 82" "udp $PUB1 83" \
    "tcp $PUB6A 82" "tcp $PUB1 80" "tcp $PUB1 81" "tcp $PUB2 83"
probe_wait
expect p "tcp $PUB1 82" ok "a pin admits its address . port"
expect p "tcp $PUB2 82" ok "and the second pin its own"
expect p "udp $PUB1 83" ok "a batch pin: UDP"
expect p "tcp $PUB6A 82" ok "a batch pin: IPv6"
expect p "tcp $PUB1 80" timeout "the refused pin admits nothing"
expect p "tcp $PUB1 81" timeout "another port of a pinned address stays closed"
expect p "tcp $PUB2 83" timeout "a pinned address on a port pinned elsewhere stays closed"
show=$(nd show $ID)
contains "$show" "ip daddr $PUB1 tcp dport 82 accept # pin, expires in" &&
    ok "show lists the pins with their expiry" ||
    { notok "show lists the pins with their expiry"; diag "$show"; }

# t=0 both pinned for 3s (the probes above took a second); at t=2 the
# first is pinned again, to t=5; at t=3.5 the second is gone.
sleep 0.9
check "pin $PUB1 82/tcp again for 3s" nd pin $ID $PUB1 82 tcp 3
sleep 1.5
probe r sbxs$$p1 "tcp $PUB1 82" "tcp $PUB2 82"
probe_wait
expect r "tcp $PUB1 82" ok "past its first expiry, the repeated pin still admits"
expect r "tcp $PUB2 82" timeout "the pin that was not repeated has expired (twin)"
sleep 1
probe e sbxs$$p1 "tcp $PUB1 82" "udp $PUB1 83"
probe_wait
expect e "tcp $PUB1 82" timeout "the repeated pin expires in its turn"
expect e "udp $PUB1 83" ok "while a longer pin still admits"
# Another answer pinning the same address . port for less (another
# name on that address) does not cut the longer pin short.
check "pin $PUB1 83/udp again for 1s" nd pin $ID $PUB1 83 udp 1
sleep 1.5
probe k sbxs$$p1 "udp $PUB1 83"
probe_wait
expect k "udp $PUB1 83" ok "a shorter pin again leaves the longer one be"

# The policy changes: example.net:83/udp is no longer named.
nd add $ID - name=example.com:82 > /dev/null
probe c sbxs$$p1 "udp $PUB1 83" "tcp $PUB6A 82"
probe_wait
expect c "udp $PUB1 83" timeout "a policy change drops the pins of ports it no longer names"
expect c "tcp $PUB6A 82" ok "and keeps the others"

# Defence in depth: whatever dnspind asks, a pin to special-purpose
# ground is refused unless an allow cidr of the policy holds it.
check "a pin to $PRIV10 (private) is refused" \
    fails nd pin $ID $PRIV10 82 tcp 30
check "to $META (cloud metadata)" fails nd pin $ID $META 82 tcp 30
check "to $ULA6 (unique-local)" fails nd pin $ID $ULA6 82 tcp 30
check "to 64:ff9b::a09:5 (NAT64 of $PRIV10)" \
    fails nd pin $ID 64:ff9b::a09:5 82 tcp 30
check "to ::ffff:10.9.0.5 (IPv4-mapped)" \
    fails nd pin $ID ::ffff:10.9.0.5 82 tcp 30
check "a batch holding one is refused whole" \
    fails nd pins $ID $PUB2,82,tcp,30 $META,82,tcp,30
check "the log says why" grep -q "cloud-metadata address, no allow cidr" "$NLOG"
ID2=8f00000000000002
mksbx sbxs$$p2
sbx_add P2 $ID2 /run/netns/sbxs$$p2 name=example.com:82 cidr=10.9.0.0/16
check "with allow cidr 10.9.0.0/16, a pin to $PRIV10 is taken" \
    nd pin $ID2 $PRIV10 82 tcp 30
check "and to $PRIV172, outside it, not" \
    fails nd pin $ID2 $PRIV172 82 tcp 30
probe g sbxs$$p1 "tcp $PRIV10 82" "tcp $META 82" "tcp $PUB2 82"
probe g2 sbxs$$p2 "tcp $PRIV10 82" "tcp $PRIV172 82"
probe_wait
expect g "tcp $PRIV10 82" timeout "the refused pins admit nothing: $PRIV10"
expect g "tcp $META 82" timeout "nor $META"
expect g "tcp $PUB2 82" timeout "nor the public pin of the refused batch"
expect g2 "tcp $PRIV10 82" ok "the allow cidr's address answers"
expect g2 "tcp $PRIV172 82" timeout "the refused one outside it does not"
check "the pin is in the kernel" nd_has "pin4 [^ ]+ 0a090005"
nd add $ID2 - name=example.com:82 > /dev/null
check "a policy change that drops the allow cidr drops the pin there" \
    fails nd_has "pin4 [^ ]+ 0a090005"
probe h sbxs$$p2 "tcp $PRIV10 82"
probe_wait
expect h "tcp $PRIV10 82" timeout "and $PRIV10 is closed again"
nd del $ID2

nd del $ID
check "the sandbox's pins go with it" fails nd_has " pin[46] "
plan $tap_n
done_testing
