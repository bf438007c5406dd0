#!/bin/sh
# dnspind's answer cache, from inside sandboxes against the stub
# upstream: a repeat query within the TTL dnspind told is answered
# without the upstream, with the TTL left, the question as the client
# wrote it and its pin refreshed; the cache is per sandbox, never
# passes a policy's allowlist, and a new config empties it.  A repeat
# whose pins netd acked less than a second ago, for longer than the
# TTL it is told, goes without a request to netd; after a netd restart
# repeats from the cache still open their address (pinned again on the
# new channel).
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
. "$ROOT/regress/dnspind/stub.sh"
need_root

write_conf "
upstream $UP
pin-floor 2s
policy \"cache\" {
	network {
		allow name \"cached.test\" port 80
		allow name \"short.test\" port 80
		allow name \"fast.test\" port 80
	}
}
policy \"other\" {
	network { allow name \"other.test\" port 80 }
}"
topo_up || { echo "Bail out! topology"; exit 1; }
stub_up "cached.test=$PUB2,-,60" "other.test=$PUB1,-,60" \
    "short.test=$PUB1,-,1" "fast.test=$PUB1,-,60"
suite_run || { echo "Bail out! the suite did not start"; exit 1; }
plan 16

# ask NAME: one A query to the resolver; prints rcode, the first
# answer's TTL and address, and the question name as it came back.
QLIB=$(cat "$ROOT/regress/dnspind/qlib.py")
ASKPY="$QLIB"'
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(3)
s.sendto(query(sys.argv[1], 0x4242), RESOLVER)
m = s.recv(4096)
off, labels = 12, []
while m[off]:
    labels.append(m[off + 1:off + 1 + m[off]].decode())
    off += 1 + m[off]
off += 5
ttl, addr = "-", "-"
if answers(m) > 0:
    off += 2 if m[off] & 0xc0 == 0xc0 else 0
    t, c, ttl, rdlen = struct.unpack(">HHIH", m[off:off + 10])
    addr = socket.inet_ntoa(m[off + 10:off + 14])
print(rcode(m), ttl, addr, ".".join(labels))
'
ask() { ctl exec "$1" -- python3 -c "$ASKPY" "$2"; }
asked() { grep -c "q $1 1" "$T/stub.log"; }

A=$(ctl create -p cache)
set -- $(ask "$A" cached.test)
is "$1 $3" "0 $PUB2" "a first answer, from the upstream"
ttl1=$2
is "$(asked cached.test)" 1 "the upstream was asked"
sleep 1.5
set -- $(ask "$A" CaChEd.TeSt)
is "$1 $3 $4" "0 $PUB2 CaChEd.TeSt" \
    "a repeat: the same address, the question as the client wrote it"
check "its TTL is the time left ($ttl1 then $2)" test "$2" -lt "$ttl1"
is "$(asked cached.test)" 1 "and the upstream was not asked again"
# A TTL of 1s: dnspind tells the pin floor, 2s, and pins for as long.
# A repeat 1.2s later comes from the cache and pins for 2s again: the
# address is open at 2.6s only if that pin went in.
SHORTPY='
import socket, subprocess, sys, time
def ask():
    socket.getaddrinfo("short.test", 80, socket.AF_INET, socket.SOCK_STREAM)
t0 = time.monotonic()
ask()
time.sleep(1.2)
ask()
time.sleep(max(0, t0 + 2.6 - time.monotonic()))
try:
    s = socket.create_connection((sys.argv[1], 80), timeout=0.8)
    print("ok" if s.recv(64).startswith(b"ok") else "bad")
except OSError as e:
    print(e)
'
is "$(ctl exec "$A" -- python3 -c "$SHORTPY" $PUB1) $(asked short.test)" \
    "ok 1" "a repeat from the cache refreshes the pin: open past the first's"
# FASTPY ADDR: fast.test asked three times in a row, then ADDR:80
# dialled; "RCODES... ok" if all went well.
FASTPY="$QLIB"'
def ask(qid):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(3)
    s.sendto(query("fast.test", qid), RESOLVER)
    return rcode(s.recv(4096))
out = [str(ask(k)) for k in (1, 2, 3)]
try:
    c = socket.create_connection((sys.argv[1], 80), timeout=0.8)
    out.append("ok" if c.recv(64).startswith(b"ok") else "bad")
except OSError as e:
    out.append(str(e))
print(" ".join(out))
'
sends() { grep -c 'pin_send: [0-9]* answers' "$LOG"; }
n0=$(sends)
is "$(ctl exec "$A" -- python3 -c "$FASTPY" $PUB1)" "0 0 0 ok" \
    "a new name and two repeats answered, the address open"
n1=$(sends)
# Repeats a second apart (a loaded machine) may go to netd once more.
check "one request to netd for the three ($n0 then $n1)" \
    test $((n1 - n0)) -ge 1 -a $((n1 - n0)) -le 2
old=$(child_field netd pid)
kill -KILL "$old"
check "netd is restarted" wait_for 15 restarted netd "$old"
sleep 0.5
n2=$(sends)
is "$(ctl exec "$A" -- python3 -c "$FASTPY" $PUB1) $(asked fast.test)" \
    "0 0 0 ok 1" "after netd's restart the repeats come from the cache, \
the address open"
n3=$(sends)
check "on the new channel, pins went to netd ($n2 then $n3)" \
    test $((n3 - n2)) -ge 1
B=$(ctl create -p cache)
set -- $(ask "$B" cached.test)
is "$1 $3 $(asked cached.test)" "0 $PUB2 2" \
    "another sandbox of the policy: its own answer, from the upstream"
C=$(ctl create -p other)
set -- $(ask "$C" cached.test)
is "$1 $3 $(asked cached.test)" "5 - 2" \
    "a sandbox whose policy does not list the name: REFUSED, nothing asked"
set -- $(ask "$C" other.test)
is "$1 $3" "0 $PUB1" "... and its own name is answered"

ctl reload > /dev/null
sleep 0.5
set -- $(ask "$A" cached.test)
is "$1 $3 $(asked cached.test)" "0 $PUB2 3" \
    "a new config empties the cache: the upstream is asked again"
ctl destroy "$A" > /dev/null
A2=$(ctl create -p cache)
set -- $(ask "$A2" cached.test)
is "$1 $(asked cached.test)" "0 4" "a new sandbox starts with no answers"
for s in "$A2" "$B" "$C"; do ctl destroy "$s" > /dev/null; done
done_testing
