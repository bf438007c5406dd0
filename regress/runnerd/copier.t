#!/bin/sh
# A put or get still copying when its sandbox is destroyed is killed
# with it: its copier runs as the sandbox's uid, which must not be
# handed to the next sandbox while anything still runs as it.  Beside
# each, a twin copy through the same pipe that finishes normally.  A
# copier the kernel holds after SIGKILL does not hold runnerd: the
# destroy is answered and others served, the uid kept until it dies.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 23

setup_users
# One uid in the range and no spare: the next sandbox gets the same uid.
base=$((310000 + ($$ % 500) * 1000))
write_sandbox_conf "uid-range $base 1
prebuild 0"
check "suite starts" suite_start
copy() { python3 "$ROOT/regress/runnerd/pipecopy.py" "$SOCK" "$@"; }
# Processes of uid $base outside any sandbox's pid namespace: a
# copier (runnerd's child), not something in the sandbox.
copiers() {
	python3 -c '
import glob, sys
for p in glob.glob("/proc/[0-9]*/status"):
    try:
        f = dict(l.split(":", 1) for l in open(p) if ":" in l)
    except OSError:
        continue
    if (f["Uid"].split()[0] == sys.argv[1] and
            len(f.get("NSpid", "").split()) == 1):
        print(p.split("/")[2])' "$base"
}
uidprocs() { ps -eo uid= | awk -v u="$base" '$1 == u' | wc -l; }
none_left() { [ "$(uidprocs)" = 0 ]; }
has_copier() { [ -n "$(copiers)" ]; }
no_copier() { [ -z "$(copiers)" ]; }
started() { grep -q started "$1"; }

s=$(sbx_create)
is "$(in_sbx "$s" 'id -u')" "$base" "the sandbox has the one uid"
# The twins: the same copies, through a pipe, run to their end.
is "$(copy "$s" put f 100000 finish 2>/dev/null)" "put f: 100000 bytes" \
    "a put from a pipe that ends completes"
is "$(in_sbx "$s" 'wc -c < f')" 100000 "it arrived whole"
in_sbx "$s" 'head -c 1000000 /dev/zero > big'
is "$(copy "$s" get big 4096 finish 2>/dev/null)" "got big: 1000000 bytes" \
    "a get into a pipe that is read to the end completes"
is "$(copiers)" "" "no copier is left after them"

# A put that waits for more input, then its sandbox goes.
copy "$s" put slow 1000 hold >"$T/put.out" 2>"$T/put.err" &
putpid=$!
wait_for 10 started "$T/put.err"
check "the put's copier runs as the sandbox's uid" wait_for 5 has_copier
ctl destroy "$s" >/dev/null
# Killed before the destroy is answered, reaped on its SIGCHLD.
check "the put's copier is gone with the destroy" wait_for 5 no_copier
check "nothing runs as the uid any more" wait_for 5 none_left
wait $putpid
check "its client hears why ($(cat "$T/put.out"))" \
    grep -q "destroyed" "$T/put.out"

s=$(sbx_create)
in_sbx "$s" 'head -c 1000000 /dev/zero > big'
# A get whose reader stopped reading: the copier waits in write(2).
copy "$s" get big 4096 hold >"$T/get.out" 2>"$T/get.err" &
getpid=$!
wait_for 10 started "$T/get.err"
check "the get's copier runs as the sandbox's uid" wait_for 5 has_copier
ctl destroy "$s" >/dev/null
check "the get's copier is gone with the destroy" wait_for 5 no_copier
check "nothing runs as the uid any more" wait_for 5 none_left
wait $getpid
check "its client hears why ($(cat "$T/get.out"))" \
    grep -q "destroyed" "$T/get.out"

# The uid goes to the next sandbox only with nothing left running as it.
s=$(sbx_create)
is "$(in_sbx "$s" 'id -u')" "$base" "the next sandbox has the same uid"
is "$(copiers)" "" "and no copier of the old ones runs as it"
ctl destroy "$s" >/dev/null
check "that sandbox is buried: nothing runs as the uid" wait_for 5 none_left

# A copier SIGKILL cannot end at once: the v1 freezer keeps a frozen
# task, killed, until it is thawed, as a hung filesystem would.  A
# blocking wait for it would hold runnerd's event loop all that time.
FRZ=/sys/fs/cgroup/freezer/sbxt_copier$$
frz_cleanup() {
	[ -d "$FRZ" ] || return 0
	echo THAWED >"$FRZ/freezer.state" 2>/dev/null
	sleep 0.2
	rmdir "$FRZ" 2>/dev/null
}
trap 'frz_cleanup; cleanup' EXIT
frozen() { grep -q FROZEN "$FRZ/freezer.state"; }
nouid() {
	contains "$(timeout 10 "$SANDBOXCTL" -s "$SOCK" create 2>&1)" \
	    "no free sandbox uid"
}
if ! mkdir "$FRZ" 2>/dev/null; then
	for i in 1 2 3 4 5 6; do
		ok "# SKIP no cgroup v1 freezer to hold a copier"
	done
	ctl destroy "$s" >/dev/null
	done_testing
	exit
fi
s=$(sbx_create)
copy "$s" put slow 1000 hold >"$T/frz.out" 2>"$T/frz.err" &
frzpid=$!
wait_for 10 started "$T/frz.err"
wait_for 5 has_copier
for p in $(copiers); do echo "$p" >"$FRZ/cgroup.procs"; done
echo FROZEN >"$FRZ/freezer.state"
check "the copier is frozen" wait_for 5 frozen
t0=$(date +%s%N)
timeout 10 "$SANDBOXCTL" -s "$SOCK" destroy "$s" >/dev/null 2>&1
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "its sandbox's destroy is answered at once ($ms ms, rc $rc)" \
    test "$rc" = 0 -a "$ms" -lt 3000
check "a create meanwhile is served, refused: the uid is still taken" nouid
check "the killed copier is still there, held" has_copier
echo THAWED >"$FRZ/freezer.state"
check "thawed, it dies and is reaped" wait_for 5 no_copier
wait $frzpid
s=$(sbx_create)
is "$(in_sbx "$s" 'id -u')" "$base" "then the uid goes to the next sandbox"
ctl destroy "$s" >/dev/null
done_testing
