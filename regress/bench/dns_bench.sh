#!/bin/sh
# dnspind against dnsmasq, in one run, on the same upstream and the same
# query sets; make bench runs it.
#
#   sandbox netns --- $NS: the suite, dnspind on 169.254.1.1 ---+
#                                                               $P: upstream
#   $C: dnsperf ----- $D: dnsmasq, a ruleset of N sandboxes ----+
# (--- a veth pair; dnsperf asks the upstream directly from $NS)
#
# The upstream is dnsmasq too, answering from a hosts file (cache off,
# every answer a lookup): r0..r999.bench.test for repeat answers and
# n0, n1, ... .bench.test for answers that each create a new pin, every
# name its own address.  dnsperf (Debian's) measures, one target after
# the other:
#   - the upstream asked directly, from $NS;
#   - dnsmasq forwarding to it with its cache off, no nftset (the
#     reference a resolver should keep up with), again beside the run
#     with $LIVE sandboxes: the machine may be busier by then; and
#     there, dnsmasq with its cache on (--cache-size=10000; the
#     upstream's TTL is 60 s), the peer for repeat answers;
#   - the same with --nftset into a set of a ruleset with the rules of
#     1 and of $LIVE sandboxes as a naive design would have them: chains
#     and sets of each sandbox's own, a linear list of jumps (dnsmasq
#     adds every answer through libnftables, which reads the whole
#     ruleset each time);
#   - dnspind, the whole suite as the tests start it, with 1 and with
#     $LIVE live sandboxes; dnsperf runs in the network namespace of
#     one sandbox (the first, then the last made), from the host side,
#     so its queries come from that sandbox's guest address.  The
#     policy allows *.bench.test port 80: every answer is pinned.
# For each, repeat answers (the 1000 r-names, pins already there,
# refreshed) and new-pin answers (the n-names, each once).  dnspind
# answers a repeat from its cache of the sandbox's answers, within the
# TTL it told (here pin-floor: the upstream's hosts have TTL 0), and
# has them pinned again through netd once they are a second old.  The
# fair peer for repeats is a resolver that answers them from its cache
# too, reached the same way: dns_repeat_ratio_dnsmasq_4000 is over
# dnsmasq with its cache on (both answer without asking upstream;
# dnspind also checks the sandbox, its allowlist and its pins),
# measured beside it in the same run.  Both are asked by the same
# dnsperf over a veth from a namespace of its own; dnspind's packets
# also cross netd's ruleset (input and output hooks, the lookups of
# the sandbox's own address and block-all, the raw hooks that keep
# the resolver's UDP out of conntrack), which any
# resolver serving sandboxes sits behind, so dnsmasq is measured
# behind a ruleset of that shape (peer_ruleset) for the ratio, and
# bare (dns_repeat_ratio_dnsmasq_bare_4000, as the ratio was before:
# that measures the path as much as the resolver).  And the CPU time
# each spends per repeat answer (the serving processes': dnspind with
# netd and the master; dnsmasq): on two cores the one dnsperf spends
# about as much per answer as either resolver and caps what both
# answer, while answers per core do not depend on the client
# (dns_repeat_cpu_ratio_dnsmasq_4000: dnsmasq's over dnspind's).  The
# cache-off forwarder stays the reference for one that asks upstream
# every time (new pins; dns_repeat_ratio_dnsmasq_nocache_4000):
#   - QPS: dnsperf with 100 queries outstanding for $DUR seconds;
#   - p50/p99 latency, less the upstream's own (the lowest of three
#     runs): at a fixed rate of $RATE QPS for $LATDUR seconds, or half
#     the target's QPS if that is lower, so that queueing does not count
#     as latency;
#   - CPU time per answer of each process that serves (the upstream,
#     dnsmasq; the master, netd and dnspind), over the QPS runs: unlike
#     QPS, it does not move with whatever else the machine runs.
# Targets (a miss is reported, not an error; the exit status says only
# whether everything ran; issue 18's): repeat answers at least 60000
# QPS and 1.5 times those of dnsmasq with its cache on, and new-pin
# answers at least 20000 QPS, with $LIVE live sandboxes.
#
# The policy's pins (sandboxd.conf(5)) hold every name the runs ask
# for: what is measured is pinning, not the cap.
#
# DNS_BENCH_SECONDS (5), DNS_BENCH_LIVE (4000), DNS_BENCH_RATE (1000)
# change the run, DNS_BENCH_DNSPERF_ARGS adds to dnsperf's arguments
# in the QPS runs (such as -c 4 -T 2: clients, threads), whose own CPU
# time per answer is listed too (with /usr/bin/time); DNS_BENCH_PERF=DIR
# records where dnspind's QPS runs spend their time, and dnsmasq's with
# its cache on (perf_start).  Four to five minutes, half of it making
# the sandboxes.  BENCH_SMOKE=1 (kv.sh): 0.3 s runs, 3 sandboxes.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/bench/kv.sh"
need_root
setup_users
TEARDOWN_KEY=dns_teardown_s

if [ "$BENCH_SMOKE" = 1 ]; then
	DUR=0.3 LIVE=3 RATE=200 LATDUR=0.3 DIRECT_TRIES=1
