/*
 * A sandbox's life as runnerd sees it: create it in the order of
 * runnerd(8), Creating a sandbox; signal and count its processes,
 * destroy it, and clean up after a runnerd that died.  The child's
 * side of creation is sandbox_init.c, the root it builds mounts.c;
 * starting processes in a sandbox is sandbox_spawn.c and, inside,
 * sandbox_zygote.c.
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/netlink.h>
#include <linux/sched.h>

#include <net/if.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "sandbox_int.h"
#include "sbx_msg.h"

#ifndef P_PIDFD
#define P_PIDFD		3
#endif

/* What a create has built, so that a failure undoes exactly that. */
#define HAVE_INIT	0x01
#define HAVE_DIRS	0x02
#define HAVE_WORKSPACE	0x04
#define HAVE_CGROUP	0x08
#define HAVE_ALL	0x0f

static void	sandbox_teardown(struct sandbox *, int, int);

int
sbx_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list	 ap;
	int	 saved = errno;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	errno = saved;
	return (-1);
}

void
sbx_sleep_ms(unsigned int ms)
{
	struct timespec	 ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

int
sbx_hostname(const char *id, char *buf, size_t len)
{
	return ((size_t)snprintf(buf, len, "sbx-%.8s", id) < len ? 0 : -1);
}

/* A fresh net namespace has lo down; localhost should work. */
int
sbx_lo_up(char *err, size_t len)
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

/*
 * A net namespace for netd's next veth, which net.c has made ahead of
 * demand: made here, lo up, with a NETLINK_ROUTE socket opened inside
 * for netd.  A sandbox without a network has its pid 1 make its own,
 * on pid 1's time rather than runnerd's event loop: it is the dearest
 * step of a create, Linux sets up every network subsystem in it.
 */
int
sandbox_net_take(int *netns, int *rtnl, char *err, size_t len)
{
	int	 host, fd = -1, nl = -1, rc = -1;

	if ((host = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)) == -1)
		return (sbx_fail(err, len, "%s: /proc/self/ns/net: %s",
		    __func__, strerror(errno)));
	if (unshare(CLONE_NEWNET) == -1) {
		sbx_fail(err, len, "%s: unshare: %s", __func__,
		    strerror(errno));
		close(host);
		return (-1);
	}
	if (sbx_lo_up(err, len) == -1)
		;
	else if ((fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)) == -1)
		sbx_fail(err, len, "%s: /proc/self/ns/net: %s", __func__,
		    strerror(errno));
	else if ((nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_ROUTE)) == -1)
		sbx_fail(err, len, "%s: netlink socket: %s", __func__,
		    strerror(errno));
	else
		rc = 0;
	if (setns(host, CLONE_NEWNET) == -1)
		fatal("%s: back to the host's net namespace", __func__);
	close(host);
	if (rc == -1) {
		if (fd != -1)
			close(fd);
		return (-1);
	}
	*netns = fd;
	*rtnl = nl;
	return (0);
}

/* dir/name; a path too long becomes "", which then names nothing. */
static void
sbx_join(char *buf, size_t len, const char *dir, const char *name)
{
	if ((size_t)snprintf(buf, len, "%s/%s", dir, name) >= len)
		buf[0] = '\0';
}

long
sbx_elapsed_ms(const struct timespec *t0)
{
	struct timespec	 now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ((now.tv_sec - t0->tv_sec) * 1000 +
	    (now.tv_nsec - t0->tv_nsec) / 1000000);
}

