# Sourced by the bench drivers after common.sh: their figures for
# build/bench.json, and the short smoke mode that make test runs.
#
# BENCH_KV=FILE: each driver appends "key value" lines to FILE, one a
# figure; bench_json.py turns them into one JSON object and checks that
# every expected key came as a number.  Unset, nothing is written.
# BENCH_SMOKE=1: every driver runs with a tiny N and short durations,
# to prove it still runs and still produces every figure, not to
# measure anything.

BENCH_SMOKE=${BENCH_SMOKE:-0}
# A driver returns once its sandboxes are gone: common.sh's cleanup
# waits up to this for their processes to die and their cgroups to be
# removed (thousands take a while after their runnerd stops).  The
# kernel's freeing of what they leave is bench.sh's settle step.
CGROUP_WAIT=${CGROUP_WAIT:-120}
# TEARDOWN_KEY=NAME (life, dns: their thousands of sandboxes): a figure,
# the seconds from the suite's stop until its sandboxes' processes and
# cgroups are gone; bench.sh's settle step times the kernel's part after.

# bench_kv KEY VALUE: one figure.  An empty VALUE is written as "-",
# which bench_json.py reports as not a number.
bench_kv() {
	[ -n "${BENCH_KV:-}" ] || return 0
	echo "$1 ${2:--}" >> "$BENCH_KV"
}
