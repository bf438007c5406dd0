# The topology the netd tests share, all in namespaces of their own:
#
#   sandbox netns (eth0) --veth-- "host" netns --veth hp0/ph0-- "peer"
#
# The host runs netd_test serve (the library, as netd would) and TCP/UDP
# servers on ports 22 53 80; its resolver 169.254.1.1 and 198.18.0.1
# are on lo.  The peer has servers on every address below, ports 80 81
# 82 83 443, and routes the node subnet back to the host.
# Source it after common.sh; it replaces common.sh's trap.

D="$ROOT/regress/netd"
TEST="$B/regress/netd/netd_test"
H="sbxh$$"		# the host
P="sbxp$$"		# the peer
SOCKN="$T/netd.sock"
NLOG="$T/netd.log"
SBXNS=""		# sandbox netns made so far
NETD_PID=

PUB1=203.0.113.10	# public range, the usual allowed host
PUB2=203.0.113.11	# public range, another host
CIDR_IN=198.51.100.5	# inside 198.51.100.0/25
CIDR_OUT=198.51.100.200	# outside it
PRIV10=10.9.0.5
META=169.254.169.254
PRIV172=172.16.5.5
PRIV192=192.168.5.5
CGNAT=100.64.7.7	# shared address space, some clouds' metadata
PUB6A=2001:db8:1::10
PUB6B=2001:db8:2::10
ULA6=fd00:9::5
HOSTLINK=192.0.2.1	# the host's address toward the peer
PEERLINK=192.0.2.2
RESOLVER=169.254.1.1
HOSTOTHER=198.18.0.1

topo_cleanup() {
	netd_kill
	for ns in $SBXNS $P $H; do
		netns_gone "$ns"
	done
	if [ "$tap_failed" != 0 ] && [ -f "$NLOG" ]; then
		diag "--- netd_test log ---"
		tail -n 40 "$NLOG" | sed 's/^/# /'
	fi
	cleanup
}
trap topo_cleanup EXIT

in_ns() { _ns=$1; shift; ip netns exec "$_ns" "$@"; }

topo_up() {
	ip netns add "$H" && ip netns add "$P" || return 1
	ip -n "$H" link set lo up
	ip -n "$P" link set lo up
	# The topology's own link: no duplicate address detection delay.
	for ns in $H $P; do
		in_ns "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
		    net.ipv6.conf.default.accept_dad=0
	done
	ip -n "$H" link add hp0 type veth peer name ph0 netns "$P" || return 1
	ip -n "$H" addr add $HOSTLINK/24 dev hp0
	ip -n "$H" addr add 2001:db8:ff::1/64 dev hp0 nodad
	ip -n "$H" addr add $RESOLVER/32 dev lo
	ip -n "$H" addr add $HOSTOTHER/32 dev lo
	ip -n "$H" link set hp0 up
	ip -n "$P" addr add $PEERLINK/24 dev ph0
	ip -n "$P" addr add 2001:db8:ff::2/64 dev ph0 nodad
	ip -n "$P" link set ph0 up
	for a in $PUB1 $PUB2 $CIDR_IN $CIDR_OUT $PRIV10 $META $PRIV172 \
	    $PRIV192 $CGNAT; do
		ip -n "$P" addr add $a/32 dev lo
		ip -n "$H" route add $a/32 via $PEERLINK
	done
	for a in $PUB6A $PUB6B $ULA6; do
		ip -n "$P" addr add $a/128 dev lo nodad
		ip -n "$H" route add $a/128 via 2001:db8:ff::2
	done
	ip -n "$P" route add 10.200.0.0/16 via $HOSTLINK
	ip -n "$P" route add 10.201.0.0/16 via $HOSTLINK
	ip -n "$P" route add fd73:6278::/96 via 2001:db8:ff::1
	in_ns "$H" sysctl -qw net.ipv4.ip_forward=1 \
	    net.ipv6.conf.all.forwarding=1 net.ipv4.conf.all.rp_filter=0 \
	    net.ipv4.conf.default.rp_filter=0
	servers "$P" peer 80 81 82 83 443 && servers "$H" host 22 53 80 ||
	    return 1
	# Neighbour discovery on the topology's own link takes a second
	# the first time: do it now, not in the first probe.  Right after
	# a bench driver's thousands of interfaces went, the kernel is
	# still deleting them under the rtnl lock: tries for 30 s.
	_t0=$(date +%s)
	while :; do
		in_ns "$H" python3 "$D/probe.py" -t 3 "tcp $PUB6A 80" \
		    "tcp $PUB1 80" > "$T/topo.probe" 2>&1
		[ "$(grep -c ' ok$' "$T/topo.probe")" = 2 ] && break
		[ $(($(date +%s) - _t0)) -lt 30 ] || break
		sleep 0.5
	done
	[ "$(grep -c ' ok$' "$T/topo.probe")" = 2 ] || {
		echo "# topo_up: the peer's servers do not answer the host" \
		    "in $(($(date +%s) - _t0)) s:" >&2
		sed 's/^/# /' "$T/topo.probe" >&2
		topo_why >&2
		return 1
	}
	[ $(($(date +%s) - _t0)) -lt 5 ] ||
	    echo "# topo_up: the peer answered after $(($(date +%s) - _t0)) s" >&2
}

