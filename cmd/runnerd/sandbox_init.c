/*
 * A sandbox's pid 1: our own C, no exec.  Forked from runnerd into a
 * new pid namespace, it enters the fresh net namespace runnerd made
 * ahead (or makes one) and makes new ipc and uts namespaces (while
 * runnerd makes the sandbox's directories, workspace and cgroup), a
 * mount namespace with the minimal root once the workspace is there,
 * and a cgroup namespace once runnerd has put it in its cgroup.  Then
 * it takes on everything an exec must carry: rlimits, the sandbox's
 * identity, Landlock, seccomp.  Then it drops runnerd's memory and
 * serves as the sandbox's zygote (sandbox_zygote.c) until runnerd
 * closes its socket or sandbox_destroy kills it.  As the init
 * of a pid namespace it ignores every signal sent from inside, and when
 * it dies the kernel kills everything else in the namespace.
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <net/if.h>

#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#define INIT_HAVE_RSEQ
#endif

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox_int.h"

#define INIT_NAME	"sbx-init"
#define INIT_SEGS_MAX	8		/* read-only segments of the code's */

_Static_assert(2 * (INIT_SEGS_MAX + 3) <= ZYG_RANGES_MAX,
    "too few ranges for pid 1's plan");

#define INIT_STAT_FIELDS	52	/* of /proc/self/stat, up to env_end */

/*
 * The numeric fields of /proc/self/stat, read once: f[n] is field n
 * (26 start_code ... 48 arg_start, 49 arg_end); 0 where unknown.
 */
static void
init_stat(unsigned long f[INIT_STAT_FIELDS + 1])
{
	char	 buf[1024], *p, *end;
	ssize_t	 n;
	int	 fd, i;

	memset(f, 0, (INIT_STAT_FIELDS + 1) * sizeof(*f));
	if ((fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)) == -1)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	/* The comm (field 2) may hold anything but ends at the last ')'. */
	if ((p = strrchr(buf, ')')) == NULL || (p = strchr(p, ' ')) == NULL ||
	    (p = strchr(p + 1, ' ')) == NULL)
		return;
	for (i = 4; i <= INIT_STAT_FIELDS && *p == ' '; i++, p = end)
		f[i] = strtoul(p + 1, &end, 10);
}

/*
 * The kernel's idea of where the command line is, start to end, with
 * an empty environment after it.  PR_SET_MM_MAP needs no capability
 * (the fields of the map other than these are as they were).
 */
static int
init_set_args(const unsigned long *f, unsigned long start, unsigned long end)
{
	struct prctl_mm_map	 mm;

	memset(&mm, 0, sizeof(mm));
	mm.start_code = f[26];
	mm.end_code = f[27];
	mm.start_stack = f[28];
	mm.start_data = f[45];
	mm.end_data = f[46];
	mm.start_brk = f[47];
	mm.brk = syscall(SYS_brk, 0);
	mm.arg_start = start;
	mm.arg_end = mm.env_start = mm.env_end = end;
	mm.exe_fd = -1;
	return (prctl(PR_SET_MM, PR_SET_MM_MAP, &mm, sizeof(mm), 0));
}

/*
 * Inside, pid 1 must not look like a daemon: a comm and a command line
 * of its own instead of runnerd's (readable by every process).  The
 * command line moves to args, at the top of the zygote's own stack,
 * so that runnerd's stack can go (init_plan); where the kernel will not
 * move it, it is overwritten in place.  Returns where it is.
 */
static unsigned long
init_rename(char *args)
{
	unsigned long	 f[INIT_STAT_FIELDS + 1], start, end;

	prctl(PR_SET_NAME, INIT_NAME, 0, 0, 0);
	strlcpy(args, INIT_NAME, ZYG_ARGS_SIZE);
	init_stat(f);
	if (f[26] != 0 && init_set_args(f, (unsigned long)args,
	    (unsigned long)args + sizeof(INIT_NAME)) == 0)
		return ((unsigned long)args);
	if ((start = f[48]) == 0 || (end = f[49]) <= start)
		return (0);
	memset((void *)start, 0, end - start);
	strlcpy((char *)start, INIT_NAME, end - start);
	return (start);
}

