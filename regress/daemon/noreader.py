#!/usr/bin/env python3
"""Control clients that send status requests and never read a reply.

usage: noreader.py SOCKPATH NCLIENTS NREQUESTS HOLD_SECONDS

Prints how many connected, how many requests went out in all, and how
many the daemon dropped (hung up on, seen by poll(2) without reading a
byte) by the end of HOLD_SECONDS or once all are.
"""
import select
import socket
import struct
import sys
import time

IMSG_CTL_STATUS = 100
HDR = struct.Struct("=IHHII")
REQ_LEN = 33 + 3 + 4
REQ = HDR.pack(IMSG_CTL_STATUS, HDR.size + REQ_LEN, 0, 0, 0) + \
    b"\0" * REQ_LEN


def main():
    path, nclients, nreq, hold = sys.argv[1], int(sys.argv[2]), \
        int(sys.argv[3]), float(sys.argv[4])
    conns = []
    for _ in range(nclients):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        s.setblocking(False)
        conns.append(s)
    sent, dropped = 0, set()
    deadline = time.monotonic() + hold
    left = {i: nreq for i in range(nclients)}
    while time.monotonic() < deadline:
        busy = False
        for i, s in enumerate(conns):
            if i in dropped or left[i] == 0:
                continue
            try:
                s.send(REQ)
                sent += 1
                left[i] -= 1
                busy = True
            except BlockingIOError:
                pass
            except OSError:
                dropped.add(i)
        if not busy:
            time.sleep(0.05)
            p = select.poll()
            for i, s in enumerate(conns):
                if i not in dropped:
                    p.register(s, select.POLLRDHUP)
            for fd, ev in p.poll(0):
                if ev & (select.POLLRDHUP | select.POLLHUP | select.POLLERR):
                    dropped.add([s.fileno() for s in conns].index(fd))
            if len(dropped) == nclients:
                break
    print("connected %d sent %d dropped %d" % (nclients, sent,
                                                len(dropped)), flush=True)


if __name__ == "__main__":
    main()