# What the host and the peer namespaces hold, for a topology that did
# not come up.
topo_why() {
	echo "# route to $PUB6A: $(ip -n "$H" -6 route get $PUB6A 2>&1)"
	echo "# neighbours on hp0: $(ip -n "$H" -6 neigh show dev hp0 | tr '\n' ';')"
	echo "# hp0: $(ip -n "$H" -6 -o addr show dev hp0 | awk '{ print $4, $NF }' | tr '\n' ';')"
	echo "# peer listens on: $(in_ns "$P" ss -Hltn | awk '{ print $4 }' | tr '\n' ' ')"
	echo "# namespaces: $(ip netns list | wc -l), links here: $(ip -o link | wc -l)"
}

# servers NETNS NAME PORT...: servers.py there, until the netns goes;
# it says on standard error if they are not ready in 10 s.
servers() {
	(in_ns "$1" python3 "$D/servers.py" $3 $4 $5 $6 $7 $8 > "$T/$2.srv" \
	    2>&1 &)
	wait_for 10 grep -q ready "$T/$2.srv" && return 0
	echo "# servers: $2's servers in netns $1 not ready in 10 s:" >&2
	sed 's/^/# /' "$T/$2.srv" >&2
	return 1
}

# netd_start [subnet=... uplink=...]: the library, serving in the host.
# With SBX_WITHOUT=nft-destroy (the *_nodestroy.t tests), as netd -x:
# deletions as on a kernel before 6.3, which the log must confirm.
netd_start() {
	rm -f "$SOCKN"
	set -- "$@" ${SBX_WITHOUT:+without=$SBX_WITHOUT}
	(NETD_TEST_VERBOSE=1 ip netns exec "$H" "$TEST" serve "$SOCKN" "$@" \
	    >> "$NLOG" 2>&1 & echo $! > "$T/netd.pid")
	NETD_PID=$(cat "$T/netd.pid")
	wait_for 15 test -S "$SOCKN" && nd init || return 1
	case ",$SBX_WITHOUT," in
	*,nft-destroy,*) grep -q "deletions by NFT_MSG_DEL of what exists" \
	    "$NLOG" ;;
	esac
}

# netd_kill: kill -9, as a crash would.
netd_kill() {
	[ -n "$NETD_PID" ] && kill -KILL "$NETD_PID" 2>/dev/null
	NETD_PID=
}

nd() { "$TEST" -s "$SOCKN" "$@"; }

# fails CMD...: CMD (a shell function too) fails
fails() { ! "$@"; }

# no_link IFNAME: the host has no such interface
no_link() { ! ip -n "$H" link show "$1" > /dev/null 2>&1; }

# nd_has ERE: a line of nd elements (every element and counter of ours
# in the kernel: "element SET IFNAME KEY", "counter NAME PKTS BYTES")
nd_has() { nd elements | grep -q -E -e "$1"; }

# mksbx NAME: a netns standing in for runnerd's sandbox netns.
mksbx() {
	ip netns add "$1" || return 1
	SBXNS="$SBXNS $1"
}

# sbx_add VAR ID NETNS POLICY...: add, and set VAR_ifname, VAR_guest...
sbx_add() {
	_v=$1; shift
	_out=$(nd add "$@") || { diag "add $*: $_out"; return 1; }
	eval "$(printf '%s\n' "$_out" | sed -n "s/^\([a-z0-9]*\)=/${_v}_\1=/p")"
}

# probe KEY NETNS [probe.py options] SPEC...: in the background, all
# specs at once; probe_wait, then expect.
probe() {
	_k=$1 _ns=$2; shift 2
	in_ns "$_ns" python3 "$D/probe.py" "$@" > "$T/probe.$_k" 2>&1 &
}
probe_wait() { wait; }

# expect KEY "SPEC" RESULT DESC: one line of a probe's results
expect() {
	_got=$(awk -v s="$2" 'index($0, s " ") == 1 {
	    print substr($0, length(s) + 2); exit }' "$T/probe.$1")
	is "$_got" "$3" "$4"
}
