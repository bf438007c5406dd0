#!/bin/sh
# Resource limits hold, each hit for real next to a twin under it, and
# neither the host nor another sandbox notices.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 14

setup_users
write_sandbox_conf
check "suite starts" suite_start
other=$(sbx_create)
ctl exec "$other" -- sh -c 'sleep 300' >/dev/null 2>&1 &
bg=$!

# pids 32: a fork bomb stops at the limit.
out=$(run_sbx -p tight -- python3 -c '
import os, time
n = 0
try:
    for i in range(1000):
        if os.fork() == 0:
            time.sleep(3); os._exit(0)
        n += 1
except OSError as e:
    print("stopped", n, e.errno)
' 2>&1)
n=$(echo "$out" | awk '/^stopped/ { print $2 }')
check "a fork bomb stops at the pids limit ($n children)" [ -n "$n" ] && [ "$n" -lt 32 ]
is "$(run_sbx -p tight -- sh -c 'for i in 1 2 3 4 5; do sleep 0.1 & done; wait; echo fine')" \
    fine "a few processes under the limit are fine"

# memory 64M: a hog ends with reason limit; a small allocation is fine.
r=$(ctl -j run -p tight -- python3 -c 'x = bytearray(512 * 1024 * 1024); print(len(x))' |
    jfield reason exit)
is "$r" limit "a memory hog ends with reason limit"
is "$(run_sbx -p tight -- python3 -c 'x = bytearray(16 * 1024 * 1024); print(len(x))')" \
    16777216 "16 MiB under a 64 MiB limit is fine"

# fsize 1M: RLIMIT_FSIZE holds.
out=$(ctl -j run -p tight -- sh -c 'exec head -c 2M /dev/zero > /tmp/big')
is "$(echo "$out" | jfield reason exit)" limit "writing 2M under fsize 1M ends with reason limit"
is "$(echo "$out" | jfield signal exit)" 25 "by SIGXFSZ"
is "$(run_sbx -p tight -- sh -c 'head -c 512K /dev/zero > /tmp/ok && wc -c < /tmp/ok')" \
    524288 "512K under fsize 1M is fine"

# workspace 8M: ENOSPC past the quota, in /workspace only.
out=$(run_sbx -p tight -- sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    head -c 900K /dev/zero > /workspace/f$i || exit 7; done' 2>&1)
check "writing past the workspace quota fails with ENOSPC" contains "$out" "No space left on device"
is "$(run_sbx -p tight -- sh -c 'for i in 1 2 3 4; do head -c 900K /dev/zero > /workspace/f$i; done; cat /workspace/f* | wc -c')" \
    3686400 "3.6M in an 8M workspace is fine"

# Nobody else noticed.
is "$(in_sbx "$other" 'echo alive')" alive "another sandbox is unaffected"
check "the host can still fork" sh -c 'for i in 1 2 3 4 5 6 7 8; do true & done; wait'
check "every daemon is still running" all_ready
is "$(ctl -j show "$other" | jfield execs sandbox)" 1 "the other sandbox's exec is still running"
ctl destroy "$other" >/dev/null
wait "$bg" 2>/dev/null
done_testing
