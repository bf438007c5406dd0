/*
 * Starting a process inside a sandbox.  A helper forked from runnerd
 * joins the sandbox's cgroups (from the host side), enters its
 * namespaces and clones the exec child with CLONE_PARENT, so that the
 * child is runnerd's own and waitpid(2) works on it; then the helper
 * exits.  The child takes its fds, limits and identity, the Landlock
 * and seccomp restrictions, and execs.  Every failure before the exec
 * comes back over a CLOEXEC pipe as a message, never as an exit status.
 *
 * How the helper gets in.  setns(2) on a pidfd of pid 1, like opening
 * /proc/<pid>/ns/<type>, needs ptrace read access to pid 1; pid 1 runs as
 * the sandbox's uid and is not dumpable, so a uid-0 runnerd without
 * CAP_SYS_PTRACE is refused with EPERM (checked on Linux 6.18).
 * Keeping an fd per namespace would cost six fds a sandbox against a
 * budget of two (init_pidfd, workspace_fd); parking them in flight on
 * a socket would charge them to uid 0's unix_inflight count, which
 * other root processes then run into.  Instead pid 1, before it drops,
 * takes an nsfs file handle of each of its namespaces (Linux 6.18):
 * plain bytes kept in struct sandbox, which open_by_handle_at(2) with
 * FD_NSFS_ROOT turns back into namespace fds for a caller with
 * CAP_SYS_ADMIN over the namespace's owner, with no ptrace check.
 * Namespace ids are never reused, so a handle can outlive its sandbox
 * only to fail (ESTALE), never to name somebody else's namespace.
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sandbox_int.h"

#ifndef FD_NSFS_ROOT
#define FD_NSFS_ROOT	-10003	/* include/uapi/linux/fcntl.h, 6.18 */
#endif

#define SPAWN_ERRFD	4	/* the report pipe, in the exec child */
#define SPAWN_TMPFD	10	/* where fds wait before they are placed */

__attribute__((noreturn))
static void
spawn_die(int fd, const char *err)
{
	sbx_report_error(fd, err);
	_exit(127);
}

/* Reopen every namespace of pid 1 first, then enter them all. */
static int
spawn_enter(const struct sandbox *sb, char *err, size_t len)
{
	struct {
		struct file_handle	 fh;
		unsigned char		 buf[SANDBOX_NSH_SIZE];
	} h;
	int	 fds[SANDBOX_NS_MAX], i, n, rc = 0;

	for (n = 0; n < SANDBOX_NS_MAX; n++) {
		if (sb->nsh[n].bytes > SANDBOX_NSH_SIZE) {
			rc = sbx_fail(err, len, "%s: bad namespace handle",
			    __func__);
			break;
		}
		h.fh.handle_bytes = sb->nsh[n].bytes;
		h.fh.handle_type = sb->nsh[n].type;
		memcpy(h.fh.f_handle, sb->nsh[n].f_handle, sb->nsh[n].bytes);
		if ((fds[n] = open_by_handle_at(FD_NSFS_ROOT, &h.fh,
		    O_RDONLY | O_CLOEXEC)) == -1) {
			rc = sbx_fail(err, len, "%s: namespace of sandbox %s: "
			    "%s", __func__, sb->id, strerror(errno));
			break;
		}
	}
	for (i = 0; i < n && rc == 0; i++)
		if (setns(fds[i], sb->nsh[i].nstype) == -1)
			rc = sbx_fail(err, len, "%s: setns: %s", __func__,
			    strerror(errno));
	for (i = 0; i < n; i++)
		close(fds[i]);
	return (rc);
}

/*
 * Park every fd the child keeps above SPAWN_TMPFD first, so that
 * placing one on 0-4 can never clobber another still to be placed.
 */
