#!/bin/sh
# The guest is the host an operator runs: Debian 12's own kernel, systemd
# as process 1, only cgroup v2; sandboxd installed with make install and
# run by systemd starts, runs sandboxes, restarts, survives a SIGKILL of
# the whole unit by coming back clean, and stops leaving nothing behind.
. "${SBX_SRC:-.}/regress/host/guest/lib.sh"
plan 22

diag "kernel $(uname -r): $(cat /proc/version)"
check "Debian 12's own kernel, 6.1" sh -c 'uname -r | grep -q "^6\.1\.[0-9]*-.*-amd64$"'
is "$(ps -p 1 -o comm=)" systemd "systemd is process 1"
is "$(stat -f -c %T /sys/fs/cgroup)" cgroup2fs "/sys/fs/cgroup is cgroup v2"
is "$(awk '$3 == "cgroup" || $3 == "cgroup2"' /proc/self/mounts | wc -l)" 1 \
    "only one cgroup hierarchy is mounted: no v1 controller"

is "$(systemctl is-enabled sandboxd)" enabled "sandboxd.service is enabled"
check "sandboxd.service is active and answers" wait_for 30 sbx_ready
is "$(sandboxctl run -- /bin/echo hello)" hello "sandboxctl run -- /bin/echo runs"
check "sandboxctl run -- /bin/true exits 0" sandboxctl run -- /bin/true

# A networked sandbox (policy ci has a network block): netd programs its
# nft table and the sandbox's link on this kernel, and stays up.
since=$(date '+%Y-%m-%d %H:%M:%S')
out=$(sandboxctl run -p ci -- sh -c 'ip -o -4 addr show | grep -v " lo "' 2>&1)
rc=$?
is "$rc" 0 "a networked sandbox (policy ci) runs"
check "and has an IPv4 address besides loopback" \
    sh -c 'printf "%s\n" "$1" | grep -q "inet 10\."' sh "$out"
[ "$rc" = 0 ] || diag "$out"
sleep 2
crashes=$(journalctl --no-pager -u sandboxd --since "$since" |
    grep -c 'exited with status')
is "$crashes" 0 "no child of sandboxd exited since"
[ "$crashes" = 0 ] || sbx_journal 20

# systemctl restart: a new main process that serves.
pid0=$(main_pid)
systemctl restart sandboxd
check "systemctl restart sandboxd" wait_for 30 sbx_ready
check "with a new main process" [ "$(main_pid)" != "$pid0" ]
check "which runs sandboxes" sandboxctl run -- /bin/true

# What is there with no sandbox but the ones built ahead of demand.
settle() { [ "$(sandboxctl ps | tail -n +2 | wc -l)" = 0 ]; }
wait_for 10 settle
sleep 2
base=$(sbx_leftovers)

# systemctl kill -s KILL: every process of the unit dies at once, live
# sandboxes included; Restart=on-failure brings it back, and the new
# instance removes what the old one left.
id=$(sandboxctl create)
sandboxctl exec "$id" -- sleep 1000 >/dev/null 2>&1 &
sandboxctl create -p ci >/dev/null 2>&1
sleep 2
pid0=$(main_pid)
n0=$(systemctl show -p NRestarts --value sandboxd)
systemctl kill -s KILL sandboxd
restarted() { [ "$(main_pid)" != "$pid0" ] && [ "$(main_pid)" != 0 ] && sbx_ready; }
check "after systemctl kill -s KILL, systemd restarts sandboxd" wait_for 60 restarted
is "$(systemctl show -p NRestarts --value sandboxd)" $((n0 + 1)) \
    "NRestarts counts the restart"
wait_for 10 settle
check "the new instance lists no sandbox" settle
same() { [ "$(sbx_leftovers)" = "$base" ]; }
wait_for 20 same
is "$(sbx_leftovers | tr '\n' ' ')" "$(echo "$base" | tr '\n' ' ')" \
    "and holds no more processes, cgroups, links or mounts than a fresh one"
is "$(sbx_daemons)" 5 "all five daemons run"
check "and runs sandboxes" sandboxctl run -- /bin/true

# systemctl stop with live sandboxes, one of them networked.
id=$(sandboxctl create)
sandboxctl exec "$id" -- sleep 1000 >/dev/null 2>&1 &
sandboxctl create -p ci >/dev/null 2>&1
sleep 2
systemctl stop sandboxd
is "$(systemctl is-active sandboxd)" inactive "systemctl stop sandboxd"
wait_for 10 sbx_nothing_left
is "daemons $(sbx_daemons) $(sbx_leftovers | tr '\n' ' ')" \
    "daemons 0 procs 0 cgroups 0 links 0 nft 0 mounts 0 " \
    "no sandbox process, daemon, cgroup, link, nft table or mount is left"
wait

sbx_restore
done_testing
