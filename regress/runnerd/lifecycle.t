#!/bin/sh
# A sandbox's lifecycle: ttl and idle expiry (audited with the reason),
# labels and ps --label, pause and resume with the cgroup freezer.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 68

setup_users
write_sandbox_conf "uid-range $((600000 + ($$ % 500) * 1000)) 1000
policy \"short\" {
	limits { timeout 5s max 10s; ttl 2s }
}"
check "suite starts" suite_start

# sget ID EXPR: a Python expression on sandboxctl -j show's sandbox
# object s, e.g. 's["ttl"]["left"]'.
sget() {
	ctl -j show "$1" | python3 -c '
import json, sys
for l in sys.stdin:
    s = json.loads(l)
    if s.get("event") == "sandbox":
        v = eval(sys.argv[1])
        print(str(v).lower() if isinstance(v, bool) else v)
        break' "$2"
}
listed() { ctl ps | tail -n +2 | grep -q "^$1 "; }
gone() { ! listed "$1"; }
audited() {	# id reason
	grep '"audit":"sandbox.expire"' "$LOG" | grep "\"sandbox\":\"$1\"" |
	    grep -q "\"reason\":\"$2\""
}

# fsub A B: A - B, in seconds with a fraction.
fsub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'; }
fge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

# --- ttl: --ttl on create, and a policy's default -----------------------
t0=$(date +%s.%N)
a=$(ctl create --ttl 2s --label kind=ttl)
b=$(ctl create -p short)
is "$(sget "$a" 's["ttl"]["limit"]')" 2 "create --ttl 2s: show says a 2s ttl"
is "$(sget "$b" 's["ttl"]["limit"]')" 2 "a policy's ttl is a created sandbox's default"
n=$(ctl create)
is "$(sget "$n" 's["ttl"]')" None "without either, no ttl"
check "the ttl sandbox is destroyed when it expires" wait_for 10 gone "$a"
t1=$(date +%s.%N)
check "and so is the policy default's" wait_for 5 gone "$b"
check "not before its 2s ($(fsub "$t1" "$t0")s)" fge "$(fsub "$t1" "$t0")" 2
check "the automatic destroy is an audit event with reason ttl" \
    wait_for 2 audited "$a" ttl
check "one for the policy default's too" wait_for 2 audited "$b" ttl
check "with the sandbox's labels" sh -c \
    "grep '\"sandbox\":\"$a\"' '$LOG' | grep -q '\"labels\":{\"kind\":\"ttl\"}'"
check "a sandbox without ttl is still there" listed "$n"

# --- idle: not while an exec runs; after it -----------------------------
i=$(ctl create --idle 3s)
ctl exec "$i" -- sleep 4 >/dev/null 2>&1 &
epid=$!
sleep 3.6
check "idle does not fire while an exec runs (3.6s of 3s)" listed "$i"
is "$(sget "$i" 's["idle"]["left"]')" None "show: the idle clock is not counting"
wait "$epid"
is "$?" 0 "the exec ends normally"
check "idle is still there just after its exec" listed "$i"
check "idle destroys it 3s after its last exec" wait_for 8 gone "$i"
check "audited with reason idle" wait_for 2 audited "$i" idle

# --- labels ---------------------------------------------------------------
l1=$(ctl create --label team=ml --label env=ci)
l2=$(ctl create --label team=web)
out=$(ctl ps --label team=ml | tail -n +2)
check "ps --label team=ml lists the ml sandbox" contains "$out" "^$l1 "
check "and not the web one" sh -c "! printf '%s' '$out' | grep -q '$l2'"
is "$(ctl ps --label team | tail -n +2 | wc -l)" 2 "ps --label KEY: every sandbox with the key"
is "$(ctl ps --label team=ml --label env=ci | tail -n +2 | wc -l)" 1 "several filters all must match"
is "$(ctl ps --label env=cd | tail -n +2 | wc -l)" 0 "a value that no sandbox has lists none"
is "$(ctl -j ps --label team=web | python3 -c '
import json, sys
print([json.loads(l)["labels"] for l in sys.stdin if "\"sandbox\"" in l])')" \
    "[{'team': 'web'}]" "ps -j: labels as an object"