static int
spawn_fds(const struct sandbox_exec_spec *es, int rfd, char *err,
    size_t len)
{
	int	 src[5] = { es->fd_stdin, es->fd_stdout, es->fd_stderr,
		    es->fd_extra, rfd };
	int	 tmp[5], i;

	for (i = 0; i < 5; i++) {
		if (src[i] != -1)
			tmp[i] = fcntl(src[i], F_DUPFD_CLOEXEC, SPAWN_TMPFD);
		else if (i < 3)
			tmp[i] = open("/dev/null", O_RDWR | O_CLOEXEC);
		else
			tmp[i] = -1;		/* no broker channel */
		if (tmp[i] == -1 && (src[i] != -1 || i < 3))
			return (sbx_fail(err, len, "%s: fd %d: %s", __func__,
			    i, strerror(errno)));
	}
	for (i = 0; i < 4; i++)
		if (tmp[i] != -1 && dup2(tmp[i], i) == -1)
			return (sbx_fail(err, len, "%s: dup2: %s", __func__,
			    strerror(errno)));
	if (dup3(tmp[4], SPAWN_ERRFD, O_CLOEXEC) == -1)
		return (sbx_fail(err, len, "%s: dup3: %s", __func__,
		    strerror(errno)));
	if (tmp[3] == -1)
		close(3);
	if (close_range(SPAWN_ERRFD + 1, ~0U, 0) == -1)
		return (sbx_fail(err, len, "%s: close_range: %s", __func__,
		    strerror(errno)));
	return (0);
}

static int
spawn_rlimits(const struct policy_msg *p, char *err, size_t len)
{
	const struct {
		int		 res;
		const char	*name;
		rlim_t		 v;
	} lim[] = {
		{ RLIMIT_FSIZE, "fsize", p->fsize },
		{ RLIMIT_NOFILE, "nofile", p->nofile },
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

static const char *
spawn_getenv(char *const *envp, const char *key)
{
	size_t	 n = strlen(key);

	for (; envp != NULL && *envp != NULL; envp++)
		if (strncmp(*envp, key, n) == 0 && (*envp)[n] == '=')
			return (*envp + n + 1);
	return (NULL);
}

/* execvpe(3) without its sh fallback, with the PATH of envp. */
static void
spawn_exec(const struct sandbox_exec_spec *es, char *err, size_t len)
{
	const char	*path, *p, *end;
	char		 buf[PATH_MAX];
	int		 eacces = 0;

	if (strchr(es->argv[0], '/') != NULL) {
		execve(es->argv[0], es->argv, es->envp);
		sbx_fail(err, len, "%s: %s: %s", __func__, es->argv[0],
		    strerror(errno));
		return;
	}
	if ((path = spawn_getenv(es->envp, "PATH")) == NULL)
		path = SBX_DEFAULT_PATH;
	for (p = path; ; p = end + 1) {
		end = strchrnul(p, ':');
		if (snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(end - p), p,
		    end == p ? "" : "/", es->argv[0]) < (int)sizeof(buf)) {
			execve(buf, es->argv, es->envp);
			if (errno == EACCES)
				eacces = 1;
			else if (errno != ENOENT && errno != ENOTDIR) {
				sbx_fail(err, len, "%s: %s: %s", __func__, buf,
				    strerror(errno));
				return;
			}
		}
		if (*end == '\0')
			break;
	}
	sbx_fail(err, len, "%s: %s: %s", __func__, es->argv[0], eacces ?
	    strerror(EACCES) : "command not found");
}

/*
 * Session, limits, identity, cwd, Landlock, seccomp.  The cwd is
 * entered only once the process is the sandbox's uid, so that root's
 * DAC override can never lend it a directory it could not have entered
 * itself.
 */
static int
spawn_restrict(const struct sandbox *sb, const struct sandbox_exec_spec *es,
    char *err, size_t len)
{
	const char	*cwd = es->cwd != NULL ? es->cwd : "/workspace";

	if (setsid() == -1)
		return (sbx_fail(err, len, "%s: setsid: %s", __func__,
		    strerror(errno)));
	if (spawn_rlimits(&sb->policy, err, len) == -1 ||
	    ident_drop_child(sb->uid, sb->gid, err, len) == -1)
		return (-1);
	if (chdir(cwd) == -1)
		return (sbx_fail(err, len, "%s: cwd %s: %s", __func__, cwd,
		    strerror(errno)));
	if (landlock_exec_child(sb->fs_rules, sb->nfs_rules, err, len) == -1)
		return (-1);
	return (sbx_seccomp_load_child(err, len));
}

/* The exec child, in the sandbox but still privileged until restricted. */
__attribute__((noreturn))
static void
spawn_child(const struct sandbox *sb, const struct sandbox_exec_spec *es,
    int rfd)
{
	char	 err[SBX_MSG_SIZE];

	ident_reset_signals_child();
	if (spawn_fds(es, rfd, err, sizeof(err)) == -1)
		spawn_die(rfd, err);
	if (spawn_restrict(sb, es, err, sizeof(err)) == 0)
		spawn_exec(es, err, sizeof(err));
	spawn_die(SPAWN_ERRFD, err);
}

/* In a fork of runnerd, still privileged: cgroup, namespaces, clone. */
__attribute__((noreturn))
static void
spawn_helper(const struct sandbox *sb, const struct sandbox_exec_spec *es,
    int rfd)
{
	struct sbx_report	 r;
	char			 err[SBX_MSG_SIZE];
	pid_t			 pid;

	if (cgroup_attach(sb->id, 0, err, sizeof(err)) == -1 ||
	    spawn_enter(sb, err, sizeof(err)) == -1)
		spawn_die(rfd, err);
	/* CLONE_PARENT: the child is runnerd's, and in the pid namespace. */
	pid = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, NULL, NULL, NULL, 0);
	if (pid == 0)
		spawn_child(sb, es, rfd);
	if (pid == -1) {
		sbx_fail(err, sizeof(err), "%s: clone: %s", __func__,
		    strerror(errno));
		spawn_die(rfd, err);
	}
	memset(&r, 0, sizeof(r));
	r.type = SBX_REPORT_PID;
	r.pid = pid;
	(void)write(rfd, &r, sizeof(r));
	_exit(0);
}

