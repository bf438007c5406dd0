# logdelay.py LOG PAT1 PAT2 [TIMEOUT]: follows LOG from its end, noting
# when each line arrives (polled every 2 ms; the daemons write their
# log unbuffered), and prints the milliseconds from the first line
# matching PAT1 to the first after it matching PAT2, or "timeout".  It
# prints "following" once it reads, to start what it measures after.
import os
import re
import sys
import time

path, pat1, pat2 = sys.argv[1], re.compile(sys.argv[2]), re.compile(sys.argv[3])
timeout = float(sys.argv[4]) if len(sys.argv) > 4 else 10
f = open(path, "rb")
f.seek(0, os.SEEK_END)
print("following", flush=True)
buf = b""
t1 = None
end = time.monotonic() + timeout
while time.monotonic() < end:
    chunk = f.read()
    now = time.monotonic()
    if not chunk:
        time.sleep(0.002)
        continue
    buf += chunk
    *lines, buf = buf.split(b"\n")
    for l in lines:
        l = l.decode(errors="replace")
        if t1 is None and pat1.search(l):
            t1 = now
        elif t1 is not None and pat2.search(l):
            print("%d" % ((now - t1) * 1000))
            sys.exit(0)
print("timeout")
