#!/usr/bin/env python3
"""Misbehaving control clients.  Exit 0 when the daemon dropped us."""
import socket
import struct
import sys
import time

IMSG_CTL_STATUS = 100
IMSG_CTL_SHOW = 108
IMSG_CTL_RESULT = 151
ID_REQ_LEN = 33 + 17            # struct sbx_id_req: corr, id
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
    elif mode in ("show-bad-id", "show-good-id"):
        # A request whose id only the receiver's check refuses: the
        # master's table check must drop us; its twin is answered.
        sid = b"not-a-sandbox-id" if mode == "show-bad-id" else \
            b"0123456789abcdef"
        s.sendall(HDR.pack(IMSG_CTL_SHOW, HDR.size + ID_REQ_LEN, 0, 0, 0) +
                  b"\0" * 33 + sid + b"\0")
        if mode == "show-good-id":
            s.settimeout(5)
            hdr = s.recv(HDR.size, socket.MSG_WAITALL)
            return 0 if len(hdr) == HDR.size and \
                HDR.unpack(hdr)[0] == IMSG_CTL_RESULT else 1
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
