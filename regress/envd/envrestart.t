#!/bin/sh
# envd killed after runnerd cached the environment it built for two
# policies, one whose execs may fetch a secret from the broker and one
# with no secret: the cache goes with envd (envcache.c), so the first
# run of each after envd's restart is built by the new envd, not taken
# from the cache, and its broker channel answers; the run after it is
# served from the cache again, with a broker channel of its own that
# the new envd answers.  A sandbox made before the kill has its broker
# from the new envd too.  A run right after the kill either works or
# fails with "try again": it never runs with a broker nobody answers.
. "$(dirname "$0")/../lib/common.sh"
need_root
setup_users

npm="s3cr3t-npm-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
sha=$(printf '%s' "$npm" | sha256sum | cut -d' ' -f1)
printf 'NPM_TOKEN=%s\n' "$npm" >"$T/secrets"
chmod 0600 "$T/secrets"
C=$ROOT/regress/envd
write_sandbox_conf "
secrets \"$T/secrets\"
policy \"p\" {
	filesystem { read \"$C\" }
	env { set GREETING \"hello\" }
	secrets { permit \"NPM_TOKEN\" }
}
policy \"q\" {
	filesystem { read \"$C\" }
	env { set GREETING \"plain\" }
}"
suite_start || { echo "Bail out! the suite did not start"; exit 1; }
cached() { grep -c "environment of policy $1 from the cache" "$LOG"; }
GETPY="python3 $C/client.py -f call secrets.get NPM_TOKEN"

# Warm: the second run of each policy is served from the cache.
for p in p q; do
	ctl run -p $p -- true
	n=$(cached $p)
	ctl run -p $p -- true
	check "policy $p: the cache holds envd's build" [ "$(cached $p)" -gt "$n" ]
done
S=$(sbx_create p)

old=$(child_field envd pid)
kill -KILL "$old"
check "envd is restarted" wait_for 15 restarted envd "$old"
check "runnerd saw its channel to envd go" \
    grep -q 'runnerd\[.*peerch_close: the channel to envd' "$LOG"

np=$(cached p); nq=$(cached q)
out=$(ctl run -p p -- $GETPY 2>&1)
check "p's first run after the restart: the broker gives its secret" \
    contains "$out" "$sha"
is "$(cached p)" "$np" "and it was built by the new envd, not the cache"
out=$(ctl run -p p -- $GETPY 2>&1)
check "p's next run: its broker answers too" contains "$out" "$sha"
check "and it came from the cache the new envd filled" \
    [ "$(cached p)" -gt "$np" ]

out=$(ctl run -p q -- sh -c 'echo $GREETING' 2>&1)
is "$out" plain "q's first run after the restart has its environment"
is "$(cached q)" "$nq" "built by the new envd"
out=$(ctl run -p q -- $GETPY 2>&1)
check "q's next run: the broker answers it, and refuses the secret" \
    sh -c '! printf "%s\n" "$1" | grep -q "$2" && printf "%s\n" "$1" |
    grep -q -i "error"' _ "$out" "$sha"
check "from the cache" [ "$(cached q)" -gt "$nq" ]
diag "q asks for a secret: $out"

out=$(ctl exec "$S" -- $GETPY 2>&1)
check "a sandbox made before the kill: its first exec's broker answers" \
    contains "$out" "$sha"
out=$(ctl exec "$S" -- python3 $C/client.py call secrets.get NPM_TOKEN 2>&1)
check "and its broker socket, announced again to the new envd" \
    contains "$out" "$sha"

# Right after a kill, before the restart: works, or says try again.
old=$(child_field envd pid)
kill -KILL "$old"
out=$(ctl run -p p -- $GETPY 2>&1); rc=$?
diag "a run right after the kill: exit $rc: $out"
check "a run right after the kill gets the secret or fails with try again" \
    sh -c '{ [ "$1" = 0 ] && printf "%s\n" "$2" | grep -q "$3"; } ||
    { [ "$1" = 125 ] && printf "%s\n" "$2" | grep -q "try again"; }' \
    _ "$rc" "$out" "$sha"
check "envd is restarted again" wait_for 15 restarted envd "$old"
out=$(ctl run -p p -- $GETPY 2>&1)
check "and the next run's broker gives the secret" contains "$out" "$sha"

plan $tap_n
