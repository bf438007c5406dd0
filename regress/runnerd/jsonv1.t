#!/bin/sh
# sandboxctl -j, event stream v1: every line an object with v, event and
# ts; output events that give back the command's bytes exactly, whatever
# they are and however they were cut; one exit event, last; errors as
# error events with a code.  And the exit statuses: the command's own,
# 124, 125, 126, 127 and 128+N, each produced for real.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 29

setup_users
write_sandbox_conf "uid-range $((330000 + ($$ % 500) * 1000)) 1000
policy \"big\" {
	limits { stdout 4M; stderr 1M; timeout 1s max 10s; grace 300ms }
}
policy \"svc\" {
	restart never
}"
check "suite starts" suite_start

# The program: its bytes on both streams, in writes cut where they hurt.
PROG='
import os, sys, time
def w(fd, b):
    os.write(fd, b)
    time.sleep(0.03)
w(1, bytes(range(256)))
w(1, b"\n")
for c in ("\u00e9", "\u20ac", "\U0001f600", "\u4e2d"):
    b = c.encode()
    for i in range(len(b)):
        w(1, b[i:i + 1])
w(1, "caf\u00e9 \u20ac\U0001f600\n".encode()[:5])
w(1, "caf\u00e9 \u20ac\U0001f600\n".encode()[5:])
w(1, b"\xff\xfe \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82\n")
w(1, b"\x00nul\x00\n")
w(1, b"\xf0\x9f")
w(2, "err \u00e9".encode()[:5])
w(2, "err \u00e9".encode()[5:] + b"\xfe\n")
w(1, b"\x98\x80\n")
sys.stdout.buffer.write(b"L" * (1024 * 1024) + b"\n")
sys.stdout.buffer.flush()
w(1, b"end\xe2\x82")
'
python3 -c "$PROG" >"$T/want.out" 2>"$T/want.err"
ctl -j run -p big -- python3 -c "$PROG" >"$T/j" 2>"$T/j.err"
is "$?" 0 "the program's run exits 0"

# decode FILE: checks the stream, prints what was found.
cat >"$T/decode.py" <<'PY'
import base64, json, sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
assert lines[-1] == b"", "the last line ends with a newline"
ev = [json.loads(l) for l in lines[:-1]]
streams = {"stdout": b"", "stderr": b""}
b64 = 0
for e in ev:
    assert e["v"] == 1 and isinstance(e["event"], str), e
    assert e["ts"].endswith("Z") and "T" in e["ts"], e
    if e["event"] != "output":
        continue
    assert ("data" in e) != ("data_b64" in e), e
    assert "id" in e and "exec" in e, e
    if "data" in e:
        streams[e["stream"]] += e["data"].encode()
    else:
        streams[e["stream"]] += base64.b64decode(e["data_b64"], validate=True)
        b64 += 1
for s in streams:
    open(sys.argv[2] + "." + s, "wb").write(streams[s])
exits = [i for i, e in enumerate(ev) if e["event"] == "exit"]
print(len(exits), exits[-1] == len(ev) - 1 if exits else False, b64)
PY
res=$(python3 "$T/decode.py" "$T/j" "$T/got" 2>&1)
check "every line parses and carries v 1, event and ts ($res)" [ -n "${res%%Traceback*}" ]
is "$(python3 -c '
import json, sys
print(all(e["id"] and e["exec"] == 1 and e["exec_id"] == e["id"] + ".1"
    for e in map(json.loads, open(sys.argv[1]))
    if e["event"] in ("start", "output", "exit")))' "$T/j")" True \
    "every event of the exec names it: id, exec and exec_id"

is "${res% *}" "1 True" "exactly one exit event, and it is the last line"
check "stdout comes back byte for byte: 256 byte values, split characters, invalid UTF-8, a 1 MiB line" \
    cmp -s "$T/want.out" "$T/got.stdout"
check "stderr too" cmp -s "$T/want.err" "$T/got.stderr"
is "$(cat "$T/j.err")" "" "nothing else on standard error"

# The exit event.
x() { python3 -c '
import json, sys
x = [json.loads(l) for l in open(sys.argv[1])][-1]
print(eval(sys.argv[2]))' "$@"; }
is "$(x "$T/j" 'x["code"], x["signal"], x["reason"], x["exit_status"]')" \
    "(0, None, 'exited', 0)" "exit: code 0, no signal, reason exited"
is "$(x "$T/j" 'x["truncated"], x["bytes"]["stdout"] > 1048576')" \
    "({'stdout': False, 'stderr': False}, True)" "exit: truncated per stream, bytes counted"
is "$(x "$T/j" '(lambda u: (u["wall_us"] > 0, u["user_us"] + u["system_us"] > 0,
    u["max_rss_bytes"] >= 1 << 20))(x["usage"])')" "(True, True, True)" \
    "exit: usage has wall, user and system time and a peak RSS of at least 1 MiB"

