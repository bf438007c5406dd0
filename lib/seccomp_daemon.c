/*
 * Each daemon's own seccomp allow-list.  Anything not listed kills the
 * process (the master notices and restarts it), so a compromised
 * daemon cannot reach the rest of the kernel's attack surface.
 */
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <linux/if_tun.h>
#include <linux/sockios.h>

#include <errno.h>
#include <seccomp.h>
#include <string.h>
#include <termios.h>

#include "log.h"
#include "proc.h"
#include "seccomp_sandbox.h"

/* What every daemon's event loop, imsg and logging need. */
static const int sc_base[] = {
	SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev),
	SCMP_SYS(close), SCMP_SYS(fstat), SCMP_SYS(newfstatat),
	SCMP_SYS(lseek), SCMP_SYS(mmap), SCMP_SYS(munmap),
	SCMP_SYS(mprotect), SCMP_SYS(mremap), SCMP_SYS(madvise),
	SCMP_SYS(brk), SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask),
	SCMP_SYS(rt_sigreturn), SCMP_SYS(sigaltstack), SCMP_SYS(getpid),
	SCMP_SYS(gettid), SCMP_SYS(getppid), SCMP_SYS(getuid),
	SCMP_SYS(geteuid), SCMP_SYS(getgid), SCMP_SYS(getegid),
	SCMP_SYS(clock_gettime), SCMP_SYS(clock_nanosleep),
	SCMP_SYS(nanosleep), SCMP_SYS(gettimeofday), SCMP_SYS(time),
	SCMP_SYS(futex), SCMP_SYS(exit), SCMP_SYS(exit_group),
	SCMP_SYS(restart_syscall), SCMP_SYS(sendmsg), SCMP_SYS(recvmsg),
	SCMP_SYS(sendto), SCMP_SYS(recvfrom), SCMP_SYS(epoll_create1),
	SCMP_SYS(epoll_ctl), SCMP_SYS(epoll_wait), SCMP_SYS(epoll_pwait),
	SCMP_SYS(poll), SCMP_SYS(ppoll), SCMP_SYS(fcntl),
	SCMP_SYS(getrandom), SCMP_SYS(tgkill), SCMP_SYS(connect),
	SCMP_SYS(timerfd_create), SCMP_SYS(timerfd_settime),
	SCMP_SYS(uname),
	/* glibc's qsort asks for the memory size before sorting much. */
	SCMP_SYS(sysinfo)
};

static const int sc_netd[] = {
	SCMP_SYS(socket), SCMP_SYS(bind), SCMP_SYS(getsockname),
	SCMP_SYS(setsockopt), SCMP_SYS(getsockopt)
};

/*
 * netd's ioctls: the net namespace of a socket opened in a sandbox's,
 * and making a persistent tap on a /dev/net/tun the master opened.
 */
static const unsigned long sc_netd_ioctl[] = {
	SIOCGSKNS, TUNSETIFF, TUNSETOWNER, TUNSETPERSIST
};

/* envd serves broker clients and makes each exec's channel. */
static const int sc_envd[] = {
	SCMP_SYS(accept4), SCMP_SYS(shutdown), SCMP_SYS(getsockopt),
	SCMP_SYS(socketpair),
	/* SO_PASSRIGHTS on broker sockets, SO_LINGER on fds it discards */
	SCMP_SYS(setsockopt)
};

static const int sc_dnspind[] = {
	SCMP_SYS(socket), SCMP_SYS(bind), SCMP_SYS(getsockname),
	SCMP_SYS(setsockopt), SCMP_SYS(getsockopt), SCMP_SYS(accept4),
	SCMP_SYS(shutdown),
	/* queries read, answers sent, many to a call (udpout.c) */
	SCMP_SYS(recvmmsg), SCMP_SYS(sendmmsg)
};

