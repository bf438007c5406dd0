# stubdns.py ADDR [NAME=A,AAAA,TTL ...]: a stub upstream on ADDR port 53,
# UDP and TCP, answering A and AAAA for the names given (the same
# address for several names is the point), NXDOMAIN for the rest.
# Logs "q NAME TYPE" for each query it gets.
import socket, struct, sys, threading

addr = sys.argv[1]
table = {}
for a in sys.argv[2:]:
    name, _, v = a.partition("=")
    v4, v6, ttl = v.split(",")
    table[name.lower()] = (v4, v6, int(ttl))

def qname(msg, off):
    labels = []
    while msg[off]:
        n = msg[off]
        labels.append(msg[off + 1:off + 1 + n].decode())
        off += 1 + n
    return ".".join(labels), off + 1

def answer(msg):
    (qid, flags, qd, an, ns, ar) = struct.unpack(">HHHHHH", msg[:12])
    name, off = qname(msg, 12)
    qtype, qclass = struct.unpack(">HH", msg[off:off + 4])
    question = msg[12:off + 4]
    print("q %s %d" % (name.lower(), qtype), flush=True)
    ent = table.get(name.lower())
    rrs = b""
    count = 0
    rcode = 3 if ent is None else 0
    if ent:
        v4, v6, ttl = ent
        if qtype == 1 and v4 != "-":
            rrs += struct.pack(">HHHIH", 0xc00c, 1, 1, ttl, 4) + \
                socket.inet_pton(socket.AF_INET, v4)
            count = 1
        if qtype == 28 and v6 != "-":
            rrs += struct.pack(">HHHIH", 0xc00c, 28, 1, ttl, 16) + \
                socket.inet_pton(socket.AF_INET6, v6)
            count = 1
    hdr = struct.pack(">HHHHHH", qid, 0x8180 | rcode, 1, count, 0, 0)
    return hdr + question + rrs

def udp():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((addr, 53))
    while True:
        msg, peer = s.recvfrom(4096)
        try:
            s.sendto(answer(msg), peer)
        except Exception as e:
            print("bad", e, flush=True)

def tcp_one(c):
    try:
        n = struct.unpack(">H", c.recv(2))[0]
        msg = b""
        while len(msg) < n:
            msg += c.recv(n - len(msg))
        a = answer(msg)
        c.sendall(struct.pack(">H", len(a)) + a)
    except Exception as e:
        print("bad", e, flush=True)
    c.close()

def tcp():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, 53))
    s.listen(16)
    while True:
        c, _ = s.accept()
        threading.Thread(target=tcp_one, args=(c,), daemon=True).start()

threading.Thread(target=tcp, daemon=True).start()
print("ready", flush=True)
udp()
