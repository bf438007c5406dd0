#!/bin/sh
# The whole suite, end to end: sandboxes made by sandboxctl get their
# network from netd and exactly their policy's egress, each denial next
# to an allowed twin; show prints the identity, the rules and a counter
# that grows with the bytes sent; a sandbox's root cannot spoof.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
need_root

write_conf "
policy \"port\" {
	network {
		allow $PUB1 port 80
		allow $PUB1 port 443 udp
	}
}
policy \"cidr\" {
	network { allow cidr 198.51.100.0/25 }
}
policy \"open\" {
	network { egress allow }
}
policy \"openpriv\" {
	network {
		egress allow
		allow cidr 10.9.0.0/24
		allow cidr $META/32
	}
}
policy \"sealed\" {
	network {
		egress allow
		block-all
	}
}
policy \"nonet\" {
	limits { timeout 60s }
}"
dtopo_up || { echo "Bail out! the suite did not start"; exit 1; }

sprobe p port "tcp $PUB1 80" "tcp $PUB1 81" "tcp $PUB2 80" "udp $PUB1 80" \
    "udp $PUB1 443" "tcp $PUB6A 80"
sprobe c cidr "tcp $CIDR_IN 80" "tcp $CIDR_OUT 80"
sprobe o open "tcp $PUB2 81" "tcp $PUB6A 80" "tcp $PRIV10 80" "tcp $META 80" \
    "tcp $PRIV172 80" "tcp $PRIV192 80" "tcp $ULA6 80"
sprobe op openpriv "tcp $PRIV10 80" "tcp $META 80" "tcp $PRIV172 80"
sprobe s sealed "tcp $PUB1 80" "tcp $PUB6A 80" "udp $RESOLVER 53" \
    "tcp $RESOLVER 53"
sprobe h port "tcp $HOSTLINK 22" "tcp $HOSTOTHER 22" "tcp $RESOLVER 22" \
    "udp $RESOLVER 53" "tcp $RESOLVER 53"
sprobe n nonet "tcp $PUB1 80"
probe_wait

expect p "tcp $PUB1 80" ok "allow IP port: the allowed port connects"
expect p "tcp $PUB1 81" timeout "the same IP on another port is dropped"
expect p "tcp $PUB2 80" timeout "another IP on the port is dropped"
expect p "udp $PUB1 80" timeout "UDP where only TCP is allowed is dropped"
expect p "udp $PUB1 443" ok "UDP where UDP is allowed passes (twin)"
expect p "tcp $PUB6A 80" timeout "IPv6 is denied by default"
expect c "tcp $CIDR_IN 80" ok "allow cidr admits inside the prefix"
expect c "tcp $CIDR_OUT 80" timeout "and not outside it"
expect o "tcp $PUB2 81" ok "egress allow reaches a public address"
expect o "tcp $PUB6A 80" ok "and a public IPv6 address"
expect o "tcp $PRIV10 80" timeout "egress allow still drops 10/8"
expect o "tcp $META 80" timeout "and the metadata address"
expect o "tcp $PRIV172 80" timeout "and 172.16/12"
expect o "tcp $PRIV192 80" timeout "and 192.168/16"
expect o "tcp $ULA6 80" timeout "and fc00::/7"
expect op "tcp $PRIV10 80" ok "unless an allow cidr names 10/8's block"
expect op "tcp $META 80" ok "or the metadata address"
expect op "tcp $PRIV172 80" timeout "what it does not name stays dropped"
expect s "tcp $PUB1 80" timeout "block-all drops IPv4 despite egress allow"
expect s "tcp $PUB6A 80" timeout "and IPv6"
expect s "udp $RESOLVER 53" timeout "and DNS over UDP"
expect s "tcp $RESOLVER 53" timeout "and DNS over TCP"
expect h "tcp $HOSTLINK 22" timeout "the host's own address is closed"
expect h "tcp $HOSTOTHER 22" timeout "and its other addresses"
expect h "tcp $RESOLVER 22" timeout "and the resolver address on other ports"
expect h "udp $RESOLVER 53" ok "DNS to the resolver passes over UDP"
expect h "tcp $RESOLVER 53" ok "and TCP"
expect n "tcp $PUB1 80" ENETUNREACH "a policy without a network block has loopback only"

