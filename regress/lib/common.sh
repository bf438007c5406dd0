# Shared by the daemon tests: TAP output, a throwaway network namespace
# that the whole suite runs in, and cleanup from a trap.
# Source it from regress/<dir>/<name>.t, which prove runs from the top.

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B="$ROOT/${SANDBOXD_BUILD:-build}"
SANDBOXD="$B/sandboxd"
SANDBOXCTL="$B/sandboxctl"

tap_n=0
tap_failed=0

plan()	{ echo "1..$1"; }
ok()	{ tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
notok()	{ tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1));
	  echo "not ok $tap_n - $*"; }
diag()	{ echo "$*" | sed 's/^/# /'; }
# check DESC CMD...: ok if CMD succeeds.
check()	{ d=$1; shift; if "$@"; then ok "$d"; else notok "$d"; fi; }
# is GOT WANT DESC
is()	{ if [ "$1" = "$2" ]; then ok "$3"; else notok "$3";
	  diag "got '$1', want '$2'"; fi; }

need_root() {
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP needs root"
		exit 0
	fi
}

T=$(mktemp -d /tmp/sbxtest.XXXXXX)
chmod 0755 "$T"
# Held until the suite's last process is gone (its children inherit
# it): regress/lib/cgroup_reap.py removes the cgroups of a suite killed
# before its cleanup only when no process holds it.
exec 9> "$T/suite.lock"
flock -x 9
NS="sbxt$$"
SOCK="$T/sandboxd.sock"
LOG="$T/sandboxd.log"
SBX_PID=

