#!/bin/sh
# DNS over TCP toward the upstream, and answers larger than 512 bytes,
# from inside sandboxes against the stub upstream.  bigK.test has K A
# records (16 bytes each): the stub sets TC over UDP when they do not
# fit what the query allows.  A truncated answer is asked again over
# TCP; a client's TCP query goes over TCP; a big answer goes back over
# UDP only as far as the client's EDNS0 size allows, else as TC.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
need_root

UP=198.51.100.53
UP2=198.51.100.54	# a second upstream, which a TCP retry must not go to
write_conf "
upstream $UP
upstream $UP2
policy \"big\" {
	network {
		allow name \"big40.test\" port 80
		allow name \"big31.test\" port 80
		allow name \"big100.test\" port 80
		allow name \"big60.test\" port 80
		allow name \"big60.test\" port 81
		allow name \"big60.test\" port 82
		allow name \"big60.test\" port 83
		allow name \"big60.test\" port 443
		allow name \"small.test\" port 80
		allow name \"fail.test\" port 80
	}
}"
topo_up || { echo "Bail out! topology"; exit 1; }
ip netns pids $H | xargs -r kill
for a in $UP $UP2; do
	ip -n $P addr add $a/32 dev lo
	ip -n $H route add $a/32 via $PEERLINK
done
# bigK.test is 44.78.x.y, public: the peer takes the whole /16 as its own.
ip -n $P route add local 44.78.0.0/16 dev lo
ip -n $H route add 44.78.0.0/16 via $PEERLINK
(ip netns exec $P python3 "$ROOT/regress/dnspind/stubdns.py" $UP \
    "small.test=$PUB1,-,300" fail.test=silent > "$T/stub.log" 2>&1 &)
(ip netns exec $P python3 "$ROOT/regress/dnspind/stubdns.py" $UP2 \
    "small.test=$PUB1,-,300" "fail.test=$PUB1,-,300" \
    > "$T/stub2.log" 2>&1 &)
wait_for 5 grep -q ready "$T/stub.log" || { echo "Bail out! stub"; exit 1; }
wait_for 5 grep -q ready "$T/stub2.log" || { echo "Bail out! stub2"; exit 1; }
suite_run || { echo "Bail out! the suite did not start"; exit 1; }

# "udp|tcp NAME EDNS-SIZE|-": prints "tc T answers N bytes B".
BIGPY='
import socket, struct, sys
def query(name, edns):
    q = struct.pack(">HHHHHH", 99, 0x0100, 1, 0, 0, 0 if edns == "-" else 1)
    for l in name.split("."):
        q += bytes([len(l)]) + l.encode()
    q += b"\0" + struct.pack(">HH", 1, 1)
    if edns != "-":
        q += b"\0" + struct.pack(">HHIH", 41, int(edns), 0, 0)
    return q
for spec in sys.argv[1:]:
    proto, name, edns = spec.split()
    q = query(name, edns)
    if proto == "udp":
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(3)
        s.sendto(q, ("169.254.1.1", 53))
        r = s.recv(65535)
    else:
        s = socket.create_connection(("169.254.1.1", 53), 3)
        s.sendall(struct.pack(">H", len(q)) + q)
        n = struct.unpack(">H", s.recv(2))[0]
        r = b""
        while len(r) < n:
            r += s.recv(n - len(r))
    print(spec, "tc %d rcode %d answers %d bytes %d" % (r[2] >> 1 & 1,
        r[3] & 15, struct.unpack(">H", r[6:8])[0], len(r)), flush=True)
'
# resolve one name with glibc, as a program would, and dial its last
# address (the one furthest into the answer).
LASTPY='
import socket, sys
a = sorted({x[4][0] for x in socket.getaddrinfo(sys.argv[1], 80,
    socket.AF_INET, socket.SOCK_STREAM)}, key=socket.inet_aton)
s = socket.socket()
s.settimeout(0.9)
try:
    s.connect((a[-1], 80))
    print(len(a), a[-1], "ok" if s.recv(64).startswith(b"ok") else "bad")
except OSError as e:
    print(len(a), a[-1], "failed", e)
'
ctl run -p big -- python3 -c "$BIGPY" "udp big40.test -" \
    "udp big40.test 1232" "udp big100.test 1232" "tcp big100.test -" \
    "tcp small.test -" "udp small.test -" > "$T/probe.b" 2>&1
cat "$T/stub.log" > "$T/stub.b"
expect b "udp big40.test -" "tc 1 rcode 0 answers 0 bytes 28" \
    "40 records over UDP without EDNS0: an empty TC answer, for 512 bytes"
check "the stub's TC over UDP was asked again over TCP" \
    sh -c "grep -q '^q big40.test 1 udp' '$T/stub.b' &&
    grep -q '^q big40.test 1 tcp' '$T/stub.b'"
check "of the same upstream: the second one was never asked" \
    fails grep -q '^q ' "$T/stub2.log"
expect b "udp big40.test 1232" "tc 0 rcode 0 answers 40 bytes 668" \
    "the same with EDNS0 1232: the 668-byte answer whole over UDP"
