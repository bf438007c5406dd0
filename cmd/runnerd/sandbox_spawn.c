/*
 * Starting a process inside a sandbox, runnerd's side: pid 1 is the
 * sandbox's zygote (sandbox_zygote.c, protocol in sandbox_int.h).
 *
 * sandbox_spawn_begin sends pid 1 a request with a fresh reply socket
 * and the exec's fds; sandbox_spawn_step, called from the caller's
 * event loop, reads the reply socket alone, a bounded time: the
 * child's ZYG_STARTED, whose credentials the kernel
 * translates into runnerd's pid namespace (SO_PASSCRED), then EOF,
 * which the exec brings (CLOEXEC), or a ZYG_FAILED that says why there
 * is no exec.  Nothing on the way needs privilege: no cgroup write, no
 * setns, no fork of runnerd.
 *
 * Execs end on the sandbox's socket, each named by the token of its
 * request; sandbox_events_read turns tokens back into host pids.  A
 * token that is not live (its spawn failed) is not reported, so a
 * stale report can never be taken for a later exec that got the same
 * pid.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "sandbox_int.h"

/*
 * pid 1 and the child, from the request to the exec: normally well
 * under a millisecond, but the child is the sandbox's (its CPU quota,
 * its memory), so runnerd never waits for it: every
 * SANDBOX_SPAWN_SLICE_MS it checks that no process of the sandbox has
 * stopped the child (SIGSTOP needs no more than the same uid).
 */
#define SPAWN_WAIT_MS	5000

/* Entries and bytes of a NULL-terminated vector; NULL counts as none. */
static void
spawn_vec(char *const *v, size_t *n, size_t *bytes)
{
	*n = *bytes = 0;
	for (; v != NULL && v[*n] != NULL; (*n)++)
		*bytes += strlen(v[*n]) + 1;
}

/* A zyg_req with its strings: cwd, argv, envp. */
static char *
spawn_request(const struct sandbox_exec_spec *es, uint64_t token,
    size_t *lenp, char *err, size_t len)
{
	const char	*cwd = es->cwd != NULL ? es->cwd : "/workspace";
	struct zyg_req	*rq;
	size_t		 argc, envc, abytes, ebytes, clen, size, i, l;
	char		*buf, *p;

	spawn_vec(es->argv, &argc, &abytes);
	spawn_vec(es->envp, &envc, &ebytes);
	clen = strlen(cwd) + 1;
	size = sizeof(*rq) + clen + abytes + ebytes;
	if (clen == 1) {
		sbx_fail(err, len, "sandbox_spawn: empty cwd");
		return (NULL);
	}
	if (argc + envc > ZYG_ARGS_MAX || size > ZYG_REQ_MAX) {
		sbx_fail(err, len, "sandbox_spawn: arguments and environment "
		    "too long");
		return (NULL);
	}
	if ((buf = calloc(1, size)) == NULL) {
		sbx_fail(err, len, "sandbox_spawn: %s", strerror(errno));
		return (NULL);
	}
	rq = (struct zyg_req *)buf;
	rq->magic = ZYG_MAGIC;
	rq->fds = (es->fd_stdin != -1 ? ZYG_FD_STDIN : 0) |
	    (es->fd_stdout != -1 ? ZYG_FD_STDOUT : 0) |
	    (es->fd_stderr != -1 ? ZYG_FD_STDERR : 0) |
	    (es->fd_extra != -1 ? ZYG_FD_EXTRA : 0);
	rq->token = token;
	rq->argc = argc;
	rq->envc = envc;
	p = buf + sizeof(*rq);
	memcpy(p, cwd, clen);
	p += clen;
	for (i = 0; i < argc; i++, p += l) {
		l = strlen(es->argv[i]) + 1;
		memcpy(p, es->argv[i], l);
	}
	for (i = 0; i < envc; i++, p += l) {
		l = strlen(es->envp[i]) + 1;
		memcpy(p, es->envp[i], l);
	}
	*lenp = size;
	return (buf);
}

/* The request, with the reply socket and the exec's fds. */
static int
spawn_send(struct sandbox *sb, const struct sandbox_exec_spec *es,
    const char *req, size_t reqlen, int rfd, char *err, size_t len)
{
	const int	 src[4] = { es->fd_stdin, es->fd_stdout, es->fd_stderr,
			    es->fd_extra };
	int		 fds[ZYG_NFDS], n = 0, i;

	fds[n++] = rfd;
	for (i = 0; i < 4; i++)
		if (src[i] != -1)
			fds[n++] = src[i];
	/* pid 1 takes one request at a time, and fast: never wait for it. */
	if (sbx_send_fds(sb->sock, req, reqlen, fds, n, MSG_DONTWAIT) !=
	    (ssize_t)reqlen)
		return (sbx_fail(err, len, "sandbox_spawn: sandbox %s: pid 1: "
		    "%s", sb->id, errno == EAGAIN ? "busy" : strerror(errno)));
	return (0);
}

