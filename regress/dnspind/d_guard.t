#!/bin/sh
# DNS answers never open private ground (issue 14).  A stub upstream
# answers allowed names with special-purpose addresses: metadata,
# private, loopback, behind a CNAME, and the IPv6 forms of private IPv4
# (NAT64, 6to4, mapped, Teredo).  The peer owns every one of them and
# serves on it, so a pin would make it reachable: from inside a
# sandbox none is, the answer is cut down or REFUSED with an Extended
# DNS Error, and each address is an audit line.  The twins: a public
# address, and the NAT64 and 6to4 forms of one, are pinned and reached.
# An allow cidr opens only itself.  pin-ceiling 3s: an answer with TTL
# 2000000000 reaches the sandbox with TTL 3 and its pin dies by then;
# no record of an answer, a CNAME neither, is told a TTL past its pins.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
. "$ROOT/regress/dnspind/stub.sh"
need_root

NAT64_PRIV=64:ff9b::a09:5		# 10.9.0.5
NAT64_META=64:ff9b::a9fe:a9fe		# 169.254.169.254
SIXTO4_PRIV=2002:c0a8:505::1		# 192.168.5.5
SIXTO4_PRIV10=2002:a09:5::5		# 10.9.0.5
TEREDO=2001:0:4136:e378:8000:63bf:3fff:fdd2
NAT64_PUB=64:ff9b::cb00:710a		# 203.0.113.10, public
SIXTO4_PUB=2002:cb00:710a::1		# 203.0.113.10, public

write_conf "
upstream $UP
pin-floor 1s
pin-ceiling 3s
policy \"guard\" {
	network { allow name \"*.guard.test\" port 80 }
	filesystem { read \"$ROOT/regress/services\" }
}
policy \"inside\" {
	network {
		allow cidr 10.0.0.0/8
		allow name \"*.guard.test\" port 80
	}
}"
setup_users
topo_up || { echo "Bail out! topology"; exit 1; }
for a in $NAT64_PRIV $NAT64_META $SIXTO4_PRIV $SIXTO4_PRIV10 $TEREDO \
    $NAT64_PUB $SIXTO4_PUB; do
	ip -n $P addr add $a/128 dev lo nodad
	ip -n $H route add $a/128 via 2001:db8:ff::2
done
stub_up "pub.guard.test=$PUB1,$PUB6A,300" \
    "meta.guard.test=$META,$NAT64_META,300" \
    "priv.guard.test=$PRIV10,$ULA6,300" \
    "lo.guard.test=127.0.0.1,::1,300" \
    "mixed.guard.test=$PUB2+$PRIV172,-,300" \
    "cname.guard.test=@deep.target.test,300" \
    "deep.target.test=$PRIV192,$SIXTO4_PRIV,300" \
    "cmix.guard.test=@mix.target.test,86400" \
    "mix.target.test=$PUB2+$PRIV10,-,300" \
    "v6forms.guard.test=-,$NAT64_PRIV+$SIXTO4_PRIV10+::ffff:$PRIV10+$TEREDO,300" \
    "nat64.guard.test=-,$NAT64_PUB+$SIXTO4_PUB,300" \
    "ttl.guard.test=$CIDR_OUT,-,2000000000" \
    "cshort.guard.test=@short.target.test,600" \
    "short.target.test=$PUB1,-,1"
suite_run || { echo "Bail out! the suite did not start"; exit 1; }

# "NAME A|AAAA edns|plain" => the rcode, then each record: A/AAAA with
# address and TTL, CNAME with its TTL, EDE with info-code and text, OPT
# (the stub sends none: an OPT is dnspind's, in an answer it cut down).
RAWPY='
import socket, struct, sys
def ask(name, qtype, edns):
    q = struct.pack(">HHHHHH", 99, 0x0100, 1, 0, 0, 1 if edns else 0)
    for l in name.split("."):
        q += bytes([len(l)]) + l.encode()
    q += b"\0" + struct.pack(">HH", qtype, 1)
    if edns:
        q += b"\0" + struct.pack(">HHIH", 41, 1232, 0, 0)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(3)
    s.sendto(q, ("169.254.1.1", 53))
    return s.recv(4096)
