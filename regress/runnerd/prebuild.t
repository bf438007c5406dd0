#!/bin/sh
# Sandboxes built ahead of demand (prebuild N): a create takes one; a
# reload never hands out one built under the old policy; a create for
# another policy turns them to it; prebuild 0 builds none.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 14

setup_users
base=$((300000 + ($$ % 500) * 1000))
conf() {	# extra global lines, the default policy's pids limit
	cat > "$T/sandboxd.conf" <<CONF
state-dir "$T/state"
uid-range $base 1000
$1
policy "default" { limits { pids $2 } }
policy "tight" { limits { pids 32 } }
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

# Another policy asked for: the spares turn to it.
t1=$(sbx_create tight)
check "after a create for another policy, one spare again" wait_for 5 one_spare
sp=$(spares)
t2=$(sbx_create tight)
is "$t2" "$sp" "the next create for that policy takes it"
is "$(pidsmax "$t2")" 32 "with that policy's limits"
ctl destroy "$t1" >/dev/null; ctl destroy "$t2" >/dev/null

conf "prebuild 3" 77
ctl reload >/dev/null
three() { [ "$(nspares)" = 3 ]; }
check "prebuild 3 builds three" wait_for 5 three
conf "prebuild 0" 77
ctl reload >/dev/null
none() { [ "$(nspares)" = 0 ]; }
check "prebuild 0 builds none, and drops what there was" wait_for 5 none
done_testing
