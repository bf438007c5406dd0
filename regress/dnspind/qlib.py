# qlib.py: what the dnspind tests' DNS clients share.  query.py imports
# it; a script run in a sandbox, which cannot read the tree, gets it as
# text ahead of its own: QLIB=$(cat "$ROOT/regress/dnspind/qlib.py"),
# then python3 -c "$QLIB"'...'.
import socket
import struct
import sys
import time

RESOLVER = ("169.254.1.1", 53)


def query(name, qid=0x5151):
    """An A query for name, class IN, recursion desired."""
    q = struct.pack(">HHHHHH", qid & 0xffff, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    return q + b"\0" + struct.pack(">HH", 1, 1)


def tcp_reply(s):
    """The next message on DNS-over-TCP socket s, read whole."""
    n = struct.unpack(">H", s.recv(2))[0]
    r = b""
    while len(r) < n:
        r += s.recv(n - len(r))
    return r


def rcode(r):
    return r[3] & 15


def answers(r):
    return struct.unpack(">H", r[6:8])[0]
