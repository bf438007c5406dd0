# flood.py SECONDS ALLOWED DENIED...: for SECONDS, from inside a
# sandbox, flood each DENIED spec ("tcp|udp ADDR PORT": UDP datagrams,
# TCP SYNs from nonblocking connects) while connecting to ALLOWED
# ("ADDR PORT", TCP) every 50 ms.  Prints the number of packets sent,
# the allowed connects that succeeded, and the longest time in seconds
# with no success (from the start, between two, and to the end).
import errno, socket, sys, time

duration = float(sys.argv[1])
aaddr, aport = sys.argv[2].split()
denied = [s.split() for s in sys.argv[3:]]

def fam(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET

def allowed_ok():
    s = socket.socket(fam(aaddr), socket.SOCK_STREAM)
    s.settimeout(0.3)
    try:
        s.connect((aaddr, int(aport)))
        return True
    except OSError:
        return False
    finally:
        s.close()

def flood_once():
    n = 0
    for proto, addr, port in denied:
        if proto == "udp":
            s = socket.socket(fam(addr), socket.SOCK_DGRAM)
            s.setblocking(False)
            for _ in range(20):
                try:
                    s.sendto(b"x" * 32, (addr, int(port)))
                    n += 1
                except OSError:
                    pass
            s.close()
            continue
        socks = []
        for _ in range(5):
            s = socket.socket(fam(addr), socket.SOCK_STREAM)
            s.setblocking(False)
            try:
                s.connect((addr, int(port)))
            except BlockingIOError:
                n += 1
            except OSError:
                pass
            socks.append(s)
        for s in socks:
            s.close()
    return n

start = time.monotonic()
end = start + duration
last_ok, gap, sent, oks, next_probe = start, 0.0, 0, 0, start
while True:
    now = time.monotonic()
    if now >= end:
        break
    sent += flood_once()
    if now >= next_probe:
        next_probe = now + 0.05
        if allowed_ok():
            t = time.monotonic()
            gap = max(gap, t - last_ok)
            last_ok = t
            oks += 1
    time.sleep(0.005)
gap = max(gap, time.monotonic() - last_ok)
print("sent %d allowed %d gap %.3f" % (sent, oks, gap))
