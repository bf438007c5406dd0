#!/bin/sh
# The host's other filters: a FORWARD chain with policy drop, as
# iptables-nft makes it for Docker, drops what the sandbox's policy
# allows; netd finds it at start and on every nf_tables change, logs it
# and sandboxctl status names it, until it is gone.  So too an accepting
# chain whose last rule rejects all that reaches it (firewalld's
# filter_FORWARD, ufw's final drop), found on rule changes as well;
# its twin, a chain whose last drop matches something, is not named.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
need_root

write_conf "
policy \"port\" {
	network { allow $PUB1 port 80 }
}"
dtopo_up || { echo "Bail out! the suite did not start"; exit 1; }
nftx() { ip netns exec $NS nft "$@"; }
warned() { ctl status | grep -q "^warning: host firewall: $1"; }
FWD="table ip filter chain FORWARD (hook forward, policy drop)"
INP="table inet fw chain input (hook input, policy drop)"

check "no warning in status on a host without other filters" \
    fails warned ""
A=$(ctl create -p port)
sprobe a -x $A "tcp $PUB1 80"
probe_wait
expect a "tcp $PUB1 80" ok "the allowed peer answers"

nftx -f - <<NFT
table ip filter {
	chain FORWARD { type filter hook forward priority 0; policy drop; }
}
NFT
check "a FORWARD chain with policy drop: status names it" \
    wait_for 5 warned "$FWD may drop sandbox traffic"
check "and the log says so" \
    grep -q "host firewall: $FWD may drop sandbox traffic" "$LOG"
ctl -j status | grep -q '"event":"net.hostfw"' &&
    ok "status -j has it as net.hostfw" || notok "status -j has it as net.hostfw"
sprobe b -x $A "tcp $PUB1 80"
probe_wait
expect b "tcp $PUB1 80" timeout "it really drops what the policy allows"

old=$(child_field netd pid)
kill -KILL "$old"
check "netd restarted" wait_for 15 restarted netd "$old"
check "the new netd finds it at start" wait_for 5 sh -c \
    "[ \$(grep -c 'host firewall: $FWD' $LOG) -ge 2 ]"

nftx add chain ip filter FORWARD "{ policy accept; }"
check "policy accept: the warning goes" wait_for 5 sh -c \
    "! $SANDBOXCTL -s $SOCK status | grep -q '^warning: host firewall'"
check "and the log says so" \
    grep -q "host firewall: no other chain drops by policy" "$LOG"
sprobe c -x $A "tcp $PUB1 80"
probe_wait
expect c "tcp $PUB1 80" ok "the allowed peer answers again"

nftx -f - <<NFT
table inet fw {
	chain input { type filter hook input priority 0; policy drop; }
}
NFT
check "an input chain with policy drop: status names it" \
    wait_for 5 warned "$INP may drop the sandboxes' DNS queries"
nftx flush ruleset
check "nft flush ruleset: the warning goes" wait_for 5 sh -c \
    "! $SANDBOXCTL -s $SOCK status | grep -q '^warning: host firewall'"

# firewalld's way: policy accept, a last rule that rejects everything.
FWD_LAST="table inet firewalld chain filter_FORWARD (hook forward, its last rule drops all)"
nftx -f - <<NFT
table inet firewalld {
	chain filter_FORWARD {
		type filter hook forward priority 10; policy accept;
		ct state established,related accept
		iifname "lo" accept
		ip saddr 192.0.2.99 drop
	}
}
NFT
sleep 0.5
check "a last rule that drops some only: no warning" \
    fails warned ""
sprobe d -x $A "tcp $PUB1 80"
probe_wait
expect d "tcp $PUB1 80" ok "and the allowed peer still answers"
nftx add rule inet firewalld filter_FORWARD reject with icmpx admin-prohibited
check "a last rule that rejects all: status names it" \
    wait_for 5 warned "$FWD_LAST may drop sandbox traffic"
sprobe e -x $A "tcp $PUB1 80"
probe_wait
expect e "tcp $PUB1 80" EHOSTUNREACH "it really rejects what the policy allows (icmpx admin-prohibited)"
nftx flush chain inet firewalld filter_FORWARD
check "its rules flushed: the warning goes" wait_for 5 sh -c \
    "! $SANDBOXCTL -s $SOCK status | grep -q '^warning: host firewall'"
# ufw's way: a counter and a drop, last in an input chain.
nftx add rule inet firewalld filter_FORWARD accept
nftx -f - <<NFT
table ip ufw {
	chain INPUT {
		type filter hook input priority 0; policy accept;
		tcp dport 22 accept
		counter drop
	}
}
NFT
check "an input chain ending in a counted drop: status names it" \
    wait_for 5 warned "table ip ufw chain INPUT (hook input, its last rule drops all) may drop the sandboxes' DNS"
nftx delete table ip ufw
check "its table deleted: the warning goes" wait_for 5 sh -c \
    "! $SANDBOXCTL -s $SOCK status | grep -q '^warning: host firewall'"
plan $tap_n
