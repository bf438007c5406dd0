#!/bin/sh
# A sandbox's UDP queries to the resolver and their answers are not
# tracked by conntrack (a query from a new port each would otherwise
# be a flow each, and a sandbox asking fast would fill the host's
# table), and the policy of the answer path stays as tight: from the
# host, a datagram to the sandbox from the resolver's address and
# port 53 arrives (what dnspind's socket sends), the same from port
# 5353 of that address or from port 53 of the sandbox's gateway
# address does not; and the same from port 53 of the resolver to
# another sandbox's address over this sandbox's link does not.  DNS
# over TCP stays tracked.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
. "$ROOT/regress/dnspind/stub.sh"
need_root

write_conf "
upstream $UP
policy \"nt\" {
	network { allow name \"nt.test\" port 80 }
}"
topo_up || { echo "Bail out! topology"; exit 1; }
stub_up "nt.test=$PUB1,-,60"
suite_run || { echo "Bail out! the suite did not start"; exit 1; }
plan 6

A=$(ctl create -p nt) && B=$(ctl create -p nt) ||
    { echo "Bail out! create"; exit 1; }
field() { ctl -j show "$1" | python3 -c 'import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("event") == "sandbox" and "network" in r:
        print(r["network"][sys.argv[1]])' "$2"; }
# Once in a CI run the first show right after the create gave no
# sandbox (not reproduced in 120 tries): say what it gave, ask again.
apid=
for i in 1 2 3 4 5; do
	out=$(ctl -j show "$A" 2>&1)
	apid=$(echo "$out" | jfield pid sandbox)
	[ -n "$apid" ] && break
	diag "show $A gave no pid: $out"
	sleep 0.5
done
[ -n "$apid" ] || { echo "Bail out! no pid for sandbox A"; exit 1; }
aguest=$(field "$A" guest) bguest=$(field "$B" guest)
aif=$(field "$A" interface)
agw=$(ip -n "$NS" -4 -o addr show dev "$aif" | awk '{ sub("/.*", "", $4);
    print $4; exit }')
diag "sandbox A $aguest on $aif (gateway $agw), B $bguest"

# 50 queries, each from a port of its own, as a stub resolver asks.
QLIB=$(cat "$ROOT/regress/dnspind/qlib.py")
ASKPY="$QLIB"'
ok = 0
for k in range(50):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(3)
    q = query("nt.test", k)
    s.sendto(q, RESOLVER)
    try:
        r = s.recv(512)
        if r[:2] == q[:2] and r[3] & 15 == 0:
            ok += 1
    except socket.timeout:
        pass
    s.close()
print("answered", ok)
t = socket.create_connection(("169.254.1.1", 53), timeout=3)
t.close()
'
is "$(nsenter --net=/proc/$apid/ns/net python3 -c "$ASKPY")" "answered 50" \
    "50 queries from 50 ports of a sandbox: all answered"
ip netns exec "$NS" cat /proc/net/nf_conntrack > "$T/ct" 2>/dev/null
u=$(grep -c "udp .*src=$aguest dst=169.254.1.1 .*dport=53 " "$T/ct")
t=$(grep -c "tcp .*src=$aguest dst=169.254.1.1 .*dport=53 " "$T/ct")
is "$u $t" "0 1" \
    "... and none of them is a conntrack entry of the host (a TCP connection to the resolver is)"

# What reaches sandbox A's link (a packet socket in its namespace, so
# that one to an address not its own shows too), of datagrams forged
# on the host side (a raw socket in the suite's namespace).
LISTENPY='
import socket, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.settimeout(0.5)
tags = (b"resolver53", b"resolver5353", b"gateway53", b"wrongdst")
seen, end = set(), time.monotonic() + 4
while time.monotonic() < end:
    try:
        f = s.recv(2048)
    except socket.timeout:
        continue
    for t in tags:
        if f.endswith(b"/" + t):
            seen.add(t.decode())
print(" ".join(sorted(seen)))
'
FORGEPY='
import socket, struct, sys, time
def send(src, sport, dst, tag, dev=None):
    tag = b"/" + tag
    udp = struct.pack(">HHHH", sport, 4444, 8 + len(tag), 0) + tag
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64,
        17, 0, socket.inet_aton(src), socket.inet_aton(dst))
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    if dev:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, dev.encode())
    try:
        s.sendto(ip + udp, (dst, 0))
    except OSError as e:
        print("send", tag.decode(), "refused:", e.strerror, flush=True)
    s.close()
res, gw, a, b, aif = sys.argv[1:6]
for i in range(3):
    send(res, 53, a, b"resolver53")
    send(res, 5353, a, b"resolver5353")
    send(gw, 53, a, b"gateway53")
    send(res, 53, b, b"wrongdst", aif)
    time.sleep(0.3)
'
nsenter --net=/proc/$apid/ns/net python3 -c "$LISTENPY" > "$T/listen.out" &
lpid=$!
sleep 0.5
ip netns exec "$NS" python3 -c "$FORGEPY" 169.254.1.1 "$agw" "$aguest" \
    "$bguest" "$aif" | while read -r l; do diag "$l"; done
wait $lpid
got=$(cat "$T/listen.out")
diag "sandbox A's link saw: $got"
check "from the resolver's address and port 53: arrives (dnspind's answers)" \
    contains " $got " " resolver53 "
check "from the resolver's address, port 5353: dropped" \
    sh -c "! echo ' $got ' | grep -q ' resolver5353 '"
check "from port 53 of the sandbox's gateway address: dropped" \
    sh -c "! echo ' $got ' | grep -q ' gateway53 '"
check "from the resolver's port 53 to another sandbox's address, out of this sandbox's link: dropped" \
    sh -c "! echo ' $got ' | grep -q ' wrongdst '"
ctl destroy "$A" > /dev/null
ctl destroy "$B" > /dev/null
done_testing
