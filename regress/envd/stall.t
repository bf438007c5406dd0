#!/bin/sh
# A broker client that sends requests and never reads the answers is
# dropped, with a log line, once its unread answers have passed 256 KiB
# and not a byte of them was taken for 10 seconds (envd(8)); another
# sandbox's broker requests are answered promptly throughout, and the
# stalled sandbox's next client is served.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 8
setup_users

printf 'NPM_TOKEN=s3cr3t\n' >"$T/secrets"
chmod 0600 "$T/secrets"
write_sandbox_conf "
secrets \"$T/secrets\"
policy \"sec\" {
	secrets { permit \"NPM_TOKEN\" }
}"
check "suite starts" suite_start
envd_pid=$(child_field envd pid)

stalled=$(ctl create -p sec)
other=$(ctl create -p sec)

# In the stalled sandbox: requests until the broker stops taking them,
# then wait, reading nothing, until the broker hangs up (POLLHUP).
ctl exec -t 60 "$stalled" -- python3 -c '
import json, select, socket, time
s = socket.socket(socket.AF_UNIX)
s.connect("/run/sandboxd/broker.sock")
s.setblocking(False)
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "secrets.has",
                   "params": {"name": "NPM_TOKEN"}}).encode()
frame = b"Content-Length: %d\r\n\r\n" % len(body) + body
t0 = time.monotonic()
sent = 0
idle = 0
while idle < 20:
    try:
        sent += s.send(frame * 64)
        idle = 0
    except BlockingIOError:
        idle += 1
        time.sleep(0.05)
blocked = time.monotonic()
p = select.poll()
p.register(s, 0)
ev = p.poll(40000)
hup = bool(ev and ev[0][1] & select.POLLHUP)
print("sent %d bytes; hup %s after %.1f s without reading" %
    (sent, hup, time.monotonic() - blocked))
' >"$T/stalled" 2>&1 &
stallpid=$!

# Meanwhile: 50 requests from the other sandbox, timed, three times
# (before, during and around the drop).
probe() {
	ctl exec "$other" -- python3 -c "$(cat "$ROOT/regress/envd/client.py")" \
	    timed 50
}
# 500 ms: far below the 10 s of a broker that waited for the stalled
# client, far above a loaded machine's scheduling noise.
slowest=0
for i in 1 2 3 4; do
	w=$(probe)
	[ "${w:-9999}" -gt "$slowest" ] && slowest=${w:-9999}
done
check "another sandbox is answered promptly meanwhile (slowest of 200: ${slowest} ms)" \
    test "$slowest" -lt 500

wait $stallpid
diag "$(cat "$T/stalled")"
check "the client that never reads is hung up on" grep -q 'hup True' "$T/stalled"
secs=$(sed -n 's/.*after \([0-9.]*\) s.*/\1/p' "$T/stalled")
check "after about 10 s without reading (${secs:-?} s)" \
    python3 -c "import sys; sys.exit(not 8 <= float('${secs:-0}') <= 20)"
check "envd logs the drop and why" \
    grep -q "sandbox $stalled: broker client dropped: it has not read its answers for 10 seconds" "$LOG"
out=$(ctl exec "$stalled" -- python3 -c '
import json, socket
s = socket.socket(socket.AF_UNIX)
s.connect("/run/sandboxd/broker.sock")
body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "secrets.has",
                   "params": {"name": "NPM_TOKEN"}}).encode()
s.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
buf = b""
while not buf.endswith(b"}"):
    buf += s.recv(4096)
print(buf.decode())')
check "the stalled sandbox's next client is served" contains "$out" '"id": 7\|"id":7'
is "$(child_field envd pid)" "$envd_pid" "envd never restarted"
check "envd's memory is back to normal (VmRSS $(proc_status "$envd_pid" VmRSS) kB)" \
    [ "$(proc_status "$envd_pid" VmRSS)" -lt 65536 ]
ctl destroy "$stalled" >/dev/null
ctl destroy "$other" >/dev/null
done_testing
