#!/bin/sh
# make bench: each driver in turn, each in a throwaway namespace and
# with a suite of its own where it needs one: sandbox start-to-exit
# against bwrap and crun (start_bench.sh), host memory, create and
# concurrent runs (life_bench.sh), netd's cost per sandbox
# (netd_bench.sh), dnspind against dnsmasq (dns_bench.sh), the allowed
# twin's recovery after host firewall events and crashes
# (failclosed_bench.sh).  Each prints
# its tables and appends its figures to one list, which bench_json.py
# writes as $BENCH_JSON (build/bench.json), one flat object of numbers.
# The exit status is 1 if a driver failed or a figure is missing, not
# for a missed target.  BENCH_SMOKE=1: tiny N, a few seconds each
# (regress/bench/smoke.t); BENCH_ONLY="life dns" (or "life,dns"): those
# drivers alone.
#
# Before the first driver and after each, settle.py waits until the
# kernel is done with the network namespaces and cgroups deleted so far
# (a driver's thousands of sandboxes; a run before this one), so that
# no driver runs beside that work: at most BENCH_SETTLE_TIMEOUT seconds
# (120), after which it says what is still pending and the run goes on.
# The time the kernel took is a figure: settle_s_before,
# settle_s_after_DRIVER (and what was still above the baseline when it
# went on, settle_netns_left_after_DRIVER, settle_cgroups_left_...).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B="$ROOT/${SANDBOXD_BUILD:-build}"
BENCH_JSON=${BENCH_JSON:-$B/bench.json}
DRIVERS=$(echo "${BENCH_ONLY:-start life netd dns failclosed}" | tr ',' ' ')
for d in $DRIVERS; do
	[ -f "$ROOT/regress/bench/${d}_bench.sh" ] ||
	    { echo "bench: no driver $d (regress/bench/${d}_bench.sh)" >&2
	      exit 1; }
done
BENCH_KV=$(mktemp /tmp/sbxbench.XXXXXX) || exit 1
export BENCH_KV
SETTLE_BASE=$BENCH_KV.base
trap 'rm -f "$BENCH_KV" "$SETTLE_BASE"' EXIT
SETTLE_TIMEOUT=${BENCH_SETTLE_TIMEOUT:-120}
SETTLE_QUIET=5
[ "${BENCH_SMOKE:-0}" = 1 ] && SETTLE_TIMEOUT=${BENCH_SETTLE_TIMEOUT:-5} \
    SETTLE_QUIET=1
# settle KEY [settle.py args]: the kernel's cleanup done, or the timeout.
settle() {
	_k=$1; shift
	python3 "$ROOT/regress/bench/settle.py" -t "$SETTLE_TIMEOUT" \
	    -q "$SETTLE_QUIET" -k "$_k" "$@" || rc=1
}
trap 'exit 1' INT TERM HUP

rc=0
# A smoke run's figures say so, should one be taken for a measurement.
[ "${BENCH_SMOKE:-0}" = 1 ] && echo "smoke 1" >> "$BENCH_KV"
echo "=== settle ($(date -u +%H:%M:%S))"
# Trees a killed suite or bench left (never one whose suite still runs).
python3 "$ROOT/regress/lib/cgroup_reap.py"
# A namespace's teardown may leave its struct for a later one's to
# free (settle.py): one of our own, made and deleted, frees what a run
# before left so, which would make the baseline too high.
ip netns add "sbxbf$$" && ip netns del "sbxbf$$"
settle before -l before -w "$SETTLE_BASE"
for d in $DRIVERS; do
	echo "=== $d ($(date -u +%H:%M:%S))"
	if ! sh "$ROOT/regress/bench/${d}_bench.sh"; then
		echo "bench: ${d}_bench.sh failed" >&2
		rc=1
	fi
	settle "after_$d" -b "$SETTLE_BASE" -l "after $d"
	echo
done
set -- -d settle
for d in $DRIVERS; do set -- "$@" -d "$d"; done
python3 "$ROOT/regress/bench/bench_json.py" "$@" "$BENCH_KV" "$BENCH_JSON" ||
    rc=1
echo "=== $BENCH_JSON"
cat "$BENCH_JSON"
exit $rc