static int
spawn_failed(struct sandbox *sb, const struct zyg_reply *r, char *err,
    size_t len)
{
	const char	*e = strerror(r->err);

	/* What sandboxctl tells apart: 127 not found, 126 not runnable. */
	if (r->stage == ZYG_S_NOTFOUND)
		sb->spawn_errno = r->err == EACCES ? EACCES : ENOENT;
	else if (r->stage == ZYG_S_EXEC && (r->err == ENOENT ||
	    r->err == ENOTDIR))
		sb->spawn_errno = ENOENT;
	else if (r->stage == ZYG_S_EXEC && (r->err == EACCES ||
	    r->err == EPERM || r->err == ENOEXEC || r->err == EISDIR ||
	    r->err == ETXTBSY || r->err == ELIBBAD))
		sb->spawn_errno = EACCES;
	switch (r->stage) {
	case ZYG_S_REQUEST:
		return (sbx_fail(err, len, "sandbox_spawn: pid 1 refused the "
		    "request: %s", e));
	case ZYG_S_FULL:
		return (sbx_fail(err, len, "sandbox_spawn: %d execs are "
		    "running in the sandbox already", ZYG_EXECS_MAX));
	case ZYG_S_FORK:
		return (sbx_fail(err, len, "sandbox_spawn: fork: %s", e));
	case ZYG_S_FDS:
		return (sbx_fail(err, len, "sandbox_spawn: fds: %s", e));
	case ZYG_S_SETSID:
		return (sbx_fail(err, len, "sandbox_spawn: setsid: %s", e));
	case ZYG_S_NOFILE:
		return (sbx_fail(err, len, "sandbox_spawn: nofile: %s", e));
	case ZYG_S_CWD:
		return (sbx_fail(err, len, "sandbox_spawn: cwd %s: %s", r->arg,
		    e));
	case ZYG_S_EXEC:
		return (sbx_fail(err, len, "sandbox_spawn: %s: %s", r->arg, e));
	case ZYG_S_NOTFOUND:
		return (sbx_fail(err, len, "sandbox_spawn: %s: %s", r->arg,
		    r->err == EACCES ? e : "command not found"));
	}
	return (sbx_fail(err, len, "sandbox_spawn: pid 1 failed (stage %u)",
	    r->stage));
}

/* One reply: its length (0 at EOF), or -1; cred gets its sender. */
static ssize_t
spawn_recv(int fd, struct zyg_reply *r, struct ucred *cred)
{
	union {
		struct cmsghdr	 h;
		char		 buf[CMSG_SPACE(sizeof(struct ucred)) +
				    CMSG_SPACE(ZYG_NFDS * sizeof(int))];
	} c;
	struct iovec	 iov;
	struct msghdr	 m;
	struct cmsghdr	*cm;
	ssize_t		 n;
	int		*fds;
	size_t		 i;

	memset(&m, 0, sizeof(m));
	iov.iov_base = r;
	iov.iov_len = sizeof(*r);
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = c.buf;
	m.msg_controllen = sizeof(c.buf);
	cred->pid = 0;
	if ((n = recvmsg(fd, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC)) <= 0)
		return (n);
	for (cm = CMSG_FIRSTHDR(&m); cm != NULL; cm = CMSG_NXTHDR(&m, cm)) {
		if (cm->cmsg_level != SOL_SOCKET)
			continue;
		if (cm->cmsg_type == SCM_CREDENTIALS &&
		    cm->cmsg_len == CMSG_LEN(sizeof(*cred)))
			memcpy(cred, CMSG_DATA(cm), sizeof(*cred));
		else if (cm->cmsg_type == SCM_RIGHTS) {
			/* Nobody sends any; none may stay. */
			fds = (int *)CMSG_DATA(cm);
			for (i = 0; i < (cm->cmsg_len - CMSG_LEN(0)) /
			    sizeof(int); i++)
				close(fds[i]);
		}
	}
	if (n != sizeof(*r) || (m.msg_flags & MSG_TRUNC))
		return (-1);
	return (n);
}

