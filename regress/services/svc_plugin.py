#!/usr/bin/env python3
# A plugin run as a service by the tests: JSON-RPC 2.0 with
# Content-Length framing on stdin and stdout.  Methods:
#   echo            answers with the request's own bytes
#   secret {name}   asks the broker (fd 3) for a secret; answers granted
#                   or the broker's error, never the value
#   connect {host, port}  a TCP connect; answers ok or the error
#   whoami          answers its pid, uid and instance start time
#   resolve {name}  its IPv4 address through the sandbox's resolver
#   write {path, data, times}  writes data (times over) to the file
#                   (a relative path is in /workspace)
#   read {path}     answers the file's contents, or the error
#   exit {code}     exits with that status, answering nothing
# Options, before anything else:
#   --crash         a few lines on stderr, then exit 3 at once
#   --crash-once DIR  crash unless DIR/crashed exists (and make it)
#   --health SECS   a health notification on the broker every SECS
#   --health-for N  ... but only for the first N seconds
#   --tag WORD      ignored: lets the tests find this process
import json, os, socket, sys, threading, time

args = sys.argv[1:]
opts = {}
while args:
    a = args.pop(0)
    if a in ("--crash-once", "--health", "--health-for", "--tag"):
        opts[a] = args.pop(0)
    else:
        opts[a] = True

if "--crash" in opts:
    for i in range(8):
        sys.stderr.write("plugin: line %d before the crash\n" % i)
    sys.stderr.write("plugin: crashing now\n")
    sys.stderr.flush()
    sys.exit(3)
if "--crash-once" in opts:
    mark = os.path.join(opts["--crash-once"], "crashed")
    if not os.path.exists(mark):
        open(mark, "w").close()
        sys.stderr.write("plugin: crashing once\n")
        sys.exit(4)

lock = threading.Lock()
broker = socket.socket(fileno=int(os.environ["SANDBOXD_BROKER_FD"]))
bbuf = b""

def bsend(obj):
    body = json.dumps(obj).encode()
    broker.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)

def brecv():
    global bbuf
    while b"\r\n\r\n" not in bbuf:
        d = broker.recv(65536)
        if not d:
            raise EOFError
        bbuf += d
    head, bbuf = bbuf.split(b"\r\n\r\n", 1)
    n = int(head.split(b":")[1])
    while len(bbuf) < n:
        bbuf += broker.recv(65536)
    body, bbuf = bbuf[:n], bbuf[n:]
    return json.loads(body)

def health():
    every = float(opts["--health"])
    until = time.time() + float(opts.get("--health-for", 1e9))
    while time.time() < until:
        with lock:
            bsend({"jsonrpc": "2.0", "method": "health"})
        time.sleep(every)
    sys.stderr.write("plugin: health stops\n")
    sys.stderr.flush()

if "--health" in opts:
    threading.Thread(target=health, daemon=True).start()

started = time.time()
inp, out = sys.stdin.buffer, sys.stdout.buffer

def answer(req):
    m, p = req.get("method"), req.get("params") or {}
    if m == "secret":
        with lock:
            bsend({"jsonrpc": "2.0", "id": 1, "method": "secrets.get",
                   "params": {"name": p["name"]}})
            r = brecv()
            while "id" not in r:
                r = brecv()
        if "result" in r:
            return "granted"
        return "denied: %s" % r["error"]["message"]
    if m == "connect":
        try:
            s = socket.create_connection((p["host"], p["port"]), timeout=3)
            s.close()
            return "ok"
        except OSError as e:
            return "failed: %s" % e.__class__.__name__
    if m == "exit":
        sys.exit(p["code"])
    if m == "whoami":
        return {"pid": os.getpid(), "uid": os.getuid(), "started": started}
    if m == "resolve":
        try:
            return socket.getaddrinfo(p["name"], 80, socket.AF_INET,
                                      socket.SOCK_STREAM)[0][4][0]
        except OSError as e:
            return "failed: %s" % e.__class__.__name__
    if m in ("write", "read"):
        path = os.path.join("/workspace", p["path"])
        try:
            if m == "read":
                with open(path) as f:
                    return f.read()
            with open(path, "w") as f:
                f.write(p["data"] * p.get("times", 1))
            return "ok"
        except OSError as e:
            return "failed: %s" % e.__class__.__name__
    return p

while True:
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        c = inp.read(1)
        if not c:
            sys.exit(0)
        head += c
    n = int(head.split(b":")[1])
    raw = inp.read(n)
    req = json.loads(raw)
    if req.get("method") == "echo":
        out.write(b"Content-Length: %d\r\n\r\n" % n + raw)
        out.flush()
        continue
    body = json.dumps({"jsonrpc": "2.0", "id": req.get("id"),
                       "result": answer(req)}).encode()
    out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    out.flush()