# Two live sandboxes of different policies, at the same time.
A=$(ctl create -p port) && B=$(ctl create -p open)
check "create -p with a network answers with an id" test -n "$A" -a -n "$B"
sprobe a -x $A -t 2 "tcp $PUB1 80" "tcp $PUB2 81"
sprobe b -x $B -t 2 "tcp $PUB1 80" "tcp $PUB2 81"
probe_wait
expect a "tcp $PUB2 81" timeout "A's default drop holds for A"
expect b "tcp $PUB2 81" ok "while B reaches the same server at the same time"
expect a "tcp $PUB1 80" ok "A keeps its allowed flow"
expect b "tcp $PUB1 80" ok "B too"

show=$(ctl show $A)
A_if=$(printf '%s\n' "$show" | awk '/^network:/ { print $3 }')
A_guest=$(printf '%s\n' "$show" | awk '/^guest:/ { sub("/.*", "", $2); print $2 }')
A_pid=$(printf '%s\n' "$show" | awk '/^pid:/ { print $2 }')
B_guest=$(ctl show $B | awk '/^guest:/ { sub("/.*", "", $2); print $2 }')
check "show names the host interface" \
    sh -c "ip -n $NS link show '$A_if' > /dev/null"
in_subnet() { case "$1" in 10.200.*) return 0;; esac; return 1; }
check "show prints the guest address, in the node subnet" in_subnet "$A_guest"
check "show prints the sandbox's rules in nft syntax" \
    sh -c "printf '%s\n' \"\$1\" | grep -q 'ip daddr $PUB1 tcp dport 80 accept'" \
    - "$show"
check "and its counter" \
    sh -c "printf '%s\n' \"\$1\" | grep -q '^egress: *[0-9]* packets'" - "$show"
bytes() {
	ctl -j show "$1" | python3 -c '
import json, sys
for l in sys.stdin:
    o = json.loads(l)
    if o["event"] == "sandbox.network":
        print(o["bytes"])'
}
b0=$(bytes $A); c0=$(bytes $B)
sprobe n -x $A -n 500000 "tcp $PUB1 80"
probe_wait
b1=$(bytes $A); c1=$(bytes $B)
check "A's counter grew by the 500000 bytes it sent (got $b0 -> $b1)" \
    test $((b1 - b0)) -ge 500000 -a $((b1 - b0)) -lt 600000
is "$c1" "$c0" "B's counter did not move"

# Root in A's netns (a VM guest would be) takes B's address: dropped.
ip netns exec $NS nsenter -t "$A_pid" -n ip addr add "$B_guest/32" dev eth0
nsprobe() {
	_k=$1; shift
	ip netns exec $NS nsenter -t "$A_pid" -n python3 "$D/probe.py" "$@" \
	    > "$T/probe.$_k" 2>&1
}
nsprobe so -s "$A_guest" "udp $PUB1 443"
nsprobe sp -s "$B_guest" "udp $PUB1 443"
got() { grep -q -F -x "got udp $1 $2 $3" "$T/$4.srv"; }
check "from A's own address a datagram reaches the peer (twin)" \
    got $PUB1 443 "$A_guest" peer
check "from B's address, injected in A, the same datagram does not" \
    fails got $PUB1 443 "$B_guest" peer

ctl destroy $A > /dev/null; ctl destroy $B > /dev/null
check "destroyed: A's interface goes (reaped off the hot path)" \
    wait_for 5 no_link "$A_if"
check "and nothing of A stays in the table" \
    fails sh -c "ip netns exec $NS nft list table inet sandboxd | grep -q $A_if"
plan $tap_n
