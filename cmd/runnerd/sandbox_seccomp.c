/*
 * The sandbox's seccomp filter: an allow-list in the spirit of
 * systemd's @system-service, everything else EPERM, every non-native
 * ABI (i386 int 0x80, x32) killing the process.  Built once per runnerd
 * with libseccomp and kept as BPF, so that each sandbox's pid 1 only
 * loads it, and every process in the sandbox inherits it.
 *
 * Left out on purpose, and so EPERM: mount and the new mount API,
 * pivot_root, chroot, unshare, setns, namespace flags to clone, bpf,
 * perf_event_open, the keyring,
 * kexec, modules, open_by_handle_at, userfaultfd, io_uring, swap,
 * reboot, acct, quotas, clocks, hostnames, device nodes, personality
 * changes, ioperm/iopl, TIOCSTI and TIOCLINUX.
 *
 * ptrace, process_vm_readv/writev, kcmp and pidfd_getfd are allowed
 * (sanitizers, debuggers and strace need them; Docker's default profile
 * allows them too): the kernel re-checks seccomp after a tracer changes
 * a syscall (4.8+), and its ptrace access check confines a tracer to
 * its sandbox: only its own pid namespace can be named, only its uid
 * without capabilities, pid 1 is not dumpable, and the Landlock domain
 * every sandbox has (landlock.c) refuses any process outside it.
 *
 * Sandboxed processes also inherit runnerd's own filter (they are its
 * descendants): everything allowed here must be allowed there too, see
 * sc_runnerd in lib/seccomp_daemon.c.
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sandbox_int.h"
#include "seccomp_sandbox.h"

#define SC_NS_FLAGS	(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | \
			 CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | \
			 CLONE_NEWCGROUP | CLONE_NEWTIME)


static struct sock_fprog	 sc_prog;
static struct sock_fprog	 sc_prog_nomemfd;	/* see landlock.c */

static int
sc_rule(scmp_filter_ctx ctx, uint32_t action, int nr, unsigned int n,
    struct scmp_arg_cmp a, struct scmp_arg_cmp b)
{
	if (n == 2)
		return (seccomp_rule_add(ctx, action, nr, 2, a, b));
	if (n == 1)
		return (seccomp_rule_add(ctx, action, nr, 1, a));
	return (seccomp_rule_add(ctx, action, nr, 0));
}

#define SC_NONE		SCMP_A0(SCMP_CMP_EQ, 0)

/* Allowed only for some arguments; ints compared on their 32 bits. */
static int
sc_conditional(scmp_filter_ctx ctx)
{
	const struct {
		int			 nr;
		uint32_t		 action;
		unsigned int		 n;
		struct scmp_arg_cmp	 a, b;
	} c[] = {
		{ SCMP_SYS(clone), SCMP_ACT_ALLOW, 1,
		    SCMP_A0_64(SCMP_CMP_MASKED_EQ, SC_NS_FLAGS, 0), SC_NONE },
		/* Its flags are out of reach; libc falls back to clone. */
		{ SCMP_SYS(clone3), SCMP_ACT_ERRNO(ENOSYS), 0, SC_NONE,
		    SC_NONE },
		{ SCMP_SYS(socket), SCMP_ACT_ALLOW, 1,
		    SCMP_A0_32(SCMP_CMP_EQ, AF_UNIX), SC_NONE },
		{ SCMP_SYS(socket), SCMP_ACT_ALLOW, 1,
		    SCMP_A0_32(SCMP_CMP_EQ, AF_INET), SC_NONE },
		{ SCMP_SYS(socket), SCMP_ACT_ALLOW, 1,
		    SCMP_A0_32(SCMP_CMP_EQ, AF_INET6), SC_NONE },
		/* getaddrinfo(3) asks the kernel for addresses this way. */
		{ SCMP_SYS(socket), SCMP_ACT_ALLOW, 2,
		    SCMP_A0_32(SCMP_CMP_EQ, AF_NETLINK),
		    SCMP_A2_32(SCMP_CMP_EQ, NETLINK_ROUTE) },
		{ SCMP_SYS(socketpair), SCMP_ACT_ALLOW, 1,
		    SCMP_A0_32(SCMP_CMP_EQ, AF_UNIX), SC_NONE },
		/*
		 * Limits: set only one's own (pid 0, as glibc's setrlimit
		 * asks; the caller's pid is beyond a filter), so that
		 * nothing lowers pid 1's; read anyone's.
		 */
		{ SCMP_SYS(prlimit64), SCMP_ACT_ALLOW, 1,
		    SCMP_A0_32(SCMP_CMP_EQ, 0), SC_NONE },
		{ SCMP_SYS(prlimit64), SCMP_ACT_ALLOW, 1,
		    SCMP_A2_64(SCMP_CMP_EQ, 0), SC_NONE },
		/* Only the default persona, and asking which it is. */
		{ SCMP_SYS(personality), SCMP_ACT_ALLOW, 1,
		    SCMP_A0_32(SCMP_CMP_EQ, 0), SC_NONE },
		{ SCMP_SYS(personality), SCMP_ACT_ALLOW, 1,
		    SCMP_A0_32(SCMP_CMP_EQ, 0xffffffff), SC_NONE },
		/* Every ioctl but TIOCSTI (0x5412) and TIOCLINUX (0x541c). */
		{ SCMP_SYS(ioctl), SCMP_ACT_ALLOW, 1,
		    SCMP_A1_32(SCMP_CMP_LT, TIOCSTI), SC_NONE },
		{ SCMP_SYS(ioctl), SCMP_ACT_ALLOW, 1,
		    SCMP_A1_32(SCMP_CMP_GT, TIOCLINUX), SC_NONE }
	};
	size_t	 i;
	int	 rc;

	for (i = 0; i < sizeof(c) / sizeof(*c); i++)
		if ((rc = sc_rule(ctx, c[i].action, c[i].nr, c[i].n, c[i].a,
		    c[i].b)) < 0)
			return (rc);
	return (0);
}

