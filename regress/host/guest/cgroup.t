#!/bin/sh
# In the Debian 12 guest (regress/host/vm-run): systemd as process 1,
# pure cgroup v2, sandboxd.service with Delegate=yes.  Every cgroup of
# sandboxd is under the unit's own: the daemons in its leaf "daemons",
# each sandbox in sandboxes/<id>; the root's subtree_control is never
# written and nothing is made outside.  The v2 limits hold (memory:
# reason limit and the daemon stays up; pids: a fork bomb capped; cpu:
# cpu.max set and a busy loop throttled).  A killed runnerd, a killed
# unit and a stopped unit leave no sandbox cgroup behind.
set -u
n=0 failed=0
ok()	{ n=$((n + 1)); echo "ok $n - $*"; }
notok()	{ n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
diag()	{ echo "$*" | sed 's/^/# /'; }
check()	{ d=$1; shift; if "$@"; then ok "$d"; else notok "$d"; fi; }
is()	{ if [ "$1" = "$2" ]; then ok "$3"; else notok "$3";
	  diag "got '$1', want '$2'"; fi; }
wait_for() {
	_t=$(( $1 * 10 )); shift
	while [ $_t -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1; _t=$((_t - 1))
	done
	return 1
}
jfield() {
	python3 -c '
import json, sys
for l in sys.stdin:
    try:
        r = json.loads(l)
    except ValueError:
        continue
    if r.get("event") == sys.argv[2]:
        print(r[sys.argv[1]]); break' "$1" "$2"
}

CG=/sys/fs/cgroup
if [ "$(stat -fc %T $CG)" != cgroup2fs ] || ! systemctl cat sandboxd >/dev/null 2>&1; then
	echo "1..0 # SKIP needs systemd's sandboxd.service on pure cgroup v2"
	exit 0
fi
echo "1..31"

ctl() { sandboxctl "$@"; }
mainpid() { systemctl show -p MainPID --value sandboxd; }
cg2() { sed -n 's/^0:://p' "/proc/$1/cgroup" 2>/dev/null; }
runnerd_pid() {
	ctl -j status | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("name") == "runnerd" and r.get("state") == "running":
        print(r["pid"])'
}
serving() { [ "$(ctl run -- echo up 2>/dev/null)" = up ]; }
# Every cgroup.procs with a process in it, relative to the unit's.
busy_groups() {
	find "$CG$U" -name cgroup.procs | while read -r f; do
		# cgroupfs files all have size 0: read them.
		[ -n "$(cat "$f")" ] && dirname "${f#"$CG$U"}"
	done | sort
}
# Groups named sandbox* anywhere but in or at the unit's.
outside() {
	find "$CG" -name 'sandbox*' -type d ! -path "$CG$U" ! -path "$CG$U/*"
}

cp /etc/sandboxd.conf /etc/sandboxd.conf.cgroup-t
cat > /etc/sandboxd.conf <<'CONF'
policy "default" {
	limits { timeout 2m max 5m }
}
policy "tight" {
	limits { memory 64M; pids 32; cpu 20%; timeout 60s max 120s }
}
CONF
systemctl restart sandboxd
check "sandboxd.service is active with the test config" wait_for 120 serving

is "$(systemctl show -p Delegate --value sandboxd)" yes "the unit has Delegate=yes"
U=$(systemctl show -p ControlGroup --value sandboxd)
is "$U" /system.slice/sandboxd.service "its cgroup"
is "$(cg2 "$(mainpid)")" "$U/daemons" "the master is in <unit>/daemons"
# Besides the daemons, runnerd's spare sandboxes (built ahead of demand).
is "$(busy_groups | grep -v -x '/sandboxes/[0-9a-f]\{16\}' | tr '\n' ' ')" "/daemons " \
    "every process of the unit is in that leaf or a sandbox's group"
is "$(cat "$CG$U/cgroup.procs")" "" "the unit's cgroup itself holds no process"
ctrl=$(cat "$CG$U/cgroup.subtree_control" "$CG$U/sandboxes/cgroup.subtree_control" 2>&1)
check "memory, pids and cpu are passed on by the unit and by sandboxes" \
    python3 -c 'import sys; w = sys.argv[1].split("\n")
sys.exit(not (len(w) == 2 and all(set(l.split()) >= {"memory", "pids", "cpu"} for l in w)))' "$ctrl"
diag "$ctrl"

# While sandboxes live and hit limits, watch the root: a write of its
# subtree_control or a group made at the top is ours (nothing else on
# the guest changes units meanwhile).
mkfifo /run/cgroup-t.fifo
python3 -c '
import ctypes, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(os.O_NONBLOCK)
w1 = libc.inotify_add_watch(fd, b"/sys/fs/cgroup/cgroup.subtree_control", 0x2)
w2 = libc.inotify_add_watch(fd, b"/sys/fs/cgroup", 0x100)
print("watching" if w1 > 0 and w2 > 0 else "no watch", flush=True)
sys.stdin.read()
try:
    buf = os.read(fd, 65536)
except BlockingIOError:
    buf = b""
i = 0
while i < len(buf):
    wd, mask, cookie, ln = struct.unpack_from("iIII", buf, i)
    name = buf[i + 16:i + 16 + ln].rstrip(b"\0").decode()
    print("root subtree_control written" if wd == w1 else "made /" + name)
    i += 16 + ln' </run/cgroup-t.fifo >/run/cgroup-t.watch &
watcher=$!
exec 7>/run/cgroup-t.fifo
wait_for 5 grep -q watching /run/cgroup-t.watch

id=$(ctl create -p tight)
pid1=$(ctl -j show "$id" | jfield pid sandbox)
S="$CG$U/sandboxes/$id"
is "$(cg2 "$pid1")" "$U/sandboxes/$id" "a sandbox's pid 1 is in <unit>/sandboxes/<id>"
is "$(cat "$S/memory.max") $(cat "$S/pids.max") $(cat "$S/cpu.max")" \
    "67108864 32 20000 100000" "its memory.max, pids.max and cpu.max are the policy's"
is "$(cat "$S/memory.swap.max")" 0 "and no swap"

master=$(mainpid)
r=$(ctl -j run -p tight -- python3 -c 'x = bytearray(512 * 1024 * 1024); print(len(x))' |
    jfield reason exit)
is "$r" limit "an exec over its memory ends with reason limit"
is "$(ctl run -p tight -- python3 -c 'x = bytearray(16 * 1024 * 1024); print(len(x))')" \
    16777216 "16 MiB under the 64 MiB limit is fine"
check "the daemon stays up, same master" sh -c "[ \"\$(systemctl is-active sandboxd)\" = active ] && [ \"\$(systemctl show -p MainPID --value sandboxd)\" = $master ]"

out=$(ctl run -p tight -- python3 -c '
import os, time
n = 0
try:
    for i in range(1000):
        if os.fork() == 0:
            time.sleep(3); os._exit(0)
        n += 1
except OSError as e:
    print("stopped", n, e.errno)' 2>&1)
forks=$(echo "$out" | awk '/^stopped/ { print $2 }')
check "a fork bomb stops at pids 32 ($forks children)" [ -n "$forks" ] && [ "$forks" -lt 32 ]

stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1/cpu.stat"; }
thr0=$(stat_of "$S" nr_throttled); use0=$(stat_of "$S" usage_usec)
t0=$(date +%s%N)
ctl exec "$id" -- python3 -c '
import time
end = time.monotonic() + 4
while time.monotonic() < end:
    pass' >/dev/null
t1=$(date +%s%N)
thr1=$(stat_of "$S" nr_throttled); use1=$(stat_of "$S" usage_usec)
diag "busy 4s: nr_throttled $thr0 -> $thr1, usage $(( (use1 - use0) / 1000 )) ms in $(( (t1 - t0) / 1000000 )) ms"
check "a busy loop under cpu 20% is throttled (cpu.stat nr_throttled)" [ "$thr1" -gt "$thr0" ]
check "and gets at most 30% of one cpu" [ $(( (use1 - use0) * 100 )) -le $(( (t1 - t0) / 1000 * 30 )) ]

ctl destroy "$id" >/dev/null
check "a destroyed sandbox's cgroup is gone" wait_for 10 test ! -d "$S"
exec 7>&-
wait "$watcher"
is "$(cat /run/cgroup-t.watch | grep -v watching)" "" \
    "meanwhile nothing wrote the root's subtree_control or made a top-level group"
is "$(outside)" "" "no group named sandbox* outside the unit's"

# A killed runnerd: its sandboxes' pid 1s die with it; the one the
# master starts again removes their cgroups.
id=$(ctl create -p tight)
pid1=$(ctl -j show "$id" | jfield pid sandbox)
old=$(runnerd_pid)
kill -KILL "$old"
runnerd_back() { p=$(runnerd_pid); [ -n "$p" ] && [ "$p" != "$old" ] && serving; }
check "runnerd killed: the master starts another that serves" wait_for 60 runnerd_back
is "$(cg2 "$(runnerd_pid)")" "$U/daemons" "in <unit>/daemons"
check "the dead runnerd's sandbox cgroup is gone" wait_for 10 test ! -d "$CG$U/sandboxes/$id"
check "removed by the new runnerd's reconcile" sh -c \
    "journalctl -b -u sandboxd --no-pager | grep -q 'removed leftover cgroup $CG$U/sandboxes/$id'"
check "and its pid 1 with it" sh -c "! kill -0 $pid1 2>/dev/null"

# The unit killed: systemd starts it again, and nothing of the old one
# is left under it.
id=$(ctl create -p tight)
pid1=$(ctl -j show "$id" | jfield pid sandbox)
# The live one and the spares: all of the old runnerd's.
old_groups=$(find "$CG$U/sandboxes" -mindepth 1 -type d)
m0=$(mainpid)
systemctl kill -s KILL sandboxd
restarted() { m=$(mainpid); [ "$m" != 0 ] && [ "$m" != "$m0" ] && serving; }
check "systemctl kill -s KILL: systemd restarts the unit and it serves" wait_for 120 restarted
is "$(cg2 "$(mainpid)")" "$U/daemons" "the new master is in <unit>/daemons"
left=
for g in $old_groups; do [ -d "$g" ] && left="$left $g"; done
diag "$(echo "$old_groups" | wc -l) groups before, now: $(find "$CG$U/sandboxes" -mindepth 1 -type d | tr '\n' ' ')"
is "$left" "" "no sandbox cgroup of the old one is left"
check "nor its sandbox's pid 1" sh -c "! kill -0 $pid1 2>/dev/null"

# Stopped: no cgroup, no process.
id=$(ctl create -p tight)
pid1=$(ctl -j show "$id" | jfield pid sandbox)
systemctl stop sandboxd
check "systemctl stop: the unit's cgroup is gone" test ! -d "$CG$U"
is "$(find "$CG" -name 'sandbox*')" "" "no group named sandbox* anywhere"
check "no sandbox process is left" sh -c "! kill -0 $pid1 2>/dev/null"

mv /etc/sandboxd.conf.cgroup-t /etc/sandboxd.conf
systemctl start sandboxd
rm -f /run/cgroup-t.fifo /run/cgroup-t.watch
[ "$failed" = 0 ]
