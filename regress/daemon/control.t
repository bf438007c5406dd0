#!/bin/sh
# The control socket: peer credentials, malformed clients dropped while
# everyone else is served, reloads refused on errors, correlation ids.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 32

setup_users
getent group sbxctl-test >/dev/null || groupadd --system sbxctl-test
GID=$(getent group sbxctl-test | cut -d: -f3)
write_conf 'control group "sbxctl-test"'
check "suite starts" suite_start

nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
member() { setpriv --reuid=65534 --regid=65534 --groups="$GID" "$@"; }

out=$(nobody "$SANDBOXCTL" -s "$SOCK" status 2>&1)
is "$?" 125 "a non-root, non-group user is refused"
check "with a clear message" contains "$out" "permission denied"
is "$(stat -c %a:%G "$SOCK")" "660:sbxctl-test" "socket is 0660 root:control group"

# The daemon's own check, with the file permission out of the way.
chmod 0666 "$SOCK"
out=$(nobody "$SANDBOXCTL" -s "$SOCK" status 2>&1)
is "$?" 125 "the daemon itself refuses a non-member"
check "and says why" contains "$out" "only root and members of the control group"
check "the refusal is logged" grep -q "refusing uid 65534" "$LOG"
chmod 0660 "$SOCK"

out=$(member "$SANDBOXCTL" -s "$SOCK" status 2>&1)
check "a group member may use status" sh -c "echo '$out' | grep -q netd"
out=$(member "$SANDBOXCTL" -s "$SOCK" reload 2>&1)
is "$?" 125 "a group member may not reload"
check "and is told only root may" contains "$out" "only root may"
member "$SANDBOXCTL" -s "$SOCK" ps >/dev/null 2>&1
is "$?" 0 "a group member may list sandboxes"
out=$(member "$SANDBOXCTL" -s "$SOCK" run -- true 2>&1)
is "$?" 125 "a group member may not run a command"
check "and is told only root may" contains "$out" "only root may"

# Misbehaving clients; a well-behaved one is served throughout.
client() { python3 "$ROOT/regress/daemon/ctlclient.py" "$SOCK" "$@"; }
client hold-partial 8 &
holder=$!
sleep 0.3
check "status is served while another client holds half a request" \
    sh -c "$SANDBOXCTL -s $SOCK status | grep -q runnerd"
check "garbage is dropped" client garbage
check "an oversized request is dropped" client oversized
check "a wrong-length request is dropped" client short-payload
check "an unknown request type is dropped" client unknown-type
rpid=$(child_field runnerd pid)
check "a show of an unknown sandbox is answered" client show-good-id
check "a show of a malformed id is dropped by the master" client show-bad-id
check "and the master logs why" wait_for 3 grep -q "control: uid [0-9]*: not a sandbox id" "$LOG"
sleep 0.3
is "$(child_field runnerd pid)" "$rpid" "runnerd never saw it: the same pid"
client close-mid
check "a client that closes mid-request is dropped" \
    wait_for 3 grep -q "closed in the middle of a request" "$LOG"
wait "$holder"
is "$?" 0 "the half-sent request is dropped after the timeout"
check "the timeout is logged" grep -q "request not completed in time" "$LOG"
check "the daemon still serves status" sh -c "$SANDBOXCTL -s $SOCK status | grep -q dnspind"

# Reloads: a broken config is refused and the running one kept.
gen=$(child_field sandboxd conf_generation)
cp "$T/sandboxd.conf" "$T/good.conf"
echo 'subnet 10.200.0.1/16' >> "$T/sandboxd.conf"
out=$(ctl reload 2>&1)
is "$?" 125 "reload of a broken config fails"
is "$(child_field sandboxd conf_generation)" "$gen" "and the running config is kept"
cp "$T/good.conf" "$T/sandboxd.conf"
corr=$(ctl -j reload | python3 -c 'import json,sys; print(json.load(sys.stdin)["corr"])')
check "reload reports its correlation id" [ -n "$corr" ]
wait_for 5 all_ready
check "the master's reload lines carry it" grep -q "sandboxd.*reloading.*corr=$corr" "$LOG"
check "the children's config lines carry it" sh -c \
    "grep \"corr=$corr\" '$LOG' | grep -q 'netd.*config generation'"
kill -HUP "$SBX_PID"
check "SIGHUP reloads too" wait_for 5 sh -c \
    "[ \"\$($SANDBOXCTL -s $SOCK -j status | grep -c '\"conf_generation\":$((gen + 2))')\" = 5 ]"
done_testing
