#!/bin/sh
# A service that crashes every time is restarted after delays that grow
# and are jittered -- measured from the audit lines' timestamps, not
# taken from what the daemon says it waited -- until the policy's cap,
# then shows failed with the reason.  One that crashes once is back and
# serving.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 16
setup_users
S=$ROOT/regress/services
mkdir -m 1777 "$T/once"
write_conf "
policy \"crashy\" {
	filesystem { read \"$S\" }
	restart on-failure max 6 per 10m
}
policy \"once\" {
	filesystem { read \"$S\"; write \"$T/once\" }
}"
suite_start || { notok "suite started"; exit 1; }
ok "suite started"
. "$S/svc.sh"

out=$(ctl service start loop -p crashy -- python3 $S/svc_plugin.py --crash)
check "service start answers" contains "$out" '^started$'
check "the crash loop ends, failed, within 40 s" svc_wait 40 loop state=failed
is "$(svc_field loop starts)" 7 "the first start and 6 restarts, no more"
reason=$(svc_field loop reason)
check "the reason is the last exit and the cap ($reason)" \
    contains "$reason" '^exited with status 3 (gave up after 6 restarts within 600s)$'
is "$($A loop count service.giveup)" 1 "one give-up audit line"
check "crash lines carry the status and the last lines of stderr" \
    contains "$($A loop field service.crash stderr | tail -1)" \
    '"plugin: line 4 before the crash", .*"plugin: crashing now"\]'
is "$($A loop count service.backoff)" 6 "one backoff line per restart"

gaps=$($A loop gaps | tr '\n' ' ')
diag "measured restart delays (ms): $gaps"
set -- $gaps
is "$#" 6 "six delays measured"
first=$(( ($1 + $2 + $3) / 3 )); last=$(( ($4 + $5 + $6) / 3 ))
check "they grow on average: first three ${first} ms, last three ${last} ms" \
    test "$last" -gt "$first"
check "no delay exceeds its ceiling (250 ms doubling) by more than 700 ms" \
    python3 -c '
import sys
g = [int(x) for x in sys.argv[1:]]
sys.exit(any(d > 250 * 2 ** i + 700 for i, d in enumerate(g)))' $gaps
ndistinct=$(printf '%s\n' $gaps | sort -u | wc -l)
spread=$(printf '%s\n' $gaps | sort -n | sed -n '1p;$p' | tr '\n' ' ' |
    awk '{ print $2 - $1 }')
check "they are jittered: $ndistinct distinct values, spread ${spread} ms" \
    test "$ndistinct" -ge 5 -a "$spread" -gt 200
sleep 1
is "$(svc_field loop starts)" 7 "a failed service is not started again"

ctl service start once -p once -- python3 $S/svc_plugin.py --crash-once "$T/once" >/dev/null
check "a service that crashes once is back and running, after one restart" \
    svc_wait 10 once state=running starts=2 restarts=1
sleep 1
check "... and stays so" svc_is once state=running starts=2
out=$(talk once '[["echo",["hello"]],["whoami",{}]]')
diag "$out"
check "... and serving: it answers through attach" \
    contains "$out" '^\["hello"\]$'

done_testing
