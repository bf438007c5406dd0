#!/bin/sh
# Output is streamed as it arrives, capped per stream, drained past the
# cap and never buffered without bound.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 15

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
is "$(jfield truncated exec.complete < "$T/j")" true "exec.complete says truncated"
is "$(jfield bytes_stdout exec.complete < "$T/j")" 10485760 "and counts every byte produced"
is "$(grep -c '"log.line"' "$T/j")" 51200 "every kept line is one log.line event"
r1=$(rss "$rpid"); m1=$(rss "$SBX_PID")
check "runnerd memory stays bounded (${r0}K -> ${r1}K)" [ $((r1 - r0)) -lt 8192 ]
check "master memory stays bounded (${m0}K -> ${m1}K)" [ $((m1 - m0)) -lt 8192 ]

ctl run -p tight -- sh -c 'head -c 200K /dev/zero | tr "\0" e >&2; echo out' \
    > "$T/o2" 2> "$T/e2"
is "$(cat "$T/o2")" out "stdout has its own cap"
is "$(head -c 51200 "$T/e2" | tr -d e | wc -c)" 0 "stderr is capped at 50K"

# Lines arrive as they are written, not at the end: batched, both would
# arrive together; the margin is wide for a loaded machine.
ctl -j run -- sh -c 'echo first; sleep 4; echo second' |
    python3 -c '
import json, sys, time
t = {}
for l in sys.stdin:
    r = json.loads(l)
    if r["event"] == "log.line":
        t[r["line"]] = time.monotonic()
print("streamed" if t["second"] - t["first"] > 2 else "batched")' > "$T/s"
is "$(cat "$T/s")" streamed "lines are streamed as they are written"
is "$(ctl run -- sh -c 'printf "a\nb\nc"' | od -c | head -1 | tr -s ' ')" \
    "0000000 a \n b \n c" "bytes reach stdout exactly, a last line without newline too"
out=$(ctl -j run -- sh -c 'printf "\377\376bad\n"' | jfield line log.line)
check "a line that is not UTF-8 still makes valid JSON" [ -n "$out" ]
n=$(ctl -j run -- sh -c 'printf "\300\257 overlong \355\240\200 surrogate \364\220\200\200 big\n"' |
    grep -c '"log.line"')
is "$n" 1 "overlong, surrogate and out-of-range sequences are replaced, not dropped"
ctl -j run -- python3 -c 'print("a" * 5000); print("b" * 5000); print("c" * 5000)' |
    python3 -c '
import json, sys
print(" ".join(str(len(r["line"])) for r in map(json.loads, sys.stdin)
    if r["event"] == "log.line"))' > "$T/lens"
is "$(cat "$T/lens")" "5000 5000 5000" "lines longer than half the buffer are not split"
done_testing
