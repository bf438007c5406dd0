#!/usr/bin/env python3
"""The walk of messages between sandboxd's processes, from the imsg
trace that every process logs at -vv (lib/imsg.c, imsg_trace).

Usage: imsgwalk.py LOG [FROM-MARK TO-MARK]

Reads the trace lines of LOG ("NAME[PID]: imsg > fd N type T len L
peerid P [fd-passed]"), between two marker lines if given, and prints:
  - every hop: one message over one channel, sender to receiver;
  - every message: a chain of hops where the master passes on what it
    took, with the processes it crosses;
  - the totals.
A control client (sandboxctl) traces nothing itself: the master's
channels that lead to no child are taken for the client's.  Children
trace their direct channels to each other (lib/peerch.c, the pin
channel) as they do their channel to the master: a send in one child
matched by a receive in another is one hop, with no master between.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
LINE = re.compile(r"^(\w+)\[(\d+)\]: imsg ([<>]) fd (\d+) type (\d+) "
                  r"len (\d+) peerid (\d+)( fd-passed)?")
MASTER = "sandboxd"
CLIENT = "sandboxctl"


def type_names():
    """enum imsg_type of lib/sandboxd_imsg.h: number -> name."""
    names, val = {}, -1
    text = open(os.path.join(ROOT, "lib", "sandboxd_imsg.h")).read()
    body = text[text.index("enum imsg_type {"):]
    body = body[:body.index("};")]
    for m in re.finditer(r"^\s*(IMSG_\w+)\s*(?:=\s*(\d+))?\s*,", body,
                         re.M):
        val = int(m.group(2)) if m.group(2) else val + 1
        names[val] = m.group(1)[len("IMSG_"):]
    return names


def read_trace(path, start, end):
    rows, on = [], start is None
    for line in open(path, errors="replace"):
        if start is not None and start in line:
            on = True
            continue
        if end is not None and end in line:
            break
        m = LINE.match(line)
        if on and m:
            rows.append({"i": len(rows), "proc": m.group(1),
                         "dir": m.group(3),
                         "fd": int(m.group(4)), "type": int(m.group(5)),
                         "len": int(m.group(6)), "fdp": bool(m.group(8)),
                         "peer": None, "used": False})
    return rows


def match_hops(rows):
    """Each send to the first later receive of the same message in
    another process; the master's fds are named after their peers."""
    hops, fdpeer = [], {}
    for i, s in enumerate(rows):
        if s["dir"] != ">":
            continue
        for r in rows[i + 1:]:
            if (r["dir"] == "<" and not r["used"] and
                    r["proc"] != s["proc"] and r["type"] == s["type"] and
                    r["len"] == s["len"] and r["fdp"] == s["fdp"] and
                    (s["proc"] != MASTER or
                     fdpeer.get(s["fd"], r["proc"]) == r["proc"])):
                r["used"] = True
                r["peer"], s["peer"] = s, r
                if s["proc"] == MASTER:
                    fdpeer[s["fd"]] = r["proc"]
                if r["proc"] == MASTER:
                    fdpeer[r["fd"]] = s["proc"]
                break
    for r in rows:
        if r["dir"] == ">" and r["peer"] is not None:
            hops.append((r, r["peer"]))
        elif r["peer"] is None and r["proc"] == MASTER:
            # The master's side of a channel no child traced: a client.
            if r["dir"] == "<":
                hops.append(({"proc": CLIENT, "type": r["type"],
                              "len": r["len"], "fdp": r["fdp"]}, r))
            else:
                hops.append((r, {"proc": CLIENT, "type": r["type"],
                                 "len": r["len"], "fdp": r["fdp"]}))
    hops.sort(key=lambda h: h[0]["i"] if "i" in h[0] else h[1]["i"])
    return hops


def chain(hops):
    """A hop into the master followed by the master's send of the same
    payload (its length; a client's request changes type on the way,
    CTL_RUN to RUN_RUN) is one message relayed."""
    msgs, pending = [], []
    for snd, rcv in hops:
        if snd["proc"] == MASTER:
            for m in pending:
                if m[-1][1]["len"] == snd["len"]:
                    pending.remove(m)
                    m.append((snd, rcv))
                    break
            else:
                msgs.append([(snd, rcv)])
                continue
            continue
        m = [(snd, rcv)]
        msgs.append(m)
        if rcv["proc"] == MASTER:
            pending.append(m)
    return msgs


def main():
    path = sys.argv[1]
    start = sys.argv[2] if len(sys.argv) > 2 else None
    end = sys.argv[3] if len(sys.argv) > 3 else None
    names = type_names()
    hops = match_hops(read_trace(path, start, end))
    msgs = chain(hops)
    print("%-3s %-22s %-5s %-4s %s" % ("#", "message", "bytes", "hops",
                                        "path"))
    for i, m in enumerate(msgs, 1):
        t = m[0][0]["type"]
        path_ = " > ".join([m[0][0]["proc"]] + [h[1]["proc"] for h in m])
        print("%-3d %-22s %-5d %-4d %s%s" % (
            i, names.get(t, str(t)), m[0][0]["len"], len(m), path_,
            " (+fd)" if m[0][0]["fdp"] else ""))
    via = sum(1 for m in msgs if any(h[0]["proc"] == MASTER for h in m)
              and m[0][0]["proc"] != MASTER)
    direct = sum(1 for m in msgs if len(m) == 1 and
                 MASTER not in (m[0][0]["proc"], m[0][1]["proc"]))
    print("messages %d, hops %d, relayed by the master %d, "
          "from or to the master itself %d, direct between children %d" % (
              len(msgs), len(hops), via,
              sum(1 for m in msgs if MASTER in (m[0][0]["proc"],
                                                m[-1][1]["proc"])
                  and len(m) == 1), direct))


if __name__ == "__main__":
    main()
