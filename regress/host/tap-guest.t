#!/bin/sh
# A real VM on a sandbox's tap: sandboxctl create --tap, then qemu (TCG)
# attached to that tap, booting Debian's kernel with a busybox initramfs
# (guestkit.sh).  The guest configures what sandboxctl show gives it and
# proves from inside, each denial next to an allowed twin: the allowed
# peer is reached and another is not; the metadata address and the
# host's addresses (its gateway, even on port 53) are closed; an allowed
# name resolves through dnspind and then connects, an unlisted one is
# REFUSED; a second address it takes (another sandbox's) gets nothing
# out, seen from the peer and from the upstream.  The VMM runs as nobody
# with the tap's fd; by name, another uid is refused.  Under the running
# guest netd is killed (the tap and every rule and pin outlive it), then
# the sandbox destroyed (the guest is cut off, the VMM runs on).
# Runs in the lab netns like the other daemon tests, and in make test-host.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
. "$ROOT/regress/dnspind/stub.sh"
. "$ROOT/regress/host/guestkit.sh"
need_root

# The whole guest run, boot included, is bounded by this: it took 38 to
# 58 s on 2 cores at load averages of 13 to 16.
QEMU_TIMEOUT=${SBX_TEST_QEMU_TIMEOUT:-180}
QEMU_PID=
tg_cleanup() {
	# qemu's own pid (from -pidfile): timeout(1) would not pass a KILL on.
	if [ -f "$T/vm/qemu.pid" ]; then
		kill -KILL "$(cat "$T/vm/qemu.pid")" 2>/dev/null
	fi
	[ -n "$QEMU_PID" ] && kill -KILL "$QEMU_PID" 2>/dev/null
	if [ "$tap_failed" != 0 ] && [ -f "$T/vm/serial.log" ]; then
		diag "--- guest console ---"
		tail -n 60 "$T/vm/serial.log" | tr -d '\r' | sed 's/^/# /'
	fi
	if [ "$tap_failed" != 0 ] && [ -f "$T/guestkit.log" ]; then
		diag "--- guestkit ---"
		tail -n 20 "$T/guestkit.log" | sed 's/^/# /'
	fi
	topo_cleanup
}
trap tg_cleanup EXIT

for c in qemu-system-x86_64 cpio apt-get dpkg-deb flock; do
	command -v $c > /dev/null ||
	    { echo "Bail out! $c missing: make deps installs it"; exit 1; }
done

write_conf "
upstream $UP
policy \"vm\" {
	network {
		allow $PUB1 port 80
		allow $PUB6A port 80
		allow name \"allowed.example.com\" port 81
		allow name \"spoofed.example.com\" port 82
	}
}"
gk_kernel || { echo "Bail out! no kernel"; sed 's/^/# /' "$T/guestkit.log";
    exit 1; }
topo_up || { echo "Bail out! topology"; exit 1; }
# The allowed and the unlisted name are the same address: what opens
# it is the name.
stub_up "allowed.example.com=$PUB2,-,300" "denied.example.com=$PUB2,-,300" \
    "spoofed.example.com=$PUB2,-,300"
# stub_up stopped the host's servers (dnspind takes port 53): the rest
# again, on every address of the host, the tap's gateway included.
servers "$H" host2 22 80
suite_run || { echo "Bail out! the suite did not start"; exit 1; }

