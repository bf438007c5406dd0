# The daemon tests' topology: topo.sh's, with the whole suite (sandboxd
# and every child) running in the "host" netns where netd_test ran.
# Source it after common.sh.
. "$ROOT/regress/netd/topo.sh"
H=$NS

# dtopo_up [sandboxd flags]: the namespaces, servers, then the suite on
# the config write_conf made.
dtopo_up() {
	topo_up || { echo "# dtopo_up: the topology did not come up" >&2
	    return 1; }
	suite_run "$@"
}

# sprobe KEY POLICY|-x ID [probe.py options] SPEC...: probe.py from
# inside a sandbox, in the background: a fresh one of POLICY (run), or
# sandbox ID (exec).  probe_wait, then expect, as with probe.
sprobe() {
	_k=$1; shift
	if [ "$1" = -x ]; then
		_c="exec $2"; shift 2
	else
		_c="run -p $1"; shift
	fi
	ctl $_c -- python3 -c "$PROBE_PY" "$@" > "$T/probe.$_k" 2>&1 &
	SPROBES="$SPROBES $!"
}
PROBE_PY=$(cat "$D/probe.py")
SPROBES=

# The suite runs in the background too: wait for the probes alone.
probe_wait() {
	for _p in $SPROBES; do
		wait "$_p"
	done
	SPROBES=
}
