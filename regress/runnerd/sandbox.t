#!/bin/sh
# The sandbox core of runnerd (cmd/runnerd/sandbox.h), driven directly
# by sandbox_test with runnerd's own privileges and seccomp filter, in
# a throwaway network namespace.  The TAP comes from sandbox_test.
. "$(dirname "$0")/../lib/common.sh"
need_root

TEST="$B/regress/runnerd/sandbox_test"

# What a crashed sandbox_test could leave: its cgroups (ids ab000000+n).
sandbox_cleanup() {
	for d in /sys/fs/cgroup/*/sandboxd/00000000ab* \
	    /sys/fs/cgroup/sandboxd/00000000ab*; do
		[ -d "$d" ] || continue
		echo THAWED > "$d/freezer.state" 2>/dev/null
		xargs -r kill -KILL < "$d/cgroup.procs" 2>/dev/null
		rmdir "$d" 2>/dev/null
	done
	cleanup
}
trap sandbox_cleanup EXIT

mkdir -p "$T/rdir" "$T/wdir" "$T/suid"
echo "host secret" > "$T/hostfile"
echo "read me" > "$T/rdir/file"
chmod 1777 "$T/wdir"
cp /usr/bin/id "$T/suid/id"
chmod 4755 "$T/suid/id"

# Each call with arguments that, past the filter, the kernel would
# refuse with something other than EPERM wherever it can.
cat > "$T/rdir/probe.py" <<'PROBE'
import ctypes, errno, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def t(name, nr, *a):
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(x) for x in a])
    e = ctypes.get_errno()
    print(name, "ok" if r >= 0 else errno.errorcode.get(e, str(e)),
        flush=True)
if sys.argv[1:] == ["x32"]:
    t("x32", 0x40000000 | 39)
    sys.exit(0)
t("mount", 165, 1, 1, 1, 0, 0)
t("umount2", 166, 0, 0xffff)
t("pivot_root", 155, 1, 1)
t("unshare", 272, 0x10000000)
t("setns", 308, -1, 0)
t("clone_newns", 56, 0x00020000 | 0x200, 0, 0, 0, 0)
t("clone_newuser", 56, 0x10000000 | 0x200, 0, 0, 0, 0)
t("syslog", 103, 9999, 0, 0)
t("ioperm", 173, 0, 0, 0)
t("name_to_handle_at", 303, -1, 0, 0, 0, 0)
t("bpf", 321, 9999, 0, 0)
t("perf_event_open", 298, 0, 0, -1, -1, -1)
t("keyctl", 250, 9999, 0, 0, 0, 0)
t("add_key", 248, 1, 1, 0, 0, 0)
t("request_key", 249, 1, 1, 0, 0)
t("kexec_load", 246, 0, 0, 0, 0xffffffff)
t("kexec_file_load", 320, -1, -1, 0, 0, 0xffffffff)
t("init_module", 175, 0, 0, 1)
t("finit_module", 313, -1, 1, 0xffffffff)
t("delete_module", 176, 1, 0)
t("open_by_handle_at", 304, -1, 1, 0)
t("userfaultfd", 323, 0x100 | 1)
t("io_uring_setup", 425, 1, 1)
t("io_uring_enter", 426, -1, 0, 0, 0, 0, 0)
t("io_uring_register", 427, -1, 0, 0, 0)
t("swapon", 167, 1, 0)
t("reboot", 169, 0, 0, 0, 0)
t("acct", 163, 1)
t("quotactl", 179, 0, 1, 0, 0)
t("settimeofday", 164, 1, 0)
t("clock_settime", 227, -1, 0)
t("adjtimex", 159, 1)
t("sethostname", 170, 1, 1)
t("chroot", 161, 1)
t("mknod_dev", 133, 1, 0o20600, 0x103)
t("personality", 135, 8)
t("clone3", 435, 0, 0)
t("getpid", 39)
PROBE
chmod -R a+rX "$T/rdir" "$T/suid"
(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
    /usr/bin/python3 "$T/rdir/probe.py") > "$T/probe.host" 2>&1

if ! ip netns add "$NS"; then
	echo "1..0 # SKIP cannot create a network namespace"
	exit 0
fi
ip netns exec "$NS" "$TEST" "$T"
