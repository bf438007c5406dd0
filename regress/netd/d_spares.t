#!/bin/sh
# The networks made ahead of demand (prebuild N: N spares, at least
# one): each a veth in a net namespace of its own with no rules, so its
# interface drops everything; a burst of creates takes them and the
# ones past them are set up whole; they are made again; a run that
# takes a sandbox built ahead around one has its rules; destroyed
# sandboxes and a stop leave no link behind.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
need_root

write_conf "
prebuild 3
policy \"net\" {
	network { allow $PUB1 port 80 }
}"
dtopo_up || { echo "Bail out! the suite did not start"; exit 1; }
plan 19

links() { ip -n $NS -o link | grep -o ': sbx[0-9a-f]*' | cut -c3- | sort; }
count_ours() {
	ip netns exec $NS nft list table inet sandboxd |
	    grep -o 'sbx[0-9a-f]\{8\}' | sort -u | wc -l
}
ifname() { ctl show "$1" | awk '/^network:/ { print $3 }'; }

check "prebuild 3: three veths made ahead of demand" wait_for 5 \
    sh -c "[ \$(ip -n $NS -o link | grep -c ': sbx') = 3 ]"
is "$(count_ours)" 0 "with no element in the table: they drop everything"
links > "$T/spares0"

# Six creates at once: three find a spare each, the rest are set up
# whole (or take one made again meanwhile).
i=0 pids=
while [ $i -lt 6 ]; do
	ctl create -p net > "$T/id.$i" &
	pids="$pids $!"
	i=$((i + 1))
done
for p in $pids; do wait $p; done
cat "$T"/id.* > "$T/ids"
is "$(grep -c . "$T/ids")" 6 "six sandboxes with a network created at once"
: > "$T/ifs"
while read -r id; do ifname "$id" >> "$T/ifs"; done < "$T/ids"
took=$(sort "$T/ifs" | comm -12 - "$T/spares0" | wc -l)
is "$took" 3 "three of them took the veths made ahead"
diag "$(sort "$T/ifs" | comm -23 - "$T/spares0" | wc -l) set up at create time or from a spare made again"
is "$(count_ours)" 6 "each has its elements in the table"
first=$(head -n 1 "$T/ids")
last=$(tail -n 1 "$T/ids")
sprobe f -x "$first" "tcp $PUB1 80" "tcp $PUB1 81"
sprobe l -x "$last" "tcp $PUB1 80" "tcp $PUB1 81"
probe_wait
expect f "tcp $PUB1 80" ok "a sandbox reaches its allowed server"
expect f "tcp $PUB1 81" timeout "and no more"
expect l "tcp $PUB1 80" ok "so does another of the burst"
expect l "tcp $PUB1 81" timeout "and no more"
check "three spares again: made in the background" wait_for 5 \
    sh -c "[ \$(ip -n $NS -o link | grep -c ': sbx') = 9 ]"
# The kernel's multicast route of each host side (it hangs off one FIB
# node with all the others) goes once the link is ready: none is left.
check "the host sides keep no ff00::/8 route" wait_for 5 \
    sh -c "[ \$(ip -n $NS -6 route show table local |
    grep -c 'ff00::/8 dev sbx') = 0 ]"

# Sandboxes of "net" are built ahead now, each around a veth: a run
# takes one, and its rules hold as any sandbox's.
built_net() { grep -q "built ahead for policy net" "$LOG"; }
check "sandboxes of policy net are built ahead" wait_for 5 built_net
sprobe r net "tcp $PUB1 80" "tcp $PUB1 81"
probe_wait
expect r "tcp $PUB1 80" ok "a run on one built ahead reaches its allowed server"
expect r "tcp $PUB1 81" timeout "and no more"
rid=$(grep "created: policy net" "$LOG" | tail -n 1 |
    sed 's/.*sandbox \([0-9a-f]*\) created.*/\1/')
check "that run's sandbox was one built ahead" \
    grep -q "sandbox $rid built ahead for policy net" "$LOG"

while read -r id; do
	ctl destroy "$id" > /dev/null || echo "destroy $id failed"
done < "$T/ids"
check "destroyed: only the three spares are left" wait_for 10 \
    sh -c "[ \$(ip -n $NS -o link | grep -c ': sbx') = 3 ]"
is "$(count_ours)" 0 "and no element of any sandbox"
check "a clean stop" suite_stop
is "$(links | wc -l)" 0 "leaves no link of ours, spares included"
done_testing