/* The id names directories and cgroups: 16 lowercase hex digits only. */
static int
sandbox_check_spec(const struct sandbox_spec *spec, char *err, size_t len)
{
	size_t	 i;

	if (spec->id == NULL || strlen(spec->id) != SANDBOX_ID_SIZE - 1)
		return (sbx_fail(err, len, "%s: id must be %d hex digits",
		    __func__, SANDBOX_ID_SIZE - 1));
	for (i = 0; spec->id[i] != '\0'; i++)
		if (!isdigit((unsigned char)spec->id[i]) &&
		    (spec->id[i] < 'a' || spec->id[i] > 'f'))
			return (sbx_fail(err, len, "%s: id %s is not lowercase "
			    "hex", __func__, spec->id));
	if (spec->policy == NULL)
		return (sbx_fail(err, len, "%s: no policy", __func__));
	if (spec->uid == 0 || spec->gid == 0)
		return (sbx_fail(err, len, "%s: a sandbox never runs as uid "
		    "or gid 0", __func__));
	if (spec->nfs_rules > 0 && spec->fs_rules == NULL)
		return (sbx_fail(err, len, "%s: fs rules missing", __func__));
	if (spec->state_dir == NULL || spec->state_dir[0] != '/')
		return (sbx_fail(err, len, "%s: state dir must be absolute",
		    __func__));
	/* Room for state_dir/kept/<id> and state_dir/<id>/workspace. */
	if (strlen(spec->state_dir) + SANDBOX_ID_SIZE + 16 >= CONF_PATH_SIZE)
		return (sbx_fail(err, len, "%s: state dir path too long",
		    __func__));
	return (0);
}

static int
sandbox_init_struct(struct sandbox *sb, const struct sandbox_spec *spec,
    char *err, size_t len)
{
	char	 id[SANDBOX_ID_SIZE];

	/* spec->id may well be sb->id itself. */
	strlcpy(id, spec->id, sizeof(id));
	memset(sb, 0, sizeof(*sb));
	strlcpy(sb->id, id, sizeof(sb->id));
	sb->policy = *spec->policy;
	sb->uid = spec->uid;
	sb->gid = spec->gid;
	sb->init_pid = -1;
	sb->init_pidfd = sb->sock = sb->workspace_fd = sb->broker_fd = -1;
	sbx_join(sb->dir, sizeof(sb->dir), spec->state_dir, sb->id);
	sbx_join(sb->workspace, sizeof(sb->workspace), sb->dir, "workspace");
	if (spec->ws_keep != NULL &&
	    strlcpy(sb->ws_keep, spec->ws_keep, sizeof(sb->ws_keep)) >=
	    sizeof(sb->ws_keep))
		return (sbx_fail(err, len, "%s: kept workspace path too long",
		    __func__));
	if (spec->nfs_rules == 0)
		return (0);
	if ((sb->fs_rules = calloc(spec->nfs_rules,
	    sizeof(*sb->fs_rules))) == NULL)
		return (sbx_fail(err, len, "%s: %s", __func__,
		    strerror(errno)));
	memcpy(sb->fs_rules, spec->fs_rules,
	    spec->nfs_rules * sizeof(*sb->fs_rules));
	sb->nfs_rules = spec->nfs_rules;
	return (0);
}

/* state_dir/<id>/{root,workspace}: root's alone, as is state_dir. */
static int
sandbox_mkdirs(struct sandbox *sb, char *err, size_t len)
{
	char	 root[CONF_PATH_SIZE];

	if (mkdirat(AT_FDCWD, sb->dir, 0700) == -1)
		return (sbx_fail(err, len, "%s: %s: %s", __func__, sb->dir,
		    strerror(errno)));
	sbx_join(root, sizeof(root), sb->dir, "root");
	if (mkdirat(AT_FDCWD, root, 0700) == -1 ||
	    mkdirat(AT_FDCWD, sb->workspace, 0700) == -1) {
		sbx_fail(err, len, "%s: %s: %s", __func__, sb->dir,
		    strerror(errno));
		unlinkat(AT_FDCWD, root, AT_REMOVEDIR);
		unlinkat(AT_FDCWD, sb->dir, AT_REMOVEDIR);
		return (-1);
	}
	return (0);
}

/*
 * The workspace is a tmpfs of the policy's size (writes past it get
 * ENOSPC), mounted on the host side so that runnerd reaches it through
 * workspace_fd and keep-failed can keep it after the sandbox is gone.
 */