def skip(r, off):
    while r[off] != 0:
        if r[off] & 0xc0 == 0xc0:
            return off + 2
        off += 1 + r[off]
    return off + 1
def show(r):
    n = sum(struct.unpack(">HHH", r[6:12]))
    off, out = skip(r, 12) + 4, []
    for i in range(n):
        off = skip(r, off)
        t, c, ttl, rdlen = struct.unpack(">HHIH", r[off:off + 10])
        rd, off = r[off + 10:off + 10 + rdlen], off + 10 + rdlen
        if t in (1, 28):
            f = socket.AF_INET if t == 1 else socket.AF_INET6
            out.append("%s %s %d" % ("A" if t == 1 else "AAAA",
                socket.inet_ntop(f, rd), ttl))
        elif t == 5:
            out.append("CNAME %d" % ttl)
        elif t == 41:
            o, ede = 0, "OPT"
            while o + 4 <= len(rd):
                code, ol = struct.unpack(">HH", rd[o:o + 4])
                if code == 15:
                    ede = "EDE %d %s" % (struct.unpack(">H",
                        rd[o + 4:o + 6])[0], rd[o + 6:o + 4 + ol].decode())
                o += 4 + ol
            out.append(ede)
        else:
            out.append("type%d" % t)
    return " ".join(["rcode %d" % (r[3] & 15)] + out)
for spec in sys.argv[1:]:
    name, qt, e = spec.split()
    print(spec, show(ask(name, {"A": 1, "AAAA": 28}[qt], e == "edns")),
        flush=True)
'
# "4|6 NAME" => resolve, then connect to port 80 of each address given:
# "ADDR=ok|timeout|..." sorted, or "noname".
DIALPY='
import errno, socket, sys
fam = {"4": socket.AF_INET, "6": socket.AF_INET6}
for spec in sys.argv[1:]:
    f, host = spec.split()
    try:
        addrs = sorted(set(ai[4][0] for ai in socket.getaddrinfo(host, 80,
            fam[f], socket.SOCK_STREAM)))
    except socket.gaierror:
        print(spec, "noname", flush=True)
        continue
    res = []
    for a in addrs:
        s = socket.socket(fam[f])
        s.settimeout(1.2)
        try:
            s.connect((a, 80))
            r = "ok" if s.recv(64).startswith(b"ok") else "bad"
        except socket.timeout:
            r = "timeout"
        except OSError as e:
            r = errno.errorcode.get(e.errno, str(e))
        s.close()
        res.append("%s=%s" % (a, r))
    print(spec, " ".join(res), flush=True)
'
raw() { _k=$1 _p=$2; shift 2
	ctl run -p "$_p" -- python3 -c "$RAWPY" "$@" > "$T/probe.$_k" 2>&1; }
dial() { _k=$1 _p=$2; shift 2
	ctl run -p "$_p" -- python3 -c "$DIALPY" "$@" > "$T/probe.$_k" 2>&1; }
audited() {
	grep -q "audit {\"audit\":\"dns.blocked-answer\",\"detail\":\"$2\",\"name\":\"$1\"" "$LOG"
}

# The answers, as the sandbox gets them.
raw a guard "pub.guard.test A edns" "meta.guard.test A edns" \
    "meta.guard.test A plain" "meta.guard.test AAAA edns" \
    "priv.guard.test A edns" "priv.guard.test AAAA edns" \
    "lo.guard.test A edns" "lo.guard.test AAAA edns" \
    "mixed.guard.test A edns" "cname.guard.test A edns" \
    "cname.guard.test AAAA edns" "cmix.guard.test A edns" \
    "v6forms.guard.test AAAA edns" "nat64.guard.test AAAA edns" \
    "cshort.guard.test A edns"
expect a "pub.guard.test A edns" "rcode 0 A $PUB1 3" \
    "a public address is answered as it came (its TTL held to the 3s ceiling)"
