#!/usr/bin/env python3
"""Send a put whose path has a NUL byte inside; print the reply's message."""
import array
import os
import socket
import struct
import sys

IMSG_CTL_PUT = 109
IMSG_CTL_RESULT = 151
HDR = struct.Struct("=IHHII")
CORR, ID, PATH = 33, 17, 1024


def main():
    sock, sid, local = sys.argv[1], sys.argv[2].encode(), sys.argv[3]
    path = b"ok\0../../etc/passwd"
    body = (b"\0" * CORR + sid.ljust(ID, b"\0") + path.ljust(PATH, b"\0") + b"\0\0" +
            struct.pack("=II", len(path), 0o644))
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock)
    fd = os.open(local, os.O_RDONLY)
    msg = HDR.pack(IMSG_CTL_PUT, HDR.size + len(body), 1, 0, 0) + body
    s.sendmsg([msg], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                       array.array("i", [fd]))])
    data = b""
    while True:
        d = s.recv(65536)
        if not d:
            print("closed")
            return
        data += d
        while len(data) >= HDR.size:
            t, ln, _, _, _ = HDR.unpack_from(data)
            if len(data) < ln:
                break
            if t == IMSG_CTL_RESULT:
                p = data[HDR.size:ln]
                msg = p[CORR + 3 + 4:].split(b"\0")[0].decode()
                print(msg)
                return
            data = data[ln:]


main()
