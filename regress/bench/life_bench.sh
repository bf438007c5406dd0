#!/bin/sh
# Host memory per idle sandbox, create+exec latency, the create rate
# of concurrent creators and concurrent runs (life_bench.py), in a
# suite of its own in a throwaway namespace; bench.sh runs it.  Its
# sandboxes' cgroups, should runnerd leave any, go with the suite
# (common.sh's cleanup).  LIFE_BENCH_PARTS="create_exec create_rate"
# runs only those parts (life_bench.py lists them and its other knobs).
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/bench/kv.sh"
need_root
setup_users
TEARDOWN_KEY=life_teardown_s
write_conf ''
suite_start || { echo "life_bench: the suite did not start" >&2; exit 1; }
python3 "$ROOT/regress/bench/life_bench.py" "$SANDBOXCTL" "$SOCK" "$SBX_PID"
rc=$?
suite_stop 120 || { echo "life_bench: the suite did not stop in 120 s" >&2; rc=1; }
exit $rc
