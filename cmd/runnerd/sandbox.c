/*
 * A sandbox's life as runnerd sees it: create it in the order of
 * DESIGN.md section 2, signal and count its processes, destroy it, and
 * clean up after a runnerd that died.  The child's side of creation is
 * sandbox_init.c, the root it builds mounts.c; starting processes in a
 * sandbox is sandbox_spawn.c.
 */
#include <sys/types.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/sched.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "sandbox_int.h"

#ifndef P_PIDFD
#define P_PIDFD		3
#endif

/* How long the kernel gets to empty a sandbox before we complain. */
#define SBX_KILL_WAIT_MS	2000

/* How far a create got, so that a failure undoes exactly that much. */
enum sbx_stage {
	STAGE_NONE = 0,
	STAGE_DIRS,
	STAGE_CGROUP,
	STAGE_WORKSPACE,
	STAGE_INIT,
	STAGE_ALL
};

static void	sandbox_teardown(struct sandbox *, enum sbx_stage, int);

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

/* One report, written whole; a child has nobody else to tell. */
void
sbx_report_error(int fd, const char *msg)
{
	struct sbx_report	 r;

	memset(&r, 0, sizeof(r));
	r.type = SBX_REPORT_ERROR;
	strlcpy(r.msg, msg, sizeof(r.msg));
	(void)write(fd, &r, sizeof(r));
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
	sb->init_pidfd = sb->ns_fd = sb->workspace_fd = -1;
	sbx_join(sb->dir, sizeof(sb->dir), spec->state_dir, sb->id);
	sbx_join(sb->workspace, sizeof(sb->workspace), sb->dir, "workspace");
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
sandbox_workspace_mount(struct sandbox *sb, char *err, size_t len)
{
	char	 opts[128];

	snprintf(opts, sizeof(opts), "size=%llu,mode=0700,uid=%u,gid=%u",
	    (unsigned long long)sb->policy.workspace, (unsigned int)sb->uid,
	    (unsigned int)sb->gid);
	if (mount("tmpfs", sb->workspace, "tmpfs", MS_NOSUID | MS_NODEV,
	    opts) == -1)
		return (sbx_fail(err, len, "%s: %s: %s", __func__,
		    sb->workspace, strerror(errno)));
	return (0);
}

/* Read pid 1's one report; on EOF say how it died. */
static int
sandbox_init_report(struct sandbox *sb, int fd, char *err, size_t len)
{
	struct sbx_report	 r;
	siginfo_t		 si;
	ssize_t			 n;

	while ((n = read(fd, &r, sizeof(r))) == -1 && errno == EINTR)
		;
	if (n == sizeof(r) && r.type == SBX_REPORT_READY) {
		memcpy(sb->nsh, r.nsh, sizeof(sb->nsh));
		return (0);
	}
	if (n == sizeof(r) && r.type == SBX_REPORT_ERROR) {
		r.msg[sizeof(r.msg) - 1] = '\0';
		return (sbx_fail(err, len, "%s", r.msg));
	}
	memset(&si, 0, sizeof(si));
	if (waitid(P_PIDFD, sb->init_pidfd, &si, WEXITED | WNOWAIT) == 0 &&
	    si.si_code != CLD_EXITED)
		return (sbx_fail(err, len, "%s: pid 1 died on signal %d while "
		    "building the sandbox", __func__, si.si_status));
	return (sbx_fail(err, len, "%s: pid 1 exited while building the "
	    "sandbox", __func__));
}

static int
sandbox_clone_init(struct sandbox *sb, const struct sandbox_spec *spec,
    int sync[2], int rep[2], char *err, size_t len)
{
	struct clone_args	 ca;
	struct init_args	 ia;
	char			 root[CONF_PATH_SIZE];
	int			 pidfd = -1;
	pid_t			 pid;

	sbx_join(root, sizeof(root), sb->dir, "root");
	memset(&ca, 0, sizeof(ca));
	ca.flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS |
	    CLONE_NEWNET | CLONE_PIDFD;
	ca.pidfd = (uintptr_t)&pidfd;
	ca.exit_signal = SIGCHLD;
	if ((pid = syscall(SYS_clone3, &ca, sizeof(ca))) == -1)
		return (sbx_fail(err, len, "%s: clone3: %s", __func__,
		    strerror(errno)));
	if (pid == 0) {
		close(sync[1]);
		close(rep[0]);
		memset(&ia, 0, sizeof(ia));
		ia.spec = spec;
		ia.root = root;
		ia.workspace = sb->workspace;
		ia.sync_fd = sync[0];
		ia.report_fd = rep[1];
		init_main_child(&ia);
	}
	sb->init_pid = pid;
	sb->init_pidfd = pidfd;
	return (0);
}

/*
 * pid 1 waits on sync until it is in its cgroup, then builds the
 * sandbox and reports.  A second byte tells it that runnerd outlived
 * the re-arming of its death signal (see sandbox_init.c).
 */
static int
sandbox_start_init(struct sandbox *sb, const struct sandbox_spec *spec,
    char *err, size_t len)
{
	int	 sync[2], rep[2] = { -1, -1 }, rc = -1;

	if (pipe2(sync, O_CLOEXEC) == -1)
		return (sbx_fail(err, len, "%s: pipe: %s", __func__,
		    strerror(errno)));
	if (pipe2(rep, O_CLOEXEC) == -1) {
		sbx_fail(err, len, "%s: pipe: %s", __func__, strerror(errno));
		goto out;
	}
	if (sandbox_clone_init(sb, spec, sync, rep, err, len) == -1)
		goto out;
	close(sync[0]);
	close(rep[1]);
	sync[0] = rep[1] = -1;
	if (cgroup_attach(sb->id, sb->init_pid, err, len) == -1)
		goto out;
	if (write(sync[1], "c", 1) != 1) {
		sbx_fail(err, len, "%s: pid 1: %s", __func__, strerror(errno));
		goto out;
	}
	if (sandbox_init_report(sb, rep[0], err, len) == -1)
		goto out;
	(void)write(sync[1], "g", 1);
	rc = 0;
 out:
	close(sync[0]);
	close(sync[1]);
	close(rep[0]);
	close(rep[1]);
	return (rc);
}

int
sandbox_create(struct sandbox *sb, const struct sandbox_spec *spec,
    char *err, size_t len)
{
	enum sbx_stage	 stage = STAGE_NONE;

	if (sandbox_check_spec(spec, err, len) == -1 ||
	    sandbox_init_struct(sb, spec, err, len) == -1)
		return (-1);
	if (sbx_seccomp_prepare(err, len) == -1 ||
	    mounts_state_prepare(spec->state_dir, err, len) == -1 ||
	    sandbox_mkdirs(sb, err, len) == -1)
		goto fail;
	stage = STAGE_DIRS;
	if (cgroup_create(sb->id, &sb->policy, err, len) == -1)
		goto fail;
	stage = STAGE_CGROUP;
	if (sandbox_workspace_mount(sb, err, len) == -1)
		goto fail;
	stage = STAGE_WORKSPACE;
	if (sandbox_start_init(sb, spec, err, len) == -1) {
		stage = STAGE_INIT;
		goto fail;
	}
	stage = STAGE_ALL;
	if ((sb->workspace_fd = open(sb->workspace, O_PATH | O_DIRECTORY |
	    O_CLOEXEC)) == -1) {
		sbx_fail(err, len, "%s: %s: %s", __func__, sb->workspace,
		    strerror(errno));
		goto fail;
	}
	return (0);
 fail:
	log_debug("%s: %s", __func__, err);
	sandbox_teardown(sb, stage, 0);
	return (-1);
}

/* Everything but pid 1, from the cgroup: what fork cannot leave. */
static int
sandbox_kill_procs(struct sandbox *sb, int sig)
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

/*
 * Frozen, the cgroup is a stable snapshot: nobody forks between the
 * read of cgroup.procs and the signal.  SIGKILL is then followed until
 * nothing but pid 1 is left, so that callers may count on it.
 */
int
sandbox_signal_all(struct sandbox *sb, int sig)
{
	struct timespec	 t0;
	int		 frozen, n;

	frozen = cgroup_freeze(sb->id, 1) == 0;
	n = sandbox_kill_procs(sb, sig);
	if (frozen)
		cgroup_freeze(sb->id, 0);
	if (sig != SIGKILL)
		return (n);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (sandbox_nprocs(sb) > 0) {
		if (sbx_elapsed_ms(&t0) > SBX_KILL_WAIT_MS) {
			log_warnx("%s: sandbox %s: processes survive SIGKILL",
			    __func__, sb->id);
			break;
		}
		sandbox_kill_procs(sb, SIGKILL);
		sbx_sleep_ms(1);
	}
	return (n);
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
		log_warnx("%s: sandbox %s: pid 1 is still dying: is a spawned "
		    "process left unreaped?", __func__, sb->id);
	memset(&si, 0, sizeof(si));
	if (waitid(P_PIDFD, sb->init_pidfd, &si, WEXITED | WNOHANG) == -1 &&
	    errno != ECHILD)
		log_warn("%s: sandbox %s: waitid", __func__, sb->id);
	close(sb->init_pidfd);
	sb->init_pidfd = -1;
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

static void
sandbox_teardown(struct sandbox *sb, enum sbx_stage stage, int keep)
{
	if (stage >= STAGE_INIT)
		sandbox_kill_init(sb);
	if (stage >= STAGE_CGROUP)
		cgroup_remove(sb->id, SBX_KILL_WAIT_MS);
	if (sb->workspace_fd != -1) {
		close(sb->workspace_fd);
		sb->workspace_fd = -1;
	}
	if (stage >= STAGE_WORKSPACE) {
		if (keep)
			sandbox_keep_workspace(sb);
		if (umount2(sb->workspace, MNT_DETACH) == -1 &&
		    (!keep || errno != EINVAL))
			log_warn("%s: umount %s", __func__, sb->workspace);
	}
	if (stage >= STAGE_DIRS)
		sandbox_remove_dirs(sb);
	free(sb->fs_rules);
	sb->fs_rules = NULL;
	sb->nfs_rules = 0;
}

void
sandbox_destroy(struct sandbox *sb, int keep)
{
	sandbox_teardown(sb, STAGE_ALL, keep);
}

static int
sandbox_is_id(const char *name)
{
	size_t	 i;

	for (i = 0; name[i] != '\0'; i++)
		if (!isdigit((unsigned char)name[i]) &&
		    (name[i] < 'a' || name[i] > 'f'))
			return (0);
	return (i == SANDBOX_ID_SIZE - 1);
}

/* A previous runnerd's pid 1s died with it; their directories did not. */
static void
sandbox_reconcile_dir(const char *state_dir, const char *id)
{
	struct sandbox	 sb;

	memset(&sb, 0, sizeof(sb));
	strlcpy(sb.id, id, sizeof(sb.id));
	sb.init_pidfd = sb.ns_fd = sb.workspace_fd = -1;
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
		if (sandbox_is_id(de->d_name))
			sandbox_reconcile_dir(state_dir, de->d_name);
	closedir(d);
}

void
sandbox_shutdown(void)
{
	cgroup_remove_instance();
}
