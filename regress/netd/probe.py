# probe.py [-t SECONDS] [-s SRC] [-n BYTES] [-d SECONDS] [-b] SPEC...:
# each SPEC is "tcp|udp ADDR PORT", all tried at once; prints "SPEC
# RESULT" in order, RESULT one of ok, refused, timeout or an errno name.
# With -s, the probes come from address SRC; with -n, TCP sends that
# many bytes after the answer, with -d for that long; with -b, RESULT
# is the server's answer ("ok LOCAL PEER") instead.
import errno, socket, sys, threading, time

timeout, src, nbytes, banner, duration = 1.0, None, 0, False, 0.0
args = sys.argv[1:]
while args and args[0].startswith("-"):
    if args[0] == "-b":
        banner = True
        args = args[1:]
        continue
    opt, val = args[0], args[1]
    args = args[2:]
    if opt == "-t":
        timeout = float(val)
    elif opt == "-s":
        src = val
    elif opt == "-n":
        nbytes = int(val)
    elif opt == "-d":
        duration = float(val)

def probe(spec):
    proto, addr, port = spec.split()
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    kind = socket.SOCK_STREAM if proto == "tcp" else socket.SOCK_DGRAM
    s = socket.socket(fam, kind)
    s.settimeout(timeout)
    try:
        if src:
            s.bind((src, 0))
        s.connect((addr, int(port)))
        if kind == socket.SOCK_DGRAM:
            s.send(b"probe\n")
        data = s.recv(256)
        if kind == socket.SOCK_STREAM:
            chunk, left = b"x" * 65536, nbytes
            while left > 0:
                s.sendall(chunk[:min(left, len(chunk))])
                left -= min(left, len(chunk))
            end = time.time() + duration
            while time.time() < end:
                s.sendall(chunk)
                time.sleep(0.001)
        if banner:
            return data.decode().strip()
        return "ok" if data.startswith(b"ok") else "bad"
    except socket.timeout:
        return "timeout"
    except ConnectionRefusedError:
        return "refused"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e))
    finally:
        s.close()

results = [None] * len(args)
def run(i):
    results[i] = probe(args[i])
threads = [threading.Thread(target=run, args=(i,)) for i in range(len(args))]
for t in threads:
    t.start()
for t in threads:
    t.join()
for spec, r in zip(args, results):
    print(spec, r)