expect b "udp big100.test 1232" "tc 1 rcode 0 answers 0 bytes 40" \
    "100 records (1629 bytes) over UDP with EDNS0 1232: TC"
expect b "tcp big100.test -" "tc 0 rcode 0 answers 64 bytes 1757" \
    "over TCP it comes cut down to the 64 addresses pinned (below)"
expect b "tcp small.test -" "tc 0 rcode 0 answers 1 bytes 44" \
    "a small name over TCP"
check "a client's TCP query went to the upstream over TCP, not UDP" \
    sh -c "test \$(grep -c '^q small.test 1 tcp' '$T/stub.b') = 1 &&
    test \$(grep -c '^q small.test 1 udp' '$T/stub.b') = 1"

# Failover: the first upstream never answers fail.test.  Over UDP the
# second is asked after the upstream timeout (2s); over TCP the first
# closes the connection and the second is asked at once.
out=$(ctl run -p big -- sh -c "
	t0=\$(date +%s%N)
	python3 -c '$BIGPY' 'udp fail.test -'
	t1=\$(date +%s%N)
	python3 -c '$BIGPY' 'tcp fail.test -'
	t2=\$(date +%s%N)
	echo ms \$(( (t1 - t0) / 1000000 )) \$(( (t2 - t1) / 1000000 ))" 2>&1)
diag "$out"
is "$(printf '%s\n' "$out" | sed -n 1,2p | tr '\n' ' ')" \
    "udp fail.test - tc 0 rcode 0 answers 1 bytes 43 tcp fail.test - tc 0 rcode 0 answers 1 bytes 43 " \
    "a name the first upstream does not answer is answered by the second, over UDP and TCP"
check "over UDP after the upstream timeout, over TCP at once" \
    sh -c "printf '%s\n' \"\$1\" | awk '\$1 == \"ms\" && \$2 >= 1900 && \$3 < 1500 { f = 1 } END { exit !f }'" - "$out"
check "the second upstream got it both ways" \
    sh -c "grep -q '^q fail.test 1 udp' '$T/stub2.log' &&
    grep -q '^q fail.test 1 tcp' '$T/stub2.log'"

# EDNS version 1: BADVERS (16: 0 in the header, 1 in the OPT's upper
# rcode bits), in an OPT of version 0, not forwarded.
VERSPY='
import socket, struct
q = struct.pack(">HHHHHH", 5, 0x0100, 1, 0, 0, 1) + b"\5small\4test\0" + \
    struct.pack(">HH", 1, 1) + b"\0" + struct.pack(">HHBBHH", 41, 1232, 0, 1, 0, 0)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(2)
s.sendto(q, ("169.254.1.1", 53))
r = s.recv(512)
print("rcode", r[-6] << 4 | r[3] & 15, "version", r[-5])
'
is "$(ctl run -p big -- python3 -c "$VERSPY" 2>&1)" "rcode 16 version 0" \
    "an EDNS version 1 query is answered BADVERS, in an OPT of version 0"
check "and was not forwarded" \
    test "$(grep -c '^q small.test 1' "$T/stub.log")" = 2

# glibc's own resolver: TC, then TCP, and the answer's addresses work.
out=$(ctl run -p big -- python3 -c "$LASTPY" big31.test 2>&1)
is "$out" "31 44.78.0.31 ok" \
    "a program resolves 31 addresses (TC, then TCP) and reaches the last"

# More than 64 addresses: the answer is cut down to the 64 pinned, so
# that a program is told only addresses it can reach.
out=$(ctl run -p big -- python3 -c "$LASTPY" big100.test 2>&1)
is "$out" "64 44.78.0.64 ok" \
    "100 addresses upstream: a program is told 64 and reaches the last"
sprobe x big "tcp 44.78.0.70 80"
probe_wait
expect x "tcp 44.78.0.70 80" timeout \
    "an address past the 64, which the sandbox was not told, is dropped"
check "the cut is logged" grep -q 'big100.test: 36 addresses past the first 64 left out' "$LOG"

# 60 addresses on 5 ports: 300 pins, more than one request carries.
out=$(ctl run -p big -- sh -c "python3 -c '$LASTPY' big60.test &&
    python3 -c '$(printf '%s' "$PROBE_PY" | sed "s/'/'\\\\''/g")' \
    'tcp 44.78.0.60 443' 'tcp 44.78.0.1 81' 'tcp 44.78.0.30 82'" 2>&1)
is "$(printf '%s\n' "$out" | tr '\n' ' ')" \
    "60 44.78.0.60 ok tcp 44.78.0.60 443 ok tcp 44.78.0.1 81 ok tcp 44.78.0.30 82 ok " \
    "an answer of 300 pins, over two requests to netd: every one is in"
check "the two requests: 256 pins and 44" \
    sh -c "grep -q 'pin_send: 1 answers, 256 pins' '$LOG' &&
    grep -q 'pin_send: 1 answers, 44 pins' '$LOG'"

plan $tap_n
