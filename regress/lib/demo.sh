#!/bin/sh
# make demo: the suite in a throwaway network namespace, shown working.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B="$ROOT/${SANDBOXD_BUILD:-build}"
T=$(mktemp -d /tmp/sbxdemo.XXXXXX)
NS="sbxdemo$$"
PEER="sbxdemop$$"
SOCK="$T/sandboxd.sock"
PID=

cleanup() {
	[ -n "$PID" ] && kill -TERM "$PID" 2>/dev/null && sleep 1
	ip netns pids "$PEER" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns del "$PEER" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

say() { printf '\n==> %s\n' "$*"; }

[ "$(id -u)" = 0 ] || { echo "make demo needs root" >&2; exit 1; }
sh "$ROOT/rc/sandboxd-users.sh"

run_ctl() { "$B/sandboxctl" -s "$SOCK" "$@"; }

say "checking etc/sandboxd.conf"
"$B/sandboxd" -n -f "$ROOT/etc/sandboxd.conf" || exit 1

# The demo keeps its sandboxes' state apart from the machine's own, and
# has a secrets file of its own.
printf 'NPM_TOKEN=npm_demo_0123456789\nPYPI_TOKEN=pypi_demo\nDB_PASSWORD=hunter2\n' \
    >"$T/secrets"
chmod 0600 "$T/secrets"
sed -e "s|^state-dir .*|state-dir \"$T/state\"|" \
    -e "s|^#secrets .*|secrets \"$T/secrets\"|" \
    "$ROOT/etc/sandboxd.conf" > "$T/sandboxd.conf"

say "starting the suite in network namespace $NS"
ip netns add "$NS"
ip -n "$NS" link set lo up
ip netns exec "$NS" "$B/sandboxd" -d -f "$T/sandboxd.conf" \
    -s "$SOCK" 2>"$T/log" &
PID=$!
i=0
until "$B/sandboxctl" -s "$SOCK" status 2>/dev/null | grep -q 'dnspind.*running'; do
	i=$((i + 1)); [ $i -gt 100 ] && { cat "$T/log"; exit 1; }
	sleep 0.1
done

say "sandboxctl status"
"$B/sandboxctl" -s "$SOCK" status

say "killing netd with SIGKILL: the master restarts it"
kill -KILL "$("$B/sandboxctl" -s "$SOCK" -j status | grep '"netd"' |
    sed 's/.*"pid":\([0-9]*\).*/\1/')"
sleep 1
"$B/sandboxctl" -s "$SOCK" status | grep -E '^(NAME|netd)'

say "a peer network: 192.0.2.7 (policy \"ci\" allows 192.0.2.0/24) and 198.51.100.7 (it does not)"
# A namespace of the demo's own stands in for the network beyond the
# host; both servers answer on port 22.
ip netns add "$PEER"
ip -n "$PEER" link set lo up
ip -n "$NS" link add demo0 type veth peer name demo1 netns "$PEER"
ip -n "$NS" addr add 203.0.113.1/30 dev demo0
ip -n "$NS" link set demo0 up
ip -n "$PEER" addr add 203.0.113.2/30 dev demo1
ip -n "$PEER" link set demo1 up
for a in 192.0.2.7 198.51.100.7; do
	ip -n "$PEER" addr add $a/32 dev lo
	ip -n "$NS" route add $a/32 via 203.0.113.2
done
ip -n "$PEER" route add 10.200.0.0/16 via 203.0.113.1
ip netns exec "$NS" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$PEER" python3 -c '
import socket
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 22))
s.listen(8)
while True:
    c, _ = s.accept()
    c.sendall(b"SSH-2.0-demo\r\n")
    c.close()' &
echo "  servers up on both"

