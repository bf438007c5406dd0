#!/bin/sh
# Under a seccomp filter that answers clone3(2) with ENOSYS (systemd's
# RestrictNamespaces= does), runnerd falls back to clone(2) for each
# sandbox's pid 1: sandboxes are made and run as before.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 6

setup_users
write_conf ""
cc -o "$T/noclone3" "$ROOT/regress/daemon/noclone3.c" -lseccomp
check "the filter works: clone3 is ENOSYS under it" sh -c \
    "'$T/noclone3' /usr/bin/python3 -c 'import ctypes, errno, sys
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(435, None, 0)
sys.exit(0 if r == -1 and ctypes.get_errno() == errno.ENOSYS else 1)'"
ip netns add "$NS" && ip -n "$NS" link set lo up
ip netns exec "$NS" "$T/noclone3" "$SANDBOXD" -d -v -f "$T/sandboxd.conf" \
    -s "$SOCK" >>"$LOG" 2>&1 &
SBX_PID=$!
check "suite starts under it" wait_for 10 all_ready
is "$(run_sbx -- sh -c 'echo ok')" ok "a sandbox is made and runs a command"
id=$(sbx_create)
check "a created sandbox has a pid namespace of its own" [ -n "$id" ] &&
    [ "$(in_sbx "$id" 'readlink /proc/1/ns/pid')" != "$(readlink /proc/self/ns/pid)" ]
ctl destroy "$id" >/dev/null
check "and is destroyed through its pidfd" wait_for 5 sh -c \
    "[ \$($SANDBOXCTL -s $SOCK ps | tail -n +2 | grep -c $id) = 0 ]"
check "suite stops" suite_stop
done_testing
