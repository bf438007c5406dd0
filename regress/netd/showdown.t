#!/bin/sh
# sandboxctl show while netd is down (killed, waiting for its restart):
# the sandbox keeps its network but nobody can read it back, and show
# says so, on a line of its own and with -j as "available": false, and
# exits 125; a sandbox without a network shows as before, exit 0.
# Once netd is back, show has the network again.  A show netd received
# but never answered, having died, ends the same way.
. "$(dirname "$0")/../lib/common.sh"
need_root

write_conf "
policy \"open\" {
	network { egress allow }
}"
suite_start || { echo "Bail out! the suite did not start"; exit 1; }

A=$(sbx_create open)
N=$(sbx_create)
check "a sandbox with a network and one without" test -n "$A" -a -n "$N"
out=$(ctl show "$A")
check "netd up: show has the network" contains "$out" '^network: *veth '

# netd killed twice within the minute: the second restart waits 250 to
# 500 ms, in which runnerd has no channel to netd.
kill_netd() {
	_old=$(child_field netd pid)
	_seen=$(grep -c 'runnerd\[.*peerch_close: the channel to netd' "$LOG")
	kill -KILL "$_old"
	wait_for 5 sh -c "[ \$(grep -c 'runnerd\[.*peerch_close: the channel \
to netd' '$LOG') -gt $_seen ]"
}
kill_netd
check "netd is restarted" wait_for 15 restarted netd "$_old"
shows_net() { ctl show "$A" 2>/dev/null | grep -q '^network: *veth '; }
wait_for 5 shows_net
kill_netd || notok "runnerd saw its channel to netd go"
# The three shows at once, well inside the window even under load.
# sctl TAG ARGS...: output in $T/TAG, exit status in $T/TAG.rc.
sctl() {
	_tag=$1; shift
	timeout 5 "$SANDBOXCTL" -s "$SOCK" "$@" >"$T/$_tag" 2>"$T/$_tag.err"
	echo $? >"$T/$_tag.rc"
}
sctl a show "$A" & p1=$!
sctl j -j show "$A" & p2=$!
sctl n show "$N" & p3=$!
wait $p1 $p2 $p3
out=$(cat "$T/a"); rc=$(cat "$T/a.rc")
jout=$(cat "$T/j" "$T/j.err"); jrc=$(cat "$T/j.rc")
nout=$(cat "$T/n" "$T/n.err"); nrc=$(cat "$T/n.rc")
check "netd down: show says the network is unavailable" \
    contains "$out" '^network: *unavailable: .*netd is not running'
check "and still shows the sandbox" contains "$out" "^id: *$A"
is "$rc" 125 "show exits 125: its answer is not whole"
check "the reason on standard error" grep -q 'netd is not running' "$T/a.err"
net=$(printf '%s\n' "$jout" | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("event") == "sandbox.network":
        print(r["available"], "net_error" in r and "netd" in r["net_error"])
    if r.get("event") == "error":
        print(r.get("code"))')
is "$net" "False True
network_unavailable" \
    "-j: sandbox.network with available false and net_error, then the error"
is "$jrc" 125 "-j show exits 125 too"
check "a sandbox without a network shows as before" \
    sh -c "[ $nrc = 0 ] && ! printf '%s\n' '$nout' | grep -q '^network:'"

check "netd is restarted again" wait_for 15 restarted netd "$_old"
check "netd back: show has the network again" wait_for 5 shows_net
out=$(ctl -j show "$A" | grep sandbox.network)
check "and -j has it whole, available" \
    sh -c 'printf "%s\n" "$1" | grep "\"rules\"" | grep -q "\"available\": *true"' \
    _ "$out"
ctl show "$A" >/dev/null
is "$?" 0 "and exits 0"

# netd dies owing a show: stopped, it has the request unread when it is
# killed.  runnerd ends the reply in its place: the client is told, not
# left waiting for ever.
old=$(child_field netd pid)
kill -STOP "$old"
timeout 10 "$SANDBOXCTL" -s "$SOCK" show "$A" >"$T/owed" 2>&1 &
spid=$!
sleep 0.5
kill -KILL "$old"
wait $spid; rc=$?
is "$rc" 125 "a show netd owed when it died ends, exit 125 (124: it hung)"
check "saying netd went away before it answered" \
    grep -q '^network: *unavailable: .*netd went away before it answered' \
    "$T/owed"
check "netd is restarted a third time" wait_for 15 restarted netd "$old"
check "and show has the network again" wait_for 5 shows_net

plan $tap_n
