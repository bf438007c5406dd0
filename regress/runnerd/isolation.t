#!/bin/sh
# What a sandbox can see: its own processes, its own minimal root, its
# own workspace.  Each denial stands next to an allowed twin.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 19

setup_users
echo "host secret" > "$T/hostfile"
write_sandbox_conf
check "suite starts" suite_start

a=$(sbx_create)
b=$(sbx_create)
check "two sandboxes created" [ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ]

p=$(in_sbx "$a" 'echo $$')
check "the sandbox's shell has a pid of its own namespace ($p)" [ "$p" -lt 10 ]
is "$(in_sbx "$a" 'cat /proc/1/comm')" "$(cat /proc/$(ctl -j show "$a" | jfield pid sandbox)/comm)" \
    "pid 1 is the sandbox's own init"
n=$(in_sbx "$a" 'ls /proc | grep -c "^[0-9]"')
check "only its init, the shell and ls are visible ($n)" [ "$n" -le 4 ]
is "$(in_sbx "$a" 'cat /proc/[0-9]*/comm | grep -c -e sandboxd -e runnerd')" 0 \
    "no daemon process is visible"
is "$(in_sbx "$a" "cat $T/hostfile 2>/dev/null || echo absent")" absent \
    "a host file outside the binds is absent"
is "$(in_sbx "$a" 'test -e /etc/shadow && echo present || echo absent')" \
    absent "/etc/shadow is absent"
is "$(in_sbx "$a" 'test -e /etc/sandboxd.conf || test -e /var/lib/sandboxd && echo present || echo absent')" \
    absent "the daemons' config and state are absent"
is "$(in_sbx "$a" 'grep -c . /etc/passwd')" 2 "/etc/passwd holds root and the sandbox user only"
is "$(in_sbx "$a" 'touch /usr/x 2>&1 >/dev/null | grep -c "Read-only"')" 1 \
    "writing into /usr fails: read-only"
is "$(in_sbx "$a" 'touch /etc/x 2>&1 >/dev/null | grep -c "Read-only"')" 1 \
    "writing into /etc fails: read-only"
is "$(in_sbx "$a" 'echo hi > /workspace/f && cat /workspace/f')" hi \
    "writing into /workspace works"
is "$(in_sbx "$a" 'echo tmp > /tmp/t && cat /tmp/t')" tmp "writing into /tmp works"
is "$(in_sbx "$a" 'cat /workspace/f')" hi "the workspace persists across execs"
is "$(in_sbx "$b" 'cat /workspace/f 2>/dev/null || echo absent')" absent \
    "another sandbox's workspace does not have it"
is "$(in_sbx "$a" 'hostname')" "sbx-$(echo "$a" | cut -c1-8)" "the hostname is the sandbox's"
# pid 1 copies a template namespace that holds no workspace, and gets
# its own as a detached mount: no other sandbox's workspace is ever in
# its namespace, however many are alive.
na=$(in_sbx "$a" 'wc -l < /proc/self/mountinfo')
more=$(for i in 1 2 3 4; do sbx_create; done)
e=$(echo "$more" | tail -n 1)
is "$(in_sbx "$e" 'wc -l < /proc/self/mountinfo')" "$na" \
    "a sandbox made with five others alive has as many mounts as the first ($na)"
is "$(in_sbx "$e" "awk '\$5 ~ /^\/workspace/' /proc/self/mountinfo | wc -l")" 1 \
    "one mount at or below /workspace: its own"
for i in $a $b $more; do ctl destroy "$i" >/dev/null; done
done_testing