static int
sandbox_workspace_mount(struct sandbox *sb, int held, char *err, size_t len)
{
	char	 opts[128];

	/* A service's kept one moves in, quota and owner as they were. */
	if (held) {
		if (mount(sb->ws_keep, sb->workspace, NULL, MS_MOVE,
		    NULL) == -1)
			return (sbx_fail(err, len, "%s: %s to %s: %s",
			    __func__, sb->ws_keep, sb->workspace,
			    strerror(errno)));
		return (0);
	}
	snprintf(opts, sizeof(opts), "size=%llu,mode=0700,uid=%u,gid=%u",
	    (unsigned long long)sb->policy.workspace, (unsigned int)sb->uid,
	    (unsigned int)sb->gid);
	if (mount("tmpfs", sb->workspace, "tmpfs", MS_NOSUID | MS_NODEV,
	    opts) == -1)
		return (sbx_fail(err, len, "%s: %s: %s", __func__,
		    sb->workspace, strerror(errno)));
	return (0);
}

ssize_t
sbx_send_fds(int sock, const void *data, size_t len, const int *fds, int n,
    int flags)
{
	union {
		struct cmsghdr	 h;
		char		 buf[CMSG_SPACE(ZYG_NFDS * sizeof(int))];
	} c;
	struct iovec	 iov = { (void *)data, len };
	struct msghdr	 m;
	struct cmsghdr	*cm;

	memset(&c, 0, sizeof(c));
	memset(&m, 0, sizeof(m));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = c.buf;
	m.msg_controllen = CMSG_SPACE(n * sizeof(int));
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(cm), fds, n * sizeof(int));
	return (sendmsg(sock, &m, flags | MSG_NOSIGNAL));
}

/* The fd that came with a message, if exactly one did. */
static int
sandbox_cmsg_fd(struct msghdr *m)
{
	struct cmsghdr	*cm;
	int		 fd = -1, n, i;

	for (cm = CMSG_FIRSTHDR(m); cm != NULL; cm = CMSG_NXTHDR(m, cm)) {
		if (cm->cmsg_level != SOL_SOCKET ||
		    cm->cmsg_type != SCM_RIGHTS)
			continue;
		n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			if (fd != -1)
				close(fd);
			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int),
			    sizeof(int));
		}
	}
	return (fd);
}

/* Read pid 1's one report; on EOF say how it died. */
static int
sandbox_init_report(struct sandbox *sb, char *err, size_t len)
{
	union {
		struct cmsghdr	 h;
		char		 buf[CMSG_SPACE(sizeof(int))];
	} c;
	struct sbx_report	 r;
	struct iovec		 iov = { &r, sizeof(r) };
	struct msghdr		 m;
	siginfo_t		 si;
	ssize_t			 n;
	int			 fd;

	memset(&m, 0, sizeof(m));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = c.buf;
	m.msg_controllen = sizeof(c.buf);
	while ((n = recvmsg(sb->sock, &m, MSG_CMSG_CLOEXEC)) == -1 &&
	    errno == EINTR)
		;
	fd = n > 0 ? sandbox_cmsg_fd(&m) : -1;
	if (n == sizeof(r) && r.type == SBX_REPORT_READY && fd != -1) {
		sb->broker_fd = fd;
		return (0);
	}
	if (fd != -1)
		close(fd);
	if (n == sizeof(r) && r.type == SBX_REPORT_ERROR) {
		r.msg[sizeof(r.msg) - 1] = '\0';
		return (sbx_fail(err, len, "%s", r.msg));
	}
	if (n == sizeof(r) && r.type == SBX_REPORT_READY)
		return (sbx_fail(err, len, "%s: pid 1 sent no broker socket",
		    __func__));
	memset(&si, 0, sizeof(si));
	if (waitid(P_PIDFD, sb->init_pidfd, &si, WEXITED | WNOWAIT) == 0 &&
	    si.si_code != CLD_EXITED)
		return (sbx_fail(err, len, "%s: pid 1 died on signal %d while "
		    "building the sandbox", __func__, si.si_status));
	return (sbx_fail(err, len, "%s: pid 1 exited while building the "
	    "sandbox", __func__));
}

/*
 * pid 1 gets a pid namespace of its own from the clone; it makes its
 * other namespaces itself, so that runnerd prepares the rest meanwhile.
 */
