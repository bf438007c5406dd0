#!/bin/sh
# make bench: start the suite in a throwaway namespace, measure, stop.
. "$(dirname "$0")/../lib/common.sh"
need_root
setup_users
write_conf ""
suite_start || { echo "suite did not start" >&2; exit 1; }
python3 "$ROOT/regress/bench/bench.py" "$SANDBOXCTL" "$SOCK"
rc=$?
suite_stop
exit $rc