expect a "meta.guard.test A edns" "rcode 5 EDE 15 cloud-metadata" \
    "169.254.169.254: REFUSED with Extended DNS Error 15 (Blocked)"
expect a "meta.guard.test A plain" "rcode 5" \
    "without EDNS in the query: REFUSED, no OPT (RFC 6891 7)"
expect a "meta.guard.test AAAA edns" "rcode 5 EDE 15 nat64" \
    "the NAT64 form of 169.254.169.254: REFUSED"
expect a "priv.guard.test A edns" "rcode 5 EDE 15 private" \
    "a private address (10.9.0.5): REFUSED"
expect a "priv.guard.test AAAA edns" "rcode 5 EDE 15 unique-local" \
    "a unique-local IPv6 address: REFUSED"
expect a "lo.guard.test A edns" "rcode 5 EDE 15 loopback" "127.0.0.1: REFUSED"
expect a "lo.guard.test AAAA edns" "rcode 5 EDE 15 loopback" "::1: REFUSED"
expect a "mixed.guard.test A edns" "rcode 0 A $PUB2 3 OPT" \
    "a public and a private address: the private one is cut from the answer"
expect a "cname.guard.test A edns" "rcode 5 EDE 15 private" \
    "a CNAME to a name with a private address: REFUSED"
expect a "cname.guard.test AAAA edns" "rcode 5 EDE 15 6to4" \
    "a CNAME to the 6to4 form of a private address: REFUSED"
expect a "cmix.guard.test A edns" "rcode 0 CNAME 3 A $PUB2 3 OPT" \
    "a CNAME to a public and a private address: CNAME kept, private cut, TTLs capped"
expect a "v6forms.guard.test AAAA edns" "rcode 5 EDE 15 nat64" \
    "NAT64, 6to4, IPv4-mapped and Teredo forms of private ground: REFUSED"
expect a "nat64.guard.test AAAA edns" \
    "rcode 0 AAAA $NAT64_PUB 3 AAAA $SIXTO4_PUB 3" \
    "the NAT64 and 6to4 forms of a public address are answered"
expect a "cshort.guard.test A edns" "rcode 0 CNAME 1 A $PUB1 1" \
    "a CNAME of TTL 600 to an A of TTL 1 (pinned for 1s): both told 1, no cache outlives the pin"

for x in "meta.guard.test 169.254.169.254 cloud-metadata" \
    "meta.guard.test $NAT64_META nat64" "priv.guard.test $PRIV10 private" \
    "priv.guard.test $ULA6 unique-local" "lo.guard.test 127.0.0.1 loopback" \
    "lo.guard.test ::1 loopback" "mixed.guard.test $PRIV172 private" \
    "cname.guard.test $PRIV192 private" "cname.guard.test $SIXTO4_PRIV 6to4" \
    "cmix.guard.test $PRIV10 private" \
    "v6forms.guard.test $NAT64_PRIV nat64" \
    "v6forms.guard.test $SIXTO4_PRIV10 6to4" \
    "v6forms.guard.test ::ffff:$PRIV10 ipv4-mapped" \
    "v6forms.guard.test $TEREDO teredo"; do
	set -- $x
	check "audit dns.blocked-answer: $1 $2 ($3)" audited "$1" "$2 $3"
done
check "no audit line for an address that was pinned" \
    fails grep -q "dns.blocked-answer.*\\($PUB1\\|$PUB2\\|$NAT64_PUB\\)" "$LOG"

# From inside: resolve, then connect to every address given; then dial
# each blocked address directly from the same kind of sandbox.
dial d guard "4 pub.guard.test" "6 pub.guard.test" "4 meta.guard.test" \
    "6 meta.guard.test" "4 priv.guard.test" "6 priv.guard.test" \
    "4 mixed.guard.test" "4 cname.guard.test" "6 cname.guard.test" \
    "4 cmix.guard.test" "6 v6forms.guard.test" "6 nat64.guard.test"
