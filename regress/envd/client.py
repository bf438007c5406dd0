#!/usr/bin/env python3
# A broker client for the tests, run inside sandboxes: JSON-RPC 2.0 with
# Content-Length framing on the socket path or on the inherited fd.
# Values are never printed: a result's "value" is shown as its sha256.
#
#   client.py [-f] call METHOD NAME...   one request per name, in order
#   client.py [-f] raw HEX-BYTES         send bytes, print what comes back
#   client.py [-f] burst N               N pipelined requests, then read
#   client.py [-f] slow SECONDS          a request one byte a second
#   client.py [-f] huge MB               a frame of MB megabytes
#   client.py [-f] timed N               N requests 50 ms apart, each
#                                        answered before the next: prints
#                                        the slowest answer's milliseconds
#   client.py wait-abort                 wait on fd 3 for abort, exit 0
import hashlib, json, os, socket, sys, time

def connect(use_fd):
    if use_fd:
        return socket.socket(fileno=int(os.environ["SANDBOXD_BROKER_FD"]))
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(os.environ.get("SANDBOXD_BROKER", "/run/sandboxd/broker.sock"))
    return s

def frame(obj):
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body

class Reader:
    def __init__(self, s):
        self.s, self.buf = s, b""
    def fill(self):
        d = self.s.recv(65536)
        if not d:
            raise EOFError
        self.buf += d
    def next(self):
        while b"\r\n\r\n" not in self.buf:
            self.fill()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        n = int(head.split(b":")[1])
        while len(self.buf) < n:
            self.fill()
        body, self.buf = self.buf[:n], self.buf[n:]
        return json.loads(body)

def show(msg):
    r = msg.get("result")
    if isinstance(r, dict) and "value" in r:
        r["value"] = "sha256:" + hashlib.sha256(r["value"].encode()).hexdigest()
    print(json.dumps(msg, sort_keys=True), flush=True)

def req(i, method, name):
    return {"jsonrpc": "2.0", "id": i, "method": method, "params": {"name": name}}

def main():
    args = sys.argv[1:]
    use_fd = args and args[0] == "-f"
    if use_fd:
        args = args[1:]
    cmd = args[0]
    if cmd == "wait-abort":
        s = connect(True)
        m = Reader(s).next()
        print("abort:", m["method"], m["params"]["reason"],
              m["params"]["grace_ms"], flush=True)
        return 0
    s = connect(use_fd)
    rd = Reader(s)
    if cmd == "call":
        for i, name in enumerate(args[2:], 1):
            s.sendall(frame(req(i, args[1], name)))
            show(rd.next())
    elif cmd == "raw":
        s.sendall(bytes.fromhex(args[1]))
        s.shutdown(socket.SHUT_WR)
        try:
            while True:
                show(rd.next())
        except (EOFError, ConnectionResetError):
            print("eof", flush=True)
    elif cmd == "burst":
        n = int(args[1])
        s.sendall(b"".join(frame(req(i, "secrets.has", "NPM_TOKEN"))
                           for i in range(1, n + 1)))
        ids = [rd.next()["id"] for _ in range(n)]
        print("answered", len(ids), "in order" if ids == list(range(1, n + 1))
              else "OUT OF ORDER", flush=True)
    elif cmd == "slow":
        data = frame(req(1, "secrets.has", "NPM_TOKEN"))
        for b in data[:int(args[1])]:
            s.sendall(bytes([b]))
            time.sleep(1)
        s.sendall(data[int(args[1]):])
        show(rd.next())
    elif cmd == "timed":
        worst = 0
        for i in range(1, int(args[1]) + 1):
            t = time.monotonic()
            s.sendall(frame(req(i, "secrets.has", "NPM_TOKEN")))
            rd.next()
            worst = max(worst, time.monotonic() - t)
            time.sleep(0.05)
        print(int(worst * 1000), flush=True)
    elif cmd == "huge":
        size = int(args[1]) << 20
        s.sendall(b"Content-Length: %d\r\n\r\n" % size)
        chunk, sent = b"x" * 65536, 0
        try:
            while sent < size:
                s.sendall(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        print("sent", sent >> 20, "MB", flush=True)
        try:
            show(rd.next())
        except (EOFError, ConnectionResetError):
            print("eof", flush=True)
    return 0

sys.exit(main())
