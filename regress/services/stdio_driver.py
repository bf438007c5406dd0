#!/usr/bin/env python3
# The host side of interactive.t: run the echo plugin through
# sandboxctl run -i and talk to it.
#   stdio_driver.py echo N SANDBOXCTL ARGS...    N requests, some of 1 MB
#   stdio_driver.py flood PIDS SANDBOXCTL ARGS... stop reading a while;
#                                                 print each pid's RSS growth
from framing import frame, read_frame
import json, os, random, subprocess, sys, threading, time

def rss(pid):
    with open("/proc/%s/status" % pid) as f:
        for l in f:
            if l.startswith("VmRSS:"):
                return int(l.split()[1])
    return 0

def echo(n, cmd):
    rnd = random.Random(7)
    bodies = []
    for i in range(n):
        if i % 1000 == 999:
            payload = "".join(rnd.choice("abcdefghij\u00e9\u4e2d\"\\")
                              for _ in range(600000))
        else:
            payload = "p%d" % i
        bodies.append(json.dumps({"jsonrpc": "2.0", "id": i, "method": "echo",
                                  "params": [payload]}).encode())
    big = sum(1 for b in bodies if len(b) >= 1 << 20)
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    def writer():
        for b in bodies:
            p.stdin.write(frame(b))
        p.stdin.close()
    t = threading.Thread(target=writer)
    t.start()
    bad = 0
    for i, b in enumerate(bodies):
        got = read_frame(p.stdout)
        if got != b:
            bad += 1
            if got is None:
                break
    t.join()
    rest = p.stdout.read()
    err = p.stderr.read().decode(errors="replace")
    rc = p.wait()
    print("answered %d of %d, %d frames of 1 MB or more, %d mismatched, "
          "%d bytes after" % (i + 1 if bad == 0 else i, n, big, bad, len(rest)))
    print("plugin:", "saw eof" if "eof after the last frame" in err else err.strip())
    print("exit", rc)

def flood(pids, cmd):
    pids = pids.split(",")
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdin.write(frame(b'{"jsonrpc":"2.0","id":1,"method":"echo"}'))
    p.stdin.flush()
    read_frame(p.stdout)
    before = [rss(x) for x in pids]
    p.stdin.write(frame(b'{"jsonrpc":"2.0","id":2,"method":"flood",'
                        b'"params":{"mb":64}}'))
    p.stdin.flush()
    time.sleep(3)
    during = [rss(x) for x in pids]
    total = 0
    while True:
        b = read_frame(p.stdout)
        if b is None or b == b"{}":
            break
        total += 1
    p.stdin.close()
    p.wait()
    print("growth_kb", max(d - b for b, d in zip(before, during)))
    print("read_frames", total)

if sys.argv[1] == "echo":
    echo(int(sys.argv[2]), sys.argv[3:])
else:
    flood(sys.argv[2], sys.argv[3:])