check "show lists the labels" contains "$(ctl show "$l1")" "labels: *team=ml,env=ci"
out=$(ctl create --label 'bad key=1' 2>&1)
is "$?" 125 "a label key with a space is refused (125)"
check "with a message that says what a key may hold" contains "$out" "letters, digits"
out=$(ctl create --label team=a --label team=b 2>&1)
is "$?" 125 "a key given twice is refused"
set -- $(seq 1 17 | sed 's/.*/--label k&=v/')
out=$(ctl create "$@" 2>&1)
is "$?" 125 "a 17th label is refused"
check "saying the bound" contains "$out" "at most 16"
out=$(ctl create --label "k=$(head -c 256 /dev/zero | tr '\0' v)" 2>&1)
is "$?" 125 "a value of 256 bytes is refused"
out=$(ctl create --ttl 1.5s 2>&1)
is "$?" 125 "a ttl that is not whole seconds is refused"
ctl destroy "$l1" >/dev/null; ctl destroy "$l2" >/dev/null

# --- pause and resume ----------------------------------------------------
# q's idle clock stands still while it is paused, through all of p's.
q=$(ctl create --idle 4s)
ctl pause "$q" >/dev/null
qidle=$(sget "$q" 's["idle"]["left"]')
p=$(ctl create -p tight --ttl 60s)
uid=$(sget "$p" 's["uid"]')
ws="/proc/$(child_field runnerd pid)/root$(sget "$p" 's["workspace_path"]')"
fz=$(ls -d /sys/fs/cgroup/freezer/*/"$p" /sys/fs/cgroup/*/"$p" \
    /sys/fs/cgroup/"$p" 2>/dev/null | head -n 1)
count() { cat "$ws/c" 2>/dev/null || echo 0; }
# CPU time of every process of the sandbox, in clock ticks.
ticks() {
	for pid in $(pgrep -u "$uid"); do
		awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null
	done | awk '{ s += $1 } END { print s + 0 }'
}
t0=$(date +%s.%N)
ctl exec -t 3 "$p" -- sh -c '(while :; do :; done) & i=0; while :; do i=$((i + 1)); echo $i > c.new; mv c.new c; done' \
    >/dev/null 2>&1 &
epid=$!
advancing() { c0=$(count); sleep 0.2; [ "$(count)" -gt "$c0" ]; }
check "a counter loop runs in the sandbox" wait_for 3 advancing
sleep 0.5
out=$(ctl pause "$p")
is "$?" 0 "sandboxctl pause"
tp=$(date +%s.%N)
is "$(sget "$p" 's["state"]')" paused "show -j: state paused"
check "ps: STATE paused" contains "$(ctl ps | grep "^$p ")" " paused "
ttl0=$(sget "$p" 's["ttl"]["left"]')
c0=$(count); k0=$(ticks)
sleep 2.5
c1=$(count); k1=$(ticks)
is "$c1" "$c0" "paused, the counter does not advance ($c0)"
is "$k1" "$k0" "its processes take no CPU (ticks $k0)"
is "$(sget "$p" 's["ttl"]["left"]')" "$ttl0" "its ttl does not run ($ttl0 s left)"
check "the exec's 3s timeout has not fired (paused past it)" kill -0 "$epid"
out=$(ctl exec "$p" -- true 2>&1)
is "$?" 125 "an exec into a paused sandbox is refused with 125"
check "with a clear message" contains "$out" "is paused: sandboxctl resume"
out=$(ctl kill "$p" 2>&1)
is "$?" 125 "kill of a paused sandbox is refused too"
out=$(ctl kill "$p.1" 2>&1)
is "$?" 125 "and so is a kill of one of its execs ($p.1)"
check "saying it is paused" contains "$out" "is paused"
is "$(ctl pause "$p")" paused "pause again: still paused, no error"
ctl resume "$p" >/dev/null
is "$?" 0 "sandboxctl resume"
tr=$(date +%s.%N)
check "resumed, the counter advances again" wait_for 3 advancing
check "and its processes take CPU again" [ "$(ticks)" -gt "$k1" ]
wait "$epid"
rc=$?
t1=$(date +%s.%N)
is "$rc" 124 "the exec's timeout fires after the resume"
# Of its 3s, it had 3 - (tp - t0) left at the pause: all of it after.
left=$(fsub 3 "$(fsub "$tp" "$t0")")
check "the time paused did not count: ${left}s were left at the pause, $(fsub "$t1" "$tr")s passed after the resume" \
    fge "$(fsub "$t1" "$tr")" "$(fsub "$left" 0.2)"
