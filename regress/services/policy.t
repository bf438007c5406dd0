#!/bin/sh
# A service keeps its policy across restarts, no more and no less: the
# same egress verdicts (an allowed server reachable, a denied one not)
# and the same secrets (a permitted one granted, another denied) before
# a crash, after the restart it brings, and after service restart; and
# the same network identity, as its sandboxes share the id its name
# gives.  The whole suite runs in the netd tests' topology.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
need_root
plan 20
setup_users
S=$ROOT/regress/services
printf 'OK_TOKEN=ok-%s\nNO_TOKEN=no-%s\n' "$$" "$$" >"$T/secrets"
chmod 0600 "$T/secrets"
write_conf "
secrets \"$T/secrets\"
policy \"svc\" {
	network { allow $PUB1 port 80 }
	secrets { permit \"OK_TOKEN\" }
	filesystem { read \"$S\" }
}"
dtopo_up || { echo "Bail out! the suite did not start"; exit 1; }
. "$S/svc.sh"

CALLS="[[\"connect\",{\"host\":\"$PUB1\",\"port\":80}],
[\"connect\",{\"host\":\"$PUB2\",\"port\":80}],
[\"secret\",{\"name\":\"OK_TOKEN\"}],[\"secret\",{\"name\":\"NO_TOKEN\"}],
[\"whoami\",{}]]"

guest() {
	ctl -j show "$1" | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("event") == "sandbox" and "network" in r:
        print(r["network"]["guest"], r["network"]["interface"])'
}

# verdicts WHEN: the four calls' answers, each its own TAP line.
verdicts() {
	out=$(talk p "$CALLS")
	diag "$out"
	is "$(printf '%s\n' "$out" | sed -n 1p)" '"ok"' \
	    "$1: the allowed server ($PUB1 port 80) is reachable"
	check "$1: a denied one ($PUB2 port 80) is not" \
	    contains "$(printf '%s\n' "$out" | sed -n 2p)" '^"failed: '
	is "$(printf '%s\n' "$out" | sed -n 3p)" '"granted"' \
	    "$1: the permitted secret is granted"
	is "$(printf '%s\n' "$out" | sed -n 4p)" \
	    '"denied: not permitted by the sandbox'"'"'s policy"' \
	    "$1: another secret is denied"
	who=$(printf '%s\n' "$out" | sed -n 5p)
}

ctl service start p -p svc -- python3 $S/svc_plugin.py >/dev/null
check "the service runs" svc_wait 10 p state=running
id=$(svc_field p sandbox)
net1=$(guest "$id")
diag "sandbox $id, network $net1"
verdicts "first instance"
who1=$who

talk p '[["exit",{"code":9}]]' >/dev/null
check "it crashes and is restarted" svc_wait 10 p state=running starts=2
verdicts "after the crash"
check "... by a new instance" test "$who" != "$who1"
is "$(svc_field p sandbox)" "$id" "... in a sandbox with the same id"
is "$(guest "$id")" "$net1" "... and the same network identity"

out=$(ctl service restart p)
check "service restart waits for the stop" contains "$out" '^stopped$'
check "... and starts it again" svc_wait 10 p state=running starts=3 restarts=0
verdicts "after service restart"
is "$(guest "$id")" "$net1" "still the same network identity"

done_testing