static int
sandbox_clone_init(struct sandbox *sb, const struct sandbox_spec *spec,
    int sock, char *err, size_t len)
{
	struct clone_args	 ca;
	struct init_args	 ia;
	char			 root[CONF_PATH_SIZE];
	int			 pidfd = -1;
	pid_t			 pid;

	sbx_join(root, sizeof(root), sb->dir, "root");
	memset(&ca, 0, sizeof(ca));
	ca.flags = CLONE_NEWPID | CLONE_PIDFD;
	ca.pidfd = (uintptr_t)&pidfd;
	ca.exit_signal = SIGCHLD;
	pid = syscall(SYS_clone3, &ca, sizeof(ca));
	/*
	 * A seccomp filter that checks clone's flags cannot read clone3's
	 * and answers ENOSYS, as systemd's RestrictNamespaces= does: then
	 * clone, whose flags it checks (x86-64 order: flags, stack,
	 * parent_tid, which receives the pidfd, child_tid, tls).
	 */
	if (pid == -1 && errno == ENOSYS)
		pid = syscall(SYS_clone, CLONE_NEWPID | CLONE_PIDFD | SIGCHLD,
		    NULL, &pidfd, NULL, 0);
	if (pid == -1)
		return (sbx_fail(err, len, "%s: clone: %s", __func__,
		    strerror(errno)));
	if (pid == 0) {
		memset(&ia, 0, sizeof(ia));
		ia.spec = spec;
		ia.root = root;
		ia.sock = sock;
		ia.netns = spec->netns;
		ia.mntns = mounts_template();
		init_main_child(&ia);
	}
	sb->init_pid = pid;
	sb->init_pidfd = pidfd;
	return (0);
}

/* Let pid 1 go on; if it cannot hear it, it has said why. */
static int
sandbox_sync(struct sandbox *sb, char c, char *err, size_t len)
{
	if (send(sb->sock, &c, 1, MSG_NOSIGNAL) == 1)
		return (0);
	if (errno == EPIPE || errno == ECONNRESET)
		return (sandbox_init_report(sb, err, len));
	return (sbx_fail(err, len, "%s: pid 1: %s", __func__,
	    strerror(errno)));
}

/* Let pid 1 go on, with fds; if it cannot hear it, it has said why. */
static int
sandbox_sync_fds(struct sandbox *sb, char c, const int *fds, int n,
    char *err, size_t len)
{
	if (sbx_send_fds(sb->sock, &c, 1, fds, n, 0) == 1)
		return (0);
	if (errno == EPIPE || errno == ECONNRESET)
		return (sandbox_init_report(sb, err, len));
	return (sbx_fail(err, len, "%s: pid 1: %s", __func__,
	    strerror(errno)));
}

/*
 * The workspace is mounted: pid 1 gets a detached copy of that mount
 * (the same tmpfs, quota and all) for its namespace, which does not
 * hold the host side's (mounts.c).
 */
static int
sandbox_sync_workspace(struct sandbox *sb, char *err, size_t len)
{
	int	 tree, rc;

	if ((tree = open_tree(AT_FDCWD, sb->workspace, OPEN_TREE_CLONE |
	    OPEN_TREE_CLOEXEC)) == -1)
		return (sbx_fail(err, len, "%s: %s: %s", __func__,
		    sb->workspace, strerror(errno)));
	rc = sandbox_sync_fds(sb, SBX_SYNC_MOUNT, &tree, 1, err, len);
	close(tree);
	return (rc);
}

/* pid 1's own account of a failure, if it gave one, says it best. */
static void
sandbox_init_error(struct sandbox *sb, char *err, size_t len)
{
	struct sbx_report	 r;

	if (recv(sb->sock, &r, sizeof(r), MSG_DONTWAIT) == sizeof(r) &&
	    r.type == SBX_REPORT_ERROR) {
		r.msg[sizeof(r.msg) - 1] = '\0';
		sbx_fail(err, len, "%s", r.msg);
	}
}

/*
 * Two at work: runnerd makes the sandbox's directories and workspace,
 * pid 1 its cgroup and namespaces, in parallel where the scheduler
 * lets them; each of pid 1's steps that needs runnerd's work waits for
 * a byte on the socket (SBX_SYNC_*).  The cgroup is pid 1's to make,
 * before it leaves runnerd's mount namespace and privileges, and to
 * move itself into: a cgroup mkdir waits for the host's one
 * cgroup_mutex, held by the kernel's offlining of destroyed sandboxes'
 * memory cgroups (up to 15 ms on a loaded host), and the cgroup.procs
 * write on v1 for an RCU grace period; both had better hold up pid 1
 * than runnerd's event loop.  The socket stays: it is how
 * sandbox_spawn reaches pid 1.
 *
 * sandbox_create_begin returns with pid 1 at work; its report comes on
 * sb->sock, and sandbox_create_finish reads it (waiting if need be).
 */
