# TCP and UDP servers on the given ports, IPv4 and IPv6, every local
# address: each answers "ok LOCAL PEER" (UDP from the address it was
# asked at, so replies match the client's conntrack entry), and logs
# "got tcp|udp LOCAL PORT PEER" for what arrives.
import selectors, socket, struct, sys, threading

IP_PKTINFO = 8
IPV6_RECVPKTINFO = 49
IPV6_PKTINFO = 50

sel = selectors.DefaultSelector()

def listen(family, kind, port):
    s = socket.socket(family, kind)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if family == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        if kind == socket.SOCK_DGRAM:
            s.setsockopt(socket.IPPROTO_IPV6, IPV6_RECVPKTINFO, 1)
    elif kind == socket.SOCK_DGRAM:
        s.setsockopt(socket.IPPROTO_IP, IP_PKTINFO, 1)
    s.bind(("::" if family == socket.AF_INET6 else "0.0.0.0", port))
    if kind == socket.SOCK_STREAM:
        s.listen(64)
    s.setblocking(False)
    sel.register(s, selectors.EVENT_READ, (family, kind))

def tcp(s):
    try:
        c, peer = s.accept()
    except OSError:
        return
    # A connection may stream for a while: the others go on meanwhile.
    threading.Thread(target=serve, args=(c, peer), daemon=True).start()

def serve(c, peer):
    try:
        c.settimeout(2)
        local = c.getsockname()[0]
        print("got tcp %s %d %s" % (local, c.getsockname()[1], peer[0]),
            flush=True)
        c.sendall(("ok %s %s\n" % (local, peer[0])).encode())
        # Read what the client sends (counters), until it closes.
        while c.recv(65536):
            pass
    except OSError:
        pass
    c.close()

def udp(s, family):
    try:
        data, anc, flags, peer = s.recvmsg(65536, 256)
    except OSError:
        return
    local, reply = None, []
    for level, kind, value in anc:
        if family == socket.AF_INET and kind == IP_PKTINFO:
            # struct in_pktinfo { int ifindex; in_addr spec_dst, addr; }
            local = socket.inet_ntop(socket.AF_INET, value[8:12])
            reply = [(socket.IPPROTO_IP, IP_PKTINFO,
                struct.pack("i4s4s", 0, value[8:12], b"\0" * 4))]
        elif family == socket.AF_INET6 and kind == IPV6_PKTINFO:
            local = socket.inet_ntop(socket.AF_INET6, value[:16])
            reply = [(socket.IPPROTO_IPV6, IPV6_PKTINFO,
                value[:16] + struct.pack("i", 0))]
    print("got udp %s %d %s" % (local, s.getsockname()[1], peer[0]),
        flush=True)
    msg = ("ok %s %s\n" % (local, peer[0])).encode()
    try:
        s.sendmsg([msg], reply, 0, peer)
    except OSError:
        pass

for port in sys.argv[1:]:
    for fam in (socket.AF_INET, socket.AF_INET6):
        for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
            listen(fam, kind, int(port))
print("ready", flush=True)
while True:
    for key, _ in sel.select():
        fam, kind = key.data
        if kind == socket.SOCK_STREAM:
            tcp(key.fileobj)
        else:
            udp(key.fileobj, fam)