# Valid UTF-8 cut between writes is never base64: the tail waits.
ctl -j run -- python3 -c '
import os, time
for c in "\u00e9\u20ac\U0001f600" * 3:
    b = c.encode()
    os.write(1, b[:1]); time.sleep(0.03); os.write(1, b[1:]); time.sleep(0.03)
' >"$T/split"
res=$(python3 "$T/decode.py" "$T/split" "$T/split")
is "$res" "1 True 0" "characters split across writes come as data, never data_b64"
is "$(cat "$T/split.stdout")" "$(printf 'é€😀é€😀é€😀')" "... and whole"

# Errors under -j: an error event with a code, exit 125.
e() { python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
print(len(ev), ev[-1]["v"], ev[-1]["event"], ev[-1]["code"])' "$1"; }
ctl -j exec 0123456789abcdef -- true >"$T/e1"
is "$?/$(e "$T/e1")" "125/1 1 error not_found" "no such sandbox: error not_found, 125"
ctl -j run -x -- true >"$T/e2" 2>/dev/null
is "$?/$(e "$T/e2")" "125/1 1 error usage" "a bad option: error usage, 125"
ctl -j frobnicate >"$T/e3"
is "$?/$(e "$T/e3")" "125/1 1 error usage" "an unknown command: error usage, 125"
check "the usage message lists every command's options" \
    grep -q 'run \[-i\] \[-p policy\] \[-e name=value\]... \[-t timeout\] \[-w dir\]' "$T/e3"
"$SANDBOXCTL" -j -s "$T/nonexistent.sock" status >"$T/e4"
is "$?/$(e "$T/e4")" "125/1 1 error unavailable" "sandboxd unreachable: error unavailable, 125"
"$SANDBOXCTL" -j -s "$T/nonexistent.sock" run -t 0 -- true >"$T/e5"
is "$?/$(e "$T/e5")" "125/1 1 error usage" "arguments are checked before connecting"
ctl -j run -p nosuchpolicy -- true >"$T/e6"
is "$?/$(e "$T/e6")" "125/1 1 error not_found" "no such policy: error not_found, 125"

# Exit statuses, each for real.
ctl run -- sh -c 'exit 3'
is "$?" 3 "the command's own status"
ctl run -- no-such-command-here 2>"$T/s127"
is "$?" 127 "a command not found: 127"
ctl -j run -- no-such-command-here >"$T/j127"
is "$?/$(e "$T/j127")" "127/2 1 error command_not_found" "... with -j an error command_not_found"
ctl run -- /etc/passwd 2>/dev/null
is "$?" 126 "a command found but not executable: 126"
ctl -j run -- /etc/passwd >"$T/j126"
is "$?/$(e "$T/j126")" "126/2 1 error command_not_executable" "... with -j an error command_not_executable"
ctl -j run -p big -t 1 -- sleep 30 >"$T/j124"
is "$?/$(x "$T/j124" 'x["reason"]')" "124/timeout" "a timeout: 124, reason timeout"
ctl -j run -- sh -c 'kill -9 $$' >"$T/j137"
is "$?/$(x "$T/j137" 'x["code"], x["signal"], x["signal_name"], x["reason"]')" \
    "137/(None, 9, 'KILL', 'signalled')" "kill -9 \$\$: 137, reason signalled"

# service attach -j: the service's bytes as output events, exactly.
ctl service start echoer -p svc -- cat >/dev/null
wait_for 10 sh -c "'$SANDBOXCTL' -s '$SOCK' -j service status echoer | grep -q '\"state\":\"running\"'"
{ printf 'h\303'; sleep 0.3; printf '\251llo \377\000\n'; } >"$T/att.in"
ctl -j service attach echoer <"$T/att.in" >"$T/att.j"
res=$(python3 "$T/decode.py" "$T/att.j" "$T/att")
check "service attach -j: every line parses, output events exact ($res)" \
    cmp -s "$T/att.in" "$T/att.stdout"
is "$(tail -n 1 "$T/att.j" | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["event"], e["ok"])')" \
    "result True" "... ending with a result"

done_testing
