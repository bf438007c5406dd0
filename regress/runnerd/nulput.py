#!/usr/bin/env python3
"""Send a put whose path has a NUL byte inside; print the reply's message."""
import array
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from ctlresult import CORR, HDR, ID, PATH, read_result  # noqa: E402

IMSG_CTL_PUT = 109


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
    r = read_result(s)
    print("closed" if r is None else r[1])


main()
