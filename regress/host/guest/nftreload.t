#!/bin/sh
# In the guest, with Debian's own nftables.service and its stock
# /etc/nftables.conf (which begins with "flush ruleset"): the host
# reloading its firewall never opens a path a sandbox's policy denies.
# A sandbox floods a denied peer (UDP and TCP SYNs) while the host runs
# systemctl restart nftables, nft flush ruleset, a permissive full
# replacement with nft -f and nft delete table inet sandboxd; a counter
# in the peer's own namespace must read 0 packets, table inet sandboxd
# must still be there after each, and the allowed twin must connect.
# Peers live in a network namespace made here (the guest has no
# network).
. "${SBX_SRC:-.}/regress/host/guest/lib.sh"
D=regress/netd
PUB1=203.0.113.10	# the allowed peer
PUB2=203.0.113.11	# the denied one
PEER=sbxpeer$$
CONF=/etc/sandboxd.conf
FLOOD_SECS=90

cleanup() {
	[ -n "$fpid" ] && kill "$fpid" 2>/dev/null
	[ -f "$CONF.nftreload" ] && mv "$CONF.nftreload" "$CONF" &&
	    systemctl restart sandboxd
	systemctl restart nftables 2>/dev/null
	ip netns pids $PEER 2>/dev/null | xargs -r kill -KILL
	ip netns del $PEER 2>/dev/null
	ip link del hp$$ 2>/dev/null
}
trap cleanup EXIT

check "nftables.service is Debian's, with its stock config" \
    grep -qx 'flush ruleset' /etc/nftables.conf
# The peer: two addresses with servers on 80 and 81, routed both ways,
# and a counter of every packet that reaches the denied address.
. "${SBX_SRC:-.}/regress/host/guest/peer.sh"
peer_up $PEER hp$$ $PUB1 $PUB2
ip netns exec $PEER nft -f - <<EOF
table inet peercount {
	counter denied { }
	chain pre {
		type filter hook prerouting priority -500;
		ip daddr $PUB2 counter name denied
	}
}
EOF
denied_packets() {
	ip netns exec $PEER nft list counter inet peercount denied |
	    awk '$1 == "packets" { print $2 }'
}
(ip netns exec $PEER python3 $D/servers.py 80 81 >/tmp/nftreload.srv 2>&1 &)
check "peer servers up" wait_for 20 grep -q ready /tmp/nftreload.srv

cp "$CONF" "$CONF.nftreload"
cat >"$CONF" <<EOF
policy "default" {
	limits { timeout 60s }
}
policy "port" {
	network { allow $PUB1 port 80 }
	limits { timeout 5m max 5m }
}
EOF
systemctl restart sandboxd
check "sandboxd restarted on the test config" wait_for 60 sbx_ready
A=$(sandboxctl create -p port)
check "a sandbox with a network policy" test -n "$A"

PROBE_PY=$(cat $D/probe.py)
allowed_ok() {
	sandboxctl exec "$A" -- python3 -c "$PROBE_PY" -t 2 \
	    "tcp $PUB1 80" 2>/dev/null | grep -qx "tcp $PUB1 80 ok"
}
# Blocked: the probe gets no connection (it says timeout, or an error
# once the flood has filled the sandbox's own tables), never ok.  The
# first try may get no answer at all while an aborted exec (the flood)
# is still being torn down: a few tries for an answer, judged once.
denied_probe() {
	_r=$(sandboxctl exec "$A" -- python3 -c "$PROBE_PY" -t 2 \
	    "tcp $PUB2 80" 2>&1)
	printf '%s\n' "$_r" | grep -q "^tcp $PUB2 80 "
}
denied_blocked() {
	_r=
	wait_for 30 denied_probe
	diag "denied probe: $_r"
	printf '%s\n' "$_r" | grep -q "^tcp $PUB2 80 " &&
	    ! printf '%s\n' "$_r" | grep -qx "tcp $PUB2 80 ok"
}
check "the allowed peer connects" allowed_ok
check "the denied peer is blocked" denied_blocked
is "$(denied_packets)" 0 "the denied peer has seen no packet"

# The flood: UDP datagrams and TCP SYNs at the denied peer, without end
# until killed, while the host's firewall is reloaded under it.
sandboxctl exec "$A" -- python3 -c '
import socket, sys, time
dst, end, n = sys.argv[1], time.time() + float(sys.argv[2]), 0
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
last = time.time()
while time.time() < end:
    if time.time() - last >= 1:
        print("sent", n, flush=True)
        last = time.time()
    try:
        u.sendto(b"x", (dst, 9))
    except OSError:
        pass
    t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    t.setblocking(False)
    try:
        t.connect((dst, 80))
    except OSError:
        pass
    t.close()
    n += 1' "$PUB2" "$FLOOD_SECS" >/tmp/nftreload.flood 2>&1 &
fpid=$!
sleep 3

after_event() {	# WHAT
	check "$1: table inet sandboxd is still there" \
	    sh -c 'nft list tables | grep -qx "table inet sandboxd"'
	check "$1: the allowed twin connects" wait_for 10 allowed_ok
	is "$(denied_packets)" 0 "$1: the denied peer has seen 0 packets"
}

check "systemctl restart nftables" systemctl restart nftables
after_event "after systemctl restart nftables"
check "nft flush ruleset" nft flush ruleset
after_event "after nft flush ruleset"
check "a permissive full replacement loaded with nft -f" nft -f - <<EOF
flush ruleset
table inet filter {
	chain input { type filter hook input priority 0; policy accept; }
	chain forward { type filter hook forward priority 0; policy accept; }
	chain output { type filter hook output priority 0; policy accept; }
}
EOF
after_event "after a permissive replacement"
check "nft delete table inet sandboxd is refused" \
    sh -c '! nft delete table inet sandboxd 2>/dev/null'
after_event "after an attempt to delete it"
check "systemctl restart nftables once more" systemctl restart nftables
after_event "after the second restart"

kill "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null
fpid=
sent=$(awk '$1 == "sent" { n = $2 } END { print n + 0 }' /tmp/nftreload.flood)
diag "the flood sent $sent datagrams and as many SYNs"
check "the flood ran throughout ($sent)" test "$sent" -gt 100
is "$(denied_packets)" 0 "in all, the denied peer saw 0 packets"
check "the denied peer is still blocked" denied_blocked
is "$(denied_packets)" 0 "and has still seen 0 packets"
check "A destroyed" sandboxctl destroy "$A"
plan "$tap_n"
done_testing