int
sandbox_create_begin(struct sandbox *sb, const struct sandbox_spec *spec,
    char *err, size_t len)
{
	int	 have = 0, sp[2];

	if (sandbox_check_spec(spec, err, len) == -1 ||
	    sandbox_init_struct(sb, spec, err, len) == -1)
		return (-1);
	if (sbx_seccomp_prepare(err, len) == -1 ||
	    cgroup_detect(err, len) == -1 ||
	    mounts_state_prepare(spec->state_dir, err, len) == -1)
		goto fail;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) == -1) {
		sbx_fail(err, len, "%s: socketpair: %s", __func__,
		    strerror(errno));
		goto fail;
	}
	sb->sock = sp[0];
	if (sandbox_clone_init(sb, spec, sp[1], err, len) == -1) {
		close(sp[1]);
		goto fail;
	}
	close(sp[1]);
	/* pid 1 makes its cgroup (sandbox_init.c): it may be there now. */
	have |= HAVE_INIT | HAVE_CGROUP;
	if (sandbox_mkdirs(sb, err, len) == -1)
		goto fail;
	have |= HAVE_DIRS;
	if (sandbox_workspace_mount(sb, spec->ws_held, err, len) == -1)
		goto fail;
	have |= HAVE_WORKSPACE;
	if (sandbox_sync_workspace(sb, err, len) == -1)
		goto fail;
	return (0);
 fail:
	if (have & HAVE_INIT)
		sandbox_init_error(sb, err, len);
	log_debug("%s: %s", __func__, err);
	sandbox_teardown(sb, have, 0);
	return (-1);
}

/*
 * pid 1's report; the last byte tells it that runnerd outlived the
 * re-arming of its death signal (see sandbox_init.c).
 */
int
sandbox_create_check(struct sandbox *sb, char *err, size_t len)
{
	if (sandbox_init_report(sb, err, len) == -1 ||
	    sandbox_sync(sb, SBX_SYNC_GO, err, len) == -1)
		goto fail;
	if ((sb->workspace_fd = open(sb->workspace, O_PATH | O_DIRECTORY |
	    O_CLOEXEC)) == -1) {
		sbx_fail(err, len, "%s: %s: %s", __func__, sb->workspace,
		    strerror(errno));
		goto fail;
	}
	return (0);
 fail:
	sandbox_init_error(sb, err, len);
	log_debug("%s: %s", __func__, err);
	sandbox_kill(sb);
	return (-1);
}

int
sandbox_create_finish(struct sandbox *sb, char *err, size_t len)
{
	if (sandbox_create_check(sb, err, len) == 0)
		return (0);
	sandbox_teardown(sb, HAVE_ALL, 0);
	return (-1);
}

int
sandbox_create(struct sandbox *sb, const struct sandbox_spec *spec,
    char *err, size_t len)
{
	if (sandbox_create_begin(sb, spec, err, len) == -1)
		return (-1);
	return (sandbox_create_finish(sb, err, len));
}

/* Everything but pid 1, from the cgroup: what fork cannot leave. */
int
sandbox_signal_procs(struct sandbox *sb, int sig)
{
	pid_t	*pids;
	size_t	 i, n;
	int	 sent = 0;

	if (cgroup_procs(sb->id, &pids, &n) == -1)
		return (0);
	for (i = 0; i < n; i++)
		if (pids[i] != sb->init_pid && kill(pids[i], sig) == 0)
			sent++;
	free(pids);
	return (sent);
}

int
sandbox_freeze(struct sandbox *sb, int on)
{
	/* Paused, it is frozen already, and must stay so until resumed. */
	if (sb->paused)
		return (0);
	return (cgroup_freeze(sb->id, on));
}

