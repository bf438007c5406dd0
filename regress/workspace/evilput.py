#!/usr/bin/env python3
"""put -r with a stream sandboxctl would never send: argv[3] picks it.
  linkthrough  a link "l" to argv[4], then a file "l/pwned" through it
  dotdot       a file "../pwned"
  plain        a directory "d" and a file "d/ok" (the allowed twin)
Prints the reply's message, or "closed"."""
import array
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from ctlresult import CORR, HDR, ID, PATH, read_result  # noqa: E402

IMSG_CTL_FILEOP = 140
FILEOP_PUT_TREE = 5
FENT_FILE, FENT_DIR, FENT_LINK, FENT_END = 1, 2, 3, 5
FENT = struct.Struct("=IIIIqIIQ1024s1024s")


def fent(typ, path, mode=0o755, size=0, target=b""):
    return FENT.pack(typ, mode, 0, 0, 0, 0, 1, size, path, target)


def stream(kind, target):
    out = [fent(FENT_DIR, b"")]
    if kind == "linkthrough":
        out += [fent(FENT_LINK, b"l", 0o777, len(target), target),
                fent(FENT_FILE, b"l/pwned", 0o644, 3) + b"hi\n"]
    elif kind == "dotdot":
        out += [fent(FENT_FILE, b"../pwned", 0o644, 3) + b"hi\n"]
    else:
        out += [fent(FENT_DIR, b"d"),
                fent(FENT_FILE, b"d/ok", 0o644, 3) + b"hi\n"]
    out.append(fent(FENT_END, b"", 0, len(out) - 1))
    return b"".join(out)


def main():
    sock, sid, remote, kind = sys.argv[1], sys.argv[2].encode(), \
        sys.argv[3].encode(), sys.argv[4]
    target = sys.argv[5].encode() if len(sys.argv) > 5 else b"/tmp"
    body = (b"\0" * CORR + sid.ljust(ID, b"\0") + remote.ljust(PATH, b"\0") +
            b"\0\0" + struct.pack("=IIII", len(remote), FILEOP_PUT_TREE, 0, 0))
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock)
    ours, theirs = socket.socketpair()
    msg = HDR.pack(IMSG_CTL_FILEOP, HDR.size + len(body), 1, 0, 0) + body
    s.sendmsg([msg], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                       array.array("i", [theirs.fileno()]))])
    theirs.close()
    try:
        ours.sendall(stream(kind, target))
    except OSError:
        pass
    ours.close()
    r = read_result(s)
    print("closed" if r is None else "%d %s" % r)


main()
