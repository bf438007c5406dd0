# stubdns.py ADDR [NAME=A,AAAA,TTL ...]: a stub upstream on ADDR port 53,
# UDP and TCP, answering A and AAAA for the names given (the same
# address for several names is the point), NXDOMAIN for the rest.
# Besides the table, a few families of names of its own:
#   nK.many.test	A 44.77.K/200.K%200+1, TTL 300 (K < 40000): a
#			distinct address for each of many names
#   nK.burst.test	the same, but answered 20 at a time (or after
#			0.2s without a query), so that they arrive together
#   nK.slow.test	no record (NOERROR), answered over UDP only after
#			SLOW seconds (env STUB_SLOW, 2): a slow upstream
#			zone, queried by the thousand, not logged
#   bigK.test		K A records 44.78.I/250.I%250+1, TTL 300: over
#			UDP, with TC set and no records if they do not fit
#			what the query allows (512, or its EDNS0 size)
#   KIND.junk.test	a broken answer, over UDP and TCP alike: trunc
#			(cut inside a record, no TC), loop (a compression
#			pointer to itself), huge (7000 bytes of records
#			with rdata lengths past the end), rand (random
#			bytes after a right id), short (5 bytes), badid,
#			qmismatch (another question), tcplen (over TCP a
#			length longer than what follows, then close),
#			otherport (over UDP, the right answer, but from
#			another source port than 53)
# V4 and V6 may each be several addresses joined by "+", "-" for none.
# NAME=@TARGET,TTL: a CNAME to TARGET (with that TTL), followed by what
# the table says of TARGET, each record under its own name.
# NAME=silent: a name never answered (over TCP, the connection closed).
# Logs "q NAME TYPE udp|tcp" for each query it gets, and before it, for
# one over UDP, "from PORT": the port it came from.
import heapq, os, select, socket, struct, sys, threading, time

addr = sys.argv[1]
table = {}
cnames = {}
silent = set()
for a in sys.argv[2:]:
    name, _, v = a.partition("=")
    if v == "silent":
        silent.add(name.lower())
        continue
    if v.startswith("@"):
        target, ttl = v[1:].split(",")
        cnames[name.lower()] = (target.lower(), int(ttl))
        continue
    v4, v6, ttl = v.split(",")
    table[name.lower()] = (v4, v6, int(ttl))

def wire(name):
    return b"".join(bytes([len(l)]) + l.encode()
        for l in name.split(".")) + b"\0"

def named(owner, rrtype, ttl, rdata):
    # A record under its own (uncompressed) name; None: the question's.
    o = struct.pack(">H", 0xc00c) if owner is None else wire(owner)
    return o + struct.pack(">HHIH", rrtype, 1, ttl, len(rdata)) + rdata

def table_rrs(name, qtype, owner, hops=0):
    """(rcode, [rr...]) of the table and its CNAMEs; owner None: qname."""
    if name in cnames and hops < 8:
        target, ttl = cnames[name]
        rcode, rest = table_rrs(target, qtype, target, hops + 1)
        return 0, [named(owner, 5, ttl, wire(target))] + rest
    ent = table.get(name)
    if ent is None:
        return 3, []
    v4, v6, ttl = ent
    if qtype == 1 and v4 != "-":
        return 0, [named(owner, 1, ttl, socket.inet_pton(socket.AF_INET,
            a)) for a in v4.split("+")]
    if qtype == 28 and v6 != "-":
        return 0, [named(owner, 28, ttl, socket.inet_pton(socket.AF_INET6,
            a)) for a in v6.split("+")]
    return 0, []

def qname(msg, off):
    labels = []
    while msg[off]:
        n = msg[off]
        labels.append(msg[off + 1:off + 1 + n].decode())
        off += 1 + n
    return ".".join(labels), off + 1

def udp_max(msg, off):
    # The OPT record after the question, if any: its payload size.
    (ar,) = struct.unpack(">H", msg[10:12])
    if ar == 1 and len(msg) >= off + 11 and msg[off] == 0:
        return max(512, struct.unpack(">H", msg[off + 3:off + 5])[0])
    return 512

def a_rr(v4, ttl):
    return struct.pack(">HHHIH", 0xc00c, 1, 1, ttl, 4) + \
        socket.inet_pton(socket.AF_INET, v4)