int
sandbox_frozen(struct sandbox *sb)
{
	return (cgroup_frozen(sb->id));
}

int
sandbox_nprocs(struct sandbox *sb)
{
	pid_t	*pids;
	size_t	 i, n;
	int	 count = 0;

	if (cgroup_procs(sb->id, &pids, &n) == -1)
		return (0);
	for (i = 0; i < n; i++)
		if (pids[i] != sb->init_pid)
			count++;
	free(pids);
	return (count);
}

int
sandbox_oom_killed(struct sandbox *sb)
{
	uint64_t	 n;

	if (cgroup_oom_kills(sb->id, &n) == -1 || n <= sb->oom_kills_seen)
		return (0);
	sb->oom_kills_seen = n;
	return (1);
}

/*
 * SIGKILL to pid 1 takes the whole pid namespace with it; pid 1 is our
 * child, reaped here through its pidfd so that nobody else's waitpid
 * can race us for it.
 */
static void
sandbox_kill_init(struct sandbox *sb)
{
	struct pollfd	 pfd;
	siginfo_t	 si;

	if (sb->init_pidfd == -1)
		return;
	if (syscall(SYS_pidfd_send_signal, sb->init_pidfd, SIGKILL, NULL,
	    0) == -1 && errno != ESRCH)
		log_warn("%s: sandbox %s: pidfd_send_signal", __func__, sb->id);
	pfd.fd = sb->init_pidfd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, SBX_KILL_WAIT_MS) != 1)
		log_warnx("%s: sandbox %s: pid 1 is still dying", __func__,
		    sb->id);
	memset(&si, 0, sizeof(si));
	if (waitid(P_PIDFD, sb->init_pidfd, &si, WEXITED | WNOHANG) == -1 &&
	    errno != ECHILD)
		log_warn("%s: sandbox %s: waitid", __func__, sb->id);
	close(sb->init_pidfd);
	sb->init_pidfd = -1;
}

/* Kill pid 1, and so the sandbox, without waiting for it. */
void
sandbox_kill(struct sandbox *sb)
{
	if (sb->init_pidfd != -1 && syscall(SYS_pidfd_send_signal,
	    sb->init_pidfd, SIGKILL, NULL, 0) == -1 && errno != ESRCH)
		log_warn("%s: sandbox %s: pidfd_send_signal", __func__, sb->id);
}

static void
sandbox_keep_workspace(struct sandbox *sb)
{
	char	 kept[CONF_PATH_SIZE], *slash;

	strlcpy(kept, sb->dir, sizeof(kept));
	if ((slash = strrchr(kept, '/')) == NULL)
		return;
	snprintf(slash, sizeof(kept) - (slash - kept), "/kept");
	if (mkdirat(AT_FDCWD, kept, 0700) == -1 && errno != EEXIST)
		log_warn("%s: %s", __func__, kept);
	strlcat(kept, "/", sizeof(kept));
	strlcat(kept, sb->id, sizeof(kept));
	if (mkdirat(AT_FDCWD, kept, 0700) == -1 ||
	    mount(sb->workspace, kept, NULL, MS_MOVE, NULL) == -1) {
		log_warn("%s: keeping %s in %s", __func__, sb->workspace,
		    kept);
		unlinkat(AT_FDCWD, kept, AT_REMOVEDIR);
		return;
	}
	log_info("sandbox %s: workspace kept in %s", sb->id, kept);
}

static void
sandbox_remove_dirs(struct sandbox *sb)
{
	char	 root[CONF_PATH_SIZE];

	sbx_join(root, sizeof(root), sb->dir, "root");
	if (unlinkat(AT_FDCWD, root, AT_REMOVEDIR) == -1 && errno != ENOENT)
		log_warn("%s: %s", __func__, root);
	if (unlinkat(AT_FDCWD, sb->workspace, AT_REMOVEDIR) == -1 &&
	    errno != ENOENT)
		log_warn("%s: %s", __func__, sb->workspace);
	if (unlinkat(AT_FDCWD, sb->dir, AT_REMOVEDIR) == -1 && errno != ENOENT)
		log_warn("%s: %s", __func__, sb->dir);
}

