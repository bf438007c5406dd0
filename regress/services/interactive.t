#!/bin/sh
# sandboxctl run -i: a plugin host runs an untrusted plugin through it
# and speaks JSON-RPC over its stdin and stdout, full duplex, byte for
# byte, with back-pressure and end of file both ways, no daemon in the
# path of the bytes.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 12
setup_users
S=$ROOT/regress/services
write_sandbox_conf "
policy \"plugin\" {
	filesystem { read \"$S\" }
	limits { timeout 120s max 300s; memory 1G }
}"
suite_start || { notok "suite started"; exit 1; }
ok "suite started"
D="python3 $S/stdio_driver.py"
P="$SANDBOXCTL -s $SOCK run -i -p plugin -- python3 $S/echo_plugin.py"

out=$($D echo 10000 $P)
diag "$out"
check "10,000 requests answered in order, byte for byte, 1 MB frames among them" \
    contains "$out" '^answered 10000 of 10000, 10 frames of 1 MB or more, 0 mismatched, 0 bytes after$'
check "the plugin saw end of file when the caller closed its stdin" \
    contains "$out" '^plugin: saw eof$'
check "and sandboxctl ended with the plugin's status" contains "$out" '^exit 0$'

# every daemon, though only sandboxd, runnerd and envd touch the exec
pids="$SBX_PID,$(child_field runnerd pid),$(child_field envd pid)"
pids="$pids,$(child_field netd pid),$(child_field dnspind pid)"
out=$($D flood "$pids" $P)
diag "$out"
growth=$(printf '%s\n' "$out" | awk '$1 == "growth_kb" { print $2 }')
check "a caller that stops reading: no daemon grows (largest growth ${growth} kB < 4096)" \
    test "${growth:-99999}" -lt 4096
check "... the plugin waits, and all 64 MB arrive once it reads again" \
    contains "$out" '^read_frames 1024$'

out=$(printf 'in' | ctl run -i -- sh -c 'cat; echo " out"; echo err >&2' 2>"$T/err")
is "$out" "in out" "stdin and stdout are the caller's"
is "$(cat "$T/err")" "err" "stderr still comes through sandboxd, under its cap"
out=$(ctl run -i -- cat </dev/null; echo "rc=$?")
is "$out" "rc=0" "/dev/null will do as stdin"
out=$(script -qc "$SANDBOXCTL -s $SOCK run -i -- cat" /dev/null </dev/null 2>&1)
check "a terminal is refused" contains "$out" 'not a terminal or device'
out=$(printf 'in' | ctl -j run -i -- sh -c 'cat; echo " out"; echo err >&2' 2>"$T/jerr")
is "$out" "in out" "-i with -j: standard output is still the command's"
is "$(python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
err = "".join(e.get("data", "") for e in ev if e["event"] == "output")
print(ev[-1]["event"], ev[-1]["code"], repr(err))' "$T/jerr")" "exit 0 'err\n'" \
    "... and the events, stderr's output and the exit, go to standard error"

done_testing