def records(name, qtype):
    """(rcode, [rr...]) for the name, or None for a junk name."""
    if name.startswith("n") and (name.endswith(".many.test") or
            name.endswith(".burst.test")):
        k = int(name[1:].split(".")[0])
        if qtype != 1:
            return 0, []
        return 0, [a_rr("44.77.%d.%d" % (k // 200, k % 200 + 1), 300)]
    if name.startswith("big") and name.endswith(".test"):
        k = int(name[3:-len(".test")])
        if qtype != 1:
            return 0, []
        return 0, [a_rr("44.78.%d.%d" % (i // 250, i % 250 + 1), 300)
            for i in range(k)]
    return table_rrs(name, qtype, None)

def junk(kind, qid, question, good):
    hdr = lambda an: struct.pack(">HHHHHH", qid, 0x8180, 1, an, 0, 0)
    if kind == "trunc":
        return good[:len(good) - 3]
    if kind == "loop":
        # The record's owner is a pointer to itself.
        p = 12 + len(question)
        return hdr(1) + question + struct.pack(">HHHIH", 0xc000 | p, 1,
            1, 300, 4) + b"\x01\x02\x03\x04"
    if kind == "huge":
        rr = struct.pack(">HHHIH", 0xc00c, 1, 1, 300, 60000)
        return hdr(600) + question + rr * 600
    if kind == "rand":
        return struct.pack(">H", qid) + os.urandom(300)
    if kind == "short":
        return struct.pack(">H", qid) + b"\x81\x80\x00"
    if kind == "badid":
        return struct.pack(">H", qid ^ 0x5555) + good[2:]
    if kind == "qmismatch":
        return hdr(1) + b"\x05other\x04test\x00\x00\x01\x00\x01" + \
            a_rr("44.66.0.1", 300)
    return good

SLOW = float(os.environ.get("STUB_SLOW", "2"))
slow_n = 0

def answer(msg, proto):
    """(message, what) where what is None or a junk kind."""
    global slow_n
    (qid, flags, qd, an, ns, ar) = struct.unpack(">HHHHHH", msg[:12])
    name, off = qname(msg, 12)
    qtype, qclass = struct.unpack(">HH", msg[off:off + 4])
    question = msg[12:off + 4]
    name = name.lower()
    if name.endswith(".slow.test"):
        slow_n += 1
        return struct.pack(">HHHHHH", qid, 0x8180, 1, 0, 0, 0) + \
            question, "slow"
    print("q %s %d %s" % (name, qtype, proto), flush=True)
    if name in silent:
        return None, "silent"
    if name.endswith(".junk.test"):
        kind = name.split(".")[0]
        good = struct.pack(">HHHHHH", qid, 0x8180, 1, 1, 0, 0) + \
            question + a_rr("44.66.0.1", 300)
        return junk(kind, qid, question, good), kind
    rcode, rrs = records(name, qtype)
    tc = 0
    if proto == "udp":
        room = udp_max(msg, off + 4) - 12 - len(question)
        if sum(len(r) for r in rrs) > room:
            rrs, tc = [], 0x0200
    hdr = struct.pack(">HHHHHH", qid, 0x8180 | tc | rcode, 1, len(rrs),
        0, 0)
    return hdr + question + b"".join(rrs), None

def udp():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    # Bursts of hundreds of queries: SO_RCVBUFFORCE, as root.
    s.setsockopt(socket.SOL_SOCKET, 33, 4 << 20)
    s.bind((addr, 53))
    held = []
    later = []		# (when, seq, answer, peer): the slow zone's
    seq = 0
    while True:
        now = time.monotonic()
        while later and later[0][0] <= now:
            _, _, a, peer = heapq.heappop(later)
            s.sendto(a, peer)
        wait = None
        if held:
            wait = 0.2
        if later:
            wait = min(wait or 9, max(0, later[0][0] - now))
        if wait is not None and not select.select([s], [], [], wait)[0]:
            if held and wait == 0.2:
                flush(s, held)
            continue
        msg, peer = s.recvfrom(4096)
        if b"\x04slow\x04test\x00" not in msg[12:300].lower():
            print("from", peer[1], flush=True)
        try:
            a, kind = answer(msg, "udp")
        except Exception as e:
            print("bad", e, flush=True)
            continue
        if kind == "slow":
            seq += 1
            heapq.heappush(later, (now + SLOW, seq, a, peer))
            if seq % 1000 == 0:
                print("slow %d" % seq, flush=True)
            continue
        if a is None:
            continue
        if kind == "otherport":
            o = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            o.bind((addr, 0))
            o.sendto(a, peer)
            o.close()
            continue
        if b"\x05burst\x04test\x00" in msg[:300].lower():
            held.append((a, peer))
            if len(held) == 20:
                flush(s, held)
        else:
            s.sendto(a, peer)

def flush(s, held):
    # nK.burst.test: answered 20 at a time, for answers that arrive
    # together upstream of the resolver.
    for a, peer in held:
        s.sendto(a, peer)
    del held[:]

def tcp_one(c):
    try:
        while True:
            h = c.recv(2)
            if len(h) < 2:
                break
            n = struct.unpack(">H", h)[0]
            msg = b""
            while len(msg) < n:
                msg += c.recv(n - len(msg))
            a, kind = answer(msg, "tcp")
            if kind == "silent":
                break
            if kind == "tcplen":
                c.sendall(struct.pack(">H", len(a) + 100) + a)
                break
            c.sendall(struct.pack(">H", len(a) & 0xffff) + a[:0xffff])
    except Exception as e:
        print("bad", e, flush=True)
    c.close()

def tcp():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, 53))
    s.listen(64)
    while True:
        c, _ = s.accept()
        threading.Thread(target=tcp_one, args=(c,), daemon=True).start()

threading.Thread(target=tcp, daemon=True).start()
print("ready", flush=True)
udp()