expect d "4 pub.guard.test" "$PUB1=ok" "the allowed twin: resolve then connect works"
expect d "6 pub.guard.test" "$PUB6A=ok" "and over IPv6"
expect d "4 meta.guard.test" noname "the metadata name does not resolve"
expect d "6 meta.guard.test" noname "nor its NAT64 form"
expect d "4 priv.guard.test" noname "nor the private one"
expect d "6 priv.guard.test" noname "nor its unique-local AAAA"
expect d "4 mixed.guard.test" "$PUB2=ok" "a cut answer: only the public address, reachable"
expect d "4 cname.guard.test" noname "a CNAME to private ground does not resolve"
expect d "6 cname.guard.test" noname "nor its 6to4 AAAA"
expect d "4 cmix.guard.test" "$PUB2=ok" "a CNAME to mixed ground: the public address only"
expect d "6 v6forms.guard.test" noname "IPv6 forms of private IPv4 do not resolve"
expect d "6 nat64.guard.test" "$SIXTO4_PUB=ok $NAT64_PUB=ok" \
    "the NAT64 and 6to4 forms of a public address are pinned and reached"

# One sandbox asks for every name, then dials every blocked address:
# had any been pinned, this is where it would connect.
id=$(sbx_create guard)
ctl exec "$id" -- python3 -c "$DIALPY" "4 meta.guard.test" \
    "6 meta.guard.test" "4 priv.guard.test" "6 priv.guard.test" \
    "4 mixed.guard.test" "4 cname.guard.test" "6 cname.guard.test" \
    "4 cmix.guard.test" "6 v6forms.guard.test" > /dev/null 2>&1
sprobe x -x "$id" "tcp $META 80" "tcp $NAT64_META 80" "tcp $PRIV10 80" \
    "tcp $ULA6 80" "tcp $PRIV172 80" "tcp $PRIV192 80" "tcp $SIXTO4_PRIV 80" \
    "tcp $NAT64_PRIV 80" "tcp $SIXTO4_PRIV10 80" "tcp $TEREDO 80" \
    "tcp $PUB2 80"
probe_wait
for a in $META $NAT64_META $PRIV10 $ULA6 $PRIV172 $PRIV192 $SIXTO4_PRIV \
    $NAT64_PRIV $SIXTO4_PRIV10 $TEREDO; do
	expect x "tcp $a 80" timeout "after the answers, $a is still unreachable"
done
expect x "tcp $PUB2 80" ok "while the pinned public address of the same answers is reached"
{ ip netns exec $H nft list set inet sandboxd pin4
  ip netns exec $H nft list set inet sandboxd pin6; } > "$T/pins" 2>&1
check "the pin sets hold the public address pinned" grep -q "$PUB2" "$T/pins"
check "and no blocked address" fails grep -q -e "$META" -e "$PRIV10" \
    -e "$PRIV172" -e "$PRIV192" -e 127.0.0.1 -e "$NAT64_PRIV" \
    -e "$NAT64_META" -e "$SIXTO4_PRIV" -e "$TEREDO" -e "$ULA6" \
    -e "::ffff:" "$T/pins"
ctl destroy "$id" > /dev/null 2>&1

# An allow cidr opens its own ground to answers, and only its own.
raw c inside "priv.guard.test A edns" "priv.guard.test AAAA edns" \
    "mixed.guard.test A edns" "meta.guard.test A edns"
expect c "priv.guard.test A edns" "rcode 0 A $PRIV10 3" \
    "with allow cidr 10.0.0.0/8, a name answering 10.9.0.5 is answered"
expect c "priv.guard.test AAAA edns" "rcode 5 EDE 15 unique-local" \
    "but not its unique-local AAAA, outside the cidr"
expect c "mixed.guard.test A edns" "rcode 0 A $PUB2 3 OPT" \
    "172.16.5.5, outside the cidr, is still cut"
expect c "meta.guard.test A edns" "rcode 5 EDE 15 cloud-metadata" \
    "and metadata still REFUSED"