/* Whether pid is stopped, as /proc/<pid>/stat says. */
static int
spawn_stopped(pid_t pid)
{
	char	 path[64], buf[512], *p;
	ssize_t	 n;
	int	 fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return (0);
	buf[n] = '\0';
	return ((p = strrchr(buf, ')')) != NULL && (p[2] == 'T' ||
	    p[2] == 't'));
}

/* The live entry of token, or NULL. */
static struct sandbox_live *
spawn_live(struct sandbox *sb, uint64_t token)
{
	size_t	 i;

	for (i = 0; i < sb->nlive; i++)
		if (sb->live[i].token == token)
			return (&sb->live[i]);
	return (NULL);
}

static void
spawn_forget(struct sandbox *sb, uint64_t token)
{
	struct sandbox_live	*l;

	if ((l = spawn_live(sb, token)) != NULL)
		*l = sb->live[--sb->nlive];
}

/* Whatever is queued on the reply socket; 0 at EOF, -1 not yet. */
static int
spawn_drain(struct sandbox *sb, struct sandbox_start *st, char *err,
    size_t len)
{
	struct zyg_reply	 r;
	struct ucred		 cred;
	ssize_t			 n;

	while ((n = spawn_recv(st->fd, &r, &cred)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return (-1);
		if (n == -1) {
			if (!st->failed)
				sbx_fail(err, len, "sandbox_spawn: bad reply "
				    "from sandbox %s", sb->id);
			st->failed = 1;
		} else if (r.type == ZYG_STARTED && cred.pid > 0 &&
		    cred.uid == sb->uid && st->pid == -1)
			st->pid = cred.pid;
		else if (r.type == ZYG_FAILED && !st->failed) {
			r.arg[sizeof(r.arg) - 1] = '\0';
			spawn_failed(sb, &r, err, len);
			st->failed = 1;
		}
	}
	return (0);
}

/* The start is over, one way or the other: its reply socket goes. */
static int
spawn_end(struct sandbox *sb, struct sandbox_start *st, int rc)
{
	struct sandbox_live	*l;

	close(st->fd);
	st->fd = -1;
	if (rc == -1) {
		/* Holding the reply socket, the child may be alive. */
		if (st->pid != -1)
			kill(st->pid, SIGKILL);
		spawn_forget(sb, st->token);
		return (-1);
	}
	if ((l = spawn_live(sb, st->token)) == NULL)
		return (-1);
	if (l->ended) {
		st->ended = 1;
		st->wstatus = l->wstatus;
		st->usage = l->usage;
		spawn_forget(sb, st->token);
	} else
		l->pid = st->pid;
	return (0);
}

/*
 * Replies until EOF, which the exec brings: the child's replies wait
 * in the queue meanwhile, and the child runs on undisturbed.  Every
 * slice the caller asks again, and a child that a process of the
 * sandbox stopped, or that has not exec'd in SPAWN_WAIT_MS, fails.
 */
int
sandbox_spawn_step(struct sandbox *sb, struct sandbox_start *st, char *err,
    size_t len)
{
	struct pollfd	 pfd;

	if (st->fd == -1)
		return (sbx_fail(err, len, "sandbox_spawn: no start under way"));
	if (spawn_drain(sb, st, err, len) == 0) {
		if (st->failed)
			return (spawn_end(sb, st, -1));
		if (st->pid == -1) {
			sbx_fail(err, len, "sandbox_spawn: sandbox %s: pid 1 "
			    "started nothing", sb->id);
			return (spawn_end(sb, st, -1));
		}
		if (spawn_end(sb, st, 0) == -1)
			return (sbx_fail(err, len, "sandbox_spawn: sandbox %s: "
			    "the start was forgotten", sb->id));
		return (0);
	}
	if (st->pid != -1 && spawn_stopped(st->pid)) {
		pfd.fd = st->fd;
		pfd.events = 0;
		if (poll(&pfd, 1, 0) == 1)
			return (sandbox_spawn_step(sb, st, err, len));
		if (!st->failed)
			sbx_fail(err, len, "sandbox_spawn: sandbox %s: the exec "
			    "was stopped before it started", sb->id);
		return (spawn_end(sb, st, -1));
	}
	if (sbx_elapsed_ms(&st->t0) < SPAWN_WAIT_MS)
		return (1);
	if (!st->failed)
		sbx_fail(err, len, "sandbox_spawn: sandbox %s: no exec after "
		    "%d ms", sb->id, SPAWN_WAIT_MS);
	return (spawn_end(sb, st, -1));
}

void
sandbox_spawn_cancel(struct sandbox *sb, struct sandbox_start *st)
{
	if (st->fd != -1)
		(void)spawn_end(sb, st, -1);
}

int
sandbox_spawn_begin(struct sandbox *sb, const struct sandbox_exec_spec *es,
    struct sandbox_start *st, char *err, size_t len)
{
	struct sandbox_live	*live;
	size_t			 reqlen, max;
	char			*req;
	int			 rp[2], on = 1, rc;

	sb->spawn_errno = 0;
	memset(st, 0, sizeof(*st));
	st->fd = st->pid = -1;
	if (es->argv == NULL || es->argv[0] == NULL || es->argv[0][0] == '\0')
		return (sbx_fail(err, len, "sandbox_spawn: no command"));
	if (sb->sock == -1)
		return (sbx_fail(err, len, "sandbox_spawn: sandbox %s has no "
		    "pid 1", sb->id));
	/* Room to remember it, before anything starts. */
	if (sb->nlive == sb->maxlive) {
		max = sb->maxlive == 0 ? 8 : sb->maxlive * 2;
		if ((live = reallocarray(sb->live, max, sizeof(*live))) ==
		    NULL)
			return (sbx_fail(err, len, "sandbox_spawn: %s",
			    strerror(errno)));
		sb->live = live;
		sb->maxlive = max;
	}
	if ((req = spawn_request(es, sb->next_token + 1, &reqlen, err,
	    len)) == NULL)
		return (-1);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, rp) == -1) {
		free(req);
		return (sbx_fail(err, len, "sandbox_spawn: socketpair: %s",
		    strerror(errno)));
	}
	if (setsockopt(rp[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) == -1)
		rc = sbx_fail(err, len, "sandbox_spawn: SO_PASSCRED: %s",
		    strerror(errno));
	else
		rc = spawn_send(sb, es, req, reqlen, rp[1], err, len);
	free(req);
	close(rp[1]);
	sb->next_token++;
	if (rc == -1) {
		close(rp[0]);
		return (-1);
	}
	/* Live from now: its end may come before its start is read. */
	memset(&sb->live[sb->nlive], 0, sizeof(sb->live[sb->nlive]));
	sb->live[sb->nlive++].token = sb->next_token;
	st->token = sb->next_token;
	st->fd = rp[0];
	clock_gettime(CLOCK_MONOTONIC, &st->t0);
	return (0);
}

