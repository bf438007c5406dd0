#!/bin/sh
# Every sandbox's pid 1 starts as a fork of runnerd, so runnerd's heap
# is what each fork copies: a burst of 1000 sandboxes, once destroyed,
# must not leave runnerd holding the heap it grew for them.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 5

setup_users
base=$((300000 + ($$ % 500) * 1000))
write_sandbox_conf "uid-range $base 1100"
check "suite starts" suite_start
rpid=$(child_field runnerd pid)
anon() { awk '/^RssAnon:/ { print $2 }' /proc/$rpid/status; }
sbxdirs() { ls "$(state_dir)" | grep -v '^kept$' | wc -l; }
spare_only() { [ "$(sbxdirs)" = 1 ]; }
wait_for 5 spare_only
a0=$(anon)

# ids: the live sandboxes' ids, one a line.
ids() {
	ctl -j ps | python3 -c '
import json, sys
for l in sys.stdin:
    e = json.loads(l)
    if e.get("event") == "sandbox":
        print(e["id"])'
}
N=1000
seq $N | xargs -P 4 -n 50 sh -c 's=$1; shift; for i; do
	"$0" -s "$s" create >/dev/null || echo "create $i failed"; done' \
    "$SANDBOXCTL" "$SOCK" > "$T/create.out" 2>&1
is "$(ids | wc -l)" $N "$N sandboxes live"
peak=$(anon)
ids | xargs -P 4 -n 50 sh -c \
    's=$1; shift; for i; do "$0" -s "$s" destroy "$i" >/dev/null; done' \
    "$SANDBOXCTL" "$SOCK"
wait_for 30 spare_only
is "$(ids | wc -l)" 0 "all destroyed"
a1=$(anon)
diag "runnerd RssAnon: $a0 KiB with only the spare, $peak KiB with $N," \
    "$a1 KiB after they went"
check "the burst grew runnerd's heap (else this proves nothing)" \
    [ $((peak - a0)) -gt 1024 ]
# The sanitizers' allocator keeps what is freed in its quarantine.
if strings "$B/runnerd" | grep -q '__asan_init'; then
	ok "# SKIP the ASan build's allocator quarantines freed memory"
else
	check "runnerd gave back at least half of it once they went" \
	    [ $((a1 - a0)) -lt $(((peak - a0) / 2)) ]
fi
