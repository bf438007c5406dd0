#!/usr/bin/env python3
# A stand-in for systemd's notify socket: notifysock.py ADDR OUT [CMD...]
# binds ADDR ('@name' is abstract), appends one line per datagram to OUT
# ("<monotonic seconds> <pid> KEY=VALUE|KEY=VALUE"), and on the first
# READY=1 runs CMD at once and appends "ready-check <rc> <its output>",
# so a test can tell what was true when READY came.
import os
import socket
import struct
import subprocess
import sys
import time

addr, out, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("\0" + addr[1:] if addr.startswith("@") else addr)
s.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
ready = False
with open(out, "a", buffering=1) as f:
    f.write("listening\n")
    while True:
        data, anc, _, _ = s.recvmsg(4096, socket.CMSG_SPACE(12))
        pid = 0
        for lvl, typ, d in anc:
            if lvl == socket.SOL_SOCKET and typ == socket.SCM_CREDENTIALS:
                pid = struct.unpack("iII", d[:12])[0]
        text = data.decode(errors="replace").strip().replace("\n", "|")
        f.write("%.3f %d %s\n" % (time.monotonic(), pid, text))
        if not ready and "READY=1" in text.split("|") and cmd:
            ready = True
            r = subprocess.run(cmd, capture_output=True, text=True)
            f.write("ready-check %d %s\n" % (r.returncode,
                    r.stdout.replace("\n", "|")))
