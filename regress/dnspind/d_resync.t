#!/bin/sh
# dnspind resyncs with runnerd on every new channel between them:
# runnerd announces each live sandbox with a network, then DNS_SYNC_END,
# and dnspind forgets every sandbox it was not told of again.  Killed,
# runnerd takes its sandboxes with it: the new one announces none of
# them, and dnspind drops them (their addresses, cache and queries): a
# query from a dead sandbox's address is refused, where it was taken
# for that sandbox's (SERVFAIL once netd refused its pin).  A
# channel made again for a bad message, runnerd alive: its live sandbox
# is kept and goes on resolving.
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

forgot() { grep -q "dnspind\[.*sandbox $1: not announced again by runnerd: forgotten" "$LOG"; }

guest() { ctl -j show "$1" | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("event") == "sandbox.network":
        print(r["guest"])'; }
A=$(sbx_create many); B=$(sbx_create many)
GA=$(guest "$A")
out=$(ctl exec "$A" -- python3 -c "$DIALPY" 1 3 2>&1)
is "$out" "connected 3 failed 0" "A resolves and dials its names"

old=$(child_field runnerd pid)
kill -KILL "$old"
check "runnerd is restarted" wait_for 15 restarted runnerd "$old"
check "dnspind forgot A, which the new runnerd does not have" \
    wait_for 5 forgot "$A"
check "and B" forgot "$B"
check "the resync's count: none of the old ones kept" \
    grep -q 'sandboxes_resync_end: runnerd announced 0 sandboxes; [2-9][0-9]* forgotten' \
    "$LOG"

# A's address on the suite's loopback: a query from it is nobody's now
# (REFUSED, 5); before the resync dnspind took it for A's and answered.
ip -n "$NS" addr add "$GA/32" dev lo
out=$(ip netns exec "$NS" python3 "$ROOT/regress/dnspind/query.py" \
    n50.many.test "$GA" 2>&1)
is "$out" "rcode 5 answers 0" "a query from A's old address $GA is refused"
ip -n "$NS" addr del "$GA/32" dev lo

C=$(sbx_create many)
out=$(ctl exec "$C" -- python3 -c "$DIALPY" 100 3 2>&1)
is "$out" "connected 3 failed 0" "a sandbox made after: its names resolve"

# The channel made again, runnerd alive: C is announced again, kept.
rpid=$(child_field runnerd pid)
dpid=$(child_field dnspind pid)
n=$(grep -c 'sandboxes_resync_end' "$LOG")
out=$(ip netns exec "$NS" python3 "$ROOT/regress/dnspind/badimsg.py" \
    "$dpid" "$rpid" 2>&1)
is "$out" "written" "a bad message on dnspind's channel to runnerd"
check "dnspind resynced on the new channel" wait_for 5 sh -c \
    "[ \$(grep -c 'sandboxes_resync_end' '$LOG') -gt $n ]"
check "it kept C, still announced" \
    grep -q 'sandboxes_resync_end: runnerd announced 1 sandboxes; 0 forgotten' \
    "$LOG"
check "C was not forgotten" sh -c "! grep -q 'sandbox $C: not announced' '$LOG'"
out=$(ctl exec "$C" -- python3 -c "$DIALPY" 200 3 2>&1)
is "$out" "connected 3 failed 0" "C's names resolve on the new channel"

plan $tap_n