/* runnerd builds sandboxes: namespaces, mounts, ids, exec. */
static const int sc_runnerd[] = {
	SCMP_SYS(clone), SCMP_SYS(clone3), SCMP_SYS(unshare),
	SCMP_SYS(setns), SCMP_SYS(mount), SCMP_SYS(umount2),
	SCMP_SYS(pivot_root), SCMP_SYS(open_tree), SCMP_SYS(move_mount),
	SCMP_SYS(fsopen), SCMP_SYS(fsconfig), SCMP_SYS(fsmount),
	SCMP_SYS(mount_setattr), SCMP_SYS(openat), SCMP_SYS(openat2),
	SCMP_SYS(mkdirat), SCMP_SYS(mknodat), SCMP_SYS(unlinkat),
	SCMP_SYS(symlinkat), SCMP_SYS(readlinkat), SCMP_SYS(renameat2),
	SCMP_SYS(getdents64), SCMP_SYS(fchownat), SCMP_SYS(fchown),
	SCMP_SYS(fchmod), SCMP_SYS(fchmodat), SCMP_SYS(ftruncate),
	SCMP_SYS(chdir), SCMP_SYS(fchdir), SCMP_SYS(chroot),
	SCMP_SYS(statfs), SCMP_SYS(fstatfs), SCMP_SYS(statx),
	SCMP_SYS(access), SCMP_SYS(faccessat), SCMP_SYS(faccessat2),
	SCMP_SYS(setuid), SCMP_SYS(setgid), SCMP_SYS(setresuid),
	SCMP_SYS(setresgid), SCMP_SYS(setgroups), SCMP_SYS(capget),
	SCMP_SYS(capset), SCMP_SYS(prctl), SCMP_SYS(setrlimit),
	SCMP_SYS(prlimit64), SCMP_SYS(sethostname),
	SCMP_SYS(setdomainname), SCMP_SYS(execve), SCMP_SYS(execveat),
	SCMP_SYS(wait4), SCMP_SYS(waitid), SCMP_SYS(kill),
	SCMP_SYS(pidfd_open), SCMP_SYS(pidfd_send_signal), SCMP_SYS(pipe2),
	SCMP_SYS(dup), SCMP_SYS(dup2), SCMP_SYS(dup3), SCMP_SYS(socket),
	SCMP_SYS(socketpair), SCMP_SYS(ioctl), SCMP_SYS(seccomp),
	SCMP_SYS(landlock_create_ruleset), SCMP_SYS(landlock_add_rule),
	SCMP_SYS(landlock_restrict_self), SCMP_SYS(close_range),
	SCMP_SYS(set_robust_list), SCMP_SYS(rseq), SCMP_SYS(set_tid_address),
	SCMP_SYS(getpgid), SCMP_SYS(setsid), SCMP_SYS(setpgid),
	SCMP_SYS(sched_getaffinity), SCMP_SYS(umask), SCMP_SYS(pread64),
	SCMP_SYS(pwrite64), SCMP_SYS(fsync), SCMP_SYS(sync_file_range),
	SCMP_SYS(memfd_create), SCMP_SYS(eventfd2), SCMP_SYS(getsockopt),
	SCMP_SYS(copy_file_range), SCMP_SYS(sendfile), SCMP_SYS(getresuid),
	SCMP_SYS(getresgid), SCMP_SYS(getgroups),
	SCMP_SYS(setsockopt),
	/* The delegation mark on its cgroup (lib/cgroup_deleg.c). */
	SCMP_SYS(getxattr),
	/* put -r keeps the times of what it copies (lib/fstree.c). */
	SCMP_SYS(utimensat)
};

/*
 * Sandboxed processes descend from runnerd and so run under this
 * filter too, beneath their own: what that one allows (lib/
 * seccomp_sandbox.c, and these two it allows for some arguments) must
 * be allowed here as well.  ptrace and its kin among them: runnerd
 * holds no CAP_SYS_PTRACE, so it could reach only a uid-0 process with
 * no capability it lacks, and no daemon is one.
 */
static const int sc_runnerd_sandbox_conditional[] = {
	SCMP_SYS(mknod), SCMP_SYS(personality)
};

/*
 * What the sandbox filter denies and runnerd never calls: EPERM here
 * rather than death, so that a sandboxed program probing for one gets
 * an error it can handle.  runnerd gains nothing from an EPERM.
 */
static const int sc_runnerd_eperm[] = {
	SCMP_SYS(name_to_handle_at), SCMP_SYS(open_by_handle_at),
	SCMP_SYS(process_madvise), SCMP_SYS(bpf), SCMP_SYS(perf_event_open),
	SCMP_SYS(keyctl), SCMP_SYS(add_key), SCMP_SYS(request_key),
	SCMP_SYS(kexec_load), SCMP_SYS(kexec_file_load),
	SCMP_SYS(init_module), SCMP_SYS(finit_module),
	SCMP_SYS(delete_module), SCMP_SYS(userfaultfd),
	SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter),
	SCMP_SYS(io_uring_register), SCMP_SYS(swapon), SCMP_SYS(swapoff),
	SCMP_SYS(reboot), SCMP_SYS(acct), SCMP_SYS(quotactl),
	SCMP_SYS(settimeofday), SCMP_SYS(clock_settime),
	SCMP_SYS(clock_adjtime), SCMP_SYS(adjtimex), SCMP_SYS(syslog),
	SCMP_SYS(vhangup), SCMP_SYS(iopl), SCMP_SYS(ioperm),
	SCMP_SYS(modify_ldt), SCMP_SYS(fanotify_init), SCMP_SYS(fspick),
	SCMP_SYS(move_pages), SCMP_SYS(migrate_pages), SCMP_SYS(uselib),
	SCMP_SYS(ustat), SCMP_SYS(sysfs)
};

