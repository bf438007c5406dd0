#!/bin/sh
# The host's other filters: a FORWARD chain with policy drop, as
# iptables-nft makes it for Docker, drops what the sandbox's policy
# allows; netd finds it at start and on every nf_tables change, logs it
# and sandboxctl status names it, until it is gone.
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
plan $tap_n
