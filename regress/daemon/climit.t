#!/bin/sh
# The control clients limit: a client over it is answered with a reason
# and exit status 125, never reset; under the default, 1000 concurrent
# runs all complete with the daemon started from a soft nofile of 1024.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 9

N=${CLIMIT_RUNS:-1000}
ulimit -Sn 1024
write_conf 'control clients 4'
check "suite starts with control clients 4" suite_start

holders=
for i in 1 2 3 4; do
	ctl run -- sleep 3 >/dev/null 2>&1 &
	holders="$holders $!"
done
sleep 1.5
out=$(ctl status 2>&1)
is "$?" 125 "a fifth client gets exit status 125"
check "and a clear message" contains "$out" "too many clients"
reset() { printf '%s\n' "$1" | grep -q -i 'reset\|closed the connection'; }
check "never a reset" eval '! reset "$out"'
check "the refusal is logged" grep -q "too many clients (control clients 4)" "$LOG"
wait $holders
check "once they are gone, status is served again" \
    sh -c "$SANDBOXCTL -s $SOCK status | grep -q runnerd"
suite_stop

write_conf ''
check "suite starts with the default limit, soft nofile $(ulimit -Sn)" \
    suite_run
mkdir "$T/runs"
runs=
start=$(date +%s)
i=0
while [ $i -lt "$N" ]; do
	( ctl run -- sh -c 'sleep 1' >"$T/runs/$i.out" 2>&1
	  echo $? >"$T/runs/$i.rc" ) &
	runs="$runs $!"
	i=$((i + 1))
done
wait $runs
end=$(date +%s)
diag "$N concurrent runs took $((end - start))s"
diag "exit statuses: $(cat "$T"/runs/*.rc | sort | uniq -c | tr '\n' ' ')"
diag "$(cat "$T"/runs/*.out | sed 's/[0-9a-f]\{16\}/ID/g' | sort | uniq -c |
    sort -rn | head -5)"
okc=$(grep -lx 0 "$T"/runs/*.rc | wc -l)
is "$okc" "$N" "$N concurrent runs all exit 0"
bad=$(grep -l -i 'reset\|closed the connection\|too many' "$T"/runs/*.out |
    head -3)
[ -z "$bad" ] || diag "$(cat $bad)"
is "$bad" "" "none was reset or refused"
done_testing
