#!/bin/sh
# bench.sh's settle step (settle.py) against the kernel: it waits for
# network namespaces let go after it began until the kernel's work at
# them is done, and says when that was; it counts the memory cgroups
# that page cache keeps dying as held, not waited for, and sees them go
# once the cache does.  Namespaces: 150, each with a veth pair, held by
# one process while settle.py starts (so that it cannot miss them),
# let go 1.5 s later; settle.py's quiet is 3 s, so that it cannot end
# before.  First one namespace made and deleted: its cleanup_net frees
# the structs of those that earlier ones (tests, this one's last run)
# left torn down but not freed, which would leave the baseline too
# high.  Memory cgroups: 30, each charged a 64 KiB file of
# a process of its own, then removed: dying until the files go.
. "$(dirname "$0")/../lib/common.sh"
need_root

SETTLE="$ROOT/regress/bench/settle.py"
N=150 M=30
P="sbxs$$"
plan 8

# field OUT NAME: "A B" of settle.py's "NAME A -> B" in OUT.
field() {
	sed -n "s/.*$2 \([0-9]*\) -> \([0-9]*\).*/\1 \2/p" "$1" | head -n 1
}
MEMCG=
settle_cleanup() {
	[ -n "${holder:-}" ] && kill "$holder" 2>/dev/null
	i=0
	while [ $i -lt $N ]; do echo "netns del ${P}_$i"; i=$((i + 1)); done |
	    ip -force -batch - 2>/dev/null
	rm -rf "$T/pin"
	[ -n "$MEMCG" ] && find "$MEMCG" -depth -type d -exec rmdir {} + \
	    2>/dev/null
	cleanup
}
trap settle_cleanup EXIT

ip netns add "${P}_f" && ip netns del "${P}_f"
python3 "$SETTLE" -t 10 -q 1 -l baseline -w "$T/base" > "$T/b.out"
check "a baseline" test -s "$T/base"
sed 's/^/# /' "$T/b.out"

# Namespaces.
i=0
while [ $i -lt $N ]; do
	echo "netns add ${P}_$i"
	echo "link add a$i netns ${P}_$i type veth peer b$i netns ${P}_$i"
	i=$((i + 1))
done > "$T/add"
ip -batch "$T/add" || { notok "$N namespaces made"; exit 1; }
mkfifo "$T/go"
python3 -c '
import os, sys
fds = [os.open("/run/netns/%s_%d" % (sys.argv[1], i), os.O_RDONLY)
       for i in range(int(sys.argv[2]))]
print("held", flush=True)
sys.stdin.read()' "$P" "$N" < "$T/go" > "$T/held" &
holder=$!
exec 7> "$T/go"
wait_for 10 grep -q held "$T/held"
i=0
while [ $i -lt $N ]; do echo "netns del ${P}_$i"; i=$((i + 1)); done |
    ip -batch -
BENCH_KV="$T/kv" python3 "$SETTLE" -t 60 -q 3 -b "$T/base" -k ns -l ns \
    > "$T/ns.out" 2> "$T/ns.err" 7>&- &
sp=$!
sleep 1.5
exec 7>&-		# the holder goes, and the namespaces with it
wait "$holder"
wait "$sp"
rc=$?
sed 's/^/# /' "$T/ns.out" "$T/ns.err"
set -- $(field "$T/ns.out" "net_namespace objects")
base=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["netns"])' "$T/base")
is "$rc/$(wc -c < "$T/ns.err")" "0/0" "settle.py exits 0, within its timeout"
# Per-CPU slabs' free objects count as active: the rise is N less up to
# settle.py's slack (64 here).
check "it counted the $N held namespaces when it began ($1, baseline $base)" \
    test "${1:-0}" -ge $((base + N - 64))
# Done no sooner than they were let go, and either freed or said to be
# no longer worked at (their structs freed by a later cleanup_net).
took=$(awk '$1 == "settle_s_ns" { print $2 }' "$T/kv")
check "it saw the kernel at them after they were let go (done at ${took:-?} s)" \
    awk -v t="${took:-0}" 'BEGIN { exit !(t >= 1.0) }'
check "it came back with them freed (${2:-?}) or not worked at any more" \
    sh -c "[ '${2:-99999}' -le $((${1:-0} - N + 64)) ] ||
	grep -q 'not freed, with no kernel work at them' '$T/ns.out'"

# Memory cgroups, v1 or cgroup2.
MEMROOT=$(awk '{ for (i = 7; i < NF && $i != "-"; i++) ; t = $(i + 1)
    if ($4 != "/") next
    if (t == "cgroup" && $NF ~ /(^|,)memory(,|$)/) print "v1 " $5
    if (t == "cgroup2") print "v2 " $5 }' /proc/self/mountinfo |
    while read -r v m; do
	if [ $v = v1 ] || grep -qw memory "$m/cgroup.subtree_control" \
	    2>/dev/null; then echo "$m"; break; fi
    done)
if [ -z "$MEMROOT" ]; then
	for n in 1 2 3; do ok "# SKIP no memory controller"; done
	exit 0
fi
MEMCG="$MEMROOT/sbxsettle$$"
mkdir -p "$T/pin" "$MEMCG"
# cgroup2: its children get a memory controller of their own only so.
[ ! -f "$MEMCG/cgroup.subtree_control" ] ||
    echo +memory > "$MEMCG/cgroup.subtree_control"
i=0
while [ $i -lt $M ]; do
	mkdir "$MEMCG/$i"
	sh -c 'echo $$ > "$1/cgroup.procs" && exec head -c 65536 /dev/urandom' \
	    sh "$MEMCG/$i" > "$T/pin/$i"
	i=$((i + 1))
done
find "$MEMCG" -depth -type d -exec rmdir {} +
check "$M memory cgroups, each charged a file, removed" test ! -d "$MEMCG"
BENCH_KV="$T/kv" python3 "$SETTLE" -t 20 -q 1 -b "$T/base" -k pinned \
    -l pinned > "$T/pin.out" 2>&1
sed 's/^/# /' "$T/pin.out"
pend=$(awk '$1 == "settle_cgroups_left_pinned" { print $2 }' "$T/kv")
check "they are held, not waited for to the timeout ($pend above the baseline)" \
    sh -c "grep -q 'no kernel work at them .*dying cgroups' '$T/pin.out' &&
	! grep -q 'still pending' '$T/pin.out' && [ '${pend:-0}' -ge $((M - 5)) ]"
rm -rf "$T/pin"
BENCH_KV="$T/kv" python3 "$SETTLE" -t 20 -q 1 -b "$T/base" -k unpinned \
    -l unpinned > "$T/unpin.out" 2>&1
sed 's/^/# /' "$T/unpin.out"
left=$(awk '$1 == "settle_cgroups_left_unpinned" { print $2 }' "$T/kv")
check "and freed once their page cache is gone ($left above the baseline)" \
    test "${left:-99}" -le $((pend - M + 5))
done_testing