/* One report, written whole; pid 1 has nobody else to tell. */
static void
init_report_error(int fd, const char *msg)
{
	struct sbx_report	 r;

	memset(&r, 0, sizeof(r));
	r.type = SBX_REPORT_ERROR;
	strlcpy(r.msg, msg, sizeof(r.msg));
	(void)write(fd, &r, sizeof(r));
}

/* The next byte from runnerd must be want. */
static int
init_sync(int fd, char want, char *err, size_t len)
{
	char	 c;

	if (read(fd, &c, 1) != 1 || c != want)
		return (sbx_fail(err, len, "%s: runnerd went away", __func__));
	return (0);
}

/*
 * The next byte from runnerd must be want, with up to max fds (at
 * least one); returns how many came.
 */
static int
init_sync_fds(int fd, char want, int *fds, int max, char *err, size_t len)
{
	union {
		struct cmsghdr	 h;
		char		 buf[CMSG_SPACE(CGROUP_MAX_DIRS * sizeof(int))];
	} c;
	struct iovec	 iov;
	struct msghdr	 m;
	struct cmsghdr	*cm;
	int		 n = 0;
	char		 b;

	iov.iov_base = &b;
	iov.iov_len = 1;
	memset(&m, 0, sizeof(m));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = c.buf;
	m.msg_controllen = CMSG_SPACE(max * sizeof(int));
	if (recvmsg(fd, &m, MSG_CMSG_CLOEXEC) != 1 || b != want ||
	    (m.msg_flags & MSG_CTRUNC))
		return (sbx_fail(err, len, "%s: runnerd went away", __func__));
	if ((cm = CMSG_FIRSTHDR(&m)) != NULL &&
	    cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
		n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		memcpy(fds, CMSG_DATA(cm), n * sizeof(int));
	}
	if (n == 0)
		return (sbx_fail(err, len, "%s: no fd with '%c'", __func__,
		    want));
	return (n);
}

/*
 * The sandbox's cgroup and its limits, made while pid 1 still has
 * runnerd's mount namespace and privileges, and its cgroup.procs files
 * opened for the move (init_setup makes it after the mount namespace,
 * as before).  runnerd removes it at teardown, as if it made it.
 */
static int
init_make_cgroup(const struct sandbox_spec *spec, int fds[CGROUP_MAX_DIRS],
    char *err, size_t len)
{
	if (cgroup_create(spec->id, spec->policy, err, len) == -1)
		return (-1);
	return (cgroup_procs_open(spec->id, fds, err, len));
}

/*
 * A mount namespace of its own, a copy of runnerd's template without
 * the workspaces (mounts.c), made while runnerd mounts this sandbox's
 * workspace; then SBX_SYNC_MOUNT brings that as a detached mount, and
 * the root is built.
 */
static int
init_mounts(const struct init_args *a, int *broker, char *err, size_t len)
{
	int	 ws, rc;

	if (a->mntns != -1) {
		if (setns(a->mntns, CLONE_NEWNS) == -1)
			return (sbx_fail(err, len, "%s: setns: %s", __func__,
			    strerror(errno)));
		close(a->mntns);
	}
	if (unshare(CLONE_NEWNS) == -1)
		return (sbx_fail(err, len, "%s: unshare mount: %s", __func__,
		    strerror(errno)));
	if (init_sync_fds(a->sock, SBX_SYNC_MOUNT, &ws, 1, err, len) == -1)
		return (-1);
	rc = mounts_build_child(a->spec, a->root, ws, broker, err, len);
	close(ws);
	return (rc);
}

/*
 * The limits of every exec but RLIMIT_NOFILE, which pid 1 must not be
 * held to (it receives an exec's fds before passing them on), and which
 * each exec child sets for itself.  RLIMIT_NPROC counts pid 1 as the
 * pids cgroup does, so pid 1 can fork an exec whenever the policy's
 * pids limit allows one.
 */
