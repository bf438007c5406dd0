#!/bin/sh
# dnspind's pins go to netd on a channel of their own, a socketpair the
# master makes and gives both, made again when either restarts.  netd
# killed mid-traffic: no answer waits for it (those whose acks died
# with it fail at once, SERVFAIL, not after the 2s pin wait), and once
# it is back pins work again; the same after dnspind is killed.  Then
# each child in turn, netd, envd, runnerd and dnspind, is killed: its
# restart makes new channels to each of its peers (lib/peerch.c) and
# they resync, so that a networked run with -e whose names are pinned
# works after each.  Last, a bad message on runnerd's channel from
# dnspind: the channel is dropped and made again after 100 ms, nobody
# restarted; a second one soon after: made again after 200 ms.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
. "$ROOT/regress/dnspind/stub.sh"
. "$ROOT/regress/dnspind/dial.sh"
need_root

write_conf "
upstream $UP
policy \"many\" {
	network { allow name \"*.many.test\" port 80 }
}"
topo_up || { echo "Bail out! topology"; exit 1; }
stub_many
stub_up
suite_run || { echo "Bail out! the suite did not start"; exit 1; }

# A new name every 10ms for SECONDS, each timed: "answered N servfail
# M lost L slowest MS".
QLIB=$(cat "$ROOT/regress/dnspind/qlib.py")
LOOPPY="$QLIB"'
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(3)
n = fail = lost = 0
slow = 0.0
k = int(sys.argv[2])
end = time.monotonic() + float(sys.argv[1])
print("start", flush=True)
while time.monotonic() < end:
    k += 1
    t = time.monotonic()
    s.sendto(query("n%d.many.test" % k, k), RESOLVER)
    try:
        while True:
            r = s.recv(512)
            if struct.unpack(">H", r[:2])[0] == k & 0xffff:
                break
        slow = max(slow, time.monotonic() - t)
        if r[3] & 15 == 2:
            fail += 1
        else:
            n += 1
    except socket.timeout:
        lost += 1
    time.sleep(0.01)
print("answered %d servfail %d lost %d slowest %d" % (n, fail, lost,
    slow * 1000))
'
out=$(ctl run -p many -- python3 -c "$DIALPY" 1 20 2>&1)
is "$out" "connected 20 failed 0" "20 names resolved and dialled: pinned"

# netd killed while a sandbox asks for a new name every 10ms.
old=$(child_field netd pid)
ctl run -p many -- python3 -c "$LOOPPY" 4 1000 > "$T/loop.out" 2>&1 &
lpid=$!
wait_for 10 grep -q start "$T/loop.out"
sleep 1
kill -KILL "$old"
wait $lpid
diag "netd killed: $(tail -n 1 "$T/loop.out")"
check "netd is restarted" wait_for 15 restarted netd "$old"
check "no query was lost, and none waited a second (the pin wait is 2s)" \
    awk '$1 == "answered" && $6 == 0 && $8 < 1000 { f = 1 }
    END { exit !f }' "$T/loop.out"
check "answers were pinned before and after the kill" \
    awk '$1 == "answered" && $2 > 100 { f = 1 } END { exit !f }' \
    "$T/loop.out"
# "closed by netd", or "closed" after a reset: netd died with requests
# unread.
check "dnspind saw the channel go" \
    grep -q 'netdch_close: the channel to netd: closed' "$LOG"
out=$(ctl run -p many -- python3 -c "$DIALPY" 2000 20 2>&1)
is "$out" "connected 20 failed 0" \
    "after netd's restart, on the new channel: 20 more pinned and dialled"

# dnspind killed: the new one gets a channel of its own.
old=$(child_field dnspind pid)
kill -KILL "$old"
check "dnspind is restarted" wait_for 15 restarted dnspind "$old"
check "netd saw its old channel go" \
    wait_for 5 grep -q 'dnsch_close: the channel to dnspind: closed' "$LOG"
out=$(ctl run -p many -- python3 -c "$DIALPY" 3000 20 2>&1)
is "$out" "connected 20 failed 0" \
    "after dnspind's restart: 20 more pinned and dialled"

