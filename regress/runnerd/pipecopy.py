#!/usr/bin/env python3
"""A put or get whose other end is a pipe this script holds.

usage: pipecopy.py SOCK ID put|get REMOTE NBYTES finish|hold

put: the copier reads the pipe; NBYTES are written into it, then the
write end is closed (finish) or kept open (hold: the copier waits in
read(2) for more).  get: the copier writes the file into the pipe;
finish reads it all, hold reads NBYTES and then nothing (the copier
waits in write(2) once the pipe is full).  Prints "started" on stderr
once the copy is under way, then the reply's message on stdout, or
"no answer" after 20 s.
"""
import array
import os
import select
import socket
import struct
import sys
import time

IMSG_CTL_PUT = 109
IMSG_CTL_GET = 110
IMSG_CTL_RESULT = 151
HDR = struct.Struct("=IHHII")
CORR, ID, PATH = 33, 17, 1024


def result(data):
    """The message of a ctl_result in data, or None if not all there."""
    while len(data) >= HDR.size:
        t, ln, _, _, _ = HDR.unpack_from(data)
        if len(data) < ln:
            return None
        if t == IMSG_CTL_RESULT:
            p = data[HDR.size:ln]
            return p[CORR + 3 + 4:].split(b"\0")[0].decode()
        data = data[ln:]
    return None


def main():
    sock, sid, op, remote, nbytes, how = sys.argv[1:7]
    nbytes = int(nbytes)
    path = remote.encode()
    body = (b"\0" * CORR + sid.encode().ljust(ID, b"\0") +
            path.ljust(PATH, b"\0") + b"\0\0" +
            struct.pack("=II", len(path), 0o644))
    r, w = os.pipe()
    mine, theirs = (w, r) if op == "put" else (r, w)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock)
    t = IMSG_CTL_PUT if op == "put" else IMSG_CTL_GET
    msg = HDR.pack(t, HDR.size + len(body), 1, 0, 0) + body
    s.sendmsg([msg], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                       array.array("i", [theirs]))])
    os.close(theirs)
    if op == "put":
        os.write(mine, b"x" * nbytes)
    else:
        got = 0
        while got < nbytes:
            got += len(os.read(mine, nbytes - got))
    print("started", file=sys.stderr, flush=True)
    if how == "finish":
        if op == "put":
            os.close(mine)
        else:
            while os.read(mine, 65536):
                pass
    data = b""
    end = time.monotonic() + 20
    while time.monotonic() < end:
        if not select.select([s], [], [], 0.2)[0]:
            continue
        d = s.recv(65536)
        if not d:
            print("closed")
            return
        data += d
        m = result(data)
        if m is not None:
            print(m)
            return
    print("no answer")


main()