V=$(ctl create --tap -p vm)
check "create --tap answers with an id" test -n "$V"
show=$(ctl show "$V")
# field SHOW KEY N: the Nth word of show's line KEY, without a /prefix
# when N is 0 (then the second word).
field() {
	printf '%s\n' "$1" | awk -v k="$2" -v n="$3" '$1 == k {
	    if (n == 0) { sub("/.*", "", $2); n = 2 } print $n }'
}
V_if=$(field "$show" network: 3)
V_cidr=$(field "$show" guest: 2)
V_ip=${V_cidr%/*}
V_gw=$(field "$show" guest: 4)
V_mac=$(field "$show" guest: 6)
V_dns=$(field "$show" resolver: 2)
V_cidr6=$(field "$show" guest6: 2)
V_gw6=$(field "$show" guest6: 4)
V_ip6=${V_cidr6%/*}
check "show gives the tap, address, gateway, MAC and resolver" \
    test -n "$V_if" -a -n "$V_ip" -a -n "$V_gw" -a -n "$V_mac" -a -n "$V_dns" \
    -a -n "$V_cidr6" -a -n "$V_gw6"
# Another sandbox, whose address the guest will take as its second.
W=$(ctl create -p vm)
W_show=$(ctl show "$W")
W_ip=$(field "$W_show" guest: 0)
W_ip6=$(field "$W_show" guest6: 0)
check "a second sandbox, whose addresses the guest will spoof" \
    test -n "$W_ip" -a -n "$W_ip6"

# What reaches the peer, by source: its own address and the stolen one.
ip netns exec $P nft -f - <<NFT
table inet spy {
	counter own { }
	counter stolen { }
	counter own6 { }
	counter stolen6 { }
	chain pre {
		type filter hook prerouting priority -400;
		ip saddr $V_ip counter name own
		ip saddr $W_ip counter name stolen
		ip6 saddr $V_ip6 counter name own6
		ip6 saddr $W_ip6 counter name stolen6
	}
}
NFT
spy() {
	ip netns exec $P nft list counter inet spy "$1" |
	    awk '$1 == "packets" { print $2 }'
}

cat > "$T/plan" <<PLAN
own tcp $PUB1 80
peer2 tcp $PUB2 80
own6 tcp $PUB6A 80
peer6 tcp $PUB6B 80
meta tcp $META 80
gw22 tcp $V_gw 22
gw80 tcp $V_gw 80
hostlink tcp $HOSTLINK 22
lateral tcp $W_ip 80
early tcp $PUB2 81
wait
gwdns dns allowed.example.com $V_gw
named dns allowed.example.com
unlisted dns denied.example.com
wait
late tcp $PUB2 81
late80 tcp $PUB2 80
bulk send $PUB1 80 2048
hold
again tcp $PUB1 80
again80 tcp $PUB2 80
again81 tcp $PUB2 81
wait
stolen addr $W_ip
via src $PUB1 $W_ip
via53 src $V_dns $W_ip
stolen6 addr $W_ip6
via6 src $PUB6A $W_ip6
spoof tcp $PUB1 80
spoof6 tcp $PUB6A 80
spoofdns dns spoofed.example.com
hold
cut tcp $PUB2 81
PLAN
gk_initramfs "$ROOT/regress/host/guest-init" "$T/initrd" "$T/plan" ||
    { echo "Bail out! initramfs"; sed 's/^/# /' "$T/guestkit.log"; exit 1; }

# The VMM runs as nobody, with nothing but the tap's fd: root (the tap's
# owner, who created the sandbox) opens it and hands it over, as a
# VMM's launcher would.
TAPFD='
import fcntl, os, struct, sys
TUNSETIFF, IFF_TAP, IFF_NO_PI, IFF_VNET_HDR = 0x400454ca, 2, 0x1000, 0x4000
fd = os.open("/dev/net/tun", os.O_RDWR)
fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH22x", sys.argv[1].encode(),
    IFF_TAP | IFF_NO_PI | IFF_VNET_HDR))
os.dup2(fd, 3)
os.set_inheritable(3, True)
os.execvp(sys.argv[2], sys.argv[2:])
'
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
mkdir -m 0700 "$T/vm" && mkfifo "$T/vm/ctl.in" "$T/vm/ctl.out" &&
    chown -R 65534:65534 "$T/vm"
# qemu_argv: the guest, but for its NIC.
qemu_argv() {
	echo qemu-system-x86_64 -accel tcg -m 192 -nodefaults -no-user-config \
	    -display none -no-reboot -pidfile "$T/vm/qemu.pid" \
	    -serial "file:$T/vm/serial.log" -serial "pipe:$T/vm/ctl" \
	    -kernel "$GK_KDIR/kernel" -initrd "$T/initrd"
}
# The twin of the fd handed over: the tap by its name, from another uid.
# /dev/net/tun may be root's alone (0600 on a host without udev): in a
# mount namespace of its own, a node anyone may open, so that what
# refuses is the tap's owner.
out=$(timeout -s KILL 30 ip netns exec "$NS" unshare -m sh -c '
	mknod -m 0666 "$1/tun" c 10 200 && mount --bind "$1/tun" /dev/net/tun &&
	shift && exec "$@"' - "$T" setpriv --reuid=65534 --regid=65534 \
    --clear-groups $(qemu_argv) \
    -netdev "tap,id=n0,ifname=$V_if,script=no,downscript=no" \
    -device virtio-net-pci,netdev=n0 2>&1)
case "$out" in
*"$V_if"*"Operation not permitted"*)
	ok "a VMM of another uid cannot attach to the tap by its name";;
*)	notok "a VMM of another uid cannot attach to the tap by its name"
	diag "$out";;
esac
rm -f "$T/vm/qemu.pid" "$T/vm/serial.log"

t0=$(date +%s.%N)
timeout -s KILL "$QEMU_TIMEOUT" ip netns exec "$NS" python3 -c "$TAPFD" \
    "$V_if" setpriv --reuid=65534 --regid=65534 --clear-groups \
    $(qemu_argv) \
    -append "console=ttyS0 panic=-1 quiet sbx.ip=$V_cidr sbx.gw=$V_gw \
    sbx.dns=$V_dns sbx.ip6=$V_cidr6 sbx.gw6=$V_gw6" \
    -netdev tap,id=n0,fd=3 -device "virtio-net-pci,netdev=n0,mac=$V_mac" \
    > "$T/qemu.out" 2>&1 &
QEMU_PID=$!
# At the guest's first hold, netd is killed: the tap and the guest's
# network must outlive it, and the restarted netd must take them back as
# they were, the guest's DNS pin included.
held() {
	[ "$(tr -d '\r' < "$T/vm/serial.log" | grep -c -x "G hold")" -ge "$1" ]
}
idx() { ip -n "$NS" -o link show "$V_if" | cut -d: -f1; }
if wait_for 150 held 1; then
	tg=$(date +%s.%N)
	idx0=$(idx)
	syncs=$(grep -c "in sync with runnerd" "$LOG")
	old=$(child_field netd pid)
	kill -KILL "$old"
	check "netd, killed under the running guest, is restarted" \
	    wait_for 15 restarted netd "$old"
	check "and in sync with runnerd again" wait_for 15 sh -c \
	    "[ \$(grep -c 'in sync with runnerd' '$LOG') -gt $syncs ]"
	is "$(idx)" "$idx0" "the guest's tap is the same link (ifindex $idx0)"
else
	notok "the guest held for netd's restart"
fi
echo go > "$T/vm/ctl.in"
th=$(date +%s.%N)
# At the second, the sandbox is destroyed under the running guest.
if wait_for 120 held 2; then
	bytes=$(ctl -j show "$V" | python3 -c '
import json, sys
for l in sys.stdin:
    o = json.loads(l)
    if o["event"] == "sandbox.network":
        print(o["bytes"])')
	ctl destroy "$V" > /dev/null
	check "destroyed under the running guest: the tap goes" \
	    wait_for 5 no_link "$V_if"
	check "and its elements" fails sh -c \
	    "ip netns exec $NS nft list table inet sandboxd | grep -q $V_if"
	check "while the VMM runs on" kill -0 "$(cat "$T/vm/qemu.pid")"
else
	notok "the guest held for its sandbox's destroy"
fi
echo go > "$T/vm/ctl.in"
wait $QEMU_PID
qrc=$?
QEMU_PID=
t1=$(date +%s.%N)
tr -d '\r' < "$T/vm/serial.log" > "$T/console" 2>/dev/null
sed -n 's/^R //p' "$T/console" > "$T/probe.g"
is "$qrc" 0 "qemu ran the guest to its poweroff (within ${QEMU_TIMEOUT}s)"
[ "$qrc" = 0 ] || sed 's/^/# /' "$T/qemu.out"
up=$(sed -n 's/^G up //p' "$T/console")
done_=$(sed -n 's/^G done //p' "$T/console")
secs() { awk "BEGIN { printf \"%.1f\", $1 - $2 }"; }
diag "qemu wall $(secs $t1 $t0)s, held for netd $(secs ${th:-0} ${tg:-0})s;" \
    "guest uptime at network up ${up:-?}s, at done ${done_:-?}s"
sed -n 's/^D /guest: /p' "$T/console" | while read -r l; do diag "$l"; done

expect g own ok "guest: the allowed peer's port connects"
expect g peer2 timeout "another peer on the same port is dropped"
expect g own6 ok "over IPv6, the allowed peer's port connects"
expect g peer6 timeout "another IPv6 peer on it is dropped"
expect g meta timeout "the metadata address is dropped"
expect g gw22 timeout "the host's gateway address is closed (port 22)"
expect g gw80 timeout "and port 80"
expect g hostlink timeout "and the host's other addresses"
expect g lateral timeout "and the other sandbox"
expect g gwdns timeout "no DNS at the gateway address either"
expect g named "$PUB2" \
    "an allowed name resolves through dnspind (the resolver show gives)"
expect g unlisted refused "an unlisted name, the same address, is REFUSED"
expect g early timeout "its address before the name was resolved is dropped"
expect g late ok "after resolving, it connects on the allowed port"
expect g late80 timeout "and only on that port"
expect g again ok "after netd's restart, the allowed peer still connects"
expect g again80 timeout "the other peer is still dropped"
expect g again81 ok "and the resolved name's pin was taken back"
expect g bulk ok "2 MiB sent through the tap to the allowed peer"
check "and counted by the sandbox's counter (got $bytes bytes)" \
    test "${bytes:-0}" -ge 2097152
check "the unlisted name never reached the upstream" \
    fails grep -q "q denied.example.com" "$T/stub.log"
expect g stolen ok "guest: another sandbox's address added to eth0"
expect g via ok "and made the source toward the allowed peer"
expect g spoof timeout "from it, the allowed peer's port is not reached"
own=$(spy own); stolen=$(spy stolen)
check "the peer saw the guest's own address (got ${own:-none} packets)" \
    test "${own:-0}" -gt 0
is "$stolen" 0 "and not one packet from the stolen one"
expect g stolen6 ok "guest: its IPv6 address too"
expect g via6 ok "made the source toward the allowed IPv6 peer"
expect g spoof6 timeout "from it, that peer's port is not reached either"
own6=$(spy own6); stolen6=$(spy stolen6)
check "the peer saw the guest's own IPv6 address (got ${own6:-none} packets)" \
    test "${own6:-0}" -gt 0
is "$stolen6" 0 "and not one packet from the stolen one"
expect g spoofdns timeout "a query from the stolen address is not answered"
check "nor did it reach the upstream, under the other sandbox's policy" \
    fails grep -q "q spoofed.example.com" "$T/stub.log"
check "while the guest's own allowed query did" \
    grep -q "q allowed.example.com" "$T/stub.log"

expect g cut timeout "the destroyed sandbox's guest reaches nothing more"
ctl destroy "$W" > /dev/null
plan $tap_n
