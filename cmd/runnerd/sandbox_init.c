/*
 * A sandbox's pid 1: our own C, no exec.  Forked from runnerd into new
 * pid, mount, ipc, uts and net namespaces, it waits until runnerd has
 * put it in its cgroup, takes a cgroup namespace, builds the minimal
 * root, hands runnerd the handles of its namespaces, drops to the
 * sandbox's identity and then only reaps, until runnerd or
 * sandbox_destroy kills it.  As the init of a pid namespace it ignores
 * every signal sent from inside, and when it dies the kernel kills
 * everything else in the namespace.
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <net/if.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox_int.h"

#define INIT_NAME	"sbx-init"
#define INIT_SHED_SIZE	(128 * 1024)	/* /proc/self/maps, then ranges */

struct init_range {
	unsigned long	 lo, hi;
};

static const struct {
	const char	*name;
	int		 nstype;
} init_ns[SANDBOX_NS_MAX] = {
	{ "mnt", CLONE_NEWNS }, { "pid", CLONE_NEWPID },
	{ "net", CLONE_NEWNET }, { "ipc", CLONE_NEWIPC },
	{ "uts", CLONE_NEWUTS }, { "cgroup", CLONE_NEWCGROUP }
};

/*
 * Inside, pid 1 must not look like a daemon: a comm and a command line
 * of its own instead of runnerd's (readable by every process).
 */
static void
init_rename(void)
{
	unsigned long	 start = 0, end = 0;
	char		 buf[1024], *p;
	ssize_t		 n;
	int		 fd, i;

	prctl(PR_SET_NAME, INIT_NAME, 0, 0, 0);
	if ((fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)) == -1)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	/* Past the comm, the 46th blank starts arg_start (field 48). */
	if ((p = strrchr(buf, ')')) == NULL)
		return;
	for (i = 0; i < 46 && p != NULL; i++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p, " %lu %lu", &start, &end) != 2 ||
	    end <= start)
		return;
	memset((void *)start, 0, end - start);
	strlcpy((char *)start, INIT_NAME, end - start);
}

/* A fresh net namespace has lo down; localhost should work. */
static int
init_lo_up(char *err, size_t len)
{
	struct ifreq	 ifr;
	int		 s, rc = 0;

	if ((s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		return (sbx_fail(err, len, "%s: socket: %s", __func__,
		    strerror(errno)));
	memset(&ifr, 0, sizeof(ifr));
	strlcpy(ifr.ifr_name, "lo", sizeof(ifr.ifr_name));
	if (ioctl(s, SIOCGIFFLAGS, &ifr) == -1) {
		rc = sbx_fail(err, len, "%s: lo: %s", __func__,
		    strerror(errno));
	} else {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(s, SIOCSIFFLAGS, &ifr) == -1)
			rc = sbx_fail(err, len, "%s: lo up: %s", __func__,
			    strerror(errno));
	}
	close(s);
	return (rc);
}

/* What sandbox_spawn reopens later: see the comment there. */
static int
init_ns_handles(struct sandbox_nsh *nsh, char *err, size_t len)
{
	struct {
		struct file_handle	 fh;
		unsigned char		 buf[SANDBOX_NSH_SIZE];
	} h;
	char	 path[64];
	int	 i, mnt;

	for (i = 0; i < SANDBOX_NS_MAX; i++) {
		snprintf(path, sizeof(path), "/proc/self/ns/%s",
		    init_ns[i].name);
		h.fh.handle_bytes = SANDBOX_NSH_SIZE;
		if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mnt,
		    AT_SYMLINK_FOLLOW) == -1)
			return (sbx_fail(err, len, "%s: %s: %s (entering a "
			    "sandbox needs nsfs file handles, Linux 6.18)",
			    __func__, path, strerror(errno)));
		nsh[i].nstype = init_ns[i].nstype;
		nsh[i].type = h.fh.handle_type;
		nsh[i].bytes = h.fh.handle_bytes;
		memcpy(nsh[i].f_handle, h.fh.f_handle, h.fh.handle_bytes);
	}
	return (0);
}

static int
init_wait_cgroup(int fd, char *err, size_t len)
{
	char	 c;

	if (read(fd, &c, 1) != 1)
		return (sbx_fail(err, len, "%s: runnerd went away", __func__));
	return (0);
}

