#!/usr/bin/env python3
# A plugin as plugin hosts run them: JSON-RPC 2.0 frames with
# Content-Length on stdin and stdout.  It answers each request with its
# own body, byte for byte; "flood" asks for N MB of frames; at end of
# input it says so on stderr and leaves.
import json, sys

inp, out = sys.stdin.buffer, sys.stdout.buffer

def frame(body):
    out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

while True:
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        c = inp.read(1)
        if not c:
            sys.stderr.write("plugin: eof after %s\n" % ("a partial header" if head else "the last frame"))
            sys.exit(0)
        head += c
    n = int(head.split(b":")[1])
    body = inp.read(n)
    if len(body) != n:
        sys.stderr.write("plugin: short body\n")
        sys.exit(1)
    req = json.loads(body)
    if req.get("method") == "flood":
        chunk = b"x" * 65500
        for _ in range(req["params"]["mb"] * 16):
            frame(chunk)
        frame(b"{}")
    else:
        frame(body)
    out.flush()
