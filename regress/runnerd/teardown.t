#!/bin/sh
# 200 sandboxes created and destroyed leave no mount, cgroup, process,
# uid or directory behind; a crashed runnerd's sandboxes are cleaned up.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 11

setup_users
# A uid range of its own, so that only this suite's processes count.
base=$((300000 + ($$ % 500) * 1000))
write_sandbox_conf "uid-range $base 1000"
check "suite starts" suite_start
rpid=$(child_field runnerd pid)
# One sandbox is built ahead of demand (prebuild 1, the default): it is
# all that may be there when no sandbox is.
sbxdirs() { ls "$(state_dir)" | grep -v '^kept$' | wc -l; }
spare_only() { [ "$(sbxdirs)" = 1 ]; }
wait_for 5 spare_only
# Mounts of this instance only: suites running beside it mount too.
mounts() { grep -c -F "$T/" /proc/$rpid/mountinfo; }
mounts0=$(mounts)
diag "mounts of this instance with only the spare: $mounts0"
# This instance's cgroups only: other instances are not counted.
group=$(cgroup_group)
cg() {
	find /sys/fs/cgroup/memory/$group /sys/fs/cgroup/pids/$group \
	    /sys/fs/cgroup/cpu/$group -mindepth 1 -type d 2>/dev/null | wc -l
}

i=0; bad=0
while [ $i -lt 200 ]; do
	id=$(sbx_create) || bad=$((bad + 1))
	[ $((i % 4)) = 0 ] && { in_sbx "$id" 'echo x > /workspace/f; sleep 0 &' >/dev/null || bad=$((bad + 1)); }
	ctl destroy "$id" >/dev/null || bad=$((bad + 1))
	i=$((i + 1))
done
is "$bad" 0 "200 sandboxes created and destroyed"
# Cleanup after the last destroy's answer takes a moment.
uidprocs() { ps -eo uid= | awk -v b=$base '$1 >= b && $1 < b + 1000' | wc -l; }
settled() { [ "$(mounts)" = "$mounts0" ] &&
    [ "$(cg)" = 3 ] && [ "$(uidprocs)" = 1 ]; }
wait_for 5 settled
is "$(mounts)" "$mounts0" "no mount is left behind"
is "$(cg)" 3 "no cgroup is left behind: only the spare's (memory, pids, cpu)"
is "$(uidprocs)" 1 "no process of a sandbox uid is left but the spare's pid 1"
is "$(sbxdirs)" 1 "no directory is left in the state directory but the spare's"
is "$(ctl ps | tail -n +2 | wc -l)" 0 "ps lists no sandbox"

# A runnerd that dies takes its sandboxes' processes with it, and the
# next one removes what is left.
for i in 1 2 3; do sbx_create >/dev/null; done
ctl exec "$(ctl -j ps | jfield id sandbox)" -- sleep 1000 >/dev/null 2>&1 &
sleep 0.5
kill -KILL "$(child_field runnerd pid)"
wait_for 10 all_ready
sleep 0.5
wait_for 5 spare_only
is "$(cg)" 3 "after runnerd's death no cgroup is left but the new spare's"
is "$(sbxdirs)" 1 "nor any sandbox directory"
sbx_create >/dev/null
check "suite stops with a sandbox alive" suite_stop
is "$(ls -d /sys/fs/cgroup/*/$group 2>/dev/null | wc -l)" 0 \
    "a clean stop leaves not even the instance's parent cgroups"
done_testing