/* Between TIOCSTI and TIOCLINUX: window size, modem lines, FIONREAD. */
static int
sc_ioctl_middle(scmp_filter_ctx ctx)
{
	unsigned int	 cmd;
	int		 rc;

	for (cmd = TIOCSTI + 1; cmd < TIOCLINUX; cmd++)
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl),
		    1, SCMP_A1_32(SCMP_CMP_EQ, cmd))) < 0)
			return (rc);
	return (0);
}

#define SC_SETID	(S_ISUID | S_ISGID)

/*
 * Modes without set-id bits: a write bind is the host's directory, and
 * a set-uid file left there by the sandbox would make whoever runs it on
 * the host the sandbox's uid.  open and openat are checked only when
 * they create; openat2 hides its mode in a struct and says ENOSYS, so
 * that libc and others fall back to openat.
 */
static int
sc_moded(scmp_filter_ctx ctx)
{
	const struct {
		const char	*name;
		unsigned int	 mode;		/* argument index */
		int		 flags;		/* argument index, or -1 */
	} m[] = {
		{ "chmod", 1, -1 }, { "fchmod", 1, -1 }, { "fchmodat", 2, -1 },
		{ "fchmodat2", 2, -1 }, { "creat", 1, -1 }, { "open", 2, 1 },
		{ "openat", 3, 2 }
	};
	const uint64_t	 create = O_CREAT | (O_TMPFILE & ~O_DIRECTORY);
	size_t		 i;
	int		 nr, rc;

	for (i = 0; i < sizeof(m) / sizeof(*m); i++) {
		if ((nr = seccomp_syscall_resolve_name(m[i].name)) ==
		    __NR_SCMP_ERROR)
			continue;
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
		    SCMP_CMP(m[i].mode, SCMP_CMP_MASKED_EQ, SC_SETID, 0))) < 0)
			return (rc);
		if (m[i].flags >= 0 && (rc = seccomp_rule_add(ctx,
		    SCMP_ACT_ALLOW, nr, 1, SCMP_CMP(m[i].flags,
		    SCMP_CMP_MASKED_EQ, create, 0))) < 0)
			return (rc);
	}
	return (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
	    SCMP_SYS(openat2), 0));
}

/* Device nodes never; files, fifos and sockets by mknod are, set-id not. */
static int
sc_mknod(scmp_filter_ctx ctx)
{
	const mode_t	 ok[] = { 0, S_IFREG, S_IFIFO, S_IFSOCK };
	size_t		 i;
	int		 rc;

	for (i = 0; i < sizeof(ok) / sizeof(*ok); i++) {
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mknod),
		    1, SCMP_A1_32(SCMP_CMP_MASKED_EQ, S_IFMT | SC_SETID,
		    ok[i]))) < 0 ||
		    (rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW,
		    SCMP_SYS(mknodat), 1, SCMP_A2_32(SCMP_CMP_MASKED_EQ,
		    S_IFMT | SC_SETID, ok[i]))) < 0)
			return (rc);
	}
	return (0);
}

static int
sc_build(scmp_filter_ctx ctx, char *err, size_t len)
{
	size_t	 i;
	int	 nr, rc;

	if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS)) < 0)
		return (sbx_fail(err, len, "%s: badarch: %s", __func__,
		    strerror(-rc)));
