/* The process table and starting a child over a socketpair. */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <linux/capability.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "proc.h"

static const int netd_caps[] = { CAP_NET_ADMIN };
/* What creating sandboxes needs: namespaces, mounts, ids, limits. */
static const int runnerd_caps[] = {
	CAP_SYS_ADMIN, CAP_SETUID, CAP_SETGID, CAP_SETPCAP, CAP_SYS_CHROOT,
	CAP_KILL, CAP_CHOWN, CAP_FOWNER, CAP_DAC_OVERRIDE,
	CAP_NET_ADMIN
};

const struct proc_spec proc_specs[PROC_MAX] = {
	[PROC_NETD] = { "netd", "_sbxnetd", PROC_CHROOT, netd_caps,
	    sizeof(netd_caps) / sizeof(netd_caps[0]), 0, 0, CONF_PART_NET },
	[PROC_ENVD] = { "envd", "_sbxenvd", PROC_CHROOT, NULL, 0, 1, 1,
	    CONF_PART_ENV | CONF_PART_SECRETS },
	[PROC_RUNNERD] = { "runnerd", NULL, NULL, runnerd_caps,
	    sizeof(runnerd_caps) / sizeof(runnerd_caps[0]), 0, 1,
	    CONF_PART_FS },
	[PROC_DNSPIND] = { "dnspind", "_sbxdnspind", PROC_CHROOT, NULL, 0, 0,
	    0, CONF_PART_DNS | CONF_PART_NET },
};

const struct proc_spec *
proc_spec_find(const char *name)
{
	size_t	 i;

	for (i = 0; i < PROC_MAX; i++)
		if (strcmp(proc_specs[i].name, name) == 0)
			return (&proc_specs[i]);
	return (NULL);
}

/*
 * Children live in ../libexec/sandboxd/ relative to an installed master,
 * or beside it in a build tree.  Resolved from /proc/self/exe, never
 * from $PATH or the environment.
 */
int
proc_exec_path(const char *name, char *buf, size_t len)
{
	char	 self[PATH_MAX], *slash;
	ssize_t	 n;

	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) == -1)
		return (-1);
	self[n] = '\0';
	if ((slash = strrchr(self, '/')) == NULL)
		return (-1);
	*slash = '\0';
	if ((size_t)snprintf(buf, len, "%s/../libexec/sandboxd/%s", self,
	    name) < len && access(buf, X_OK) == 0)
		return (0);
	if ((size_t)snprintf(buf, len, "%s/%s", self, name) < len &&
	    access(buf, X_OK) == 0)
		return (0);
	errno = ENOENT;
	return (-1);
}

static void
proc_child_exec(const struct proc_spec *ps, const char *path, int fd,
    int debug, int verbose, const char *without)
{
	char		*argv[10], *empty_env[] = { NULL };
	int		 argc = 0, devnull;
	sigset_t	 set;
	extern char	**environ;

	sigemptyset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);
	if (fd != PROC_PARENT_FD) {
		if (dup2(fd, PROC_PARENT_FD) == -1)
			fatal("%s: dup2", __func__);
	} else if (fcntl(fd, F_SETFD, 0) == -1)
		fatal("%s: fcntl", __func__);
	if ((devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) == -1 ||
	    dup2(devnull, STDIN_FILENO) == -1)
		fatal("%s: /dev/null", __func__);
	/* Nothing but stdio and the socketpair crosses the exec. */
	if (close_range(PROC_PARENT_FD + 1, ~0U, 0) == -1)
		fatal("%s: close_range", __func__);
	argv[argc++] = (char *)ps->name;
	if (debug)
		argv[argc++] = "-d";
	if (without != NULL) {
		argv[argc++] = "-x";
		argv[argc++] = (char *)without;
	}
	while (verbose-- > 0 && argc < 9)
		argv[argc++] = "-v";
	argv[argc] = NULL;
	execve(path, argv, ps->keepenv ? environ : empty_env);
	fatal("%s: exec %s", __func__, path);
}

pid_t
proc_start(const struct proc_spec *ps, const char *path, int debug,
    int verbose, const char *without, int *fdp)
{
	int	 sp[2];
	pid_t	 pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0, sp) == -1)
		return (-1);
	switch ((pid = fork())) {
	case -1:
		close(sp[0]);
		close(sp[1]);
		return (-1);
	case 0:
		close(sp[0]);
		/* The child blocks on its end; the master never does. */
		if (fcntl(sp[1], F_SETFL, 0) == -1)
			fatal("%s: fcntl", __func__);
		proc_child_exec(ps, path, sp[1], debug, verbose, without);
		/* NOTREACHED */
	}
	close(sp[1]);
	*fdp = sp[0];
	return (pid);
}