static int
init_rlimits(const struct policy_msg *p, char *err, size_t len)
{
	const struct {
		int		 res;
		const char	*name;
		rlim_t		 v;
	} lim[] = {
		{ RLIMIT_FSIZE, "fsize", p->fsize },
		{ RLIMIT_CORE, "core", 0 },
		/* The uid is the sandbox's alone: a second fence on pids. */
		{ RLIMIT_NPROC, "nproc", p->pids }
	};
	struct rlimit	 rl;
	size_t		 i;

	for (i = 0; i < sizeof(lim) / sizeof(*lim); i++) {
		rl.rlim_cur = rl.rlim_max = lim[i].v;
		if (setrlimit(lim[i].res, &rl) == -1)
			return (sbx_fail(err, len, "%s: %s %llu: %s", __func__,
			    lim[i].name, (unsigned long long)lim[i].v,
			    strerror(errno)));
	}
	return (0);
}

/* The non-writable segments of the object holding the zygote's code. */
static int
init_code_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	const unsigned long	 code = (unsigned long)zygote_main_child;
	const unsigned long	 page = getpagesize();
	struct zyg_range	*keep = arg;
	unsigned long		 lo, hi;
	int			 i, n = 0, mine = 0;

	for (i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type != PT_LOAD)
			continue;
		lo = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
		hi = lo + info->dlpi_phdr[i].p_memsz;
		if (lo <= code && code < hi)
			mine = 1;
		if ((info->dlpi_phdr[i].p_flags & PF_W) || n == INIT_SEGS_MAX)
			continue;
		keep[n].lo = lo & ~(page - 1);
		keep[n++].hi = (hi + page - 1) & ~(page - 1);
	}
	if (!mine)
		memset(keep, 0, INIT_SEGS_MAX * sizeof(*keep));
	return (mine);
}

/* The end of the mapping that holds addr, from /proc/self/maps; or 0. */
static unsigned long
init_mapping_end(unsigned long addr)
{
	unsigned long	 lo, hi, end = 0;
	char		 line[512];
	FILE		*f;

	if ((f = fopen("/proc/self/maps", "re")) == NULL)
		return (0);
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= addr &&
		    addr < hi) {
			end = hi;
			break;
		}
	fclose(f);
	return (end);
}

/*
 * The thread's rseq area, registered by libc at its start and
 * inherited by the fork, is where the kernel writes behind pid 1's
 * back: unregistered, it can go; else it stays, zeroed.  0 if it goes.
 */
static int
init_rseq_keep(struct zyg_range *keep)
{
#ifdef INIT_HAVE_RSEQ
	const unsigned long	 page = getpagesize();
	unsigned long		 lo, hi, size;

	if (__rseq_size == 0)
		return (0);
	size = __rseq_size > 32 ? __rseq_size : 32;
	lo = (unsigned long)__builtin_thread_pointer() + __rseq_offset;
	if (syscall(SYS_rseq, lo, size, RSEQ_FLAG_UNREGISTER, RSEQ_SIG) == 0)
		return (0);
	hi = lo + size;
	keep->lo = lo & ~(page - 1);
	keep->hi = (hi + page - 1) & ~(page - 1);
	keep->zero = 1;
	return (1);
#else
	return (0);
#endif
}

/*
 * What pid 1 keeps: the zygote's code and constants, its stack and
 * mem (one mapping, lo to hi), what lies above runnerd's stack, and
 * where the command line is (args) if the kernel would not move it.
 * Everything else goes, runnerd's stack among it, each gap between two
 * kept ranges one munmap(2) however many mappings it holds.
 */
static size_t
init_plan(unsigned long lo, unsigned long hi, unsigned long args,
    struct zyg_range *r, size_t max)
{
	struct zyg_range	 keep[INIT_SEGS_MAX + 3], t;
	const unsigned long	 page = getpagesize();
	unsigned long		 at = 0, top;
	size_t			 i, j, n = 0, nr = 0;

