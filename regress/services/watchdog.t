#!/bin/sh
# The watchdog: a service that stops sending health on its broker
# channel is aborted (abort notice, SIGTERM, SIGKILL) and restarted
# within watchdog + grace; its twin that keeps sending is left alone.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 10
setup_users
S=$ROOT/regress/services
write_conf "
policy \"wd\" {
	filesystem { read \"$S\" }
	limits { grace 1s }
	watchdog 3s
}"
suite_start || { notok "suite started"; exit 1; }
ok "suite started"
. "$S/svc.sh"

ctl service start quiet -p wd -- python3 $S/svc_plugin.py --health 0.5 --health-for 2 >/dev/null
ctl service start alive -p wd -- python3 $S/svc_plugin.py --health 0.5 >/dev/null
check "the silent one is restarted" svc_wait 20 quiet starts=2 state=running
starts=$($A quiet times service.start | tr '\n' ' ')
wd=$($A quiet times service.watchdog | head -1)
diag "quiet: starts at $starts, watchdog abort at $wd"
set -- $starts
# health goes every 0.5 s for the first 2 s of its life, so the last
# one is 1.5 to 2 s after the start, and the abort 3 s after that.
check "not aborted while it was sending health: >= 1.5 s + watchdog (3 s)" \
    python3 -c 'import sys; s, w = map(float, sys.argv[1:]); sys.exit(not w - s >= 4.4)' "$1" "$wd"
check "and no later than that + 1.5 s" \
    python3 -c 'import sys; s, w = map(float, sys.argv[1:]); sys.exit(not w - s <= 6.5)' "$1" "$wd"
check "running again within watchdog + grace + backoff of its silence" \
    python3 -c 'import sys; s, n = map(float, sys.argv[1:]); sys.exit(not n - s <= 2 + 3 + 2 + 0.25 + 1.5)' "$1" "$2"
check "the crash line says why" \
    contains "$($A quiet field service.crash reason | head -1)" '^"watchdog: no health in time, aborted (signal 15)"$'
check "status says why too" contains "$(svc_field quiet reason)" '^watchdog: no health in time'
sleep 3
check "the one that keeps sending health is not touched" svc_is alive starts=1 state=running
is "$($A alive count service.watchdog)" 0 "no watchdog line for it"
out=$(talk alive '[["echo",[1]]]')
check "and it still serves" contains "$out" '^\[1\]$'

done_testing
