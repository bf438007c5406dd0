#!/bin/sh
# A service's DNS pins carry across its restarts.  A service resolves an
# allowed name (the stub upstream answers with TTL 1, so the pin lives
# for the pin-floor, 30s: a restart and the checks after it must fit in
# it, and they took up to 20s on a loaded 2-core machine) and connects;
# it crashes, and the new instance
# connects to the pinned address without asking the resolver again
# while an address never answered stays dropped; sandboxctl show lists
# the carried pin, and once its time is up it is gone like any pin.
# service restart carries them too; service stop then start does not,
# nor does a reload that gives the service another policy; a reload
# that changes its policy restarts it, carrying only the pins of ports
# the policy still names by name.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
. "$ROOT/regress/dnspind/stub.sh"
need_root
plan 30
setup_users
S=$ROOT/regress/services
FLOOR=30
conf() {
	write_conf "
upstream $UP
policy \"two\" {
	network { $2 }
	filesystem { read \"$S\" }
}
pin-floor ${FLOOR}s
policy \"svc\" {
	network { allow name \"svc.test\" port 80 }
	filesystem { read \"$S\" }
}
policy \"svc2\" {
	network { allow name \"svc.test\" port 80 }
	filesystem { read \"$S\" }
}
service \"d\" { policy \"$1\"; command \"python3 $S/svc_plugin.py\" }"
}
conf svc 'allow name "svc.test" port 80; allow name "svc.test" port 81'
topo_up || { echo "Bail out! topology"; exit 1; }
stub_up "svc.test=$PUB1,-,1"
suite_run || { echo "Bail out! the suite did not start"; exit 1; }
. "$S/svc.sh"

# pins ID: the pins show lists, "ADDR PORT" a line; each with no more
# time left than the floor, or "long" after it
pins() {
	ctl -j show "$1" | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("event") == "sandbox.network":
        for p in r["pins"]:
            print(p["address"], p["port"],
                "" if 0 < p["expires_ms"] <= int(sys.argv[1]) * 1000
                else "long")' "$FLOOR" | sed 's/ $//'
}
queries() { grep -c "q svc.test A" "$T/stub.log"; }
# dial NAME ADDR [PORT]: the service's connect to ADDR port PORT (80)
dial() { talk "$1" "[[\"connect\",{\"host\":\"$2\",\"port\":${3:-80}}]]" | sed -n 1p; }
resolve() { talk "$1" '[["resolve",{"name":"svc.test"}]]' | sed -n 1p; }

ctl service start p -p svc -- python3 $S/svc_plugin.py >/dev/null
check "the service runs" svc_wait 10 p state=running
id=$(svc_field p sandbox)
check "an address never answered ($PUB2) is dropped" \
    contains "$(dial p $PUB2)" '^"failed: '
t0=$(date +%s)
is "$(resolve p)" "\"$PUB1\"" "it resolves the allowed name"
is "$(dial p $PUB1)" '"ok"' "... and connects to the answer"
nq=$(queries)

talk p '[["exit",{"code":9}]]' >/dev/null
check "it crashes and is restarted" svc_wait 10 p state=running starts=2
diag "$(( $(date +%s) - t0 ))s since the answer"
is "$(pins "$id")" "$PUB1 80" "show lists the pin carried to the new sandbox"
is "$(dial p $PUB1)" '"ok"' \
    "the new instance connects to the pinned address without resolving"
is "$(queries)" "$nq" "... no query reached the upstream since"
check "... while the address never answered is still dropped" \
    contains "$(dial p $PUB2)" '^"failed: '
diag "$(( $(date +%s) - t0 ))s since the answer"
# The pin's time runs out as it would have in the first sandbox.
while [ $(( $(date +%s) - t0 )) -le $((FLOOR + 1)) ]; do sleep 0.5; done
check "once its time is up the carried pin is gone" \
    contains "$(dial p $PUB1)" '^"failed: '
is "$(pins "$id")" "" "... and show lists no pin"

t1=$(date +%s)
is "$(resolve p)" "\"$PUB1\"" "resolved again"
out=$(ctl service restart p)
check "service restart" svc_wait 10 p state=running starts=3
diag "$(( $(date +%s) - t1 ))s since the answer"
is "$(pins "$id")" "$PUB1 80" "service restart carries the pin too"
is "$(dial p $PUB1)" '"ok"' "... and the new instance connects"

resolve p >/dev/null
ctl service stop p >/dev/null
ctl service start p >/dev/null
check "service stop, then start" svc_wait 10 p state=running starts=4
is "$(pins "$id")" "" "a fresh start has no pins"
check "... and cannot connect without resolving first" \
    contains "$(dial p $PUB1)" '^"failed: '
is "$(resolve p)" "\"$PUB1\"" "... until it resolves"
is "$(dial p $PUB1)" '"ok"' "... then it can"

# A reload that changes the policy restarts the service under it; pins
# of a port the policy no longer names stay behind, the rest carry.
ctl service start q -p two -- python3 $S/svc_plugin.py >/dev/null
check "a service whose policy names ports 80 and 81" svc_wait 10 q state=running
qid=$(svc_field q sandbox)
resolve q >/dev/null
is "$(pins "$qid" | sort | tr '\n' ' ')" "$PUB1 80 $PUB1 81 " "... has a pin for each"
conf svc 'allow name "svc.test" port 81'
ctl reload >/dev/null
check "a reload that names only 81 restarts it" \
    svc_wait 10 q state=running starts=2
is "$(pins "$qid")" "$PUB1 81" "only the pin of port 81 is carried"
is "$(dial q $PUB1 81)" '"ok"' "... the new instance connects to port 81"
check "... not to port 80" contains "$(dial q $PUB1 80)" '^"failed: '

# A reload that gives a declared service another policy restarts it;
# the pins of the old policy stay behind.
check "the declared service runs" svc_wait 10 d state=running
did=$(svc_field d sandbox)
resolve d >/dev/null
is "$(pins "$did")" "$PUB1 80" "the declared service has its pin"
conf svc2 'allow name "svc.test" port 81'
ctl reload >/dev/null
check "a reload with another policy restarts it" \
    svc_wait 10 d state=running policy=svc2
is "$(pins "$did")" "" "... without the pins of the old policy"

done_testing
