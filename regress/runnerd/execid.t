#!/bin/sh
# Exec ids and detached execs: exec -d returns at once with the exec's
# id; attach replays the kept output and follows it, several at once;
# wait; kill of one exec leaves its siblings running; a client killed
# mid-attach leaves the exec running and re-attachable; kept output is
# capped with the truncated flag; finished execs are forgotten after
# exec retention, past exec history, and with their sandbox; bad exec
# ids get a clear error and exit 125.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 65

setup_users
getent group sbxctl-test >/dev/null || groupadd --system sbxctl-test
GID=$(getent group sbxctl-test | cut -d: -f3)
member() { setpriv --reuid=65534 --regid=65534 --groups="$GID" "$@"; }
write_sandbox_conf "uid-range $((320000 + ($$ % 500) * 1000)) 1000
control group \"sbxctl-test\"
exec retention 3s
exec history 4"
check "suite starts" suite_start

s=$(sbx_create tight)
# go NAME: the file the execs below wait for, made from another exec.
go() { in_sbx "$s" "touch /workspace/$1"; }
waitfor='while [ ! -e /workspace/$0 ]; do sleep 0.05; done'
state() {	# exec: its STATE column in ps ID
	ctl ps "$s" | awk -v x="$1" '$1 == x { print $2 }'
}
armed() {	# exec: it has written something (its traps are set)
	[ "$(ctl -j ps "$s" | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("exec_id") == sys.argv[1]:
        print(r["bytes_stdout"])' "$1")" -gt 0 ]
}

t0=$(date +%s%N)
x=$(ctl exec -d "$s" -- sh -c "echo first; echo err >&2; $waitfor; echo last; exit 7" gox)
rc=$?
t1=$(date +%s%N)
is "$rc" 0 "exec -d exits 0"
check "... printing the exec id, <sandbox>.<n>, on a line of its own ($x)" \
    contains "$x" "^$s\.[1-9][0-9]*\$"
check "... at once, while the command goes on ($(( (t1 - t0) / 1000000 )) ms)" \
    [ $(( (t1 - t0) / 1000000 )) -lt 3000 ]
check "ps ID lists it running" wait_for 5 sh -c "[ \"\$($SANDBOXCTL -s $SOCK ps $s | awk -v x=$x '\$1 == x { print \$2 }')\" = running ]"

# Two attaches at once: each replays what was kept, then follows.
"$SANDBOXCTL" -s "$SOCK" attach "$x" >"$T/a1.out" 2>"$T/a1.err" & a1=$!
"$SANDBOXCTL" -s "$SOCK" attach "$x" >"$T/a2.out" 2>"$T/a2.err" & a2=$!
check "attach replays the output kept so far" wait_for 5 grep -q first "$T/a1.out"
check "... to a second client attached at the same time" wait_for 5 grep -q first "$T/a2.out"
check "ps counts both as attached" \
    sh -c "$SANDBOXCTL -s $SOCK -j ps $s | grep -q '\"exec_id\": *\"$x\".*\"attached\": *2\\|\"attached\": *2.*\"exec_id\": *\"$x\"'"
go gox
wait "$a1"; r1=$?
wait "$a2"; r2=$?
is "$r1" 7 "the first attach follows to the end and exits with the exec's status"
is "$r2" 7 "so does the second"
is "$(cat "$T/a1.out")" "first
last" "... its stdout is the exec's, replayed then followed, in order"
check "... and stderr is the exec's stderr" grep -q '^err$' "$T/a1.err"
check "both saw the same output" cmp -s "$T/a1.out" "$T/a2.out"
ctl wait "$x"; rc=$?
is "$rc" 7 "wait on a finished exec exits with its status"
out=$(ctl attach "$x" 2>/dev/null); rc=$?
is "$out:$rc" "first
last:7" "attach to a finished exec replays all of it and exits with its status"
is "$(state "$x")" exited "ps ID: exited"

# wait on a running exec returns when it ends.
w=$(ctl exec -d "$s" -- sh -c "$waitfor; exit 3" gow)
"$SANDBOXCTL" -s "$SOCK" wait "$w" & wp=$!
sleep 0.3
check "wait blocks while the exec runs" kill -0 "$wp"
go gow
wait "$wp"; rc=$?
is "$rc" 3 "... and exits with its status when it ends"

# kill of one exec: its process group alone; the sibling runs on.
sib=$(ctl exec -d "$s" -- sh -c "echo ready; $waitfor; echo done; exit 4" gosib)
vic=$(ctl exec -d "$s" -- sh -c 'sleep 1000 & sleep 1000')
stub=$(ctl exec -d "$s" -- sh -c 'trap "" TERM; echo armed; sleep 1000 & while :; do sleep 0.1; done')
check "the victims run, the stubborn one ignoring SIGTERM" wait_for 5 armed "$stub"
ctl kill "$vic"; rc=$?
is "$rc" 0 "kill EXEC exits 0"
ctl wait "$vic"; rc=$?
is "$rc" 143 "the killed exec ends by SIGTERM (128+15)"
is "$(state "$vic")" killed "ps ID says killed"
t0=$(date +%s%N)
ctl kill "$stub"
ctl wait "$stub"; rc=$?
t1=$(date +%s%N)
is "$rc" 137 "one that ignores SIGTERM is killed after the grace (128+9)"
check "... within the grace periods ($(( (t1 - t0) / 1000000 )) ms)" [ $(( (t1 - t0) / 1000000 )) -lt 4000 ]
is "$(state "$sib")" running "the sibling exec is still running"
is "$(in_sbx "$s" 'pgrep -c sleep')" 1 "... and of all the sleeps only the sibling's is left"

# A client SIGKILLed mid-attach: the exec runs on, and can be attached again.
"$SANDBOXCTL" -s "$SOCK" attach "$sib" >"$T/k.out" 2>&1 & k=$!
wait_for 5 grep -q ready "$T/k.out"
kill -9 "$k"; wait "$k" 2>/dev/null
check "the attached client is gone" sh -c "! kill -0 $k 2>/dev/null"
sleep 0.3
is "$(state "$sib")" running "a client killed mid-attach leaves the exec running"
"$SANDBOXCTL" -s "$SOCK" attach "$sib" >"$T/k2.out" 2>&1 & k2=$!
wait_for 5 grep -q ready "$T/k2.out"
go gosib
wait "$k2"; rc=$?
is "$rc" 4 "re-attached, it follows to the end with the exec's status"
is "$(cat "$T/k2.out")" "ready
done" "... with all of its output"

# kill -s: any signal, to its process group.
u=$(ctl exec -d "$s" -- sh -c 'trap "echo got usr1; exit 5" USR1; echo armed; while :; do sleep 0.05; done')
wait_for 5 armed "$u"
ctl kill -s USR1 "$u"
ctl wait "$u"; rc=$?
is "$rc" 5 "kill -s USR1 reaches the exec, which handles it"
is "$(ctl attach "$u" 2>/dev/null)" "armed
got usr1" "... as its output says"
out=$(ctl kill "$u" 2>&1); rc=$?
check "kill of an exec that has ended says so ($out)" contains "$out" "has ended already"
is "$rc" 125 "... exit 125"

# kill EXEC reaches its process group; kill ID the whole sandbox.
e1=$(ctl exec -d "$s" -- sh -c 'setsid sleep 1001 & echo armed; sleep 1000')
wait_for 5 armed "$e1"
ctl kill "$e1"; ctl wait "$e1"; rc=$?
is "$rc" 143 "kill EXEC ends the exec"
is "$(in_sbx "$s" 'pgrep -c -f "sleep 100[1]"')" 1 \
    "... but not a process that left its group with setsid, as documented"
e2=$(ctl exec -d "$s" -- sh -c 'echo armed; sleep 1000')
wait_for 5 armed "$e2"
is "$(ctl kill "$s")" killed "kill ID with a detached exec running"
ctl wait "$e2"; rc=$?
is "$rc:$(in_sbx "$s" 'pgrep -c sleep')" "143:0" \
    "... ends it and every other process of the sandbox, that one too"

# The kept output is capped per stream, with the truncated flag.
cap=$(ctl -j show "$s" | jfield stdout_cap sandbox)
b=$(ctl exec -d "$s" -- sh -c 'head -c 300000 /dev/zero | tr "\0" a')
ctl wait "$b" >/dev/null 2>&1
ctl attach "$b" >"$T/big.out" 2>"$T/big.err"
is "$(wc -c <"$T/big.out")" "$cap" "attach replays exactly the policy's stdout cap ($cap bytes)"
check "... and says the output was truncated" grep -q "output truncated" "$T/big.err"
is "$(ctl -j attach "$b" 2>/dev/null | jfield truncated_stdout exec.complete)" true \
    "... the truncated flag in -j"
is "$(ctl -j exec -d "$s" -- true | jfield exec_id exec.start | grep -c "^$s\.")" 1 \
    "-j: the exec id is in the exec.start event"

# An attached (not detached) exec still ends with its client.
"$SANDBOXCTL" -s "$SOCK" exec "$s" -- sleep 1000 & c=$!
wait_for 5 sh -c "$SANDBOXCTL -s $SOCK ps $s | grep -q 'running .*sleep 1000\$'"
n=$(ctl ps "$s" | awk '/sleep 1000$/ { print $1 }')
kill -9 "$c"; wait "$c" 2>/dev/null
check "an attached exec still ends when its client goes away" \
    wait_for 5 sh -c "$SANDBOXCTL -s $SOCK ps $s | grep -q '^$n  *killed'"

# Retention: 3 s here; then the exec is forgotten.
sleep 3.5
out=$(ctl wait "$x" 2>&1); rc=$?
check "past exec retention a finished exec is forgotten ($out)" contains "$out" "no such exec: $x"
is "$rc" 125 "... exit 125"
check "... and ps ID no longer lists it" sh -c "! $SANDBOXCTL -s $SOCK ps $s | grep -q '^$x '"

# History: at most 4 finished execs kept per sandbox.
h=$(sbx_create tight)
for i in 1 2 3 4 5 6; do ctl exec "$h" -- true; done
is "$(ctl ps "$h" | grep -c ' exited ')" 4 "exec history 4: the 4 most recent finished execs are kept"
check "... the oldest went first" sh -c "! $SANDBOXCTL -s $SOCK ps $h | grep -q '^$h\.1 '"

# Destroying the sandbox forgets its execs.
d=$(ctl exec -d "$h" -- sleep 1000)
ctl destroy "$h" >/dev/null
out=$(ctl wait "$d" 2>&1); rc=$?
check "destroy forgets the sandbox's execs ($out)" contains "$out" "no such sandbox"
is "$rc" 125 "... exit 125"

# At most 16 clients attached to or waiting for one exec.
l=$(ctl exec -d "$s" -- sleep 1000)
pids=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	"$SANDBOXCTL" -s "$SOCK" wait "$l" & pids="$pids $!"
done
check "16 clients wait for one exec" wait_for 5 sh -c "$SANDBOXCTL -s $SOCK -j ps $s | grep -q '\"attached\": *16'"
out=$(ctl attach "$l" 2>&1); rc=$?
check "a 17th is refused, saying why ($out)" contains "$out" "16 clients attached or waiting already"
ctl kill -s KILL "$l"
n=0
for p in $pids; do wait "$p"; [ $? = 137 ] && n=$((n + 1)); done
is "$n:$rc" "16:125" "... with 125; the 16 hear the exec's end, SIGKILL (137)"

# A member of the control group may list sandboxes, not an exec's command.
member "$SANDBOXCTL" -s "$SOCK" ps >/dev/null 2>&1; rc=$?
is "$rc" 0 "a control group member may run ps"
out=$(member "$SANDBOXCTL" -s "$SOCK" ps "$s" 2>&1); rc=$?
check "... but not ps ID, which shows command lines ($out)" contains "$out" "permission denied"
is "$rc" 125 "... exit 125"
out=$(member "$SANDBOXCTL" -s "$SOCK" wait "$s.1" 2>&1)
check "... nor wait, attach or kill an exec ($out)" contains "$out" "permission denied"

# Bad exec ids: a clear error and exit 125.
badid() {	# description pattern command...
	_d=$1; _p=$2; shift 2
	out=$("$@" 2>&1); rc=$?
	check "$_d: a clear error ($out)" contains "$out" "$_p"
	is "$rc" 125 "... exit 125"
}
badid "attach of a malformed exec id" "not an exec id" ctl attach nothex.1
badid "exec number 0" "not an exec id" ctl wait "$s.0"
badid "an exec that never was" "no such exec" ctl wait "$s.999"
badid "a bad signal name" "bad signal" ctl kill -s BOGUS "$s.1"

suite_stop
done_testing
