#!/bin/sh
# Bounded per-client queues: 100 control clients send status requests
# and never read a reply.  The master drops each one whose unread
# replies pass 1 MiB (sandboxd(8)), says so, and its peak RSS grows by
# no more than the 64 clients it serves at once (control clients 64)
# can hold (64 x (1 MiB +
# one 11 KiB status reply + a 64 KiB read buffer), about 70 MiB: under
# 96 MiB with the allocator's due) rather than by all they asked for
# (11 KiB a request); root goes on being served meanwhile, and after.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 8

setup_users
write_conf 'control clients 64
policy "big" { limits { stdout 32M } }'
check "suite starts" suite_start
D=$ROOT/regress/daemon
hwm() { awk '$1 == "VmHWM:" { print $2 }' "/proc/$SBX_PID/status"; }
before=$(hwm)

# 100 clients x 200 requests: 2.2 MiB of replies each, unbounded.
# Under ASan (make asan) every allocation carries redzones and the
# quarantine holds freed ones: a larger bound, and twice the requests
# so that what they ask still dwarfs it.
case "$B" in
*asan*) bound=160 nreq=400 ;;
*) bound=96 nreq=200 ;;
esac
python3 "$D/noreader.py" "$SOCK" 100 $nreq 40 >"$T/flood" 2>&1 &
fpid=$!
sleep 2
served=0
i=0
while [ $i -lt 10 ]; do
	wait_for 5 ctl status && served=$((served + 1))
	sleep 0.5
	i=$((i + 1))
done
is "$served" 10 "status served 10 times out of 10 during the flood"
wait $fpid
diag "$(cat "$T/flood")"
after=$(hwm)
growth=$(( (after - before) / 1024 ))
diag "master VmHWM ${before} kB before, ${after} kB after: +${growth} MiB"
sent=$(sed -n 's/.*sent \([0-9]*\).*/\1/p' "$T/flood")
asked=$(( ${sent:-0} * 11 / 1024 ))
check "the clients asked for ${asked} MiB of replies (${sent:-0} requests)" \
    [ "$asked" -gt $((bound + 32)) ]
check "the master's peak RSS grew by under $bound MiB (+${growth} MiB)" \
    [ "$growth" -lt "$bound" ]
n=$(grep -c "dropping client .*: more than 1 MiB of replies left unread" "$LOG")
d=$(sed -n 's/.*dropped \([0-9]*\).*/\1/p' "$T/flood")
grep "dropping client" "$LOG" | sed 's/.*pid [0-9]*: //' | sort | uniq -c | while read -r l; do diag "$l"; done
r=$(grep -c "too many clients" "$LOG")
check "all 100 are dropped ($d): $n past 1 MiB, $r refused as too many" \
    test "${d:-0}" = 100 -a $((n + r)) -ge 100 -a "$n" -ge 36
check "status is served after the flood" ctl status
is "$(ctl run -- echo up)" up "a run starts after the flood"
# A slow reader is not a stalled one: its replies pass 1 MiB while it
# reads nothing for 3 s, then it reads them all.
got=$("$SANDBOXCTL" -s "$SOCK" run -p big -- head -c 20971520 /dev/zero |
    (sleep 3; wc -c))
is "$got" 20971520 "a reader 3 s late gets all of 20 MiB of output"
done_testing