/* How long a teardown waits for its cgroup's last tasks to go. */
static unsigned int	sbx_cgroup_wait_ms = SBX_KILL_WAIT_MS;

static void
sandbox_teardown(struct sandbox *sb, int have, int keep)
{
	if (have & HAVE_INIT)
		sandbox_kill_init(sb);
	if (sb->sock != -1) {
		close(sb->sock);
		sb->sock = -1;
	}
	free(sb->live);
	sb->live = NULL;
	sb->nlive = sb->maxlive = 0;
	/*
	 * Cgroup, unmount and directories off the loop if they can be
	 * (sandbox_unmount.c): a whole sandbox whose workspace goes away.
	 */
	if ((have & HAVE_ALL) == HAVE_ALL && !keep && sb->ws_keep[0] == '\0' &&
	    sandbox_unmount_queue(sb->id, sb->dir) == 0)
		have &= ~(HAVE_CGROUP | HAVE_WORKSPACE | HAVE_DIRS);
	if (have & HAVE_CGROUP)
		sb->cgroup_busy = cgroup_remove(sb->id, sbx_cgroup_wait_ms) == 1;
	if (sb->broker_fd != -1) {
		close(sb->broker_fd);
		sb->broker_fd = -1;
	}
	if (sb->workspace_fd != -1) {
		close(sb->workspace_fd);
		sb->workspace_fd = -1;
	}
	if (have & HAVE_WORKSPACE) {
		if (sb->ws_keep[0] != '\0') {
			keep = 1;
			if (mount(sb->workspace, sb->ws_keep, NULL, MS_MOVE,
			    NULL) == -1)
				log_warn("%s: keeping %s in %s", __func__,
				    sb->workspace, sb->ws_keep);
		} else if (keep)
			sandbox_keep_workspace(sb);
		if (umount2(sb->workspace, MNT_DETACH) == -1 &&
		    (!keep || errno != EINVAL))
			log_warn("%s: umount %s", __func__, sb->workspace);
	}
	if (have & HAVE_DIRS)
		sandbox_remove_dirs(sb);
	free(sb->fs_rules);
	sb->fs_rules = NULL;
	sb->nfs_rules = 0;
}

void
sandbox_cgroup_nowait(void)
{
	sbx_cgroup_wait_ms = 0;
}

int
sandbox_cgroup_retry(const char *id, unsigned int wait_ms)
{
	return (cgroup_remove(id, wait_ms) == 1);
}

void
sandbox_destroy(struct sandbox *sb, int keep)
{
	sandbox_teardown(sb, HAVE_ALL, keep);
}

/* A previous runnerd's pid 1s died with it; their directories did not. */
static void
sandbox_reconcile_dir(const char *state_dir, const char *id)
{
	struct sandbox	 sb;

	memset(&sb, 0, sizeof(sb));
	strlcpy(sb.id, id, sizeof(sb.id));
	sb.init_pidfd = sb.sock = sb.workspace_fd = sb.broker_fd = -1;
	sbx_join(sb.dir, sizeof(sb.dir), state_dir, id);
	sbx_join(sb.workspace, sizeof(sb.workspace), sb.dir, "workspace");
	if (umount2(sb.workspace, MNT_DETACH) == -1 && errno != EINVAL &&
	    errno != ENOENT)
		log_warn("%s: umount %s", __func__, sb.workspace);
	sandbox_remove_dirs(&sb);
	log_info("removed what sandbox %s left behind", id);
}

void
sandbox_reconcile(const char *state_dir)
{
	struct dirent	*de;
	DIR		*d;
	char		 err[SBX_MSG_SIZE];

	if (mounts_state_prepare(state_dir, err, sizeof(err)) == -1)
		log_warnx("%s", err);
	cgroup_set_instance(state_dir);
	cgroup_reconcile();
	if ((d = opendir(state_dir)) == NULL) {
		log_warn("%s: %s", __func__, state_dir);
		return;
	}
	while ((de = readdir(d)) != NULL)
		if (sbx_check_id(de->d_name, sizeof(de->d_name)) == 0)
			sandbox_reconcile_dir(state_dir, de->d_name);
	closedir(d);
}

void
sandbox_shutdown(void)
{
	cgroup_remove_instance();
}