else
	DUR=${DNS_BENCH_SECONDS:-5}
	LIVE=${DNS_BENCH_LIVE:-4000}
	RATE=${DNS_BENCH_RATE:-1000}
	LATDUR=3 DIRECT_TRIES=3
fi
# Names for the QPS runs (100k QPS is plenty) and for the latency runs,
# apart; dnsperf takes fractions of seconds, sh does not.
NEWN=$(awk -v d="$DUR" 'BEGIN { print int(d * 100000) }')
LATN=$(awk -v r="$RATE" -v d="$LATDUR" 'BEGIN { print int(r * d) + 1000 }')
PINS=$((NEWN + LATN + 1000))
[ "$PINS" -le 1048576 ] || PINS=1048576
# DNS_BENCH_DNSPERF_ARGS: more for the QPS runs' dnsperf (-c, -T).
DNSPERF_ARGS=${DNS_BENCH_DNSPERF_ARGS:-}
TIMECMD=
[ -x /usr/bin/time ] && TIMECMD=/usr/bin/time
NEWQPS_TARGET=20000
REPQPS_TARGET=60000
P="sbxbp$$"		# the upstream
D="sbxbd$$"		# dnsmasq, its ruleset
C="sbxbc$$"		# dnsmasq's client
UP=198.51.100.53
DMQ=192.0.4.1		# dnsmasq's address toward $C
RESOLVER=169.254.1.1

for p in dnsmasq dnsperf nsenter ${DNS_BENCH_PERF:+perf}; do
	if ! command -v $p > /dev/null; then
		echo "dns_bench: $p is missing (make bench installs it)" >&2
		exit 1
	fi
done

