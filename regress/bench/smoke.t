#!/bin/sh
# Bench code cannot rot silently: every driver of make bench runs in
# smoke mode (BENCH_SMOKE=1: tiny N, a fraction of a second a run, each
# in a namespace and a suite of its own) and must exit 0 and give every
# figure of its own as a number (bench_json.py -d DRIVER); then all of
# them together make the whole of bench.json.  Before the first and
# after each, bench.sh's settle step (settle.py), with a 5 s timeout:
# it must come back within it and give its figures.  The figures of a
# smoke run mean nothing.  And bench_json.py itself refuses what is not a
# figure, so that the checks above can fail.
. "$(dirname "$0")/../lib/common.sh"
need_root

# check() sets $d: the loop's variable is drv.
DRIVERS="start life netd dns failclosed"
JSON="$ROOT/regress/bench/bench_json.py"
SETTLE="$ROOT/regress/bench/settle.py"
plan 23

missing=
for p in bwrap crun dnsmasq dnsperf; do
	command -v $p > /dev/null || missing="$missing $p"
done
[ -z "$missing" ] || diag "missing:$missing (make deps installs them)"

# left PID: the network namespaces a driver of that pid made (each
# named sbx...PID) that are still there.
left() { ip netns list | awk -v p="$1" '$1 ~ "^sbx[a-z]*" p "$" { print $1 }'; }

# settle KEY ARGS...: bench.sh's settle step as in its smoke mode, 5 s
# at most (1 s of quiet): it must give its figures within that,
# whatever the machine's other load; what it waited for goes to the TAP
# output.
settle() {
	_k=$1; shift
	_t0=$(date +%s)
	BENCH_KV="$T/settle.fig" python3 "$SETTLE" -t 5 -q 1 -k "$_k" "$@" \
	    > "$T/settle.out" 2>&1
	_rc=$?
	sed 's/^# //; s/^/# /' "$T/settle.out"
	check "settle $_k: exit 0, within its timeout" \
	    test $_rc = 0 -a $(($(date +%s) - _t0)) -le 8
}
: > "$T/settle.fig"
settle before -l before -w "$T/settle.base"
before=$(awk '$1 == "settle_s_before" { print $2 }' "$T/settle.fig")

# In bench.sh's order: each one starts right after the one before has
# gone, as in make bench, so a driver that leaves something behind that
# keeps the next from starting its suite fails here too.
for drv in $DRIVERS; do
	t0=$(date +%s)
	BENCH_SMOKE=1 BENCH_KV="$T/$drv.kv" \
	    sh "$ROOT/regress/bench/${drv}_bench.sh" > "$T/$drv.out" 2>&1 &
	pid=$!
	wait $pid
	rc=$?
	diag "${drv}_bench.sh: exit $rc in $(($(date +%s) - t0)) s"
	[ $rc = 0 ] || tail -n 20 "$T/$drv.out" | sed 's/^/# /'
	check "${drv}_bench.sh runs in smoke mode" test $rc = 0
	is "$(left $pid | tr '\n' ' ')" "" \
	    "${drv}_bench.sh leaves none of its namespaces behind"
	# Its settle figures go with its own.
	: > "$T/settle.fig"
	settle "after_$drv" -b "$T/settle.base" -l "after $drv"
	cat "$T/settle.fig" >> "$T/$drv.kv"
	if python3 "$JSON" -d "$drv" "$T/$drv.kv" "$T/$drv.json" \
	    2> "$T/$drv.err"; then
		ok "${drv}_bench.sh gives each of its figures, as a number"
	else
		notok "${drv}_bench.sh gives each of its figures, as a number"
		sed 's/^/# /' "$T/$drv.err"
	fi
done
echo "settle_s_before $before" > "$T/before.kv"
cat "$T"/*.kv > "$T/all.kv"
check "together, every figure of bench.json" \
    python3 "$JSON" "$T/all.kv" "$T/bench.json"
diag "$(tr -d '\n' < "$T/bench.json")"

# The checker: a figure that is not a number, one given twice and one
# missing are each refused, and named.
printf 'start_true_ms 1.5\nstart_net_ms abc\nstart_true_ms 2\n' > "$T/bad.kv"
python3 "$JSON" -d start "$T/bad.kv" "$T/bad.json" 2> "$T/bad.err"
rc=$?
check "bench_json.py refuses a non-number, a repeat and a missing figure" \
    sh -c "[ $rc = 1 ] && grep -q 'start_net_ms: not a number' '$T/bad.err' &&
	grep -q 'start_true_ms: given twice' '$T/bad.err' &&
	grep -q 'start_true_bwrap_ms: missing' '$T/bad.err'"
done_testing
