# The stub upstream of the name tests; source after common.sh and
# regress/netd/dtopo.sh, and call stub_up after topo_up.
UP=198.51.100.53

# stub_up [NAME=V4,V6,TTL]...: the host's own test servers go (dnspind
# takes port 53), and stubdns.py answers at $UP in the peer, logging to
# $T/stub.log; bails out if it does not come up.
stub_up() {
	ip netns pids $H | xargs -r kill
	ip -n $P addr add $UP/32 dev lo
	ip -n $H route add $UP/32 via $PEERLINK
	(ip netns exec $P python3 "$ROOT/regress/dnspind/stubdns.py" $UP \
	    "$@" > "$T/stub.log" 2>&1 &)
	wait_for 5 grep -q ready "$T/stub.log" ||
	    { echo "Bail out! stub"; exit 1; }
}

# stub_many: nK.many.test is 44.77.x.y, a public /16 (answers of private
# ground are never pinned); the peer owns the whole of it.
stub_many() {
	ip -n $P route add local 44.77.0.0/16 dev lo
	ip -n $H route add 44.77.0.0/16 via $PEERLINK
}
