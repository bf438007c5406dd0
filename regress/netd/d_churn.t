#!/bin/sh
# 500 sandboxes with a network created through sandboxctl, all live at
# once, then destroyed: no interface, set element, counter, map entry,
# route or address of theirs is left behind.  And a tap for a VMM.
. "$(dirname "$0")/../lib/common.sh"
. "$ROOT/regress/netd/dtopo.sh"
need_root

N=500
write_conf "
policy \"net\" {
	network { allow $PUB1 port 80 }
}"
dtopo_up || { echo "Bail out! the suite did not start"; exit 1; }

nft_tbl() { ip netns exec $NS nft list table inet sandboxd; }
count_links() { ip -n $NS -o link | grep -c ': sbx' ; }
# Elements and counters of any sandbox interface, counted by name.
count_ours() { nft_tbl | grep -o 'sbx[0-9a-f]\{8\}' | sort -u | wc -l; }

# runnerd has the next sandbox's veth made ahead of demand, in a net
# namespace of its own, with no rules: its interface drops everything.
check "one veth is made ahead of demand" wait_for 5 \
    sh -c "[ \$(ip -n $NS -o link | grep -c ': sbx') = 1 ]"
is "$(count_ours)" 0 "with no element in the table"
links0=$(count_links); ours0=$(count_ours)
routes0=$(ip -n $NS route | wc -l); routes60=$(ip -n $NS -6 route | wc -l)
addrs0=$(ip -n $NS -o addr | wc -l)
i=0
while [ $i -lt $N ]; do
	ctl create -p net >> "$T/ids" || break
	i=$((i + 1))
done
is "$(wc -l < "$T/ids")" $N "$N sandboxes with a network created"
is "$(count_links)" $((links0 + N)) "each has its host interface"
is "$(count_ours)" $((ours0 + N)) "and its elements in the table"
last=$(tail -n 1 "$T/ids")
sprobe l -x "$last" "tcp $PUB1 80" "tcp $PUB1 81"
probe_wait
expect l "tcp $PUB1 80" ok "the last of them reaches its allowed server"
expect l "tcp $PUB1 81" timeout "and no more"

while read -r id; do
	ctl destroy "$id" > /dev/null || echo "destroy $id failed"
done < "$T/ids"
check "after destroying them all, no interface of theirs" \
    wait_for 10 sh -c "[ \$(ip -n $NS -o link | grep -c ': sbx') = $links0 ]"
is "$(count_ours)" "$ours0" "no element, counter or map entry"
is "$(ip -n $NS route | wc -l)" "$routes0" "no IPv4 route"
is "$(ip -n $NS -6 route | wc -l)" "$routes60" "no IPv6 route"
is "$(ip -n $NS -o addr | wc -l)" "$addrs0" "no address"
check "every set of the table is empty" \
    sh -c "! ip netns exec $NS nft list table inet sandboxd |
    grep -q 'elements = '"

# A tap: made for the caller (root here), persistent, listed by show.
V=$(ctl create --tap -p net)
check "create --tap answers with an id" test -n "$V"
show=$(ctl show "$V")
V_if=$(printf '%s\n' "$show" | awk '/^network:/ { print $3 }')
is "$(printf '%s\n' "$show" | awk '/^network:/ { print $2 }')" tap \
    "show says it is a tap"
check "and gives the guest address, prefix and gateway a VMM needs" \
    sh -c "printf '%s\n' \"\$1\" | grep -q -E \
    '^guest: +10\.200\.[0-9.]+/30 gateway 10\.200\.[0-9.]+ mac'" - "$show"
info=$(ip -n $NS -d link show "$V_if" 2>&1)
case "$info" in
*"tun type tap"*"persist on"*"user root"*) ok "a persistent tap owned by its caller";;
*) notok "a persistent tap owned by its caller"; diag "$info";;
esac
check "with its datapath elements" \
    sh -c "ip netns exec $NS nft list set inet sandboxd src4 | grep -q $V_if"
ctl destroy "$V" > /dev/null
check "destroyed: the tap goes" wait_for 5 no_link "$V_if"
is "$(count_ours)" "$ours0" "and its elements"
check "run refuses a tap" fails ctl run -T -p net -- true 2>/dev/null
plan $tap_n
