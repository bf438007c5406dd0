#!/bin/sh
# Output is streamed as it arrives, capped per stream, drained past the
# cap and never buffered without bound.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 14

setup_users
write_sandbox_conf
check "suite starts" suite_start

rss() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status"; }
rpid=$(child_field runnerd pid)
r0=$(rss "$rpid"); m0=$(rss "$SBX_PID")

ctl run -p tight -- sh -c 'yes | head -c 10M' > "$T/out" 2>"$T/err"
is "$(wc -c < "$T/out")" 102400 "yes | head -c 10M under a 100K cap streams exactly 100K"
check "and says it was truncated" grep -q truncated "$T/err"
ctl -j run -p tight -- sh -c 'yes | head -c 10M' > "$T/j"
jx() { python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
x = [e for e in ev if e["event"] == "exit"][0]
out = "".join(e.get("data", "") for e in ev if e["event"] == "output")
print(eval(sys.argv[2]))' "$@"; }
is "$(jx "$T/j" 'x["truncated"]["stdout"], x["truncated"]["stderr"]')" "(True, False)" \
    "the exit event says stdout was truncated"
is "$(jx "$T/j" 'x["bytes"]["stdout"]')" 10485760 "and counts every byte produced"
is "$(jx "$T/j" 'out == "y\n" * 51200')" True "the output events carry exactly the kept bytes"
r1=$(rss "$rpid"); m1=$(rss "$SBX_PID")
check "runnerd memory stays bounded (${r0}K -> ${r1}K)" [ $((r1 - r0)) -lt 8192 ]
check "master memory stays bounded (${m0}K -> ${m1}K)" [ $((m1 - m0)) -lt 8192 ]

ctl run -p tight -- sh -c 'head -c 200K /dev/zero | tr "\0" e >&2; echo out' \
    > "$T/o2" 2> "$T/e2"
is "$(cat "$T/o2")" out "stdout has its own cap"
is "$(head -c 51200 "$T/e2" | tr -d e | wc -c)" 0 "stderr is capped at 50K"

# Lines arrive as they are written, not at the end: the ts of each
# output event is when sandboxctl had it.
ctl -j run -- sh -c 'echo first; sleep 2; echo second' |
    python3 -c '
import datetime, json, sys
t = {}
for l in sys.stdin:
    r = json.loads(l)
    if r["event"] == "output":
        t[r["data"]] = datetime.datetime.strptime(r["ts"],
            "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()
print("streamed" if t["second\n"] - t["first\n"] > 1.5 else "batched")' > "$T/s"
is "$(cat "$T/s")" streamed "lines are streamed as they are written"
is "$(ctl run -- sh -c 'printf "a\nb\nc"' | od -c | head -1 | tr -s ' ')" \
    "0000000 a \n b \n c" "bytes reach stdout exactly, a last line without newline too"
ctl -j run -- sh -c 'printf "\377\376bad\n"' > "$T/bad"
is "$(jx "$T/bad" '[__import__("base64").b64decode(e["data_b64"]) for e in ev if e["event"] == "output"]')" \
    "[b'\\xff\\xfebad\\n']" "output that is not UTF-8 comes as data_b64, byte for byte"
ctl -j run -- python3 -c 'print("a" * 5000); print("b" * 5000); print("c" * 5000)' > "$T/long"
is "$(jx "$T/long" 'out == "a" * 5000 + "\n" + "b" * 5000 + "\n" + "c" * 5000 + "\n"')" True \
    "lines longer than half the buffer arrive whole"
done_testing
