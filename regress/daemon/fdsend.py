#!/usr/bin/env python3
"""Pass lingering TCP sockets to a daemon over SCM_RIGHTS.

usage: fdsend.py imsg|broker SOCKPATH NFDS HOLD_SECONDS [DELAY]

Each fd is a TCP connection on loopback to a listener that never
accepts nor reads, with its send queue full and SO_LINGER {1, 30}: the
last close(2) of it waits up to 30 s.  The fds go in one sendmsg(2):
for imsg a status request (control socket), for broker the start of a
frame.  Our own copies are closed at once, so the daemon holds the last
reference; the listener stays open HOLD_SECONDS so the data stays
unsent.  DELAY seconds pass between connect and send (the daemon has
accepted by then).  Prints "sent N" or "refused ERRNO-NAME".
"""
import array
import errno
import socket
import struct
import sys
import time

IMSG_CTL_STATUS = 100
HDR = struct.Struct("=IHHII")
REQ_LEN = 33 + 3 + 4


def lingering(listener):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    s.connect(listener.getsockname())
    s.setblocking(False)
    chunk = b"x" * 65536
    try:
        while True:
            s.send(chunk)
    except BlockingIOError:
        pass
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                 struct.pack("ii", 1, 30))
    return s


def main():
    mode, path, nfds, hold = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
        float(sys.argv[4])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    socks = [lingering(listener) for _ in range(nfds)]
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.connect(path)
    time.sleep(float(sys.argv[5]) if len(sys.argv) > 5 else 0)
    if mode == "imsg":
        data = HDR.pack(IMSG_CTL_STATUS, HDR.size + REQ_LEN, 0, 0, 0) + \
            b"\0" * REQ_LEN
    else:
        data = b"Content-Length: 2\r\n\r\n{}"
    fds = array.array("i", [s.fileno() for s in socks])
    try:
        c.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
        print("sent %d" % nfds, flush=True)
    except OSError as e:
        print("refused %s" % errno.errorcode.get(e.errno, e.errno),
              flush=True)
        # Still ours: do not wait on them ourselves.
        for s in socks:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                         struct.pack("ii", 1, 0))
    for s in socks:
        s.close()
    c.close()
    time.sleep(hold)


if __name__ == "__main__":
    main()