cleanup() {
	if [ -n "$SBX_PID" ] && kill -0 "$SBX_PID" 2>/dev/null; then
		kill -TERM "$SBX_PID" 2>/dev/null
		sleep 0.5
		kill -KILL "$SBX_PID" 2>/dev/null
	fi
	netns_gone "$NS"
	cgroup_cleanup
	# A bench driver's figure (kv.sh): its suite's stop to the last of
	# its sandboxes' cgroups gone.
	if [ -n "${TEARDOWN_KEY:-}" ] && [ -n "${SUITE_STOP_T0:-}" ]; then
		bench_kv "$TEARDOWN_KEY" "$(echo "$(date +%s.%N) \
		    $SUITE_STOP_T0" | awk '{ printf "%.1f", $1 - $2 }')"
	fi
	if [ "$tap_failed" != 0 ] && [ -f "$LOG" ]; then
		grep -v "control: uid" "$LOG" >"$LOG.short" 2>/dev/null && mv "$LOG.short" "$LOG"
		diag "--- daemon log ---"
		tail -n 60 "$LOG" | sed 's/^/# /'
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# netns_gone NAME: kill -9 whatever still runs in it, wait (5 s at
# most: a kill is not instant) until nothing does, then delete it.
netns_gone() {
	ip netns pids "$1" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
	wait_for 5 sh -c "[ -z \"\$(ip netns pids $1 2>/dev/null)\" ]"
	ip netns del "$1" 2>/dev/null
}

setup_users() {
	sh "$ROOT/rc/sandboxd-users.sh"
}

# A minimal config for the tests; extra lines from $1.
write_conf() {
	cat > "$T/sandboxd.conf" <<CONF
state-dir "$T/state"
policy "default" {
	limits { timeout 120s max 300s }
}
$1
CONF
}

# wait_for SECONDS CMD...: poll CMD until it succeeds.
wait_for() {
	_t=$(( $1 * 20 )); shift
	while [ $_t -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.05
		_t=$((_t - 1))
	done
	return 1
}

ctl() { "$SANDBOXCTL" -s "$SOCK" "$@"; }

# Every child has a pid, is running and has acknowledged the config.
all_ready() {
	n=$(ctl -j status 2>/dev/null | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if "proc.status" in l]
gen = [r for r in rows if r["name"] == "sandboxd"][0]["conf_generation"]
print(sum(1 for r in rows if r["name"] != "sandboxd" and
    r["state"] == "running" and r["conf_generation"] == gen))')
	[ "$n" = 4 ]
}

# suite_start [sandboxd flags]: the whole suite in a fresh namespace.
suite_start() {
	ip netns add "$NS" || return 1
	ip -n "$NS" link set lo up
	suite_run "$@"
}

# suite_run [sandboxd flags]: the suite in $NS, made already.  With
# SBX_WITHOUT=FEATURE[,FEATURE] (the *_nodestroy.t tests), sandboxd -x.
# It waits SUITE_WAIT seconds (30: a machine still tearing down another
# run's thousands of sandboxes is slow) for all_ready, and says on
# standard error what it waited for if it fails.
suite_run() {
	_t0=$(date +%s.%N)
	ip netns exec "$NS" "$SANDBOXD" -d -v -f "$T/sandboxd.conf" \
	    -s "$SOCK" ${SBX_WITHOUT:+-x "$SBX_WITHOUT"} "$@" >>"$LOG" 2>&1 &
	SBX_PID=$!
	if ! wait_for "${SUITE_WAIT:-30}" all_ready; then
		suite_why "$_t0"
		return 1
	fi
	case ",$SBX_WITHOUT," in
	*,nft-destroy,*) wait_for 5 grep -q \
	    "deletions by NFT_MSG_DEL of what exists" "$LOG" ;;
	esac
}

# suite_start_env VAR=VALUE... -- [sandboxd flags]: as suite_start, with
# the daemon's environment exactly the given variables.
suite_start_env() {
	_env=
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		_env="$_env$(printf '%s' "$1" | base64 -w0) "
		shift
	done
	[ "${1:-}" = "--" ] && shift
	ip netns add "$NS" || return 1
	ip -n "$NS" link set lo up
	# base64 keeps names with spaces and bytes that are not UTF-8 whole.
	python3 -c '
import base64, os, sys
env = {}
for a in sys.argv[1].split():
    k, _, v = base64.b64decode(a).partition(b"=")
    env[k] = v
os.execve(sys.argv[2], sys.argv[2:], env)' "$_env" "$(command -v ip)" netns exec \
	    "$NS" "$SANDBOXD" -d -v -f "$T/sandboxd.conf" -s "$SOCK" "$@" \
	    >>"$LOG" 2>&1 &
	SBX_PID=$!
	_t0=$(date +%s.%N)
	wait_for "${SUITE_WAIT:-30}" all_ready || { suite_why "$_t0"; return 1; }
}

# suite_why T0: why suite_run gave up, on standard error: how long it
# waited, whether sandboxd still runs, what sandboxctl status says of
# each child, the end of the daemon log.
suite_why() {
	{
	echo "suite_run: the suite in netns $NS was not ready after" \
	    "$(echo "$(date +%s.%N) $1" | awk '{ printf "%.1f", $1 - $2 }') s" \
	    "(waited for every child running, the config acknowledged)"
	if kill -0 "$SBX_PID" 2>/dev/null; then
		echo "suite_run: sandboxd $SBX_PID runs; status:"
		ctl -j status 2>&1 | grep -e proc.status -e rror | head -n 10
	else
		echo "suite_run: sandboxd $SBX_PID is gone"
	fi
	echo "suite_run: the end of $LOG:"
	tail -n 15 "$LOG"
	} | sed 's/^/# /' >&2
}

# suite_stop [SECONDS]: SIGTERM, and gone within SECONDS (5); a suite
# with thousands of sandboxes takes longer to take them down.
suite_stop() {
	SUITE_STOP_T0=$(date +%s.%N)
	kill -TERM "$SBX_PID" 2>/dev/null
	_t=$(( ${1:-5} * 20 ))
	while kill -0 "$SBX_PID" 2>/dev/null && [ $_t -gt 0 ]; do
		sleep 0.05; _t=$((_t - 1))
	done
	! kill -0 "$SBX_PID" 2>/dev/null
}

# child_field NAME FIELD: one field of sandboxctl -j status.
child_field() {
	ctl -j status | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("name") == sys.argv[1]:
        print(r[sys.argv[2]])' "$1" "$2"
}

# restarted NAME OLDPID: the child runs again, under another pid.
restarted() {
	_p=$(child_field "$1" pid)
	[ -n "$_p" ] && [ "$_p" != 0 ] && [ "$_p" != "$2" ] &&
	    [ "$(child_field "$1" state)" = running ]
}

# state_dir: the state directory as runnerd sees it.  runnerd mounts
# a tmpfs on it in the suite's mount namespace, which the test is not in.
state_dir() { echo "/proc/$(child_field runnerd pid)/root$T/state"; }

# proc_status PID FIELD: a field of /proc/PID/status.
proc_status() {
	awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"
}

done_testing() {
	[ "$tap_failed" = 0 ]
}

# A config with the policies the sandbox tests use; extra lines from $1.
write_sandbox_conf() {
	write_conf "policy \"tight\" {
	limits { memory 64M; pids 32; timeout 5s max 10s; stdout 100K; stderr 50K; workspace 8M; fsize 1M; grace 500ms }
}
$1"
}

