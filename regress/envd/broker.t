#!/bin/sh
# The secrets broker: JSON-RPC 2.0 on each sandbox's channel (the socket
# path and the exec's fd 3).  Permitted secrets are given, others
# denied; has and expose behave as envd(8) says; every call is audited
# without its value, which appears in no log and no sandboxctl output.
# The broker survives malformed frames, a huge frame, a slow client and
# a burst, and answers another sandbox promptly throughout.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 37
setup_users

npm="s3cr3t-npm-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
db="s3cr3t-db-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
exp="s3cr3t-exp-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
sha() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
printf 'NPM_TOKEN=%s\nDB_PASSWORD=%s\n# a comment\n\nEXPOSE_ME=%s\n' \
    "$npm" "$db" "$exp" >"$T/secrets"
chmod 0600 "$T/secrets"
C=$ROOT/regress/envd
write_sandbox_conf "
secrets \"$T/secrets\"
policy \"sec\" {
	filesystem { read \"$C\" }
	secrets {
		permit \"NPM_TOKEN\" \"EXPOSE_ME\" \"MISSING\"
		expose \"EXPOSE_ME\"
	}
}
policy \"plain\" {
	filesystem { read \"$C\" }
}"
suite_start || { notok "suite started"; exit 1; }
ok "suite started"
J=$T/json
: >"$J"
# sbx ARGS...: sandboxctl -j, every line kept for the final grep.
jrun() { ctl -j "$@" | tee -a "$J"; }
lines() { jrun "$@" | jlines; }
cl() { lines run -p sec -- python3 "$C/client.py" "$@"; }
lacks() { ! contains "$1" "$2"; }

out=$(cl call secrets.get NPM_TOKEN)
check "a permitted secret is given on the socket path" \
    contains "$out" "\"value\": \"sha256:$(sha "$npm")\""
out=$(cl -f call secrets.get NPM_TOKEN)
check "... and on the exec's fd 3" \
    contains "$out" "\"value\": \"sha256:$(sha "$npm")\""
out=$(cl call secrets.get DB_PASSWORD)
check "an unpermitted one is denied with a JSON-RPC error" \
    contains "$out" '"error": {"code": -32001, "message": "not permitted by the sandbox'
check "... that holds no value" lacks "$out" value
out=$(cl call secrets.get MISSING)
check "a permitted name the secrets file lacks: no such secret" \
    contains "$out" '"code": -32002'
out=$(lines run -p plain -- python3 "$C/client.py" call secrets.get NPM_TOKEN)
check "another policy's sandbox is denied the same name" \
    contains "$out" '"code": -32001'
out=$(cl call secrets.has NPM_TOKEN DB_PASSWORD MISSING)
check "has: true for a permitted, present secret" \
    contains "$out" '"result": {"available": true, "name": "NPM_TOKEN"}'
check "has: false for an unpermitted one" \
    contains "$out" '"result": {"available": false, "name": "DB_PASSWORD"}'
check "has: false for a missing one" \
    contains "$out" '"result": {"available": false, "name": "MISSING"}'
out=$(cl call secrets.expose NPM_TOKEN)
check "expose is denied for a secret permitted but not exposable" \
    contains "$out" '"code": -32001, "message": "not exposable'

# expose: into the environment of the sandbox's later execs only.
id=$(ctl create -p sec)
out=$(jrun exec "$id" -- env >/dev/null; ctl exec "$id" -- env)
check "before expose, no secret is in the environment" \
    lacks "$out" 'EXPOSE_ME\|NPM_TOKEN\|s3cr3t'
out=$(lines exec "$id" -- python3 "$C/client.py" call secrets.expose EXPOSE_ME)
check "expose of an exposable secret succeeds" \
    contains "$out" '"result": {"exposed": true, "name": "EXPOSE_ME"}'
out=$(ctl exec "$id" -- sh -c 'test "$EXPOSE_ME" = "'"$exp"'" && echo same')
is "$out" "same" "the next exec of that sandbox has it in its environment"
id2=$(ctl create -p sec)
out=$(ctl exec "$id2" -- sh -c 'echo "[${EXPOSE_ME:-}]"')
is "$out" "[]" "another sandbox of the same policy does not"
ctl destroy "$id2" >/dev/null

