#!/bin/sh
# A delegated cgroup, as systemd's Delegate=yes makes it, simulated in
# this machine's cgroup v2 hierarchy: a group marked trusted.delegate=1
# that the daemon starts in.  The master moves every daemon into its
# leaf "daemons", leaves the group itself empty, and nothing outside the
# group changes; a crashed runnerd comes back there.  The twin: started
# in an unmarked group, nothing moves.  Where v2 has the controllers
# (a pure v2 host) sandboxes live in <group>/sandboxes-<hash>/<id>;
# on a hybrid host, in v1 as before.
. "$(dirname "$0")/../lib/common.sh"
need_root
V2=$(python3 -c '
import os
for d in ("/sys/fs/cgroup", "/sys/fs/cgroup/unified"):
    if os.path.isfile(d + "/cgroup.subtree_control"):
        print(d); break')
if [ -z "$V2" ]; then
	echo "1..0 # SKIP no cgroup v2 mounted"
	exit 0
fi
plan 17

D="$V2/sbxt-deleg.$$"
U="$V2/sbxt-undeleg.$$"
# Whatever is left in our two groups is ours: killed, then removed.
groups_cleanup() {
	for g in "$D" "$U"; do
		[ -d "$g" ] || continue
		for i in 1 2 3 4 5 6 7 8 9 10; do
			find "$g" -name cgroup.procs -exec cat {} + 2>/dev/null |
			    xargs -r kill -KILL 2>/dev/null
			find "$g" -depth -type d -exec rmdir {} + 2>/dev/null
			[ -d "$g" ] || break
			sleep 0.2
		done
	done
}
trap 'cleanup; groups_cleanup' EXIT

# The v2 tree outside our groups, and the root's controllers.
outside() {
	(cd "$V2" && find . -path "./sbxt-*deleg.$$" -prune -o -type d -print |
	    sort; cat cgroup.subtree_control)
}
# cg2 PID: a process's v2 cgroup, relative to the mount.
cg2() { sed -n 's/^0:://p' "/proc/$1/cgroup"; }
# start_in GROUP: the daemon as suite_run starts it, but from GROUP,
# in a mount namespace of its own that still sees /sys/fs/cgroup
# (ip netns exec would give it a bare /sys).
start_in() {
	sh -c 'echo 0 > "$1/cgroup.procs" && shift && exec "$@"' sh "$1" \
	    nsenter --net=/run/netns/"$NS" -- unshare -m --propagation slave -- \
	    "$SANDBOXD" -d -v -f "$T/sandboxd.conf" -s "$SOCK" >>"$LOG" 2>&1 &
	SBX_PID=$!
	wait_for 10 all_ready
}
daemon_pids() {
	for p in sandboxd netd envd runnerd dnspind; do child_field $p pid; done
}

setup_users
write_sandbox_conf
mkdir "$D" "$U"
python3 -c 'import os, sys; os.setxattr(sys.argv[1], "trusted.delegate", b"1")' "$D"
before=$(outside)
ip netns add "$NS" && ip -n "$NS" link set lo up
check "the daemon starts in a delegated group" start_in "$D"

bad=
for p in $(daemon_pids); do
	[ "$(cg2 "$p")" = "/sbxt-deleg.$$/daemons" ] || bad="$bad $p:$(cg2 "$p")"
done
is "$bad" "" "the master and all four children are in <group>/daemons"
is "$(cat "$D/cgroup.procs")" "" "the delegated group itself holds no process"
check "the master says where it put them" \
    grep -q "delegated cgroup $D: daemons in $D/daemons" "$LOG"

id=$(sbx_create tight)
pid1=$(ctl -j show "$id" | jfield pid sandbox)
is "$(in_sbx "$id" 'echo alive')" alive "a sandbox runs"
if grep -q "cgroup v2 under $D, delegated" "$LOG"; then
	diag "cgroup v2 with controllers: sandboxes under the group"
	is "$(cg2 "$pid1")" "/sbxt-deleg.$$/sandboxes-$(cgroup_group | cut -d- -f2)/$id" \
	    "its pid 1 is in <group>/sandboxes-<hash>/<id>"
	is "$(cat "$D/sandboxes-$(cgroup_group | cut -d- -f2)/$id/memory.max")" \
	    67108864 "with its memory limit there"
else
	diag "a hybrid host: v2 carries no controllers, sandboxes in v1"
	check "runnerd says so" grep -q \
	    "cgroup v1 under /sys/fs/cgroup, the delegated v2 group having no controllers" "$LOG"
	is "$(cat "/sys/fs/cgroup/memory/$(cgroup_group)/$id/memory.limit_in_bytes")" \
	    67108864 "its memory limit is in v1's <sandboxd-hash>/<id>"
fi
out=$(ctl -j run -p tight -- python3 -c 'x = bytearray(512 * 1024 * 1024)' |
    jfield reason exit)
is "$out" limit "a memory hog still ends with reason limit"

old=$(child_field runnerd pid)
kill -KILL "$old"
check "a killed runnerd comes back" wait_for 10 restarted runnerd "$old"
wait_for 5 all_ready
is "$(cg2 "$(child_field runnerd pid)")" "/sbxt-deleg.$$/daemons" \
    "in <group>/daemons again"
is "$(in_sbx "$(sbx_create)" 'echo again')" again "and serves sandboxes"
is "$(cat "$D/cgroup.procs")" "" "the group still holds no process"
check "a clean stop" suite_stop
is "$(outside)" "$before" "nothing outside the delegated group changed"

# The twin: an unmarked group is not ours to rearrange.
: > "$LOG"
check "the daemon starts in an unmarked group" start_in "$U"
bad=
for p in $(daemon_pids); do
	[ "$(cg2 "$p")" = "/sbxt-undeleg.$$" ] || bad="$bad $p:$(cg2 "$p")"
done
is "$bad" "" "every daemon stays where it was started"
is "$(find "$U" -mindepth 1 -type d)" "" "and no group is made in it"
suite_stop >/dev/null
done_testing