say "an untrusted job under policy \"ci\": what it could and could not do"
cat > "$T/job.sh" <<'JOB'
try() { if (eval "$2") >/dev/null 2>&1; then echo "  could:     $1"; else echo "  could not: $1"; fi; }
echo "running as $(id -un) (uid $(id -u)) on $(hostname), pid $$"
try "write its workspace"            'echo data > /workspace/out && test -s /workspace/out'
try "write /tmp"                     'echo x > /tmp/x'
try "read /etc/shadow"               'cat /etc/shadow'
try "write into /usr"                'touch /usr/evil'
try "see the host's processes"       'cat /proc/[0-9]*/comm | grep -qx -e sandboxd -e runnerd -e systemd -e init'
try "mount a filesystem"             'mount -t tmpfs none /tmp'
try "become root through su"         'su -c true root </dev/null'
reach() { python3 -c "import socket; s = socket.create_connection((\"$1\", $2), 2); assert s.recv(64)"; }
try "reach 192.0.2.7 port 22"        'reach 192.0.2.7 22'
try "reach 198.51.100.7 port 22"     'reach 198.51.100.7 22'
gw() { python3 -c 'import socket, struct
for l in open("/proc/net/route").readlines()[1:]:
    f = l.split()
    if f[1] == "00000000":
        print(socket.inet_ntoa(struct.pack("<L", int(f[2], 16))))'; }
try "reach the host at its gateway"  'reach $(gw) 22'
try "reach 1.1.1.1 port 53"          'reach 1.1.1.1 53'
try "run python3"                    'python3 -c "print(1)"'
JOB
ci=$(run_ctl create -p ci)
run_ctl put "$ci" "$T/job.sh" job.sh
run_ctl exec "$ci" -- sh job.sh
echo "  the workspace keeps its files between commands:"
run_ctl exec "$ci" -- ls -l /workspace
echo "  its network, and its rules as the kernel holds them (sandboxctl show):"
run_ctl show "$ci" | sed -n '/^network:/,$p' | sed 's/^/    /'
run_ctl destroy "$ci"

say "secrets: asked for over the broker channel, never in the environment"
echo "  (the secrets file holds NPM_TOKEN, PYPI_TOKEN and DB_PASSWORD; policy"
echo "  \"ci\" permits NPM_TOKEN and PYPI_TOKEN)"
cat > "$T/secrets.sh" <<'JOB'
# The recipe of envd(8): JSON-RPC 2.0, Content-Length framing, socat.
ask() {
	m='{"jsonrpc":"2.0","id":1,"method":"secrets.get",'
	body="$m"'"params":{"name":"'"$1"'"}}'
	printf 'Content-Length: %d\r\n\r\n%s' "${#body}" "$body" |
	    socat -t 2 - UNIX-CONNECT:$SANDBOXD_BROKER | tail -n 1
}
echo "  asks for NPM_TOKEN:   $(ask NPM_TOKEN)"
echo "  asks for DB_PASSWORD: $(ask DB_PASSWORD)"
if env | grep -q -e NPM_TOKEN -e DB_PASSWORD -e npm_demo -e hunter2; then
	echo "  its environment holds a secret"
else
	echo "  its environment holds neither: $(env | cut -d= -f1 | sort | tr '\n' ' ')"
fi
JOB
ci=$(run_ctl create -p ci)
run_ctl put "$ci" "$T/secrets.sh" secrets.sh
run_ctl exec "$ci" -- sh secrets.sh
run_ctl destroy "$ci"
echo "  the audit lines, without values:"
grep -a 'audit {' "$T/log" | sed 's/^.*audit /    /'

say "a job that runs too long is stopped at its timeout, with nothing left behind"
run_ctl run -t 2 -- sh -c 'sleep 100 & sleep 100'
echo "  exit status $? (124 means timeout)"

say "an agent's sandbox: a detached exec, re-attached; pause; files; -j events"
ag=$("$B/sandboxctl" -s "$SOCK" create --ttl 10m --idle 2m --label agent=demo)
x=$("$B/sandboxctl" -s "$SOCK" exec -d "$ag" -- \
    sh -c 'for i in 1 2 3; do echo "step $i"; sleep 1; done; exit 5')
echo "  exec -d printed its id: $x"
run_ctl ps --label agent=demo
run_ctl ps "$ag"
run_ctl pause "$ag"
run_ctl exec "$ag" -- true
echo "  exit status $? (125: the sandbox is paused)"
run_ctl resume "$ag"
run_ctl attach "$x"
echo "  attach replayed and followed the exec: exit status $? (its own)"
run_ctl mkdir -p "$ag" src/lib
run_ctl put "$ag" "$ROOT/README" src/README
run_ctl ls "$ag" src
echo "  one command under -j, every event a JSON line (v1):"
"$B/sandboxctl" -s "$SOCK" -j exec "$ag" -- sh -c 'printf "ok\n\377"' |
    sed 's/^/    /'
run_ctl destroy "$ag"

say "a plugin as a service: it crashes, is restarted, and serves again"
SVC="$ROOT/regress/services"
talk() { python3 "$SVC/svc_client.py" "$1" "$B/sandboxctl" -s "$SOCK" \
    service attach plugin | sed 's/^/    /'; }
run_ctl service start plugin -- python3 -c "$(cat "$SVC/svc_plugin.py")"
sleep 1
echo "  a JSON-RPC call through sandboxctl service attach:"
talk '[["echo",["hello"]],["whoami",{}]]'
echo "  it is told to exit with status 3; the master starts it again:"
talk '[["exit",{"code":3}]]' >/dev/null
sleep 2
talk '[["whoami",{}]]'
run_ctl service list
echo "  the audit lines:"
grep -a 'audit {.*"service":"plugin"' "$T/log" |
    sed 's/^.*audit /    /'
run_ctl service stop plugin

say "sandboxctl reload"
"$B/sandboxctl" -s "$SOCK" reload

say "the daemons' log"
cat "$T/log"

say "stopping"
kill -TERM "$PID"
wait "$PID" 2>/dev/null
PID=
echo "stopped; nothing is left in $NS: $(ip netns pids "$NS" | wc -l) processes"