# runnerd leaves the cgroups of sandboxes still live when it stops, for
# the next start on the same state directory to reconcile; there is
# none after a bench, and 4000 memory cgroups a run hold gigabytes of
# kernel memory until the machine runs out.  So they go with the suite
# (common.sh's cgroup_cleanup, which waits CGROUP_WAIT seconds, kv.sh's
# 120, for their processes to die with runnerd); this says how many.
CG=
cg_count() {
	[ -n "$CG" ] || return 0
	_left=0
	for _d in /sys/fs/cgroup/*/"$CG" /sys/fs/cgroup/"$CG"; do
		[ -d "$_d" ] || continue
		_left=$((_left + $(find "$_d" -mindepth 1 -type d | wc -l)))
	done
	[ "$_left" = 0 ] || echo "# $_left sandbox cgroups left by" \
	    "runnerd at its stop, to remove"
}

dns_cleanup() {
	for f in "$T"/*.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	for ns in $C $D $P; do
		netns_gone "$ns"
	done
	# Its thousands of sandboxes go before the next driver starts:
	# a suite killed meanwhile leaves their teardown to the kernel,
	# racing the next one's start.
	if [ -n "$SBX_PID" ] && ! suite_stop 120; then
		echo "dns_bench: the suite did not stop in 120 s; killed" >&2
	fi
	cg_count
	cleanup
}
trap dns_cleanup EXIT

# The namespaces, their links and the upstream.
topo() {
	for ns in $NS $P $D $C; do
		ip netns add "$ns" && ip -n "$ns" link set lo up || return 1
	done
	ip -n "$P" addr add $UP/32 dev lo
	ip -n "$NS" link add bh0 type veth peer name bp0 netns "$P" &&
	ip -n "$D" link add bd0 type veth peer name bp1 netns "$P" &&
	ip -n "$C" link add bc0 type veth peer name bd1 netns "$D" ||
	    return 1
	ip -n "$NS" addr add 192.0.2.1/24 dev bh0
	ip -n "$P" addr add 192.0.2.2/24 dev bp0
	ip -n "$D" addr add 192.0.3.1/24 dev bd0
	ip -n "$P" addr add 192.0.3.2/24 dev bp1
	ip -n "$D" addr add $DMQ/24 dev bd1
	ip -n "$C" addr add 192.0.4.2/24 dev bc0
	for l in "$NS bh0" "$P bp0" "$D bd0" "$P bp1" "$D bd1" "$C bc0"; do
		set -- $l
		ip -n "$1" link set "$2" up || return 1
	done
	ip -n "$NS" route add $UP/32 via 192.0.2.2 &&
	ip -n "$D" route add $UP/32 via 192.0.3.2
}

# The names, every one its own address in 44.64.0.0/10 (public: dnspind
# never pins special-purpose ground, such as 100.64.0.0/10), and the
# query files.
names() {
	awk -v n=$((NEWN + LATN)) 'BEGIN {
		for (i = 0; i < n; i++)
			printf "44.%d.%d.%d n%d.bench.test\n",
			    64 + int(i / 65536), int(i / 256) % 256, i % 256, i
		for (i = 0; i < 1000; i++)
			printf "44.127.%d.%d r%d.bench.test\n",
			    int(i / 256), i % 256, i
	}' > "$T/hosts"
	awk '$2 ~ /^r/ { print $2, "A" }' "$T/hosts" > "$T/q.rep"
	awk -v n=$NEWN '$2 ~ /^n/ { if (++i <= n) print $2, "A"; else
	    print $2, "A" > f }' f="$T/q.newlat" "$T/hosts" > "$T/q.new"
}

# dnsmasq_start KEY NETNS ARGS...: in the background, its pid in
# $T/KEY.pid; answers says when it is ready.
dnsmasq_start() {
	_k=$1 _ns=$2; shift 2
	ip netns exec "$_ns" dnsmasq --keep-in-foreground --no-resolv \
	    --no-hosts --cache-size=${DNSMASQ_CACHE:-0} --bind-interfaces \
	    --user=root \
	    --pid-file="$T/$_k.pid" --log-facility="$T/$_k.log" "$@" &
	echo $! > "$T/$_k.pid"
}
# dnsmasq_stop KEY: and gone, its address free for the next one.
dnsmasq_stop() {
	_p=$(cat "$T/$1.pid")
	kill "$_p" 2>/dev/null
	_i=0
	while kill -0 "$_p" 2>/dev/null && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	rm -f "$T/$1.pid"
}

# answers SERVER PREFIX...: one query answered, within a few tries;
# also waits out what a slow target still has queued from a run before.
# ANSWER_TRIES (50) tries, a second at most each.
answers() {
	_s=$1; shift
	_i=0
	while [ $_i -lt "${ANSWER_TRIES:-50}" ]; do
		"$@" dnsperf -s "$_s" -d "$T/q.one" -n 1 -t 1 2>/dev/null |
		    grep -q 'NOERROR 1 ' && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "dns_bench: $_s does not answer" >&2
	return 1
}

# hosts_read KEY: dnsmasq KEY has read the hosts file, within
# DNS_BENCH_LOAD_WAIT seconds (600).  It takes time superlinear in the
# names (3 s for 50k, 12 s for 100k, minutes for 500k on a busy 2-core
# machine), during which it does not answer: answers' few seconds are
# not enough.
hosts_read() {
	_i=0 _n=$((${DNS_BENCH_LOAD_WAIT:-600} * 10))
	while ! grep -q "read $T/hosts - " "$T/$1.log" 2>/dev/null; do
		kill -0 "$(cat "$T/$1.pid")" 2>/dev/null && [ $_i -lt $_n ] || {
			echo "dns_bench: dnsmasq $1 did not read $T/hosts" >&2
			return 1; }
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "# the upstream read its hosts file in $((_i / 10)) s"
}

# The naive per-sandbox ruleset of N sandboxes: each its own pin sets,
# counter and chains, and a jump by interface name in the base chains.
naive_ruleset() {
	awk -v n="$1" 'BEGIN {
	print "table inet naive {"
	for (i = 0; i < n; i++) {
		g = sprintf("10.200.%d.%d", int(i / 64), (i % 64) * 4 + 2)
		printf "set sbx%d_pin4 { type ipv4_addr; flags timeout; " \
		    "timeout 60s; }\n", i
		printf "set sbx%d_pin6 { type ipv6_addr; flags timeout; " \
		    "timeout 60s; }\n", i
		printf "counter sbx%d { }\n", i
		printf "chain sbx%d_egress {\nip saddr != %s drop\n" \
		    "ct state established,related accept\n" \
		    "ip daddr @sbx%d_pin4 tcp dport 80 accept\n" \
		    "ip6 daddr @sbx%d_pin6 tcp dport 80 accept\n" \
		    "counter name sbx%d\ndrop\n}\n", i, g, i, i, i
		printf "chain sbx%d_ingress {\nip daddr != %s drop\n" \
		    "ct state established,related accept\ndrop\n}\n", i, g
		printf "chain sbx%d_host {\nip saddr != %s drop\n" \
		    "ct state established,related accept\n" \
		    "ip daddr 169.254.1.1 udp dport 53 accept\n" \
		    "ip daddr 169.254.1.1 tcp dport 53 accept\ndrop\n}\n",
		    i, g
	}
	print "chain forward {\ntype filter hook forward priority 0;"
	for (i = 0; i < n; i++)
		printf "iifname \"sbx%d\" jump sbx%d_egress\n" \
		    "oifname \"sbx%d\" jump sbx%d_ingress\n", i, i, i, i
	print "}\nchain input {\ntype filter hook input priority 0;"
	for (i = 0; i < n; i++)
		printf "iifname \"sbx%d\" jump sbx%d_host\n", i, i
	print "}\n}"
	}' > "$T/naive.nft"
	ip netns exec "$D" nft flush ruleset &&
	ip netns exec "$D" nft -f "$T/naive.nft"
}

# The ruleset in front of dnsmasq that netd puts in front of dnspind,
# in shape: the same hooks and chains, the same matches and lookups in
# the same order, conntrack on.  A query from the client's interface
# passes input (neighbour discovery, a jump to host: its own source
# address or drop, block-all, established, DNS to the resolver; then
# its counter by interface name) and the answer passes output (the
# node subnet only behind our interfaces, neighbour discovery, the
# resolver's untracked answer: its own destination address or drop,
# block-all, accept); UDP to and from the resolver's port 53 is not
# tracked, other traffic is.  Without it dnsmasq's packets cross no ruleset and
# no conntrack, dnspind's both: a peer that measures the path, not the
# resolver (dnsmasq_cache_bare_qps_4000 is that one).
peer_ruleset() {
	cat > "$T/peer.nft" <<-EOT
	table inet peer {
	set src4 { type ifname . ipv4_addr; elements = { "bd1" . 192.0.4.2 } }
	set src6 { type ifname . ipv6_addr; }
	set blocked { type ifname; }
	set inbound { type ifname; }
	counter bd1 { }
	map counters { type ifname : counter; elements = { "bd1" : "bd1" } }
	chain input {
		type filter hook input priority 0;
		icmpv6 type nd-neighbor-solicit ip6 hoplimit 255 iifname "bd1" accept
		icmpv6 type nd-neighbor-advert ip6 hoplimit 255 iifname "bd1" accept
		iifname "bd1" jump host
		iifname "bd1" counter name iifname map @counters
	}
	chain host {
		meta nfproto ipv4 iifname . ip saddr != @src4 drop
		meta nfproto ipv6 iifname . ip6 saddr != @src6 drop
		iifname @blocked drop
		ct state established,related return
		meta nfproto ipv4 ip daddr $DMQ udp dport 53 return
		meta nfproto ipv4 ip daddr $DMQ tcp dport 53 return
		drop
	}
	chain output {
		type filter hook output priority 0;
		ip daddr 192.0.4.0/24 oifname != "bd1" oifname != "lo" drop
		ip6 daddr fd00::/8 oifname != "bd1" oifname != "lo" drop
		icmpv6 type nd-neighbor-solicit ip6 hoplimit 255 oifname "bd1" accept
		icmpv6 type nd-neighbor-advert ip6 hoplimit 255 oifname "bd1" accept
		meta nfproto ipv4 ip saddr $DMQ udp sport 53 oifname "bd1" ct state untracked jump resolver_answer
		oifname "bd1" jump ingress
	}
	chain resolver_answer {
		oifname . ip daddr != @src4 drop
		oifname @blocked drop
		accept
	}
	chain raw_prerouting {
		type filter hook prerouting priority -300;
		meta nfproto ipv4 ip daddr $DMQ udp dport 53 iifname "bd1" notrack
	}
	chain raw_output {
		type filter hook output priority -300;
		meta nfproto ipv4 ip saddr $DMQ udp sport 53 oifname "bd1" notrack
	}
	chain ingress {
		meta nfproto ipv4 oifname . ip daddr != @src4 drop
		meta nfproto ipv6 oifname . ip6 daddr != @src6 drop
		oifname @blocked drop
		ct state established,related return
		oifname @inbound return
		drop
	}
	}
	EOT
	ip netns exec "$D" nft flush ruleset &&
	ip netns exec "$D" nft -f "$T/peer.nft"
}

# perf_start KEY: with DNS_BENCH_PERF=DIR, perf record -g of the master,
# netd and dnspind for a dnspind run, of dnsmasq for one with its cache
# on (the peer's profile beside dnspind's), into DIR/KEY.data;
# perf_wait.
perf_start() {
	PERF_PID=
	[ -n "${DNS_BENCH_PERF:-}" ] || return 0
	case $1 in
	dnspind*)
		_pp="$SBX_PID,$(pgrep -d, -x -P "$SBX_PID" 'netd|dnspind')" ;;
	dnsmasq[cb].*)
		_pp=$(cat "$T/fwdc.pid") ;;
	*)	return 0 ;;
	esac
	mkdir -p "$DNS_BENCH_PERF" || return 1
	perf record -q -g -o "$DNS_BENCH_PERF/$1.data" -p "$_pp" \
	    -- sleep "$DUR" > /dev/null 2>&1 &
	PERF_PID=$!
}
perf_wait() { [ -z "$PERF_PID" ] || wait "$PERF_PID"; }

# cpu_snap: "NAME TICKS WAIT" of each NAME:PID of $CPU_PIDS: its user
# and system time in clock ticks, and how long it waited for a CPU,
# runnable, in ns.  The processes that serve a target: CPU time per
# answer does not depend on what else the machine runs, QPS does, and
# latency does through that wait (its stalls are the p99).
cpu_snap() {
	for _np in $CPU_PIDS; do
		_p=${_np#*:}
		echo "${_np%%:*} $(awk '{ print $14 + $15 }' "/proc/$_p/stat" \
		    2>/dev/null || echo -) $(awk '{ print $2 }' \
		    "/proc/$_p/schedstat" 2>/dev/null || echo -)"
	done
}

# per_answer FIELD SCALE SNAP0 SNAP1 ANSWERS: "NAME VALUE ..." of the
# growth of FIELD (2, ticks; 3, ns) over the run, in us per answer.
per_answer() {
	paste "$3" "$4" | awk -v f="$1" -v s="$2" -v d="${5:-0}" '{
	    a = $(f); b = $(f + 3)
	    if (d > 0 && a != "-" && b != "-")
		printf "%s %.1f ", $1, (b - a) * s / d
	    else printf "%s - ", $1 } END { print "" }'
}

# tput KEY KIND SERVER PREFIX...: QPS of KIND (rep or new) into
# $T/KEY.KIND.qps, CPU us per answer into $T/KEY.KIND.cpu; a run with
# any answer but NOERROR counts as failed.
tput() {
	_k=$1.$2 _q=$2 _s=$3; shift 3
	if [ "$_q" = rep ]; then _n=1000000; else _n=1; fi
	echo - > "$T/$_k.cpu"
	answers "$_s" "$@" || { rc=1; echo "0 0 0" > "$T/$_k.qps"; return; }
	perf_start "$_k"
	cpu_snap > "$T/$_k.cpu0"
	rm -f "$T/$_k.dpcpu"
	"$@" ${TIMECMD:+$TIMECMD -f "%U %S" -o "$T/$_k.dpcpu"} dnsperf \
	    -s "$_s" -d "$T/q.$_q" -l "$DUR" -n $_n -q 100 $DNSPERF_ARGS \
	    > "$T/$_k.out" 2>&1
	cpu_snap > "$T/$_k.cpu1"
	perf_wait
	_d=$(awk '/Queries completed:/ { print $3 }' "$T/$_k.out")
	per_answer 2 "$((1000000 / $(getconf CLK_TCK)))" "$T/$_k.cpu0" \
	    "$T/$_k.cpu1" "$_d" | tr -d '\n' > "$T/$_k.cpu"
	# dnsperf's own: on two cores it takes its share from the target.
	awk -v d="$_d" 'NF == 2 && d > 0 { printf "dnsperf %.1f ",
	    ($1 + $2) * 1e6 / d }' "$T/$_k.dpcpu" >> "$T/$_k.cpu" 2>/dev/null
	echo >> "$T/$_k.cpu"
	awk -v k="$_k" '/Queries completed:/ { done = $3 }
	    /Queries lost:/ { lost = $3 }
	    /Response codes:/ { bad = $0 !~ /NOERROR [0-9]+ \(100\.00%\)/ }
	    /Queries per second:/ { qps = $4 }
	    END { if (qps == "" || bad || done == 0) {
		    print "dns_bench: " k ": failed" > "/dev/stderr"; exit 1 }
		printf "%d %d %d\n", qps, done, lost }' "$T/$_k.out" \
	    > "$T/$_k.qps" || { rc=1; echo "0 0 0" > "$T/$_k.qps"; }
}

# lat KEY KIND SERVER PREFIX...: p50 and p99 in ms, at $RATE or half
# the QPS tput found, whichever is lower, into $T/KEY.KIND.lat.  With
# LAT_TRIES=n, the lowest of n runs: for the upstream, what the others
# are measured against, so that a stall of the machine in its one run
# does not make theirs look shorter.
lat() {
	_k=$1.$2 _q=$2 _s=$3; shift 3
	_r=$(awk -v r="$RATE" '{ q = int($1 / 2); print q < r ? q : r }' \
	    "$T/$_k.qps")
	[ "$_r" -ge 1 ] || _r=1
	if [ "$_q" = rep ]; then _f=$T/q.rep _n=1000000
	else _f=$T/q.newlat _n=1; fi
	: > "$T/$_k.lats"
	echo - > "$T/$_k.wait"
	_t=0
	while [ $_t -lt "${LAT_TRIES:-1}" ]; do
		answers "$_s" "$@" || { rc=1; break; }
		cpu_snap > "$T/$_k.lcpu0"
		"$@" dnsperf -v -s "$_s" -d "$_f" -l "$LATDUR" -n $_n \
		    -Q "$_r" > "$T/$_k.v" 2>&1
		cpu_snap > "$T/$_k.lcpu1"
		per_answer 3 0.001 "$T/$_k.lcpu0" "$T/$_k.lcpu1" "$(grep -c \
		    '^> NOERROR' "$T/$_k.v")" > "$T/$_k.wait"
		awk '$1 == ">" && $2 == "NOERROR" { print $5 * 1000 }' \
		    "$T/$_k.v" | sort -n | awk '{ v[NR] = $1 }
		    END { if (NR > 0) printf "%.3f %.3f %d\n",
			v[int((NR - 1) * 0.5) + 1],
			v[int((NR - 1) * 0.99) + 1], NR }' >> "$T/$_k.lats"
		_t=$((_t + 1))
	done
	awk -v r="$_r" 'NR == 1 || $1 < a { a = $1 } NR == 1 || $2 < b {
	    b = $2 } { n = $3 } END { if (NR == 0) print "- - 0", r
	    else print a, b, n, r }' "$T/$_k.lats" > "$T/$_k.lat"
}

# measure KEY SERVER PREFIX...: both kinds; repeat answers after one
# pass through their names, so that the pins are there.
measure() {
	_m=$1 _ms=$2; shift 2
	"$@" dnsperf -s "$_ms" -d "$T/q.rep" -n 1 -l "$DUR" > /dev/null 2>&1
	tput "$_m" rep "$_ms" "$@"
	lat "$_m" rep "$_ms" "$@"
	tput "$_m" new "$_ms" "$@"
	lat "$_m" new "$_ms" "$@"
	for _q in rep new; do
		echo "$_m $_q $(cat "$T/$_m.$_q.qps") $(cat "$T/$_m.$_q.lat")"
	done | awk '{ printf "# %s %s: %d QPS (%d answers, %d lost);" \
	    " p50 %s p99 %s ms at %d QPS (%d answers)\n", $1, $2, $3, $4,
	    $5, $6, $7, $9, $8 }'

}

# sbx_pid ID: the host's pid of sandbox ID's process 1; dnsperf joins
# its network namespace through it.
sbx_pid() { ctl -j show "$1" | jfield pid sandbox; }

rc=0
write_conf "
upstream $UP
policy \"bench\" {
	network {
		allow name \"*.bench.test\" port 80
		pins $PINS
	}
}"
echo "r1.bench.test A" > "$T/q.one"
names
topo || { echo "dns_bench: topology" >&2; exit 1; }
dnsmasq_start up "$P" --addn-hosts="$T/hosts" --local-ttl=60 \
    --listen-address=$UP
hosts_read up && answers $UP ip netns exec "$NS" || exit 1
suite_run || { echo "dns_bench: the suite did not start" >&2; exit 1; }
first=$(ctl create -p bench) || { echo "dns_bench: create" >&2; exit 1; }
fpid=$(sbx_pid "$first")
# The instance's parent cgroup, from the sandbox's: /sandboxd-HASH/ID,
# and nothing else (never the production daemon's "sandboxd").
CG=$(awk -F: -v id="$first" '$2 == "memory" { m = $3 } $1 == "0" { u = $3 }
    END { p = m != "" ? m : u
	if (split(p, c, "/") == 3 && c[1] == "" && c[3] == id &&
	    c[2] ~ /^sandboxd-[0-9a-f]+$/)
		print c[2] }' "/proc/$fpid/cgroup")
answers $RESOLVER nsenter --net=/proc/$fpid/ns/net || exit 1

CPU_PIDS="upstream:$(cat "$T/up.pid")"
LAT_TRIES=$DIRECT_TRIES
measure direct $UP ip netns exec "$NS"
LAT_TRIES=1
dnsmasq_start fwd "$D" --server=$UP --listen-address=$DMQ
answers $DMQ ip netns exec "$C" || exit 1
CPU_PIDS="upstream:$(cat "$T/up.pid") dnsmasq:$(cat "$T/fwd.pid")"
measure dnsmasq $DMQ ip netns exec "$C"
dnsmasq_stop fwd

naive_ruleset 1 || exit 1
dnsmasq_start nft1 "$D" --server=$UP --listen-address=$DMQ \
    --nftset=/bench.test/4#inet#naive#sbx0_pin4
answers $DMQ ip netns exec "$C" || exit 1
CPU_PIDS="upstream:$(cat "$T/up.pid") dnsmasq:$(cat "$T/nft1.pid")"
measure nftset1 $DMQ ip netns exec "$C"
dnsmasq_stop nft1

CPU_PIDS="upstream:$(cat "$T/up.pid") master:$SBX_PID
    netd:$(pgrep -x -P "$SBX_PID" netd)
    dnspind:$(pgrep -x -P "$SBX_PID" dnspind)"
measure dnspind1 $RESOLVER nsenter --net=/proc/$fpid/ns/net

# The other sandboxes; dnsperf goes on from the last one made.
# Four at a time, in steps of 1000, each step timed.
: > "$T/ids"
i=2 steps=
while [ $i -le "$LIVE" ]; do
	j=$((i + 999 > LIVE ? LIVE : i + 999))
	t0=$(date +%s.%N)
	seq $i $j | xargs -P 4 -n 25 sh -c 'c=$1 s=$2; shift 2; for i; do
		"$c" -s "$s" create -p bench || exit 255; done' sh \
	    "$SANDBOXCTL" "$SOCK" >> "$T/ids" ||
	    { echo "dns_bench: create failed; the daemon log ends:" >&2
	      grep -v "audit {" "$LOG" | tail -n 20 >&2; exit 1; }
	steps="$steps $(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.1f",
	    $2 - $1 }')"
	i=$((j + 1))
done
last=$(tail -n 1 "$T/ids")
echo "# $((LIVE - 1)) more sandboxes made, by the 1000, in s:$steps"
lpid=$(sbx_pid "$last")
answers $RESOLVER nsenter --net=/proc/$lpid/ns/net || exit 1
measure dnspindN $RESOLVER nsenter --net=/proc/$lpid/ns/net

# The forwarder again, beside the run it is the target for.
ip netns exec "$D" nft flush ruleset
dnsmasq_start fwd2 "$D" --server=$UP --listen-address=$DMQ
answers $DMQ ip netns exec "$C" || exit 1
CPU_PIDS="upstream:$(cat "$T/up.pid") dnsmasq:$(cat "$T/fwd2.pid")"
measure dnsmasq2 $DMQ ip netns exec "$C"
dnsmasq_stop fwd2
# And with its cache on: the peer for repeat answers, behind the
# ruleset of netd's shape (peer_ruleset), and bare as before.
peer_ruleset || exit 1
DNSMASQ_CACHE=10000 dnsmasq_start fwdc "$D" --server=$UP --listen-address=$DMQ
answers $DMQ ip netns exec "$C" || exit 1
CPU_PIDS="upstream:$(cat "$T/up.pid") dnsmasq:$(cat "$T/fwdc.pid")"
measure dnsmasqc $DMQ ip netns exec "$C"
ip netns exec "$D" nft flush ruleset
measure dnsmasqb $DMQ ip netns exec "$C"
dnsmasq_stop fwdc

# The figures for bench.json: repeat and new-pin QPS with 1 and $LIVE
# live sandboxes, and the forwarder measured beside the second; out before the
# comparison with --nftset, which may fail on its own.
qps() { cut -d' ' -f1 "$T/$1.qps"; }
bench_kv dns_repeat_qps_1 "$(qps dnspind1.rep)"
bench_kv dns_newpin_qps_1 "$(qps dnspind1.new)"
bench_kv dns_repeat_qps_4000 "$(qps dnspindN.rep)"
bench_kv dns_newpin_qps_4000 "$(qps dnspindN.new)"
bench_kv dnsmasq_qps_1 "$(qps dnsmasq.rep)"
bench_kv dnsmasq_qps_4000 "$(qps dnsmasq2.rep)"
bench_kv dnsmasq_cache_qps_4000 "$(qps dnsmasqc.rep)"
bench_kv dnsmasq_cache_bare_qps_4000 "$(qps dnsmasqb.rep)"
bench_kv dns_repeat_ratio_dnsmasq_bare_4000 "$(awk \
    -v a="$(qps dnspindN.rep)" -v b="$(qps dnsmasqb.rep)" \
    'BEGIN { if (b > 0) printf "%.4f", a / b }')"
bench_kv dns_repeat_ratio_dnsmasq_4000 "$(awk -v a="$(qps dnspindN.rep)" \
    -v b="$(qps dnsmasqc.rep)" 'BEGIN { if (b > 0) printf "%.4f", a / b }')"
bench_kv dns_repeat_ratio_dnsmasq_nocache_4000 "$(awk \
    -v a="$(qps dnspindN.rep)" -v b="$(qps dnsmasq2.rep)" \
    'BEGIN { if (b > 0) printf "%.4f", a / b }')"
# CPU time per answer of all that serves, dnsperf's left out.
cpu() { awk '{ for (i = 1; i < NF; i += 2) if ($i != "dnsperf" &&
    $(i + 1) != "-") s += $(i + 1) } END { printf "%.2f", s }' \
    "$T/$1.cpu"; }
bench_kv dns_repeat_cpu_us_4000 "$(cpu dnspindN.rep)"
bench_kv dnsmasq_cache_cpu_us_4000 "$(cpu dnsmasqc.rep)"
bench_kv dns_repeat_cpu_ratio_dnsmasq_4000 "$(awk \
    -v a="$(cpu dnspindN.rep)" -v b="$(cpu dnsmasqc.rep)" \
    'BEGIN { if (a > 0) printf "%.4f", b / a }')"
bench_kv dns_newpin_cpu_us_4000 "$(cpu dnspindN.new)"

naive_ruleset "$LIVE" || exit 1
dnsmasq_start nftN "$D" --server=$UP --listen-address=$DMQ \
    --nftset=/bench.test/4#inet#naive#sbx$((LIVE - 1))_pin4
# Through libnftables it reads the ruleset of $LIVE sandboxes at its
# start and for every answer (some 150 ms of CPU each): on a busy
# machine its first answer, and the one each run waits for, may take
# minutes.
ANSWER_TRIES=600
answers $DMQ ip netns exec "$C" || exit 1
CPU_PIDS="upstream:$(cat "$T/up.pid") dnsmasq:$(cat "$T/nftN.pid")"
measure nftsetN $DMQ ip netns exec "$C"
ANSWER_TRIES=50
dnsmasq_stop nftN

# The table: QPS and its ratio to the dnsmasq forwarder's, p50 and p99
# less the upstream's own (its own row: its own figures), then the
# targets.  mawk: no gawk extensions.
for k in direct dnsmasq nftset1 dnspind1 dnspindN dnsmasq2 dnsmasqc dnsmasqb \
    nftsetN; do
	for q in rep new; do
		echo "$k $q $(cat "$T/$k.$q.qps") $(cat "$T/$k.$q.lat")"
	done
done | awk -v live="$LIVE" -v rate="$RATE" -v target="$NEWQPS_TARGET" \
    -v reptarget="$REPQPS_TARGET" \
    -v upus="$(awk '{ for (i = 1; i < NF; i += 2) if ($i == "upstream")
	print $(i + 1) }' "$T/direct.rep.cpu")" '
{ qps[$1, $2] = $3; lost[$1, $2] = $5; p50[$1, $2] = $6
  p99[$1, $2] = $7; n[$1, $2] = $8; r[$1, $2] = $9 }
# lat K Q P: percentile P (50 or 99) of the run, less the upstream one.
function lat(k, q, p,    v, d) {
	if (n[k, q] == 0)
		return sprintf("%8s", "-")
	v = p == 50 ? p50[k, q] : p99[k, q]
	if (k == "direct")
		return sprintf("%8.3f", v)
	d = p == 50 ? p50["direct", q] : p99["direct", q]
	return sprintf("%+8.3f", v - d)
}
# The forwarder measured nearest in time is the one to compare with.
function cell(k, q,    f, fw) {
	fw = k ~ /N$|2$|c$|b$/ ? "dnsmasq2" : "dnsmasq"
	f = qps[fw, q] > 0 ? qps[k, q] / qps[fw, q] : 0
	return sprintf("%7d %5.2f %s %s", qps[k, q], f, lat(k, q, 50),
	    lat(k, q, 99))
}
function row(name, k) {
	printf "%-36s %s   %s\n", name, cell(k, "rep"), cell(k, "new")
}
function verdict(what, got, want, wname) {
	printf("%-4s %s: %d QPS, target >= %d (%s)\n",
	    got >= want ? "PASS" : "MISS", what, got, want, wname)
}
END {
	printf "\n%-36s %-35s %s\n", "dns resolvers, one dnsperf run each",
	    "repeat answers", "a new pin each"
	printf "%-36s %7s %5s %8s %8s   %7s %5s %8s %8s\n", "", "QPS",
	    "/fwd", "p50 ms", "p99 ms", "QPS", "/fwd", "p50 ms", "p99 ms"
	row("upstream, asked directly", "direct")
	row("dnsmasq forwarder, cache off", "dnsmasq")
	row("dnsmasq --nftset, 1 sbx of rules", "nftset1")
	row("dnspind, 1 live sandbox", "dnspind1")
	row(sprintf("dnspind, %d live sandboxes", live), "dnspindN")
	row("dnsmasq forwarder, cache off, again", "dnsmasq2")
	row("dnsmasq, cache on, netd-shaped rules", "dnsmasqc")
	row("dnsmasq, cache on, no ruleset", "dnsmasqb")
	row(sprintf("dnsmasq --nftset, %d sbx of rules", live), "nftsetN")
	print "# In this order, one after the other.  /fwd: QPS over that of" \
	    " the dnsmasq forwarder"
	print "# measured nearest in time.  p50, p99: added to the" \
	    " upstream'"'"'s own (its row),"
	printf "# measured at %d QPS, or half the target'"'"'s QPS where" \
	    " that is lower:\n", rate
	for (k in r)
		if (r[k] < rate) {
			split(k, kk, SUBSEP)
			printf "#   %s %s at %d QPS, %d answers\n", kk[1],
			    kk[2], r[k], n[k]
		}
	for (k in lost)
		if (lost[k] > 0) {
			split(k, kk, SUBSEP)
			printf "#   %s %s: %d queries lost (dnsperf timed" \
			    " them out after 5 s)\n", kk[1], kk[2], lost[k]
		}
	verdict("dnspind repeat answers, 1 live sandbox", qps["dnspind1",
	    "rep"], qps["dnsmasq", "rep"], "the dnsmasq forwarder, cache off")
	verdict(sprintf("dnspind repeat answers, %d live sandboxes", live),
	    qps["dnspindN", "rep"], qps["dnsmasq2", "rep"],
	    "the dnsmasq forwarder, cache off, again")
	verdict(sprintf("dnspind repeat answers, %d live sandboxes", live),
	    qps["dnspindN", "rep"], 1.5 * qps["dnsmasqc", "rep"],
	    "1.5 x dnsmasq, cache on, behind a ruleset of netd'"'"'s shape")
	verdict(sprintf("dnspind repeat answers, %d live sandboxes", live),
	    qps["dnspindN", "rep"], reptarget, "issue 18")
	verdict(sprintf("dnspind new-pin answers, %d live sandboxes", live),
	    qps["dnspindN", "new"], target, "issue 18")
	m = 0
	for (k in qps)
		if (k !~ /^direct/ && qps[k] > m)
			m = qps[k]
	# dnsperf shares the two cores too: the upstream'"'"'s own CPU time
	# per answer says what it could do with one to itself.
	cap = upus > 0 ? int(1e6 / upus) : 0
	ok = qps["direct", "rep"] >= 2 * m && qps["direct", "new"] >= 2 * m
	ok = ok || cap >= 2 * m
	w = "under twice that, it may be the bottleneck"
	if (ok)
		w = "not the bottleneck"
	printf("%-4s the upstream asked directly: %d and %d QPS, %s us of" \
	    " CPU an answer (%d QPS a core); the best resolver %d: %s\n",
	    ok ? "ok" : "NOTE", qps["direct", "rep"], qps["direct", "new"],
	    upus, cap, m, w)
}' || rc=1
# Every new-pin answer of dnspind's was pinned first: one audit line each.
want=$(cat "$T/dnspind1.new.qps" "$T/dnspind1.new.lat" "$T/dnspindN.new.qps" \
    "$T/dnspindN.new.lat" | awk 'NF == 3 { n += $2 } NF == 4 { n += $3 }
    END { print n + 0 }')
got=$(grep -c 'audit {"audit":"dns.pin".*"name":"n[0-9]*\.bench\.test"' \
    "$LOG")
v=ok
[ "$got" -ge "$want" ] && [ "$want" -gt 0 ] || { v=FAIL; rc=1; }
echo "$v   dnspind's new-pin answers: $want, pins audited for them: $got"
# per_answer EXT: each run's $T/<run>.{rep,new}.EXT, repeat | new pin.
per_answer() {
	for k in direct dnsmasq nftset1 dnspind1 dnspindN dnsmasq2 dnsmasqc \
	    dnsmasqb nftsetN; do
		printf '#   %-9s %s| %s\n' "$k" "$(cat "$T/$k.rep.$1")" \
		    "$(cat "$T/$k.new.$1")"
	done
}
echo "# CPU time per answer in the QPS runs, us, user and system," \
    "repeat | new pin:"
per_answer cpu
echo "# Time spent runnable, waiting for a CPU, per answer in the latency" \
    "runs, us (the"
echo "# machine's other load; a path through more processes waits more)," \
    "repeat | new pin:"
per_answer wait
exit $rc
