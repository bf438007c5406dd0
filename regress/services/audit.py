#!/usr/bin/env python3
# Read sandboxd's audit lines for one service from a log.
#   audit.py LOG SERVICE gaps    the measured delay of each restart:
#                                 crash (or watchdog abort) to next start, ms
#   audit.py LOG SERVICE count EVENT
#   audit.py LOG SERVICE times EVENT   the event's times, one a line
import json, sys

def events(log, svc):
    for line in open(log, errors="replace"):
        i = line.find("audit {")
        if i < 0:
            continue
        try:
            a = json.loads(line[i + 6:])
        except ValueError:
            continue
        if a.get("service") == svc:
            yield a

log, svc, what = sys.argv[1:4]
ev = list(events(log, svc))
if what == "gaps":
    end = None
    for a in ev:
        if a["audit"] in ("service.crash", "service.exit"):
            end = a["time"]
        elif a["audit"] == "service.start" and end is not None:
            print(int(round((a["time"] - end) * 1000)))
            end = None
elif what == "count":
    print(sum(1 for a in ev if a["audit"] == sys.argv[4]))
elif what == "times":
    for a in ev:
        if a["audit"] == sys.argv[4]:
            print("%.3f" % a["time"])
elif what == "field":
    for a in ev:
        if a["audit"] == sys.argv[4]:
            print(json.dumps(a[sys.argv[5]]))