id=$(sbx_create inside)
ctl exec "$id" -- python3 -c "$DIALPY" "4 priv.guard.test" > "$T/probe.i" 2>&1
pin4=$(ip netns exec $H nft list set inet sandboxd pin4)
contains "$pin4" "$PRIV10 \. tcp \. 80" &&
    ok "the cidr's address is pinned (pin4 holds $PRIV10 . tcp . 80)" ||
    { notok "the cidr's address is pinned"; diag "$pin4"; }
expect i "4 priv.guard.test" "$PRIV10=ok" "and reached"
sprobe y -x "$id" "tcp $PRIV172 80" "tcp $META 80"
probe_wait
expect y "tcp $PRIV172 80" timeout "172.16.5.5 stays unreachable under allow cidr 10.0.0.0/8"
expect y "tcp $META 80" timeout "and so does 169.254.169.254"
ctl destroy "$id" > /dev/null 2>&1

# A service's sandbox is held to the same.
. "$ROOT/regress/services/svc.sh"
ctl service start g -p guard -- python3 $S/svc_plugin.py > /dev/null
check "a service under the policy runs" svc_wait 10 g state=running
sid=$(svc_field g sandbox)
sresolve() { talk g "[[\"resolve\",{\"name\":\"$1\"}]]" | sed -n 1p; }
sdial() { talk g "[[\"connect\",{\"host\":\"$1\",\"port\":80}]]" | sed -n 1p; }
is "$(sresolve meta.guard.test)" '"failed: gaierror"' \
    "the service's metadata name does not resolve"
check "... audited under the service's sandbox" grep -q \
    "dns.blocked-answer\",\"detail\":\"$META cloud-metadata\",\"name\":\"meta.guard.test\",\"sandbox\":\"$sid\"" "$LOG"
is "$(sresolve mixed.guard.test)" "\"$PUB2\"" "its mixed name resolves to the public address"
is "$(sdial $PUB2)" '"ok"' "... which it reaches"
check "while 169.254.169.254 stays dropped" contains "$(sdial $META)" '^"failed: '
check "and 172.16.5.5 too" contains "$(sdial $PRIV172)" '^"failed: '
ctl service stop g > /dev/null 2>&1

# TTL 2000000000 under pin-ceiling 3s: TTL 3 in the answer, the pin
# open at once and at 2s, gone at 4s.
QLIB=$(cat "$ROOT/regress/dnspind/qlib.py")
TTLPY="$QLIB"'
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(3)
s.sendto(query("ttl.guard.test", 7), RESOLVER)
r = s.recv(512)
t0 = time.monotonic()
print("ttl", struct.unpack(">I", r[-10:-6])[0], flush=True)
def dial(tag, at):
    time.sleep(max(0, at - time.monotonic()))
    c = socket.socket()
    c.settimeout(0.8)
    try:
        c.connect((sys.argv[1], 80))
        res = "ok" if c.recv(64).startswith(b"ok") else "bad"
    except socket.timeout:
        res = "timeout"
    except OSError as e:
        res = str(e)
    c.close()
    print(tag, res, flush=True)
dial("at0", t0)
dial("at2", t0 + 2)
dial("at4", t0 + 4)
'
ctl run -p guard -- python3 -c "$TTLPY" $CIDR_OUT > "$T/ttl.out" 2>&1
tl() { awk -v k="$1" '$1 == k { print $2 }' "$T/ttl.out"; }
is "$(tl ttl)" 3 "an answer with TTL 2000000000 reaches the sandbox with TTL 3 (pin-ceiling 3s)"
is "$(tl at0)" ok "its pin opens the address at once"
is "$(tl at2)" ok "and still at 2s"
is "$(tl at4)" timeout "and is gone at 4s: the pin lasted the ceiling, not the TTL"
check "the pin's audit line says ttl 3" \
    grep -q "audit {.*dns.pin.*$CIDR_OUT tcp 80 ttl 3\".*ttl.guard.test" "$LOG"

plan $tap_n
