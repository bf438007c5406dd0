#!/bin/sh
# No daemon takes an fd from a tenant, nor blocks on one a client sends.
# The attack: TCP sockets with a full send queue and SO_LINGER {1, 30},
# passed over SCM_RIGHTS with the sender's copies closed, so that the
# daemon's close(2) is the last and would wait 30 s.  Three go to the
# control socket from root (whose requests may carry fds: they are
# taken, found stray and discarded without waiting), three from a
# control-group member (refused by the kernel, SO_PASSRIGHTS), and
# three to the secrets broker from inside a sandbox.  Throughout,
# sandboxctl status answers within 50 ms and new runs start.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 16

setup_users
getent group sbxctl-test >/dev/null || groupadd --system sbxctl-test
GID=$(getent group sbxctl-test | cut -d: -f3)
member() { setpriv --reuid=65534 --regid=65534 --groups="$GID" "$@"; }
D=$ROOT/regress/daemon
write_conf "control group \"sbxctl-test\"
policy \"plain\" {
	filesystem { read \"$D\" }
}"
check "suite starts" suite_start

# Status latency, worst of N tries, in ms; runs started meanwhile.
probe() {	# N
	worst=0 runs=0
	i=0
	while [ $i -lt "$1" ]; do
		t0=$(date +%s%N)
		ctl status >/dev/null || worst=99999
		ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		echo "status $ms ms" >>"$T/probe"
		[ $ms -gt $worst ] && worst=$ms
		[ "$(ctl run -- echo up 2>/dev/null)" = up ] && runs=$((runs + 1))
		i=$((i + 1))
	done
	med=$(tail -n "$1" "$T/probe" | awk '{ print $2 }' | sort -n |
	    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	echo "$worst $runs $med"
}

# Within 50 ms as a rule; on this shared, loaded machine single tries
# stray (the baseline's worst is printed above), so: the median within
# 50 ms and none past 500 ms, where the linger would cost 30 s.
fast() { [ "$3" -lt 50 ] && [ "$1" -lt 500 ]; }
set -- $(probe 10)
diag "baseline: worst status $1 ms; $(tr '\n' ' ' <"$T/probe")"

attack() {	# label cmd...: run the sender, probe while it holds
	"$@" >"$T/sent" 2>&1 &
	apid=$!
	sleep 0.5
	set -- $(probe 10)
	wait $apid
	echo "$1 $2 $3"
	diag "$(tail -n 10 "$T/probe" | tr '\n' ' ')" >&2
}

r=$(attack sh -c "ip netns exec '$NS' python3 '$D/fdsend.py' imsg '$SOCK' 3 4")
is "$(cat "$T/sent")" "sent 3" "root passes 3 lingering sockets with a status request"
set -- $r
check "status answers promptly meanwhile (worst $1 ms, median $3 ms)" fast "$@"
is "$2" 10 "10 of 10 runs started meanwhile"
check "the master dropped the sender, saying why" \
    grep -q "dropping client uid 0 .*: sent a file descriptor with a request that takes none" "$LOG"

as_member() { ip netns exec "$NS" setpriv --reuid=65534 --regid=65534 \
    --groups="$GID" /usr/bin/python3 "$D/fdsend.py" "$@"; }
r=$(attack as_member imsg "$SOCK" 3 4 0.3)
is "$(cat "$T/sent")" "refused EPERM" "a control-group member's fds are refused by the kernel once accepted"
set -- $r
check "status answers promptly meanwhile (worst $1 ms, median $3 ms)" fast "$@"
is "$2" 10 "10 of 10 runs started meanwhile"
# Sent before the master's accept, the kernel lets them through: they
# are discarded without waiting and the member dropped.
r=$(attack as_member imsg "$SOCK" 3 4 0)
case $(cat "$T/sent") in
"refused EPERM") ok "fds sent before accept: refused by the kernel" ;;
"sent 3") check "fds sent before accept: taken, discarded, member dropped" \
    grep -q "dropping client uid 65534 .*: sent file descriptors; only root" "$LOG" ;;
*) notok "fds sent before accept: $(cat "$T/sent")" ;;
esac
set -- $r
check "status answers promptly meanwhile (worst $1 ms, median $3 ms)" fast "$@"

# The allowed twin: the member's plain status request is served.
check "the member's status without fds is served" \
    member "$SANDBOXCTL" -s "$SOCK" status

# From inside a sandbox, to its broker.
id=$(ctl create -p plain)
r=$(attack ctl exec "$id" -- python3 "$D/fdsend.py" broker \
    /run/sandboxd/broker.sock 3 4)
is "$(cat "$T/sent")" "refused EPERM" "a sandbox's fds to its broker are refused by the kernel"
set -- $r
check "status answers promptly meanwhile (worst $1 ms, median $3 ms)" fast "$@"
is "$2" 10 "10 of 10 runs started meanwhile"
out=$(ctl exec "$id" -- python3 -c '
import json, socket
s = socket.socket(socket.AF_UNIX)
s.connect("/run/sandboxd/broker.sock")
b = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "secrets.has",
                "params": {"name": "X"}}).encode()
s.sendall(b"Content-Length: %d\r\n\r\n" % len(b) + b)
print(s.recv(4096).decode())')
diag "$out"
check "the broker still answers the sandbox (allowed twin)" \
    contains "$out" '"id": *1'
check "the daemons all still run" all_ready
done_testing
