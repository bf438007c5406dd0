#!/bin/sh
# Control socket limits: replies left unread, summed over every client,
# stay under control queue (the client holding the most is told why and
# closed, everyone else served); out of fds, the accept loop pauses
# instead of spinning, and accepts again once fds are free.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 10

setup_users
write_conf "control queue 2M
uid-range $((340000 + ($$ % 500) * 1000)) 1000
policy \"loud\" {
	limits { stdout 64M; timeout 60s max 60s; grace 200ms }
}"
check "suite starts with control queue 2M" suite_start
check "the setting is in force" sh -c "'$SANDBOXD' -nv -f '$T/sandboxd.conf' |
    grep -qx 'control queue 2M'"

# A reader that stops reading: 32M of output pile up for it.
( ctl -j run -p loud -- sh -c 'head -c 32M /dev/zero; sleep 30' |
    { sleep 4; cat; } >"$T/slow.j"; echo $? >"$T/slow.rc" ) &
slow=$!
wait_for 15 grep -q "control queue 2097152" "$LOG"
check "the client holding the most is dropped, and it is logged" \
    grep -q "dropping client uid 0 .*replies unread, the most of all clients" "$LOG"
out=$(ctl run -- echo still here)
is "$out" "still here" "everyone else is still served meanwhile"
wait $slow
last=$(tail -n 1 "$T/slow.j" | python3 -c '
import json, sys
e = json.load(sys.stdin)
print(e["event"], e["code"])')
is "$last" "error limit" "the dropped -j client reads its output, then an error event with code limit"
check "and a clear message" grep -q "more than the control queue limit of 2097152 bytes" "$T/slow.j"
wait_for 10 sh -c "[ \"\$('$SANDBOXCTL' -s '$SOCK' -j ps | grep -c '\"event\":\"sandbox\"')\" = 0 ]"
check "what the dropped clients ran was aborted" \
    sh -c "[ \"\$('$SANDBOXCTL' -s '$SOCK' -j ps | grep -c '\"event\":\"sandbox\"')\" = 0 ]"

# Out of fds: the master's nofile just above what it holds; idle clients
# take the rest.  Its CPU time over 2 s shows whether accept spins.
cpu() { awk '{ print $14 + $15 }' "/proc/$SBX_PID/stat"; }
nfd=$(ls "/proc/$SBX_PID/fd" | wc -l)
prlimit --pid "$SBX_PID" --nofile=$((nfd + 4)):$((nfd + 4))
python3 -c '
import socket, sys, time
s = []
for i in range(40):
    c = socket.socket(socket.AF_UNIX)
    c.connect(sys.argv[1])
    s.append(c)
open(sys.argv[2], "w").write("held\n")
time.sleep(3)' "$SOCK" "$T/held" &
holder=$!
wait_for 5 grep -q held "$T/held"
sleep 0.3
c0=$(cpu)
sleep 2
c1=$(cpu)
diag "master CPU time at EMFILE over 2 s: $((c1 - c0)) ticks of $(getconf CLK_TCK)"
check "at EMFILE the accept loop does not spin ($((c1 - c0)) ticks in 2 s)" \
    [ $((c1 - c0)) -lt 20 ]
is "$(grep -c "not accepting for 100 ms" "$LOG")" 1 "it is logged once"
wait $holder
check "with fds free again, clients are served" wait_for 15 sh -c \
    "'$SANDBOXCTL' -s '$SOCK' status | grep -q runnerd"
done_testing