	memset(keep, 0, sizeof(keep));
	if (dl_iterate_phdr(init_code_cb, keep) == 0)
		return (0);		/* keep everything rather than guess */
	top = init_mapping_end((unsigned long)__builtin_frame_address(0));
	if (top == 0)
		return (0);
	while (n < INIT_SEGS_MAX && keep[n].hi != 0)
		n++;
	keep[n].lo = lo;
	keep[n++].hi = hi;
	/* The old stack if the command line is on it, else what is above. */
	keep[n].lo = args != 0 && args < top && (args < lo || args >= hi) ?
	    args & ~(page - 1) : top;
	keep[n++].hi = ~0UL;
	n += init_rseq_keep(&keep[n]);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && keep[j - 1].lo > keep[j].lo; j--) {
			t = keep[j];
			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	for (i = 0; i < n && nr + 2 <= max; i++) {
		if (keep[i].lo > at) {
			r[nr].lo = at;
			r[nr].hi = keep[i].lo;
			r[nr++].zero = 0;
		}
		if (keep[i].zero && keep[i].hi > at) {
			r[nr].lo = keep[i].lo > at ? keep[i].lo : at;
			r[nr].hi = keep[i].hi;
			r[nr++].zero = 1;
		}
		if (keep[i].hi > at)
			at = keep[i].hi;
	}
	return (nr);
}

/*
 * pid 1 is a fork of runnerd.  Left alone it would keep, copy-on-write,
 * the old version of every page runnerd dirties after the fork: with
 * thousands of sandboxes, thousands of snapshots of runnerd's heap and
 * stack; and each exec's fork would copy runnerd's hundred mappings,
 * which its exec would then tear down again.  Once it serves, pid 1
 * needs nothing but what init_plan keeps, sandbox_zygote.c making raw
 * system calls only, on a stack of its own: the zygote first unmaps
 * everything else, libc, ld.so, the heap, runnerd's stack and the
 * sanitizers' state among it.  The plan is made here, while libc
 * works.  One mapping holds, from the bottom, a guard page, the
 * zygote's stack with the command line at its top, and mem.
 */
static char *
init_plan_unmap(struct zyg_params *zp, char *err, size_t len)
{
	const size_t	 page = getpagesize();
	const size_t	 stack = (ZYG_STACK_SIZE + page - 1) & ~(page - 1);
	unsigned long	 args;
	char		*base, *mem;

	base = mmap(NULL, page + stack + ZYG_MEM_SIZE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		sbx_fail(err, len, "%s: mmap: %s", __func__, strerror(errno));
		return (NULL);
	}
	if (mprotect(base, page, PROT_NONE) == -1) {
		sbx_fail(err, len, "%s: mprotect: %s", __func__,
		    strerror(errno));
		return (NULL);
	}
	mem = base + page + stack;
	args = init_rename(mem - ZYG_ARGS_SIZE);
	zp->nunmap = init_plan((unsigned long)base,
	    (unsigned long)mem + ZYG_MEM_SIZE, args, zp->unmap,
	    ZYG_RANGES_MAX);
	return (mem);
}

