#!/bin/sh
# Name-based egress, end to end and by name, not by IP: a stub upstream
# in the peer maps an allowed and a denied name to the SAME address.
# Resolving the allowed name opens exactly its port to what it resolved
# to; the denied name is REFUSED and never forwarded; dialling the
# address without resolving it first is dropped.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
. "$ROOT/regress/dnspind/stub.sh"
need_root

write_conf "
upstream $UP
policy \"names\" {
	network {
		allow name \"allowed.example.com\" port 80
		allow name \"*.wild.example.com\" port 81
	}
}"
topo_up || { echo "Bail out! topology"; exit 1; }
stub_up "allowed.example.com=$PUB1,$PUB6A,300" \
    "denied.example.com=$PUB1,$PUB6A,300" \
    "a.wild.example.com=$PUB1,-,300" "a.b.wild.example.com=$PUB1,-,300" \
    "wild.example.com=$PUB1,-,300" "notwild.example.com=$PUB1,-,300"
suite_run || { echo "Bail out! the suite did not start"; exit 1; }

NAMEPY='
import errno, socket, sys
fam = {"4": socket.AF_INET, "6": socket.AF_INET6}
for spec in sys.argv[1:]:
    f, host, port = spec.split()
    try:
        a = socket.getaddrinfo(host, int(port), fam[f],
            socket.SOCK_STREAM)[0][4][0]
    except socket.gaierror:
        print(spec, "noname", flush=True)
        continue
    s = socket.socket(fam[f])
    s.settimeout(1.5)
    try:
        s.connect((a, int(port)))
        print(spec, "ok" if s.recv(64).startswith(b"ok") else "bad",
            flush=True)
    except socket.timeout:
        print(spec, "timeout", flush=True)
    except OSError as e:
        print(spec, errno.errorcode.get(e.errno, str(e)), flush=True)
'
# nprobe KEY SPEC...: resolve then connect, from a fresh sandbox.
nprobe() {
	_k=$1; shift
	ctl run -p names -- python3 -c "$NAMEPY" "$@" > "$T/probe.$_k" 2>&1
}

nprobe a "4 allowed.example.com 80" "4 allowed.example.com 81" \
    "4 denied.example.com 80" "6 allowed.example.com 80"
expect a "4 allowed.example.com 80" ok "resolve-then-connect to the allowed name and port succeeds"
expect a "4 allowed.example.com 81" timeout "the same name on another port is dropped"
expect a "4 denied.example.com 80" noname "the denied name is REFUSED"
expect a "6 allowed.example.com 80" ok "its AAAA is pinned too: an IPv6 connect works"
check "the denied name never reached the upstream" \
    fails grep -q "q denied.example.com" "$T/stub.log"
check "the allowed one did" grep -q "q allowed.example.com 1" "$T/stub.log"

# The same address, dialled without asking first, from a fresh sandbox.
sprobe d names "tcp $PUB1 80" "tcp $PUB6A 80"
probe_wait
expect d "tcp $PUB1 80" timeout "a direct dial of the address without resolving is dropped"
expect d "tcp $PUB6A 80" timeout "and of its IPv6 address"

# The anchor rule, by what reaches the upstream and what connects.
nprobe w "4 a.wild.example.com 81" "4 a.b.wild.example.com 81" \
    "4 wild.example.com 81" "4 notwild.example.com 81" \
    "4 wild.example.com.evil.com 81"
expect w "4 a.wild.example.com 81" ok "a.wild.example.com passes *.wild.example.com"
expect w "4 a.b.wild.example.com 81" ok "a.b.wild.example.com passes too"
expect w "4 wild.example.com 81" noname "the apex does not"
expect w "4 notwild.example.com 81" noname "notwild.example.com does not"
expect w "4 wild.example.com.evil.com 81" noname "wild.example.com.evil.com does not"

# The same over TCP, from inside a sandbox: answered, and refused.
QLIB=$(cat "$ROOT/regress/dnspind/qlib.py")
TCPPY="$QLIB"'
for name in sys.argv[1:]:
    q = query(name, 77)
    s = socket.create_connection(RESOLVER, 2)
    s.sendall(struct.pack(">H", len(q)) + q)
    r = tcp_reply(s)
    print(name, "rcode", rcode(r), "answers", answers(r))
'
out=$(ctl run -p names -- python3 -c "$TCPPY" allowed.example.com \
    denied.example.com 2>&1)
is "$(printf '%s\n' "$out" | sed -n 1p)" \
    "allowed.example.com rcode 0 answers 1" "a listed name is answered over TCP"
is "$(printf '%s\n' "$out" | sed -n 2p)" \
    "denied.example.com rcode 5 answers 0" "an unlisted one is REFUSED over TCP"

# A query from an address no sandbox owns: REFUSED, nothing forwarded.
is "$(ip netns exec $H python3 "$ROOT/regress/dnspind/query.py" \
    allowed.example.com 2>&1)" "rcode 5 answers 0" \
    "a query from the host itself (no sandbox) is REFUSED"
check "and pins nothing" \
    sh -c "! ip netns exec $NS nft list set inet sandboxd pin4 |
    grep -q 'elements'"
check "every refusal and pin is an audit line" \
    sh -c "grep -q 'audit {.*dns.refused.*denied.example.com' $LOG &&
    grep -q 'audit {.*dns.pin.*allowed.example.com' $LOG"
plan $tap_n
