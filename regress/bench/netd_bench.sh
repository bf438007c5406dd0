#!/bin/sh
# netd's cost per sandbox against the number of live sandboxes, each
# part in a throwaway network namespace; make bench runs it.
#
# First the datapath: one sandbox's add and del batches (the per-
# sandbox elements, counter and map entry of table inet sandboxd) with
# N = 1, 1000, 4000 sandboxes live (target: 4000 within 1.2x of 1,
# under 1 ms each).  Then the whole network setup with its veth pair:
# netd_sandbox_up with the guest end in a netns of its own, and down;
# the reap that deletes retired links in one request is off the hot
# path and reported apart.  NETD_BENCH_LINK=0 skips that part (4000
# netns and veths take some 30 seconds to build).
. "$(dirname "$0")/../lib/common.sh"
need_root

TEST="$B/regress/netd/netd_test"
if [ ! -x "$TEST" ]; then
	echo "netd_bench: $TEST is missing (make all)" >&2
	exit 1
fi
rc=0
bench_in_netns() {
	ip netns add "$NS" || return 1
	ip netns exec "$NS" "$TEST" bench "$@" || rc=1
	ip netns del "$NS"
}
bench_in_netns dp 1 1000 4000
if [ "${NETD_BENCH_LINK:-1}" != 0 ]; then
	bench_in_netns link iters=20 1 1000 4000
fi
exit $rc