is "$(sget "$p" 's["state"]')" running "show -j: state running"
check "the ttl runs again" [ "$(sget "$p" 's["ttl"]["left"]')" -le "$ttl0" ]

check "a paused sandbox outlives its idle limit (4s)" listed "$q"
is "$(sget "$q" 's["idle"]["left"]')" "$qidle" "its idle clock did not run (${qidle}s left)"
ctl resume "$q" >/dev/null
check "resumed, the rest of its idle limit runs out" wait_for 8 gone "$q"

# A service's sandbox stays its supervisor's to stop: never paused.
ctl service start lc -- sleep 1000 >/dev/null
svc_sbx() { ctl -j service status lc | jfield sandbox service; }
svc_up() { [ -n "$(svc_sbx)" ] && listed "$(svc_sbx)"; }
check "a service runs" wait_for 20 svc_up
out=$(ctl pause "$(svc_sbx)" 2>&1)
is "$?" 125 "a service's sandbox is not paused"
check "saying why" contains "$out" "a service's sandbox is not paused"
diag "$out"
ctl service stop lc >/dev/null

# --- destroy of a paused sandbox ------------------------------------------
ctl exec "$p" -- sh -c 'sleep 1000 & while :; do :; done' >/dev/null 2>&1 &
epid=$!
busy() { [ "$(sget "$p" 's["procs"]')" -ge 2 ]; }
wait_for 5 busy
ctl pause "$p" >/dev/null
check "the busy sandbox is paused" [ "$(sget "$p" 's["state"]')" = paused ]
t0=$(date +%s.%N)
ctl destroy "$p" >/dev/null
is "$?" 0 "destroy of a paused sandbox"
t1=$(date +%s.%N)
check "returns at once ($(fsub "$t1" "$t0")s)" fge 1.5 "$(fsub "$t1" "$t0")"
wait "$epid"
is "$?" 137 "its exec ends killed (128+9)"
none() { [ "$(pgrep -u "$uid" | wc -l)" = 0 ]; }
check "no process of it is left, frozen or not" wait_for 5 none
nocg() { [ -z "$fz" ] || [ ! -d "$fz" ]; }
check "its cgroup is gone ($fz)" wait_for 5 nocg
check "and sandboxd serves on" contains "$(in_sbx "$n" 'echo alive')" alive
ctl destroy "$n" >/dev/null
# Every move of p's life went through runnerd's one state machine
# (cmd/runnerd/state.c), which logs each at debug: this path, in order.
moves() {
	sed -n "s/.*sandbox $p: state \([a-z-]*\) -> \([a-z-]*\).*/\1>\2/p" \
	    "$LOG" | tr '\n' ' '
}
path="live>freezing freezing>paused paused>live live>freezing freezing>paused paused>dying dying>"
gone_moves() { moves | grep -q "[a-z-]*>gone $"; }
wait_for 5 gone_moves
check "the state machine logged its life: $(moves)" \
    contains "$(moves)" "$path"
check "and it ended gone" gone_moves
check "no move was refused" sh -c "! grep -q 'is not a move of its lifecycle' '$LOG'"
done_testing
