#!/bin/sh
# Sandbox start-to-exit against bwrap and crun (bench.py), in a suite
# of its own in a throwaway namespace; bench.sh runs it.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/bench/kv.sh"
need_root
setup_users
# "net" gives the networked run a veth and datapath elements; the
# address is TEST-NET-3, never reached: /bin/true does not connect.
write_conf "${START_BENCH_CONF:-}"'
policy "net" {
	network { allow 203.0.113.10 port 80 }
}'
suite_start || { echo "start_bench: the suite did not start" >&2; exit 1; }
# crun refuses hybrid cgroups; in a mount namespace of the bench's own
# without the empty v2 mount it sees plain v1 and runs.  sandboxctl and
# bwrap are not affected by that.
unshare -m sh -c 'umount /sys/fs/cgroup/unified 2>/dev/null
    exec python3 "$0" "$1" "$2"' "$ROOT/regress/bench/bench.py" \
    "$SANDBOXCTL" "$SOCK"
rc=$?
suite_stop
exit $rc
