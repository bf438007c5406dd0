#!/bin/sh
# An orderly stop (SIGTERM to the master) leaves nothing of ours in the
# netns: with a networked sandbox and a tap sandbox live, a VMM outside
# the sandbox attached to the tap through its fd, every link (veth host
# end, tap) goes, then table inet sandboxd.  netd's log says that order.
# A crash of the master (kill -9) keeps the table on a kernel with
# persist, and the next suite deletes it on its own orderly stop.  A
# runnerd that does not stop cleanly keeps the table and the links.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
need_root

write_conf "
interface-prefix \"sbs\"
policy \"port\" {
	network { allow $PUB1 port 80 }
}"
dtopo_up || { echo "Bail out! the suite did not start"; exit 1; }

has_table() { ip netns exec $NS nft list tables | grep -q 'inet sandboxd'; }
# ours: our links in the netns, one name a line.
ours() {
	ip -n $NS -o link show | awk -F': ' '{ sub("@.*", "", $2); print $2 }' |
	    grep -E '^sbs[0-9a-f]{8}$'
}
no_ours() { [ -z "$(ours)" ]; }
netif() { ctl show "$1" | awk '$1 == "network:" { print $3 }'; }
persist() {
	"$SANDBOXD" -nv -f "$T/sandboxd.conf" 2>&1 >/dev/null |
	    grep -q -E '^ +nft-table-persist +yes'
}
# The VMM: holds the tap by its fd, as tap-guest.t's launcher hands it.
HOLD='
import fcntl, os, struct, sys, time
TUNSETIFF, IFF_TAP, IFF_NO_PI, IFF_VNET_HDR = 0x400454ca, 2, 0x1000, 0x4000
fd = os.open("/dev/net/tun", os.O_RDWR)
fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH22x", sys.argv[1].encode(),
    IFF_TAP | IFF_NO_PI | IFF_VNET_HDR))
print("attached", flush=True)
time.sleep(120)
'
HOLDERS=
st_cleanup() {
	for _p in $HOLDERS; do
		kill -KILL "$_p" 2>/dev/null
	done
	topo_cleanup
}
trap st_cleanup EXIT

# live: a networked sandbox and a tap one with its VMM attached.
live() {
	A=$(ctl create -p port)
	V=$(ctl create --tap -p port)
	A_if=$(netif "$A") V_if=$(netif "$V")
	check "$1: a networked sandbox ($A_if) and a tap one ($V_if)" \
	    test -n "$A_if" -a -n "$V_if"
	ip netns exec $NS python3 -c "$HOLD" "$V_if" > "$T/hold.$1" 2>&1 &
	HOLDERS="$HOLDERS $!"
	check "$1: a VMM attached to the tap through its fd" \
	    wait_for 10 grep -q attached "$T/hold.$1"
	check "$1: both links are there" sh -c \
	    "ip -n $NS link show $A_if && ip -n $NS link show $V_if"
	diag "$1: links of ours: $(ours | tr '\n' ' ')"
	check "$1: and table inet sandboxd" has_table
}

live "run 1"
kill -TERM "$SBX_PID"
wait "$SBX_PID"
check "SIGTERM: the master exits 0" test $? = 0
check "no link of ours is left" no_ours
check "table inet sandboxd is gone" fails has_table
check "netd deleted the links, then the table" grep -q \
    "netd_stop: every link and table inet sandboxd deleted" "$LOG"
check "the VMM outside the sandbox runs on, cut off" \
    kill -0 ${HOLDERS##* }

# The crash path: the table stays (persist), filtering what is left.
dtopo_suite() { suite_run || { echo "Bail out! no suite"; exit 1; }; }
dtopo_suite
live "run 2"
kill -KILL "$SBX_PID"
wait "$SBX_PID" 2>/dev/null
check "kill -9: the old suite is gone" wait_for 10 sh -c \
    "! ip netns pids $NS | xargs -r ps -o comm= -p | grep -q -e netd -e runnerd"
if persist; then
	check "kill -9: table inet sandboxd stays (persist)" has_table
else
	check "kill -9: without persist the table goes with the master" \
	    fails has_table
fi
check "kill -9: netd never ran its stop" test \
    "$(grep -c 'netd_stop: every link' "$LOG")" = 1

# The next suite takes the table again; its orderly stop clears it all.
dtopo_suite
check "run 3: the new suite has the table" has_table
kill -TERM "$SBX_PID"
wait "$SBX_PID"
check "run 3: SIGTERM, the master exits 0" test $? = 0
check "run 3: no link of ours is left" no_ours
check "run 3: table inet sandboxd is gone" fails has_table

# Fail closed: runnerd does not stop (stopped by SIGSTOP, then killed by
# the master), so its sandboxes may outlive it: nothing is deleted.
dtopo_suite
live "run 4"
kill -STOP "$(child_field runnerd pid)"
kill -TERM "$SBX_PID"
wait "$SBX_PID"
check "run 4: SIGTERM, the master exits 0" test $? = 0
check "run 4: it says why the table stays" grep -q \
    "runnerd did not stop cleanly: table inet sandboxd kept" "$LOG"
if persist; then
	check "run 4: table inet sandboxd is kept" has_table
	check "run 4: the tap is kept too, under it" \
	    ip -n $NS link show "$V_if"
else
	check "run 4: without persist the table goes with the master" \
	    fails has_table
fi
plan $tap_n
