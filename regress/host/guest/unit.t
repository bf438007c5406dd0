#!/bin/sh
# sandboxd.service as systemd runs it: Type=notify reaches active with
# the socket answering, STATUS= counts sandboxes, the watchdog is fed in
# normal operation and restarts a service whose child hangs, reload
# succeeds or fails with the parser's file:line while the running config
# stays, LimitNOFILE reaches the master but not a sandbox, the journal
# keeps priorities, and systemd-analyze security rates it at most 5.0.
. "${SBX_SRC:-.}/regress/host/guest/lib.sh"
plan 29

show() { systemctl show -p "$1" --value sandboxd; }
gen() {
	sandboxctl -j status | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("name") == "sandboxd":
        print(r["conf_generation"])'
}
running_children() {
	sandboxctl -j status | grep -c '"state":"running","root"'
}

wait_for 60 sbx_ready
is "$(show Type)" notify "Type=notify"
# systemctl restart returns once READY=1 came: at that moment the
# control socket must answer and every process be running, untried.
systemctl restart sandboxd
is "$(show ActiveState)/$(show SubState)" active/running \
    "after systemctl restart: active, not activating"
is "$(running_children)" 5 "the socket answered at once, every process running"
check "the master logged ready before systemd logged it started" sh -c '
    journalctl --no-pager -b -u sandboxd -o cat | grep -E "ready: every child is up|Started sandboxd" |
    tail -n 2 | head -n 1 | grep -q "ready: every child is up"'

# STATUS= counts the live sandboxes.
n0=$(sandboxctl ps | tail -n +2 | wc -l)
a=$(sandboxctl create); b=$(sandboxctl create)
want="$((n0 + 2)) sandboxes"
check "StatusText counts them: '$want'" wait_for 10 sh -c \
    "systemctl show -p StatusText --value sandboxd | grep -q '^$want, '"
diag "StatusText: $(show StatusText)"
sandboxctl destroy "$a" >/dev/null; sandboxctl destroy "$b" >/dev/null
check "and counts them gone" wait_for 10 sh -c \
    "systemctl show -p StatusText --value sandboxd | grep -q '^$n0 sandboxes, '"

# LimitNOFILE: the master's soft limit is the unit's; a sandbox's is its
# policy's (default: nofile 1024).
pid=$(main_pid)
is "$(awk '/Max open files/ { print $4 ":" $5 }' /proc/$pid/limits)" \
    524288:524288 "the master runs with nofile 524288"
is "$(sandboxctl run -- sh -c 'echo $(ulimit -Sn):$(ulimit -Hn)')" 1024:1024 \
    "a sandbox has its policy's nofile 1024"

# Reload: good, then bad with the parser's file:line, config kept.
g=$(gen)
check "systemctl reload with a good config succeeds" systemctl reload sandboxd
is "$(gen)" "$((g + 1))" "and loads a new config generation"
is "$(show ActiveState)" active "the unit is active after the reload"
cp /etc/sandboxd.conf /run/sandboxd.conf.good
since=$(date '+%Y-%m-%d %H:%M:%S')
printf 'policy "broken" {\n\tlimits { nofile many }\n}\n' >> /etc/sandboxd.conf
line=$(grep -n 'nofile many' /etc/sandboxd.conf | cut -d: -f1)
systemctl reload sandboxd 2>/dev/null
rc=$?
check "systemctl reload with a bad config fails ($rc)" [ "$rc" != 0 ]
check "the journal has the parser's /etc/sandboxd.conf:$line: message" sh -c \
    "journalctl --no-pager -u sandboxd --since '$since' | grep -q '/etc/sandboxd.conf:$line: \"many\": not a number'"
is "$(gen)" "$((g + 1))" "the running config stays in force"
is "$(show ActiveState)" active "and the unit stays active"
check "and runs sandboxes" sandboxctl run -- true
# Journal priorities: the master's error line is at err, info is not.
check "journalctl -p err shows the master's error line" sh -c \
    "journalctl --no-pager -u sandboxd -p err --since '$since' | grep -q 'sandboxd\[[0-9]*\]: /etc/sandboxd.conf:$line: '"
check "and no info line" sh -c \
    "! journalctl --no-pager -u sandboxd -p err --since '$since' | grep -q 'reloading /etc/sandboxd.conf'"
check "which is in the journal at info" sh -c \
    "journalctl --no-pager -u sandboxd -p info --since '$since' | grep -q 'reloading /etc/sandboxd.conf'"
cp /run/sandboxd.conf.good /etc/sandboxd.conf
systemctl reload sandboxd

# The watchdog: fed in normal operation, starved by a hung child.
is "$(show WatchdogUSec)" 30s "WatchdogSec=30s"
mkdir -p /run/systemd/system/sandboxd.service.d
printf '[Service]\nWatchdogSec=6s\n' >/run/systemd/system/sandboxd.service.d/wd.conf
systemctl daemon-reload
systemctl restart sandboxd
wait_for 60 sbx_ready
pid=$(main_pid); n=$(show NRestarts)
sleep 15
is "$(main_pid):$(show NRestarts)" "$pid:$n" \
    "with WatchdogSec=6s, 15 s of normal operation: no watchdog restart"
since=$(date '+%Y-%m-%d %H:%M:%S')
kill -STOP "$(pgrep -x dnspind)"
restarted() { [ "$(main_pid)" != "$pid" ] && [ "$(main_pid)" != 0 ] && sbx_ready; }
check "a stopped dnspind starves the watchdog: systemd restarts sandboxd" \
    wait_for 60 restarted
check "the journal says it was the watchdog" sh -c \
    "journalctl --no-pager -u sandboxd --since '$since' | grep -q 'Watchdog timeout'"
check "and the master said which child did not answer" sh -c \
    "journalctl --no-pager -u sandboxd --since '$since' | grep -q 'dnspind (pid [0-9]*) has not answered'"
is "$(show NRestarts)" "$((n + 1))" "NRestarts counts it"
rm -f /run/systemd/system/sandboxd.service.d/wd.conf
systemctl daemon-reload
systemctl restart sandboxd
check "sandboxd is back with the installed unit" wait_for 60 sbx_ready

out=$(systemd-analyze security sandboxd 2>&1 | tail -n 1)
diag "$out"
x=$(printf '%s\n' "$out" | sed -n 's/.*level for sandboxd.service: \([0-9.]*\).*/\1/p')
check "systemd-analyze security: exposure $x is at most 5.0" \
    awk -v x="$x" 'BEGIN { exit !(x != "" && x <= 5.0) }'
check "a plain sandbox runs under the hardened unit" sandboxctl run -- true
# PrivateDevices=: the master still opens /dev/net/tun for a tap sandbox.
id=$(sandboxctl create -T -p ci 2>&1)
rc=$?
is "$rc" 0 "a tap sandbox is made (/dev/net/tun bound in and allowed)"
[ "$rc" = 0 ] || diag "$id"
[ "$rc" = 0 ] && sandboxctl destroy "$id" >/dev/null
done_testing
