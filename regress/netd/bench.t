#!/bin/sh
# The datapath's cost per sandbox does not grow with the sandboxes:
# add+del at 1000 live sandboxes within twice the time at 1, and under
# a millisecond (the full measurement, to 4000 and with links, is
# regress/bench/netd_bench.sh).
. "$(dirname "$0")/../lib/common.sh"
need_root

if ! ip netns add "$NS"; then
	echo "1..0 # SKIP cannot create a network namespace"
	exit 0
fi
out=$(ip netns exec "$NS" "$B/regress/netd/netd_test" bench dp iters=100 \
    ${SBX_WITHOUT:+without=$SBX_WITHOUT} 1 1000 2>&1)
printf '%s\n' "$out" | sed 's/^/# /'
t1=$(printf '%s\n' "$out" | sed -n 's/^netd add+del N=1: \([0-9.]*\) ms.*/\1/p')
t2=$(printf '%s\n' "$out" | sed -n 's/^netd add+del N=1000: \([0-9.]*\) ms.*/\1/p')
[ -z "$SBX_WITHOUT" ] || check "without $SBX_WITHOUT" \
    contains "$out" "NFT_MSG_DESTROY not used (-x $SBX_WITHOUT)"
check "measured at N=1 ($t1 ms) and N=1000 ($t2 ms)" test -n "$t1" -a -n "$t2"
check "add+del at N=1000 within 2x of N=1" \
    awk -v a="${t1:-0}" -v b="${t2:-999}" 'BEGIN { exit !(b <= 2 * a) }'
check "under 1 ms each" \
    awk -v a="${t1:-999}" -v b="${t2:-999}" 'BEGIN { exit !(a < 1 && b < 1) }'
plan $tap_n
done_testing