static int
init_setup(const struct init_args *a, struct zyg_params *zp, char **mem,
    int *broker, int *nomemfd, char *err, size_t len)
{
	const struct sandbox_spec	*spec = a->spec;
	int				 keep[3], nkeep = 0;
	int				 cg[CGROUP_MAX_DIRS], ncg;
	char				 host[64];

	keep[nkeep++] = a->sock;
	if (a->netns != -1)
		keep[nkeep++] = a->netns;
	if (a->mntns != -1)
		keep[nkeep++] = a->mntns;

	/* Die with runnerd, from the first instruction on. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == -1)
		return (sbx_fail(err, len, "%s: PR_SET_PDEATHSIG: %s",
		    __func__, strerror(errno)));
	ident_reset_signals_child();
	if (ident_keep_fds_child(keep, nkeep, err, len) == -1)
		return (-1);
	umask(022);
	if ((ncg = init_make_cgroup(spec, cg, err, len)) == -1)
		return (-1);
	if ((*mem = init_plan_unmap(zp, err, len)) == NULL)
		return (-1);
	if (a->netns != -1) {
		/* Made for this sandbox alone, its loopback already up. */
		if (setns(a->netns, CLONE_NEWNET) == -1)
			return (sbx_fail(err, len, "%s: setns: %s", __func__,
			    strerror(errno)));
		close(a->netns);
	} else if (unshare(CLONE_NEWNET) == -1 || sbx_lo_up(err, len) == -1)
		return (sbx_fail(err, len, "%s: net namespace: %s", __func__,
		    strerror(errno)));
	if (unshare(CLONE_NEWIPC | CLONE_NEWUTS) == -1)
		return (sbx_fail(err, len, "%s: unshare: %s", __func__,
		    strerror(errno)));
	if (landlock_memfd_noexec_child(spec->fs_rules, spec->nfs_rules,
	    nomemfd, err, len) == -1)
		return (-1);
	sbx_hostname(spec->id, host, sizeof(host));
	if (sethostname(host, strlen(host)) == -1)
		return (sbx_fail(err, len, "%s: sethostname: %s", __func__,
		    strerror(errno)));
	if (init_mounts(a, broker, err, len) == -1)
		return (-1);
	if ((zp->devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1)
		return (sbx_fail(err, len, "%s: /dev/null: %s", __func__,
		    strerror(errno)));
	if (cgroup_enter(cg, ncg, err, len) == -1)
		return (-1);
	/* Now in its cgroup: make that the root of what it can see. */
	if (unshare(CLONE_NEWCGROUP) == -1)
		return (sbx_fail(err, len, "%s: unshare cgroup: %s", __func__,
		    strerror(errno)));
	if (init_rlimits(spec->policy, err, len) == -1 ||
	    ident_drop_child(spec->uid, spec->gid, err, len) == -1 ||
	    landlock_exec_child(spec->fs_rules, spec->nfs_rules, err,
	    len) == -1)
		return (-1);
	/*
	 * Tracing is allowed inside: pid 1, holding runnerd's socket,
	 * must stay out of reach whatever fs.suid_dumpable says.
	 */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == -1)
		return (sbx_fail(err, len, "%s: PR_SET_DUMPABLE: %s",
		    __func__, strerror(errno)));
	/* The uid change cleared the death signal: arm it again. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == -1)
		return (sbx_fail(err, len, "%s: PR_SET_PDEATHSIG: %s",
		    __func__, strerror(errno)));
	return (sbx_seccomp_load_child(*nomemfd, err, len));
}

/*
 * Every signal blocked for good: SIGCHLD comes through a signalfd, and
 * since SIGCHLD is no longer ignored, children stay zombies until the
 * zygote reaps them.
 */
static int
init_signals(char *err, size_t len)
{
	sigset_t	 all, chld;
	int		 fd;

	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if ((fd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC)) == -1)
		return (sbx_fail(err, len, "%s: signalfd: %s", __func__,
		    strerror(errno)));
	return (fd);
}

/* READY, with the broker's listening socket; pid 1 keeps no copy. */
static int
init_report_ready(int sock, int broker)
{
	struct sbx_report	 r;
	ssize_t			 n;

	memset(&r, 0, sizeof(r));
	r.type = SBX_REPORT_READY;
	n = sbx_send_fds(sock, &r, sizeof(r), &broker, 1, 0);
	close(broker);
	return (n == sizeof(r) ? 0 : -1);
}

void
init_main_child(const struct init_args *a)
{
	struct zyg_params	 zp;
	char			 err[SBX_MSG_SIZE], *mem = NULL;
	int			 broker = -1, nomemfd = 0;

	memset(&zp, 0, sizeof(zp));
	zp.sock = a->sock;
	zp.nofile = a->spec->policy->nofile;
	if (init_setup(a, &zp, &mem, &broker, &nomemfd, err,
	    sizeof(err)) == -1 ||
	    (zp.sigfd = init_signals(err, sizeof(err))) == -1) {
		init_report_error(a->sock, err);
		_exit(1);
	}
	if (init_report_ready(a->sock, broker) == -1)
		_exit(1);
	/*
	 * runnerd answers only after reading the report, written after
	 * the death signal was armed again: no answer, no runnerd.
	 */
	if (init_sync(a->sock, SBX_SYNC_GO, err, sizeof(err)) == -1)
		_exit(1);
	zygote_start_child(&zp, mem);
}
