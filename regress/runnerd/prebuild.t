#!/bin/sh
# Sandboxes built ahead of demand (prebuild N): a create takes one; a
# reload never hands out one built under the old policy; a create for
# another policy builds for it too; a run takes one, never used before;
# prebuild N bounds them; prebuild 0 builds none.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 24

setup_users
base=$((300000 + ($$ % 500) * 1000))
conf() {	# extra global lines, the default policy's pids limit
	cat > "$T/sandboxd.conf" <<CONF
state-dir "$T/state"
uid-range $base 1000
$1
policy "default" { limits { pids $2 } }
policy "tight" { limits { pids 32 } }
policy "net" {
	limits { pids 48 }
	network { allow 203.0.113.10 port 80 }
}
CONF
}
conf "" 64
check "suite starts" suite_start
group=$(cgroup_group)

# Spares: sandbox directories that ps does not list.
spares() {
	ctl ps | tail -n +2 | awk '{ print $1 }' | sort > "$T/live"
	ls "$(state_dir)" | grep -v '^kept$' | sort | comm -23 - "$T/live"
}
nspares() { spares | wc -l; }
one_spare() { [ "$(nspares)" = 1 ]; }
pidsmax() { cat /sys/fs/cgroup/pids/$group/$1/pids.max; }

check "one sandbox is built ahead, and ps does not list it" wait_for 5 one_spare
sp=$(spares)
id=$(sbx_create)
is "$id" "$sp" "a create takes it"
check "and another is built ahead" wait_for 5 one_spare
is "$(in_sbx "$id" 'echo $(id -u) $(hostname)')" \
    "$(ctl -j show "$id" | jfield uid sandbox) sbx-$(echo $id | cut -c1-8)" \
    "it is the sandbox's own: its uid, its hostname"
is "$(pidsmax "$id")" 64 "with its policy's limits"
ctl destroy "$id" >/dev/null

# A reload drops what was built under the old config.
old=$(spares)
conf "" 77
ctl reload >/dev/null
rebuilt() { s=$(spares); [ -n "$s" ] && [ "$s" != "$old" ]; }
check "a reload drops the spare and builds a new one" wait_for 5 rebuilt
id=$(sbx_create)
is "$(pidsmax "$id")" 77 "the next sandbox has the new policy's limits"
check "the old spare's directory is gone" [ ! -e "$(state_dir)/$old" ]
ctl destroy "$id" >/dev/null

# Another policy asked for: it gets spares of its own, the default
# policy keeps its.
ofpol() {	# the spares with that pids limit
	for s in $(spares); do
		[ "$(pidsmax "$s")" = "$1" ] && echo "$s"
	done
}
one_each() { [ "$(ofpol 32 | wc -l)" = 1 ] && [ "$(ofpol 77 | wc -l)" = 1 ]; }
t1=$(sbx_create tight)
check "after a create for another policy, one spare for each" \
    wait_for 5 one_each
sp=$(ofpol 32)
t2=$(sbx_create tight)
is "$t2" "$sp" "the next create for that policy takes its spare"
is "$(pidsmax "$t2")" 32 "with that policy's limits"
ctl destroy "$t1" >/dev/null; ctl destroy "$t2" >/dev/null

# A run takes one too, and never one another run used: what the first
# wrote is not there for the second.
check "spares again" wait_for 5 one_each
sp=$(ofpol 77)
out=$(run_sbx -- sh -c 'hostname; echo x > /tmp/mark; echo y > mark')
is "$(echo "$out" | head -n 1)" "sbx-$(echo $sp | cut -c1-8)" \
    "a run takes the spare"
check "the spare taken by a run is destroyed after it" \
    wait_for 5 test ! -e "$(state_dir)/$sp"
is "$(run_sbx -- sh -c 'cat /tmp/mark mark 2>&1 | wc -l; ls /tmp')" 2 \
    "the next run sees nothing of it"

# A policy with a network: its spares are built around a veth made
# ahead, and the run that takes one has that network, its own.
run_sbx -p net -- true
one_net() { [ "$(ofpol 48 | wc -l)" = 1 ]; }
check "a policy with a network gets a spare too" wait_for 5 one_net
sp=$(ofpol 48)
out=$(run_sbx -p net -- sh -c 'hostname; grep -c : /proc/net/dev')
is "$out" "sbx-$(echo $sp | cut -c1-8)
2" "a networked run takes it, with lo and its veth"
check "its veth goes with it: one is left, lent to the next spare" \
    wait_for 5 sh -c "[ \$(ip -n $NS -o link | grep -c ': sbx') = 1 ]"

conf "prebuild 3" 77
ctl reload >/dev/null
three() { [ "$(ofpol 32 | wc -l)" = 3 ] && [ "$(ofpol 77 | wc -l)" = 3 ] &&
    [ "$(ofpol 48 | wc -l)" = 3 ]; }
check "prebuild 3 builds three for each policy in use" wait_for 10 three
links() { ip -n "$NS" -o link | grep -c ': sbx'; }
sleep 0.3
is "$(nspares)" 9 "and no more"
is "$(links)" 3 "the networked ones hold the three veths made ahead"
conf "prebuild 0" 77
ctl reload >/dev/null
none() { [ "$(nspares)" = 0 ]; }
check "prebuild 0 builds none, and drops what there was" wait_for 5 none
check "and their veths: one made ahead is left" \
    wait_for 5 sh -c "[ \$(ip -n $NS -o link | grep -c ': sbx') = 1 ]"
done_testing