#if SCMP_VER_MAJOR > 2 || (SCMP_VER_MAJOR == 2 && SCMP_VER_MINOR >= 5)
	/*
	 * A binary tree rather than a list: each of the sandbox's pid 1s
	 * loads it, and the kernel runs it once per syscall number then to
	 * build its cache (about half the time of the list), every exec
	 * checks against it.  The same verdicts either way.
	 */
	if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2)) < 0)
		return (sbx_fail(err, len, "%s: optimize: %s", __func__,
		    strerror(-rc)));
#endif
	for (i = 0; i < seccomp_sandbox_nallow; i++) {
		if ((nr = seccomp_syscall_resolve_name(seccomp_sandbox_allow[i])) ==
		    __NR_SCMP_ERROR) {
			log_debug("%s: no syscall %s here", __func__,
			    seccomp_sandbox_allow[i]);
			continue;
		}
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0)) < 0)
			return (sbx_fail(err, len, "%s: %s: %s", __func__,
			    seccomp_sandbox_allow[i], strerror(-rc)));
	}
	if ((rc = sc_conditional(ctx)) < 0 || (rc = sc_ioctl_middle(ctx)) < 0 ||
	    (rc = sc_mknod(ctx)) < 0 || (rc = sc_moded(ctx)) < 0)
		return (sbx_fail(err, len, "%s: conditional rule: %s",
		    __func__, strerror(-rc)));
	return (0);
}

/* libseccomp writes BPF only to an fd: a memfd, read back once. */
static int
sc_export(scmp_filter_ctx ctx, struct sock_fprog *prog, char *err,
    size_t len)
{
	struct sock_filter	*f;
	off_t			 size;
	int			 fd, rc;

	if ((fd = memfd_create("sandbox-seccomp", MFD_CLOEXEC)) == -1)
		return (sbx_fail(err, len, "%s: memfd_create: %s", __func__,
		    strerror(errno)));
	if ((rc = seccomp_export_bpf(ctx, fd)) < 0) {
		close(fd);
		return (sbx_fail(err, len, "%s: seccomp_export_bpf: %s",
		    __func__, strerror(-rc)));
	}
	size = lseek(fd, 0, SEEK_END);
	if (size <= 0 || size % sizeof(*f) != 0 || size / sizeof(*f) > 65535 ||
	    (f = malloc(size)) == NULL) {
		close(fd);
		return (sbx_fail(err, len, "%s: bad filter size %lld",
		    __func__, (long long)size));
	}
	if (pread(fd, f, size, 0) != size) {
		free(f);
		close(fd);
		return (sbx_fail(err, len, "%s: short read", __func__));
	}
	close(fd);
	prog->len = size / sizeof(*f);
	prog->filter = f;
	return (0);
}

/*
 * The second filter of a sandbox whose exec list the kernel cannot
 * keep memfds out of: memfd_create says ENOSYS, which programs take
 * for an old kernel and fall back from.  Everything else is the first
 * filter's to judge.
 */
static int
sc_prepare_nomemfd(char *err, size_t len)
{
	scmp_filter_ctx	 ctx;
	int		 rc;

	if ((ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL)
		return (sbx_fail(err, len, "%s: seccomp_init", __func__));
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
	    SCMP_SYS(memfd_create), 0)) < 0)
		rc = sbx_fail(err, len, "%s: memfd_create: %s", __func__,
		    strerror(-rc));
	else
		rc = sc_export(ctx, &sc_prog_nomemfd, err, len);
	seccomp_release(ctx);
	return (rc);
}

int
sbx_seccomp_prepare(char *err, size_t len)
{
	scmp_filter_ctx	 ctx;
	int		 rc;

	if (sc_prog.filter != NULL)
		return (0);
	if ((ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM))) == NULL)
		return (sbx_fail(err, len, "%s: seccomp_init", __func__));
	if ((rc = sc_build(ctx, err, len)) == 0)
		rc = sc_export(ctx, &sc_prog, err, len);
	seccomp_release(ctx);
	if (rc == 0 && (rc = sc_prepare_nomemfd(err, len)) == -1) {
		free(sc_prog.filter);
		sc_prog.filter = NULL;
	}
	return (rc);
}

/*
 * NO_NEW_PRIVS is already set: no privilege is needed to load it.
 * nomemfd: the exec list needs memfd_create refused (landlock.c).
 */
int
sbx_seccomp_load_child(int nomemfd, char *err, size_t len)
{
	if (sc_prog.filter == NULL || sc_prog_nomemfd.filter == NULL)
		return (sbx_fail(err, len, "%s: no filter built", __func__));
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &sc_prog) == -1)
		return (sbx_fail(err, len, "%s: %s", __func__,
		    strerror(errno)));
	if (nomemfd && syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0,
	    &sc_prog_nomemfd) == -1)
		return (sbx_fail(err, len, "%s: memfd filter: %s", __func__,
		    strerror(errno)));
	return (0);
}
