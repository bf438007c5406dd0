#!/bin/sh
# The resolver is the only DNS a sandbox has, and hostile input does
# not hurt it.  From inside sandboxes: the resolver answers over UDP
# and TCP, while the upstream itself (an external resolver that does
# answer) and DNS over TCP to anything else are dropped.  Then one
# sandbox sends malformed, truncated, compression-looping and oversized
# queries over UDP and TCP, and asks for names the stub answers with
# garbage, while another sandbox's queries are timed: dnspind keeps its
# pid and the other sandbox is answered promptly throughout.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
. "$ROOT/regress/dnspind/stub.sh"
need_root

write_conf "
upstream $UP
upstream timeout 500ms
policy \"names\" {
	network { allow name \"allowed.example.com\" port 80 }
}
policy \"hostile\" {
	network { allow name \"*.junk.test\" port 80 }
}"
topo_up || { echo "Bail out! topology"; exit 1; }
stub_up "allowed.example.com=$PUB1,-,300"
# Something that takes DNS over TCP on the host's other address.
(ip netns exec $H python3 -c '
import socket
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("'$HOSTOTHER'", 53))
s.listen(8)
print("ready", flush=True)
while True:
    c, _ = s.accept()
    print("accepted", flush=True)
    c.close()' > "$T/other53.log" 2>&1 &)
wait_for 5 grep -q ready "$T/other53.log" || { echo "Bail out! other53"; exit 1; }
suite_run || { echo "Bail out! the suite did not start"; exit 1; }

# A query for NAME, A, with an id; a reply is "rcode N".
QLIB=$(cat "$ROOT/regress/dnspind/qlib.py")
QLIB="$QLIB"'
def udp(addr, name):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(1)
    s.sendto(query(name), (addr, 53))
    try:
        return "rcode %d" % (s.recv(4096)[3] & 15)
    except socket.timeout:
        return "timeout"
def tcp(addr, name):
    try:
        s = socket.create_connection((addr, 53), 1)
    except socket.timeout:
        return "timeout"
    except OSError as e:
        return str(e)
    q = query(name)
    s.sendall(struct.pack(">H", len(q)) + q)
    try:
        return "rcode %d" % rcode(tcp_reply(s))
    except (socket.timeout, struct.error):
        return "timeout"
'
ONLYPY="$QLIB"'
n = "allowed.example.com"
print("resolver-udp", udp("169.254.1.1", n))
print("resolver-tcp", tcp("169.254.1.1", n))
print("upstream-udp", udp(sys.argv[1], n))
print("upstream-tcp", tcp(sys.argv[1], n))
print("other-tcp", tcp(sys.argv[2], n))
'
ctl run -p names -- python3 -c "$ONLYPY" $UP $HOSTOTHER > "$T/only.out" 2>&1
ro() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$T/only.out"; }
is "$(ro resolver-udp)" "rcode 0" "the resolver answers over UDP"
is "$(ro resolver-tcp)" "rcode 0" "and over TCP"
is "$(ro upstream-udp)" timeout "an external resolver (the upstream itself) over UDP is dropped"
is "$(ro upstream-tcp)" timeout "and over TCP"
is "$(ro other-tcp)" timeout "DNS over TCP to the host's other address is dropped"
check "the upstream never saw a query from the sandbox" \
    test "$(grep -c 'q allowed.example.com' "$T/stub.log")" = 2
check "nor did the host's other listener" \
    fails grep -q accepted "$T/other53.log"

# The victim: a query every 20ms for SECONDS, each timed.
VICTIMPY="$QLIB"'
# A first query untimed: dnspind learns of a new sandbox a moment late.
for i in range(3):
    if udp("169.254.1.1", "allowed.example.com") == "rcode 0":
        break