# cgroup_group [STATEDIR]: the parent of the cgroups of the instance
# on STATEDIR ($T/state), which runnerd names after it (FNV-1a).
cgroup_group() {
	python3 -c '
import sys
h = 2166136261
for c in sys.argv[1].encode():
    h = ((h ^ c) * 16777619) & 0xffffffff
print("sandboxd-%08x" % h)' "${1:-$T/state}"
}

# cgroup_cleanup: a runnerd killed before it destroyed its sandboxes
# leaves their cgroups for the next start on the same state directory;
# a test's state directory has no next start, so remove them here
# (rmdir refuses a cgroup that still has processes: it retries while
# the sandboxes die, for CGROUP_WAIT seconds, 2; the bench drivers,
# whose thousands take longer, set more).  Every v1 hierarchy, and
# cgroup2 mounted at /sys/fs/cgroup or below it.
cgroup_cleanup() {
	[ -d "$T/state" ] || return 0
	g=$(cgroup_group)
	_n=$(( ${CGROUP_WAIT:-2} * 5 ))
	while :; do
		_left=$(ls -d /sys/fs/cgroup/*/"$g" /sys/fs/cgroup/"$g" \
		    2>/dev/null)
		[ -n "$_left" ] || return 0
		[ "$_n" -gt 0 ] || break
		for d in $_left; do
			find "$d" -depth -type d -exec rmdir {} + 2>/dev/null
		done
		_n=$((_n - 1))
		sleep 0.2
	done
	echo "cgroup_cleanup: not removed after ${CGROUP_WAIT:-2} s" \
	    "(processes still in them):" $_left >&2
}

# jfield FIELD EVENT: a field of the first JSON line with that event.
jfield() {
	python3 -c '
import json, sys
for l in sys.stdin:
    try:
        r = json.loads(l)
    except ValueError:
        continue
    if r.get("event") == sys.argv[2]:
        v = r[sys.argv[1]]
        print(str(v).lower() if isinstance(v, bool) else v)
        break' "$1" "$2"
}

# jlines: the lines of standard output (output events) of sandboxctl -j
# on stdin.
jlines() {
	python3 -c '
import base64, json, sys
out = b""
for l in sys.stdin:
    r = json.loads(l)
    if r.get("event") == "output" and r["stream"] == "stdout":
        out += (r["data"].encode() if "data" in r else
            base64.b64decode(r["data_b64"]))
sys.stdout.write(out.decode(errors="replace"))'
}

# sbx_create [policy]: prints the new sandbox's id.
sbx_create() {
	if [ -n "${1:-}" ]; then ctl create -p "$1"; else ctl create; fi
}

# in_sbx ID CMD...: sh -c CMD in sandbox ID, its output on stdout.
in_sbx() {
	_id=$1; shift
	ctl exec "$_id" -- sh -c "$*"
}

# run_sbx [sandboxctl run options] -- cmd...: a one-shot sandbox.
run_sbx() { ctl run "$@"; }

# contains TEXT PATTERN: grep -q PATTERN in TEXT, without quoting games.
contains() { printf '%s\n' "$1" | grep -q -e "$2"; }