int
sandbox_events_fd(struct sandbox *sb)
{
	return (sb->sock);
}

/*
 * The live exec of token, forgotten; 0 if there is none.  One still
 * starting keeps its entry, with its end, for sandbox_spawn_step.
 */
static pid_t
spawn_take(struct sandbox *sb, uint64_t token, int wstatus)
{
	struct sandbox_live	*l;
	pid_t			 pid;

	if ((l = spawn_live(sb, token)) == NULL || l->ended)
		return (0);
	if (l->pid == 0) {
		/* Its own figures, not the next report's. */
		l->ended = 1;
		l->wstatus = wstatus;
		l->usage = sb->usage;
		return (0);
	}
	pid = l->pid;
	*l = sb->live[--sb->nlive];
	return (pid);
}

int
sandbox_events_read(struct sandbox *sb,
    void (*cb)(struct sandbox *, pid_t, int, void *), void *arg)
{
	struct zyg_exit	 x;
	ssize_t		 n;
	size_t		 i;
	pid_t		 pid;

	if (sb->sock == -1)
		return (-1);
	for (;;) {
		n = recv(sb->sock, &x, sizeof(x), MSG_DONTWAIT);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return (0);
		if (n <= 0)
			break;
		if (n != sizeof(x)) {
			log_warnx("%s: sandbox %s: bad report from pid 1",
			    __func__, sb->id);
			continue;
		}
		/* cb may spawn, growing sb->live: nothing held across it. */
		sb->usage.utime_us = x.utime_us;
		sb->usage.stime_us = x.stime_us;
		sb->usage.maxrss_kb = x.maxrss_kb;
		if ((pid = spawn_take(sb, x.token, x.wstatus)) > 0)
			cb(sb, pid, x.wstatus, arg);
	}
	/* pid 1 is gone, and the kernel killed the rest with it. */
	memset(&sb->usage, 0, sizeof(sb->usage));
	for (i = 0; i < sb->nlive; ) {
		if ((pid = spawn_take(sb, sb->live[i].token, SIGKILL)) > 0)
			cb(sb, pid, SIGKILL, arg);
		else
			i++;
	}
	return (-1);
}
