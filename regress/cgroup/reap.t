#!/bin/sh
# regress/lib/cgroup_reap.py (make test runs it first): the sandboxd-HASH
# trees of suites killed before their cleanup go, in every v1 hierarchy
# and in cgroup2, and those of a suite that still runs stay, as does a
# tree with a process in it, one whose suite has no lock (a harness
# from before it) and the plain "sandboxd".  Fake suites, as common.sh
# makes them: /tmp/sbxtest.X with a suite.lock, a tree named after the
# hash of X/state, two levels deep as runnerd's (a sandbox, and a
# child of it).
. "$(dirname "$0")/../lib/common.sh"
need_root

REAP="$ROOT/regress/lib/cgroup_reap.py"
# The roots the reaper walks: every hierarchy mounted whole.
ROOTS=$(awk '{ for (i = 7; i < NF && $i != "-"; i++) ; t = $(i + 1)
    if ((t == "cgroup" || t == "cgroup2") && $4 == "/") print $5 }' \
    /proc/self/mountinfo | sort -u)
NROOTS=$(echo "$ROOTS" | wc -w)
plan 9

# tree NAME: made in every root; how many roots have it, after.
tree() {
	for r in $ROOTS; do mkdir -p "$r/$1/sbxfake/child" || return 1; done
}
count() {
	_n=0
	for r in $ROOTS; do [ -d "$r/$1" ] && _n=$((_n + 1)); done
	echo $_n
}

STALE=$(mktemp -d /tmp/sbxtest.XXXXXX)	# suite gone: lock free
LIVE=$(mktemp -d /tmp/sbxtest.XXXXXX)	# suite runs: lock held
BUSY=$(mktemp -d /tmp/sbxtest.XXXXXX)	# suite gone, a process left in it
NOLOCK=$(mktemp -d /tmp/sbxtest.XXXXXX)	# an older harness's
GONE=/tmp/sbxtest.gone$$		# its cleanup removed T, not the tree
: > "$STALE/suite.lock"
: > "$BUSY/suite.lock"
# One process holds it, as a suite's shell does.
sh -c 'exec 8> "$1"; flock -x 8; exec sleep 600' sh "$LIVE/suite.lock" &
holder=$!
G_STALE=$(cgroup_group "$STALE/state") G_LIVE=$(cgroup_group "$LIVE/state")
G_BUSY=$(cgroup_group "$BUSY/state") G_NOLOCK=$(cgroup_group "$NOLOCK/state")
G_GONE=$(cgroup_group "$GONE/state")
busy=
reap_cleanup() {
	[ -n "$busy" ] && kill -KILL "$busy" 2>/dev/null
	kill "$holder" 2>/dev/null
	sleep 0.2
	for g in $G_STALE $G_LIVE $G_BUSY $G_NOLOCK $G_GONE; do
		for r in $ROOTS; do
			[ -d "$r/$g" ] && find "$r/$g" -depth -type d \
			    -exec rmdir {} + 2>/dev/null
		done
	done
	rm -rf "$STALE" "$LIVE" "$BUSY" "$NOLOCK"
	cleanup
}
trap reap_cleanup EXIT
wait_for 5 sh -c "! flock -n '$LIVE/suite.lock' true"

for g in $G_STALE $G_LIVE $G_BUSY $G_NOLOCK $G_GONE; do
	tree "$g" || { notok "fake trees made"; exit 1; }
done
# A process in BUSY's sandbox cgroup of the first root.
first=$(echo "$ROOTS" | head -n 1)
sleep 600 &
busy=$!
echo "$busy" > "$first/$G_BUSY/sbxfake/child/cgroup.procs" ||
    { notok "a process moved into a fake tree"; exit 1; }
diag "roots: $(echo $ROOTS)"

python3 "$REAP" -v > "$T/out" 2>&1
rc=$?
sed 's/^/# /' "$T/out" | grep -e fake -e "$G_STALE" -e "$G_LIVE" \
    -e "$G_BUSY" -e "$G_NOLOCK" -e "$G_GONE"
is "$rc" 0 "cgroup_reap.py exits 0"
is "$(count "$G_STALE")" 0 "a killed suite's tree goes, in all $NROOTS roots"
is "$(count "$G_GONE")" 0 "a tree whose suite removed its directory goes"
is "$(count "$G_LIVE")/$(find $(for r in $ROOTS; do echo "$r/$G_LIVE"; done) \
    -type d | wc -l)" "$NROOTS/$((NROOTS * 3))" \
    "a running suite's tree stays, whole, in every root"
is "$(count "$G_NOLOCK")" "$NROOTS" "a suite without a lock keeps its tree"
check "a tree with a process in it stays, down to its cgroup" \
    test -d "$first/$G_BUSY/sbxfake/child"
check "and goes from the other roots, where it is empty" \
    test "$(count "$G_BUSY")" = 1
check "the reaper says why the running suite's stays, and the busy one" \
    sh -c "grep -q '$G_LIVE stays: its suite runs' '$T/out' &&
	grep -q '$G_BUSY stays: .*(processes in it)' '$T/out'"

# Once the live suite is gone, its tree goes too.
kill "$holder"
wait "$holder" 2>/dev/null
python3 "$REAP" > /dev/null 2>&1
is "$(count "$G_LIVE")" 0 "that tree goes once no process holds its lock"
done_testing
