# Shared by the guest tests that need peers (netd61.t, nftreload.t): the
# guest has no network, so a peer is a network namespace made here.
# peer_up PEER HOSTIF ADDR...: namespace PEER joined to the guest by the
# veth pair HOSTIF (192.0.2.1) / ph0 (192.0.2.2), each ADDR on its lo
# and routed there, and the sandboxes' subnet routed back; forwarding
# on.  Source it with: . "$SBX_SRC/regress/host/guest/peer.sh"
peer_up() {
	_p=$1 _h=$2; shift 2
	ip netns add "$_p" &&
	ip -n "$_p" link set lo up &&
	ip link add "$_h" type veth peer name ph0 netns "$_p" &&
	ip addr add 192.0.2.1/24 dev "$_h" &&
	ip link set "$_h" up &&
	ip -n "$_p" addr add 192.0.2.2/24 dev ph0 &&
	ip -n "$_p" link set ph0 up || return 1
	for _a in "$@"; do
		ip -n "$_p" addr add "$_a/32" dev lo &&
		ip route add "$_a/32" via 192.0.2.2 || return 1
	done
	ip -n "$_p" route add 10.200.0.0/16 via 192.0.2.1 &&
	sysctl -qw net.ipv4.ip_forward=1
}