static int
init_setup(const struct init_args *a, struct sbx_report *r, char *err,
    size_t len)
{
	const struct sandbox_spec	*spec = a->spec;
	const int			 keep[2] = { a->sync_fd, a->report_fd };
	char				 host[64];

	/* Die with runnerd, from the first instruction on. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == -1)
		return (sbx_fail(err, len, "%s: PR_SET_PDEATHSIG: %s",
		    __func__, strerror(errno)));
	ident_reset_signals_child();
	if (ident_keep_fds_child(keep, 2, err, len) == -1)
		return (-1);
	umask(022);
	init_rename();
	if (init_wait_cgroup(a->sync_fd, err, len) == -1)
		return (-1);
	/* Now in its cgroup: make that the root of what it can see. */
	if (unshare(CLONE_NEWCGROUP) == -1)
		return (sbx_fail(err, len, "%s: unshare cgroup: %s", __func__,
		    strerror(errno)));
	if (mounts_build_child(spec, a->root, a->workspace, err, len) == -1)
		return (-1);
	sbx_hostname(spec->id, host, sizeof(host));
	if (sethostname(host, strlen(host)) == -1)
		return (sbx_fail(err, len, "%s: sethostname: %s", __func__,
		    strerror(errno)));
	if (init_lo_up(err, len) == -1 ||
	    init_ns_handles(r->nsh, err, len) == -1 ||
	    ident_drop_child(spec->uid, spec->gid, err, len) == -1)
		return (-1);
	/* The uid change cleared the death signal: arm it again. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == -1)
		return (sbx_fail(err, len, "%s: PR_SET_PDEATHSIG: %s",
		    __func__, strerror(errno)));
	return (sbx_seccomp_load_child(err, len));
}

/* The private writable mappings but the stack and buf itself. */
static size_t
init_writable(char *buf, size_t size, struct init_range *r, size_t max)
{
	char		*line, *next, perms[8];
	unsigned long	 lo, hi;
	size_t		 used = 0, n = 0;
	ssize_t		 got;
	int		 fd;

	if ((fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)) == -1)
		return (0);
	while (used < size - 1 &&
	    (got = read(fd, buf + used, size - 1 - used)) > 0)
		used += got;
	close(fd);
	buf[used] = '\0';
	for (line = buf; *line != '\0' && n < max; line = next) {
		next = strchrnul(line, '\n');
		if (*next != '\0')
			*next++ = '\0';
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 ||
		    perms[1] != 'w' || perms[3] != 'p' ||
		    strstr(line, "[stack]") != NULL)
			continue;
		/* buf may have merged with a neighbour: spare just buf. */
		if (lo <= (unsigned long)buf && (unsigned long)buf < hi) {
			r[n].lo = lo;
			r[n++].hi = (unsigned long)buf;
			lo = (unsigned long)buf + INIT_SHED_SIZE;
		}
		if (lo < hi && n < max) {
			r[n].lo = lo;
			r[n++].hi = hi;
		}
	}
	return (n);
}

/*
 * pid 1 is a fork of runnerd.  Left alone it would keep, copy-on-write,
 * the old version of every page runnerd dirties after the fork: with
 * thousands of sandboxes, thousands of snapshots of runnerd's heap.
 * From here on pid 1 needs nothing but its stack and syscall(2), so
 * every other private writable page goes back to the kernel (file
 * pages revert to the file, anonymous ones to zeroes).  That takes
 * libc's and ld.so's data too, the GOT among them: the maps are parsed
 * before, and syscall(2) is then reached through a pointer taken before,
 * never through the PLT.
 */
__attribute__((noreturn))
static void
init_shed_and_sleep(void)
{
	long			(*volatile sc)(long, ...) = syscall;
	struct init_range	*r;
	char			*buf;
	size_t			 i, n = 0;

	buf = mmap(NULL, INIT_SHED_SIZE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf != MAP_FAILED) {
		r = (struct init_range *)(buf + INIT_SHED_SIZE / 2);
		n = init_writable(buf, INIT_SHED_SIZE / 2, r,
		    INIT_SHED_SIZE / 2 / sizeof(*r));
	}
	for (i = 0; i < n; i++)
		sc(SYS_madvise, r[i].lo, r[i].hi - r[i].lo, MADV_DONTNEED);
	if (buf != MAP_FAILED)
		sc(SYS_madvise, (long)buf, INIT_SHED_SIZE, MADV_DONTNEED);
	for (;;)
		sc(SYS_pause);
}

/*
 * With SIGCHLD ignored the kernel reaps every child of pid 1 at once,
 * orphans included, so pid 1 has nothing to do but exist.  Set before
 * the sandbox is reported ready, when no process can have exited yet:
 * SIG_IGN does not reap zombies that are already there.
 */
static void
init_reaper_signals(void)
{
	sigset_t	 all;

	signal(SIGCHLD, SIG_IGN);
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
}

void
init_main_child(const struct init_args *a)
{
	struct sbx_report	 r;
	char			 err[SBX_MSG_SIZE], c;

	memset(&r, 0, sizeof(r));
	if (init_setup(a, &r, err, sizeof(err)) == -1) {
		sbx_report_error(a->report_fd, err);
		_exit(1);
	}
	init_reaper_signals();
	r.type = SBX_REPORT_READY;
	if (write(a->report_fd, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	/*
	 * runnerd answers only after reading the report, written after
	 * the death signal was armed again: no answer, no runnerd.
	 */
	if (read(a->sync_fd, &c, 1) != 1)
		_exit(1);
	close(a->sync_fd);
	close(a->report_fd);
	init_shed_and_sleep();
}
