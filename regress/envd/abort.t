#!/bin/sh
# The abort sequence's first step: the abort notification on the broker
# channel, a grace period before SIGTERM.  A program that leaves on it
# ends with reason killed or timeout and no signal; one that stays gets
# SIGTERM only after the grace period; one that ignores both is killed.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 19
setup_users
C=$ROOT/regress/envd
write_sandbox_conf "
policy \"ab\" {
	filesystem { read \"$C\" }
	limits { timeout 20s max 60s; grace 1500ms }
}"
suite_start || { notok "suite started"; exit 1; }
ok "suite started"

# result FIELD FILE: a field of the exit event in FILE; status is its
# code (-1 when a signal ended it), a missing signal 0.
result() { python3 -c '
import json, sys
x = [json.loads(l) for l in open(sys.argv[2])][-1]
f = sys.argv[1]
v = {"status": x["code"] if x["code"] is not None else -1,
    "signal": x["signal"] or 0,
    "duration_us": x["usage"]["wall_us"]}.get(f, x.get(f))
print(v)' "$1" "$2"; }
lines() { jlines <"$1"; }
# ms_of WORD FILE: when the program said WORD, ms after it started.
ms_of() { lines "$2" | awk -v w="$1" '$2 == w { print $1; exit }'; }

# sandboxctl kill: abort first, the program leaves, no signal.
id=$(ctl create -p ab)
ctl -j exec "$id" -- python3 "$C/aborter.py" exit >"$T/kill" &
pid=$!
wait_for 10 grep -q ready "$T/kill"
ctl kill "$id" >/dev/null
wait $pid
is "$(result reason "$T/kill")" killed "kill: reason killed"
is "$(result status "$T/kill")/$(result signal "$T/kill")" 0/0 \
    "kill: the program left on the abort notice: status 0, no signal"
check "kill: the notice said killed, with the grace period" \
    contains "$(lines "$T/kill")" 'abort abort killed 1500'

# The same on the socket path: every channel of the sandbox hears it.
ctl -j exec "$id" -- python3 "$C/aborter.py" -p exit >"$T/path" &
pid=$!
wait_for 10 grep -q ready "$T/path"
ctl kill "$id" >/dev/null
wait $pid
is "$(result status "$T/path")/$(result signal "$T/path")/$(result reason "$T/path")" \
    0/0/killed "a client of the socket path hears it too"
ctl destroy "$id" >/dev/null

# A timeout: abort with reason timeout, before any signal.
ctl -j run -p ab -t 1 -- python3 "$C/aborter.py" exit >"$T/to"
rc=$?
is "$(result reason "$T/to")" timeout "timeout: reason timeout"
is "$(result status "$T/to")/$(result signal "$T/to")" 0/0 \
    "timeout: the program left on the notice: status 0, no signal"
is "$rc" 124 "sandboxctl run still says 124 for a timeout"
check "timeout: the notice said timeout" \
    contains "$(lines "$T/to")" 'abort abort timeout 1500'

# Staying after the notice: SIGTERM comes one grace period later.
ctl -j run -p ab -t 1 -- python3 "$C/aborter.py" linger >"$T/linger"
a=$(ms_of abort "$T/linger")
t=$(ms_of term "$T/linger")
check "abort came first, SIGTERM after it (abort at ${a}ms, term at ${t}ms)" \
    test -n "$a" -a -n "$t" -a "${t:-0}" -gt "${a:-0}"
check "... a grace period apart ($((t - a)) ms >= 1400)" \
    test $((t - a)) -ge 1400
is "$(result reason "$T/linger")/$(result signal "$T/linger")" timeout/0 \
    "it left on SIGTERM: reason timeout, no signal"

# Ignoring both: SIGKILL after the second grace period.
ctl -j run -p ab -t 1 -- python3 "$C/aborter.py" ignore >"$T/ignore"
is "$(result signal "$T/ignore")" 9 "ignoring the notice and SIGTERM ends in SIGKILL"
d=$(result duration_us "$T/ignore")
check "... after timeout and two grace periods ($((d / 1000)) ms, 3900-6000)" \
    test "$d" -ge 3900000 -a "$d" -le 6000000
a=$(ms_of abort "$T/ignore")
t=$(ms_of term "$T/ignore")
check "the order held: abort ($a ms), then SIGTERM ($t ms)" \
    test -n "$a" -a -n "$t" -a "${t:-0}" -gt "${a:-0}"

# A program that never reads its channel costs one more grace period.
ctl -j run -p ab -t 1 -- sleep 30 >"$T/sleep"
is "$(result signal "$T/sleep")/$(result reason "$T/sleep")" 15/timeout \
    "a program deaf to the channel dies of SIGTERM after the grace period"
d=$(result duration_us "$T/sleep")
check "... at timeout plus one grace period ($((d / 1000)) ms)" \
    test "$d" -ge 2400000 -a "$d" -le 4000000

# envd killed: restarted, and the sandboxes it served are served again.
id=$(ctl create -p ab)
envd=$(child_field envd pid)
kill -KILL "$envd"
wait_for 10 all_ready
check "envd came back after kill -9 (pid $envd -> $(child_field envd pid))" \
    test "$(child_field envd pid)" != "$envd"
ctl -j exec "$id" -- python3 "$C/aborter.py" -p exit >"$T/again" &
pid=$!
wait_for 10 grep -q ready "$T/again"
ctl kill "$id" >/dev/null
wait $pid
is "$(result status "$T/again")/$(result reason "$T/again")" 0/killed \
    "a sandbox made before it is served by the new envd"
ctl destroy "$id" >/dev/null

done_testing
