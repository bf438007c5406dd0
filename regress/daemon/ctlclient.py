#!/usr/bin/env python3
"""Misbehaving control clients.  Exit 0 when the daemon dropped us."""
import socket
import struct
import sys
import time

IMSG_CTL_STATUS = 100
HDR = struct.Struct("=IHHII")   # type, len, flags, peerid, pid
REQ_LEN = 33 + 3 + 4            # struct ctl_request, padded


def dropped(s, timeout=3.0):
    s.settimeout(timeout)
    try:
        while True:
            d = s.recv(65536)
            if not d:
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def main():
    path, mode = sys.argv[1], sys.argv[2]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    req = HDR.pack(IMSG_CTL_STATUS, HDR.size + REQ_LEN, 0, 0, 0)
    if mode == "garbage":
        s.sendall(b"\xff" * 3 + b"GET / HTTP/1.0\r\n\r\n" * 4)
    elif mode == "oversized":
        s.sendall(HDR.pack(IMSG_CTL_STATUS, 60000, 0, 0, 0) + b"x" * 2000)
    elif mode == "short-payload":
        s.sendall(HDR.pack(IMSG_CTL_STATUS, HDR.size + 3, 0, 0, 0) + b"abc")
    elif mode == "unknown-type":
        s.sendall(HDR.pack(4242, HDR.size + REQ_LEN, 0, 0, 0) +
                  b"\0" * REQ_LEN)
    elif mode == "close-mid":
        s.sendall(req[:20])
        s.close()
        return 0
    elif mode == "hold-partial":
        s.sendall(req[:10])
        time.sleep(0.5)
        return 0 if dropped(s, float(sys.argv[3])) else 1
    return 0 if dropped(s) else 1


sys.exit(main())