# A run that needs every channel: its -e (runnerd-envd), its network
# (runnerd-netd), its names answered (runnerd-dnspind: whose queries)
# and pinned (dnspind-netd).  "FIRST TAG".
ENVPY='import os; print(os.environ.get("RESYNC"))'
full_run() {
	ctl run -p many -e "RESYNC=$2" -- python3 -c "$ENVPY
$DIALPY" "$1" 5 2>&1
}
k=4000
for p in netd envd runnerd dnspind; do
	old=$(child_field $p pid)
	kill -KILL "$old"
	check "$p is restarted" wait_for 15 restarted $p "$old"
	out=$(full_run $k "after-$p")
	is "$out" "after-$p
connected 5 failed 0" \
	    "after $p's restart: its -e, network and 5 pinned names work"
	k=$((k + 100))
done
# At start, after each of netd's two restarts and after runnerd's.
check "runnerd synced netd on each new channel between them" \
    [ "$(grep -c 'netd is up: told it of' "$LOG")" -ge 4 ]
check "no channel was dropped for a bad message" \
    sh -c "! grep -q 'peerch_drop' '$LOG'"

# A bad message on a direct channel: a copy of dnspind's end of its
# channel to runnerd writes runnerd an imsg of a type that channel never
# carries (badimsg.py).  runnerd drops the channel; the master
# restarts neither (it cannot tell which end lies) and makes the pair a
# new one, on which they resync.
rpid=$(child_field runnerd pid)
dpid=$(child_field dnspind pid)
# inject: the bad message; $delay is the ms from the master's word that
# runnerd dropped its channel to runnerd's new one (logdelay.py).
inject() {
	ip netns exec "$NS" python3 "$ROOT/regress/dnspind/logdelay.py" \
	    "$LOG" 'dropped its channel to dnspind for a bad message' \
	    "runnerd\[$rpid\]: peerch_open: a channel to dnspind" 10 \
	    > "$T/delay" &
	_lpid=$!
	wait_for 5 grep -q following "$T/delay"
	out=$(ip netns exec "$NS" python3 "$ROOT/regress/dnspind/badimsg.py" \
	    "$dpid" "$rpid" 2>&1)
	wait $_lpid
	delay=$(tail -n 1 "$T/delay")
}
inject
is "$out" "written" "a bad message written on dnspind's channel to runnerd"
check "runnerd dropped the channel" \
    wait_for 5 grep -q 'peerch_drop.*dnspind' "$LOG"
check "the master makes the pair a new channel, restarting neither" \
    grep -q 'dropped its channel to dnspind for a bad message (1 in a minute): a new one in 100 ms' \
    "$LOG"
check "runnerd got a new channel to dnspind, $delay ms later" \
    [ "$delay" != timeout ]
is "$(child_field runnerd pid) $(child_field dnspind pid)" "$rpid $dpid" \
    "runnerd and dnspind were not restarted on the other's word"
out=$(full_run 5000 after-drop)
is "$out" "after-drop
connected 5 failed 0" \
    "on the new channel: -e, network and 5 pinned names work"

# A second bad message within the minute: the new channel waits twice
# as long (100 ms doubled per drop of the pair, up to 10 s), and still
# nobody is restarted.
inject
is "$out" "written" "a second bad message, $delay ms to the new channel"
check "the master counts the pair's second drop and doubles the wait" \
    grep -q 'dropped its channel to dnspind for a bad message (2 in a minute): a new one in 200 ms' \
    "$LOG"
check "the second new channel came no sooner than 200 ms after the drop" \
    test "$delay" -ge 195 2>/dev/null
is "$(child_field runnerd pid) $(child_field dnspind pid)" "$rpid $dpid" \
    "runnerd and dnspind kept their pids across both drops"
out=$(full_run 6000 after-drop2)
is "$out" "after-drop2
connected 5 failed 0" \
    "on the third channel: -e, network and 5 pinned names work"

plan $tap_n