audit() { grep -F '"audit":"broker"' "$LOG" | grep -F "\"method\":\"$1\"" |
    grep -F "\"name\":\"$2\"" | grep -qF "\"granted\":$3"; }
check "audit: a granted get" audit secrets.get NPM_TOKEN true
check "audit: a denied get" audit secrets.get DB_PASSWORD false
check "audit: has" audit secrets.has DB_PASSWORD false
check "audit: a denied expose" audit secrets.expose NPM_TOKEN false
check "audit: a granted expose" audit secrets.expose EXPOSE_ME true
line=$(grep -F '"audit":"broker"' "$LOG" | grep -F "\"sandbox\":\"$id\"" | head -1)
check "an audit line names the sandbox and a correlation id" \
    contains "$line" '"corr":"[0-9a-f]\{32\}"'
diag "$line"

# Malformed input: told why; a broken frame costs its connection only.
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
# frame LEN BODY: a frame as a client might (mis)state it, in hex.
frame() { hex "$(printf 'Content-Length: %s\r\n\r\n%s' "$1" "$2")"; }
req7='{"jsonrpc":"2.0","id":7,"method":"secrets.has","params":{"name":"NPM_TOKEN"}}'
out=$(cl raw "$(frame 9 '{"a": tru')$(frame ${#req7} "$req7")")
check "malformed JSON: a parse error" contains "$out" -32700
check "... and the next request is answered" contains "$out" '"id": 7'
out=$(cl raw "$(frame 20 "$req7")$(frame ${#req7} "$req7")")
check "a wrong Content-Length: a parse error" contains "$out" -32700
check "... then a broken header, and the client is dropped" \
    contains "$out" 'malformed frame header'
check "... (it sees the end)" contains "$out" '^eof$'
diag "$out"
out=$(cl raw "$(frame 9 '[{"a":1}]')$(frame 31 '{"jsonrpc":"2.0","id":{},"x":1}')")
is "$(printf '%s\n' "$out" | grep -c -- -32600)" 2 \
    "a batch and a bad id are invalid requests"
m1='{"jsonrpc":"2.0","id":1,"method":"x","params":{}}'
m2='{"jsonrpc":"2.0","id":2,"method":"secrets.get","params":[1]}'
out=$(cl raw "$(frame ${#m1} "$m1")$(frame ${#m2} "$m2")")
check "an unknown method: method not found" contains "$out" -32601
check "bad params: invalid params" contains "$out" -32602

envd_pid=$(child_field envd pid)
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$envd_pid/status"; }
rss0=$(rss)
out=$(cl huge 100)
check "a 100 MB frame is refused and its client dropped" \
    contains "$out" 'frame larger than 65536 bytes'
diag "$out"
check "... without envd holding it (RSS $rss0 -> $(rss) kB)" \
    test $(( $(rss) - rss0 )) -lt 8192

# A slow client and a burst, while another sandbox is served.
other=$(ctl create -p sec)
ctl exec "$other" -- true
lines run -p sec -- python3 "$C/client.py" slow 6 >"$T/slow" &
slowpid=$!
lines run -p sec -- python3 "$C/client.py" burst 1000 >"$T/burst" &
burstpid=$!
sleep 1
slowest=$(ctl exec "$other" -- python3 "$C/client.py" timed 50)
check "another sandbox is answered promptly meanwhile (slowest of 50: ${slowest} ms)" \
    test "${slowest:-9999}" -lt 200
wait $burstpid
is "$(cat "$T/burst")" "answered 1000 in order" "1000 requests in a burst are all answered, in order"
wait $slowpid
check "the slow client is answered once its frame is whole" \
    grep -q '"available": true' "$T/slow"
is "$(child_field envd pid)" "$envd_pid" "envd survived all of it, never restarted"
ctl destroy "$other" >/dev/null
ctl destroy "$id" >/dev/null

check "no secret value appears in the log" \
    sh -c "! grep -a -e '$npm' -e '$db' -e '$exp' '$LOG'"
check "nor in any sandboxctl -j output" \
    sh -c "test -s '$J' && ! grep -a -e '$npm' -e '$db' -e '$exp' '$J'"

done_testing
