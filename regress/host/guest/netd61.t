#!/bin/sh
# In the guest (regress/host/vm-run), on Debian 12's own kernel 6.1:
# networked sandboxes under the systemd unit.  netd must come up and
# stay up (before the DESTROY fallback it crash-looped there, EINVAL),
# an allowed peer is reachable while a denied one is blocked, a
# destroyed sandbox leaves nothing in table inet sandboxd, and netd
# killed with -9 is restarted by the master, reconciles and keeps every
# sandbox's policy.  Peers live in a network namespace made here: the
# guest has no network of its own.
cd "${SBX_SRC:-.}" || exit 1
D=regress/netd
PUB1=203.0.113.10	# the allowed peer
PUB2=203.0.113.11	# the denied one
PEER=sbxpeer$$
CONF=/etc/sandboxd.conf

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else notok "$d"; fi; }
is() { if [ "$1" = "$2" ]; then ok "$3"; else notok "$3";
	echo "# got '$1', want '$2'"; fi; }
diag() { printf '%s\n' "$*" | sed 's/^/# /'; }
wait_for() {
	_t=$(($1 * 10)); shift
	while [ $_t -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1; _t=$((_t - 1))
	done
	return 1
}

cleanup() {
	[ -f "$CONF.netd61" ] && mv "$CONF.netd61" "$CONF" &&
	    systemctl restart sandboxd
	ip netns pids $PEER 2>/dev/null | xargs -r kill -KILL
	ip netns del $PEER 2>/dev/null
	ip link del hp$$ 2>/dev/null
}
trap cleanup EXIT

# netd's pid from the master's status, and all four children running.
child_pid() {
	sandboxctl -j status 2>/dev/null | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("event") == "proc.status" and r.get("name") == sys.argv[1] \
        and r.get("state") == "running":
        print(r["pid"])' "$1"
}
all_running() {
	sandboxctl -j status 2>/dev/null | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
sys.exit(sum(1 for r in rows if r.get("event") == "proc.status" and
    r.get("name") != "sandboxd" and r.get("state") == "running") != 4)'
}
netd_back() {
	p=$(child_pid netd)
	[ -n "$netd1" ] && [ -n "$p" ] && [ "$p" != "$netd1" ]
}

echo "# kernel $(uname -r)"
sandboxd -nv -f "$CONF" 2>&1 >/dev/null | sed 's/^/# /'
case $(uname -r) in
6.[012].*|[2-5].*) old=1 ;;
*) old=0 ;;
esac
destroy=$(sandboxd -nv -f "$CONF" 2>&1 >/dev/null |
    awk '$1 == "nft-destroy" { print $2 }')
if [ $old = 1 ]; then
	is "$destroy" no "sandboxd -nv: kernel $(uname -r) has no NFT_MSG_DESTROY"
else
	is "$destroy" yes "sandboxd -nv: kernel $(uname -r) has NFT_MSG_DESTROY"
fi

# The peer: two addresses with servers on 80 and 81, routed both ways.
. "${SBX_SRC:-.}/regress/host/guest/peer.sh"
peer_up $PEER hp$$ $PUB1 $PUB2
(ip netns exec $PEER python3 $D/servers.py 80 81 >/tmp/netd61.srv 2>&1 &)
check "peer servers up" wait_for 10 grep -q ready /tmp/netd61.srv

cp "$CONF" "$CONF.netd61"
cat >"$CONF" <<EOF
policy "default" {
	limits { timeout 60s }
}
policy "port" {
	network { allow $PUB1 port 80 }
}
EOF
since=$(date '+%Y-%m-%d %H:%M:%S')
systemctl restart sandboxd
check "sandboxd restarted on the test config" wait_for 60 all_running
netd1=$(child_pid netd)
check "netd is running (pid $netd1)" test -n "$netd1"

PROBE_PY=$(cat $D/probe.py)
probe() { sandboxctl "$@" -- python3 -c "$PROBE_PY" -t 2 \
    "tcp $PUB1 80" "tcp $PUB1 81" "tcp $PUB2 80"; }
res() { printf '%s\n' "$1" | awk -v s="$2" 'index($0, s " ") == 1 {
    print substr($0, length(s) + 2) }'; }
expect3() {	# OUTPUT WHAT
	is "$(res "$1" "tcp $PUB1 80")" ok "$2: the allowed peer connects"
	is "$(res "$1" "tcp $PUB1 81")" timeout "$2: its other port is blocked"
	is "$(res "$1" "tcp $PUB2 80")" timeout "$2: the denied peer is blocked"
}

out=$(probe run -p port)
expect3 "$out" "sandboxctl run"
A=$(sandboxctl create -p port)
check "a sandbox created with a network" test -n "$A"
A_if=$(sandboxctl show "$A" | awk '/^network:/ { print $3 }')
check "it has an interface ($A_if)" test -n "$A_if"
expect3 "$(probe exec "$A")" "sandbox A"

# netd killed: the master restarts it, it reconciles; A keeps its rules.
kill -KILL "$netd1"
check "the master restarted netd" wait_for 30 netd_back
netd2=$(child_pid netd)
check "under a new pid ($netd2)" test -n "$netd2" -a "$netd2" != "$netd1"
check "it is in sync with runnerd again" wait_for 30 sh -c \
    "journalctl -u sandboxd --since '$since' | grep -q 'netd.*in sync with runnerd.*1 live'"
expect3 "$(probe exec "$A")" "A after netd's restart"
B=$(sandboxctl create -p port)
check "a new sandbox after the restart" test -n "$B"
expect3 "$(probe exec "$B")" "sandbox B"

check "A destroyed" sandboxctl destroy "$A"
check "B destroyed" sandboxctl destroy "$B"
check "nothing of A is left in table inet sandboxd" \
    wait_for 10 sh -c "! nft list table inet sandboxd | grep -q '$A_if'"
left=$(nft -a list table inet sandboxd | grep -c '"sbx[0-9a-f]\{8\}"')
is "$left" 0 "no sandbox element is left at all"

log=$(journalctl --no-pager -u sandboxd --since "$since")
starts=$(printf '%s\n' "$log" | grep -c 'netd ready, pid')
# The restart above stopped the old suite cleanly (status 0): not counted.
exits=$(printf '%s\n' "$log" | grep -c -E \
    'child_exited: netd .*(killed by signal|exited with status [1-9])')
is "$exits" 1 "netd died once, by our kill"
is "$starts" 2 "and started twice: no crash loop"
check "no failed table batch in the journal" \
    sh -c "! printf '%s\n' \"\$1\" | grep -E 'dp_init|dp_put_all|Invalid argument'" \
    - "$log"
[ $failed = 0 ] || diag "$(printf '%s\n' "$log" | grep -E 'netd|sandboxd\[' | tail -n 40)"
echo "1..$n"
[ $failed = 0 ]
