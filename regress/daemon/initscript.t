#!/bin/sh
# rc/sandboxd.init, as make install writes it but with the test's paths:
# start returns once the master is ready; status, reload, force-reload
# and a bad command answer with the LSB exit codes.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 17

setup_users
write_conf ""
INIT="$T/sandboxd.init"
sed -e "s|@SBINDIR@|$B|g" -e "s|@BINDIR@|$B|g" \
    -e "s|/run/sandboxd.pid|$T/sandboxd.pid|" \
    -e "s|/var/log/sandboxd.log|$T/init.log|" \
    -e "s|/etc/default/sandboxd|$T/default|g" "$ROOT/rc/sandboxd.init" >"$INIT"
cat >"$T/default" <<DEFAULTS
DAEMON_ARGS="-v -f $T/sandboxd.conf -s $SOCK"
CTL_ARGS="-s $SOCK"
DEFAULTS
ip netns add "$NS" && ip -n "$NS" link set lo up
init() { ip netns exec "$NS" sh "$INIT" "$@"; }

init status >/dev/null
is "$?" 3 "status before start: 3, not running"
init start
is "$?" 0 "start succeeds"
SBX_PID=$(cat "$T/sandboxd.pid")
check "and returns only once every child runs with the config" all_ready
init status >/dev/null
is "$?" 0 "status: 0, running"
check "its log goes to the log file" grep -q "sandboxd.*ready: every child is up" "$T/init.log"

out=$(init reload 2>&1)
is "$?:$out" "0:reloaded" "reload succeeds"
echo 'bogus' >> "$T/sandboxd.conf"
line=$(wc -l < "$T/sandboxd.conf")
out=$(init reload 2>&1)
is "$?" 1 "a reload of a bad config fails"
check "with the parser's file:line: message" contains "$out" \
    "$T/sandboxd.conf:$line: unknown keyword"
is "$(child_field sandboxd conf_generation)" 2 "the running config stays in force"
write_conf ""
out=$(init force-reload 2>&1)
is "$?:$out" "0:reloaded" "force-reload of a running daemon reloads"

kill -KILL "$SBX_PID"
wait_for 5 sh -c "! kill -0 $SBX_PID"
init status >/dev/null
is "$?" 1 "status of a dead daemon with its pidfile left: 1"
init reload >/dev/null 2>&1
is "$?" 7 "reload of a daemon that is not running: 7"
init force-reload >/dev/null 2>&1
is "$?" 0 "force-reload of a daemon that is not running: 0, nothing done"
check "and it stays stopped" wait_for 5 sh -c "! ip netns pids $NS | grep -q ."
rm -f "$T/sandboxd.pid"
init status >/dev/null
is "$?" 3 "status without a pidfile: 3"
init start && SBX_PID=$(cat "$T/sandboxd.pid")
init stop
check "stop stops it" wait_for 5 sh -c "! kill -0 $SBX_PID"
init frobnicate 2>/dev/null
is "$?" 2 "an unknown action: 2"
done_testing
