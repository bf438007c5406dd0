#!/usr/bin/env python3
# A program for the abort tests, run inside sandboxes.  It waits on its
# broker channel (fd 3, or the socket path with -p) for the abort
# notification and says when it came, in ms since it started.
#   aborter.py [-p] exit     leave with status 0 on abort
#   aborter.py [-p] linger   stay after abort; leave with 0 on SIGTERM
#   aborter.py [-p] ignore   stay after abort and ignore SIGTERM
import json, os, signal, socket, sys, time

t0 = time.monotonic()
def say(*a):
    print("%d" % ((time.monotonic() - t0) * 1000), *a, flush=True)

args = sys.argv[1:]
if args[0] == "-p":
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(os.environ["SANDBOXD_BROKER"])
    args = args[1:]
else:
    s = socket.socket(fileno=int(os.environ["SANDBOXD_BROKER_FD"]))
mode = args[0]
if mode == "linger":
    signal.signal(signal.SIGTERM, lambda *a: (say("term"), os._exit(0)))
elif mode == "ignore":
    signal.signal(signal.SIGTERM, lambda *a: say("term ignored"))
say("ready")
buf = b""
while b"\r\n\r\n" not in buf:
    buf += s.recv(4096)
head, body = buf.split(b"\r\n\r\n", 1)
n = int(head.split(b":")[1])
while len(body) < n:
    body += s.recv(4096)
m = json.loads(body[:n])
say("abort", m["method"], m["params"]["reason"], m["params"]["grace_ms"])
if mode == "exit":
    sys.exit(0)
while True:
    time.sleep(0.1)