#ifdef SANDBOXD_ASAN
/* The sanitizer runtime's own needs when it reports or grows. */
static const int sc_asan[] = {
	SCMP_SYS(openat), SCMP_SYS(open), SCMP_SYS(readlinkat),
	SCMP_SYS(readlink), SCMP_SYS(stat), SCMP_SYS(lstat), SCMP_SYS(access),
	SCMP_SYS(sched_yield),
	SCMP_SYS(prlimit64), SCMP_SYS(getrlimit), SCMP_SYS(ioctl),
	SCMP_SYS(prctl), SCMP_SYS(pipe2), SCMP_SYS(clone),
	SCMP_SYS(wait4), SCMP_SYS(getdents64), SCMP_SYS(statx)
};
#endif

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static void
seccomp_allow(scmp_filter_ctx ctx, const int *sys, size_t n)
{
	size_t	 i;
	int	 rc;

	for (i = 0; i < n; i++)
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, sys[i], 0)) < 0)
			fatalx("%s: syscall %d: %s", __func__, sys[i],
			    strerror(-rc));
}

static void
seccomp_eperm(scmp_filter_ctx ctx, const int *sys, size_t n)
{
	size_t	 i;
	int	 rc;

	for (i = 0; i < n; i++)
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), sys[i],
		    0)) < 0)
			fatalx("%s: syscall %d: %s", __func__, sys[i],
			    strerror(-rc));
}

static void
seccomp_allow_names(scmp_filter_ctx ctx, const char *const *names, size_t n)
{
	size_t	 i;
	int	 nr, rc;

	for (i = 0; i < n; i++) {
		if ((nr = seccomp_syscall_resolve_name(names[i])) ==
		    __NR_SCMP_ERROR)
			continue;
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0)) < 0)
			fatalx("%s: %s: %s", __func__, names[i],
			    strerror(-rc));
	}
}

static void
seccomp_allow_extra(scmp_filter_ctx ctx, const char *name)
{
	size_t	 i;

	if (strcmp(name, "netd") == 0) {
		seccomp_allow(ctx, sc_netd, NELEM(sc_netd));
		for (i = 0; i < NELEM(sc_netd_ioctl); i++)
			if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW,
			    SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_EQ,
			    sc_netd_ioctl[i])) < 0)
				fatalx("%s: ioctl", __func__);
	} else if (strcmp(name, "envd") == 0) {
		seccomp_allow(ctx, sc_envd, NELEM(sc_envd));
		/* libevent's evbuffer_read asks how much is there. */
		if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
		    SCMP_A1(SCMP_CMP_EQ, FIONREAD)) < 0)
			fatalx("%s: ioctl", __func__);
	}
	else if (strcmp(name, "dnspind") == 0)
		seccomp_allow(ctx, sc_dnspind, NELEM(sc_dnspind));
	else if (strcmp(name, "runnerd") == 0) {
		seccomp_allow(ctx, sc_runnerd, NELEM(sc_runnerd));
		seccomp_allow_names(ctx, seccomp_sandbox_allow,
		    seccomp_sandbox_nallow);
		seccomp_allow_names(ctx, seccomp_sandbox_moded,
		    seccomp_sandbox_nmoded);
		seccomp_allow(ctx, sc_runnerd_sandbox_conditional,
		    NELEM(sc_runnerd_sandbox_conditional));
		seccomp_eperm(ctx, sc_runnerd_eperm, NELEM(sc_runnerd_eperm));
	} else
		fatalx("%s: no filter for %s", __func__, name);
#ifdef SANDBOXD_ASAN
	seccomp_allow(ctx, sc_asan, NELEM(sc_asan));
#endif
}

void
seccomp_daemon_apply(const char *name)
{
	scmp_filter_ctx	 ctx;
	int		 rc;

	if ((ctx = seccomp_init(SCMP_ACT_KILL_PROCESS)) == NULL)
		fatalx("%s: seccomp_init", __func__);
	/* Only the native ABI: no i386 or x32 entry points. */
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS) < 0)
		fatalx("%s: badarch", __func__);
	seccomp_allow(ctx, sc_base, NELEM(sc_base));
	/* isatty(3) in stdio, nothing else. */
	if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
	    SCMP_A1(SCMP_CMP_EQ, TCGETS)) < 0)
		fatalx("%s: ioctl", __func__);
	/* syslog(3) reconnects over an AF_UNIX datagram socket. */
	if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
	    SCMP_A0(SCMP_CMP_EQ, AF_UNIX)) < 0)
		fatalx("%s: socket", __func__);
	seccomp_allow_extra(ctx, name);
	if ((rc = seccomp_load(ctx)) < 0)
		fatalx("%s: seccomp_load: %s", __func__, strerror(-rc));
	seccomp_release(ctx);
}