/* Reports until EOF: the helper's pid, or the first error of either. */
static pid_t
spawn_collect(int fd, char *err, size_t len)
{
	struct sbx_report	 r;
	pid_t			 pid = -1;
	ssize_t			 n;
	int			 failed = 0;

	for (;;) {
		n = read(fd, &r, sizeof(r));
		if (n == -1 && errno == EINTR)
			continue;
		if (n != sizeof(r))
			break;
		if (r.type == SBX_REPORT_PID)
			pid = r.pid;
		else if (r.type == SBX_REPORT_ERROR && !failed) {
			r.msg[sizeof(r.msg) - 1] = '\0';
			sbx_fail(err, len, "%s", r.msg);
			failed = 1;
		}
	}
	if (!failed && pid == -1)
		sbx_fail(err, len, "%s: the helper died without a word",
		    __func__);
	if (failed && pid != -1) {
		/* The child wrote its error and exits: it is ours to reap. */
		while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
			;
	}
	return (failed ? -1 : pid);
}

pid_t
sandbox_spawn(struct sandbox *sb, const struct sandbox_exec_spec *es,
    char *err, size_t len)
{
	pid_t	 helper, pid;
	int	 rp[2];

	if (es->argv == NULL || es->argv[0] == NULL || es->argv[0][0] == '\0')
		return (sbx_fail(err, len, "%s: no command", __func__));
	if (sb->init_pidfd == -1)
		return (sbx_fail(err, len, "%s: sandbox %s has no pid 1",
		    __func__, sb->id));
	if (pipe2(rp, O_CLOEXEC) == -1)
		return (sbx_fail(err, len, "%s: pipe: %s", __func__,
		    strerror(errno)));
	if ((helper = fork()) == -1) {
		sbx_fail(err, len, "%s: fork: %s", __func__, strerror(errno));
		close(rp[0]);
		close(rp[1]);
		return (-1);
	}
	if (helper == 0) {
		close(rp[0]);
		spawn_helper(sb, es, rp[1]);
	}
	close(rp[1]);
	pid = spawn_collect(rp[0], err, len);
	close(rp[0]);
	/* Ours alone: a caller's waitpid(-1) would race this. */
	while (waitpid(helper, NULL, 0) == -1 && errno == EINTR)
		;
	return (pid);
}