lat, lost, k = [], 0, 0
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(1)
end = time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    k = (k + 1) & 0xffff
    t = time.monotonic()
    s.sendto(query("allowed.example.com", k), ("169.254.1.1", 53))
    try:
        while True:
            r = s.recv(4096)
            if struct.unpack(">H", r[:2])[0] == k:
                break
        lat.append(time.monotonic() - t)
        if r[3] & 15 != 0:
            lost += 1
    except socket.timeout:
        lost += 1
    time.sleep(0.02)
print("answered %d lost %d" % (len(lat), lost))
lat = sorted(lat) or [99.0]
print("p50 %.1f max %.1f" % (lat[len(lat) // 2] * 1000, lat[-1] * 1000))
print("slow", "yes" if lat[-1] > float(sys.argv[2]) / 1000 else "no")
'
# The attacker: every kind of bad query, over UDP and TCP, and names
# the stub answers with garbage, for SECONDS.
HOSTILEPY="$QLIB"'
import os, random, threading
R = ("169.254.1.1", 53)
hdr = lambda qd, flags=0x0100, ar=0: struct.pack(">HHHHHH", 7, flags, qd,
    0, 0, ar)
bad = [
    b"", b"\x00", os.urandom(11), hdr(1),
    hdr(1) + b"\x05abc",				# truncated label
    hdr(1) + b"\xc0\x0c\x00\x01\x00\x01",		# pointer to itself
    hdr(1) + b"\x03abc\xc0\x0c\x00\x01\x00\x01",	# pointer loop
    hdr(1) + b"\x40" + b"a" * 64 + b"\x00\x00\x01\x00\x01",	# label 64
    hdr(2) + query("a.junk.test")[12:] * 2,		# two questions
    hdr(1, 0x8180) + query("a.junk.test")[12:],	# a response
    hdr(1, 0x2900) + query("a.junk.test")[12:],	# opcode UPDATE
    hdr(1, ar=1) + query("a.junk.test")[12:] + b"\x00\x00\x29\x10",	# cut OPT
    hdr(1) + query("a.junk.test")[12:] + os.urandom(3900),	# oversized
    query("a.junk.test") + b"trailing",
]
kinds = ["trunc", "loop", "huge", "rand", "short", "badid", "qmismatch",
    "tcplen"]
end = time.monotonic() + float(sys.argv[1])
sent = [0, 0]
def udp_flood():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setblocking(False)
    i = 0
    while time.monotonic() < end:
        i += 1
        if i % 3 == 0:
            m = query("%s.junk.test" % kinds[i % len(kinds)], i & 0xffff)
        elif i % 3 == 1:
            m = bad[i % len(bad)]
        else:
            m = os.urandom(random.randrange(0, 1400))
        try:
            s.sendto(m, R)
            sent[0] += 1
        except OSError:
            pass
        try:
            while True:
                s.recv(4096)
        except OSError:
            pass
        time.sleep(0.001)
def tcp_one(i):
    try:
        c = socket.create_connection(R, 1)
        c.settimeout(0.2)
        kind = i % 6
        if kind == 0:
            m = bad[i % len(bad)]
            c.sendall(struct.pack(">H", len(m)) + m)
        elif kind == 1:
            c.sendall(b"\x00\x00")
        elif kind == 2:
            c.sendall(b"\xff\xff" + os.urandom(100))
        elif kind == 3:
            m = query("%s.junk.test" % kinds[i % len(kinds)], i & 0xffff)
            c.sendall(struct.pack(">H", len(m)) + m)
        elif kind == 4:
            c.sendall(os.urandom(random.randrange(1, 3000)))
        else:
            c.sendall(b"\x00")		# half a length, then nothing
        sent[1] += 1
        try:
            c.recv(4096)
        except OSError:
            pass
        c.close()
    except OSError:
        pass
def tcp_flood():
    i = 0
    while time.monotonic() < end:
        i += 1
        tcp_one(i)
ts = [threading.Thread(target=udp_flood)] + \
    [threading.Thread(target=tcp_flood) for _ in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("sent udp %d tcp %d" % tuple(sent))
'
pid0=$(child_field dnspind pid)
ctl run -p names -- python3 -c "$VICTIMPY" 2 400 > "$T/base.out" 2>&1
diag "alone: $(tr '\n' ' ' < "$T/base.out")"
ctl run -p hostile -- python3 -c "$HOSTILEPY" 5 > "$T/hostile.out" 2>&1 &
hpid=$!
sleep 0.5
ctl run -p names -- python3 -c "$VICTIMPY" 4 400 > "$T/victim.out" 2>&1
wait $hpid
diag "attacked: $(tr '\n' ' ' < "$T/victim.out")"
diag "attacker: $(cat "$T/hostile.out")"
check "the attacker sent over 500 bad UDP queries and 50 TCP connections" \
    awk '$1 == "sent" && $3 > 500 && $5 > 50 { f = 1 } END { exit !f }' \
    "$T/hostile.out"
check "the stub answered garbage to its junk names, over UDP and TCP" \
    sh -c "grep -q 'q loop.junk.test 1 udp' '$T/stub.log' &&
    grep -q 'q huge.junk.test 1 udp' '$T/stub.log' &&
    grep -q 'q tcplen.junk.test 1 tcp' '$T/stub.log' &&
    grep -q 'q rand.junk.test 1 tcp' '$T/stub.log'"
check "the victim lost no query under attack" \
    grep -q "^answered [0-9]* lost 0$" "$T/victim.out"
is "$(awk '$1 == "slow" { print $2 }' "$T/victim.out")" no \
    "and none of its answers took 400ms or more"
check "the victim asked often" \
    awk '$1 == "answered" && $2 > 50 { f = 1 } END { exit !f }' \
    "$T/victim.out"
is "$(child_field dnspind pid)" "$pid0" "dnspind was never restarted"
is "$(child_field dnspind state)" running "and is running"
check "no fatal error in the log" fails grep -q 'dnspind.*fatal' "$LOG"

# A flood of queries the upstream never answers well (each held for
# the upstream timeout): one sandbox gets 256 of the 4096 slots for
# queries in flight, and another's queries still go through.
FLOODPY="$QLIB"'
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setblocking(False)
n, end = 0, time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    try:
        s.sendto(query("loop.junk.test", n & 0xffff), ("169.254.1.1", 53))
        n += 1
    except BlockingIOError:
        time.sleep(0.001)
    try:
        while True:
            s.recv(512)
    except OSError:
        pass
print("flooded", n)
'
ctl run -p hostile -- python3 -c "$FLOODPY" 3 > "$T/flood.out" 2>&1 &
fpid=$!
sleep 0.5
ctl run -p names -- python3 -c "$VICTIMPY" 2 400 > "$T/fvictim.out" 2>&1
wait $fpid
diag "flood: $(cat "$T/flood.out"); victim: $(tr '\n' ' ' < "$T/fvictim.out")"
check "the flood was thousands of queries" \
    awk '$1 == "flooded" && $2 > 5000 { f = 1 } END { exit !f }' \
    "$T/flood.out"
check "the other sandbox lost none of its queries meanwhile" \
    grep -q "^answered [0-9]* lost 0$" "$T/fvictim.out"
is "$(awk '$1 == "slow" { print $2 }' "$T/fvictim.out")" no \
    "and none took 400ms or more"
check "dnspind held the flooding sandbox to its share" \
    grep -q "256 queries in flight: dropped" "$LOG"

# Idle TCP connections: one sandbox gets 16 at most, so it cannot shut
# others out of DNS over TCP; another's TCP queries are answered at once.
HOLDPY="$QLIB"'
held = []
for i in range(100):
    c = socket.create_connection(("169.254.1.1", 53), 1)
    held.append(c)
time.sleep(0.5)
n = 0
for c in held:
    c.settimeout(0.1)
    try:
        if c.recv(1) == b"":
            n += 1
    except socket.timeout:
        pass
print("closed", n, "open", 100 - n, flush=True)
time.sleep(float(sys.argv[1]))
'
TCPVICTIMPY="$QLIB"'
# A first query untimed: dnspind learns of a new sandbox a moment late.
for i in range(3):
    if tcp("169.254.1.1", "allowed.example.com") == "rcode 0":
        break
lat = []
for i in range(20):
    t = time.monotonic()
    r = tcp("169.254.1.1", "allowed.example.com")
    lat.append(time.monotonic() - t)
    if r != "rcode 0":
        print("failed", r)
print("max %.1f" % (max(lat) * 1000))
print("slow", "yes" if max(lat) > 0.4 else "no")
'
ctl run -p hostile -- python3 -c "$HOLDPY" 4 > "$T/hold.out" 2>&1 &
hpid=$!
wait_for 5 grep -q closed "$T/hold.out"
ctl run -p names -- python3 -c "$TCPVICTIMPY" > "$T/tcpvictim.out" 2>&1
wait $hpid
diag "holder: $(cat "$T/hold.out"); victim: $(tr '\n' ' ' < "$T/tcpvictim.out")"
is "$(cat "$T/hold.out")" "closed 84 open 16" \
    "a sandbox holding 100 idle TCP connections keeps 16"
check "another sandbox's TCP queries all succeed meanwhile" \
    fails grep -q failed "$T/tcpvictim.out"
is "$(awk '$1 == "slow" { print $2 }' "$T/tcpvictim.out")" no \
    "none of them took 400ms or more"
is "$(child_field dnspind pid)" "$pid0" "dnspind is still the same process"

# The upstream sockets: a random source port from a pool, each socket
# retired after 64 queries (or 10 s), and an answer with the right id
# from another port than the upstream's is dropped.
PORTSPY="$QLIB"'
print("otherport", udp("169.254.1.1", "otherport.junk.test"))
print("good", udp("169.254.1.1", "good.junk.test"))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(2)
ok = 0
for i in range(1000):
    s.sendto(query("n%d.junk.test" % i, i), ("169.254.1.1", 53))
    if i % 50 == 49:
        while ok < i + 1:
            try:
                if s.recv(512)[3] & 15 == 0:
                    ok += 1
            except socket.timeout:
                break
print("answered", ok)
'
cp "$T/stub.log" "$T/stub.log.0"
ctl run -p hostile -- python3 -c "$PORTSPY" > "$T/ports.out" 2>&1
diag "$(tr '\n' ' ' < "$T/ports.out")"
is "$(awk '$1 == "otherport" { print $2, $3 }' "$T/ports.out")" "rcode 2" \
    "an answer with the right id from another port is dropped: SERVFAIL"
is "$(awk '$1 == "good" { print $2, $3 }' "$T/ports.out")" "rcode 0" \
    "the same answer from the upstream's own port is taken"
check "nothing was pinned for the dropped one" \
    fails grep -q '"name":"otherport.junk.test"' "$LOG"
is "$(awk '$1 == "answered" { print $2 }' "$T/ports.out")" 1000 \
    "1000 names resolved in bursts of 50"
# The source ports of those 1000, as the stub saw them.
tail -n +$(($(wc -l < "$T/stub.log.0") + 1)) "$T/stub.log" |
    awk '$1 == "from" { p = $2 } $1 == "q" && $2 ~ /^n[0-9]+\.junk\.test$/ {
    print p }' | sort | uniq -c > "$T/ports.n"
diag "source ports: $(wc -l < "$T/ports.n"), queries on the busiest:" \
    "$(sort -rn "$T/ports.n" | awk 'NR == 1 { print $1 }')"
check "they came from more than 8 ports: sockets were retired and replaced" \
    awk 'END { exit !(NR > 8) }' "$T/ports.n"
# (twice: the kernel may give a port out again to a later socket)
check "none from one port more than twice 64 times" \
    awk '$1 > 128 { f = 1 } END { exit f }' "$T/ports.n"

plan $tap_n
