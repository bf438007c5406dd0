/*
 * The unmounter: a child of runnerd that removes a destroyed sandbox's
 * cgroups, unmounts its workspace and removes its directories, once its
 * pid 1 is dead.  umount2(2) returns only after an RCU grace period
 * (namespace_unlock), and a cgroup rmdir waits for the host's one
 * cgroup_mutex: on a loaded host each takes from a few to over a
 * hundred milliseconds, and in runnerd's loop every client would wait
 * for them.  Queued here, only that sandbox's id waits (runnerd parks a
 * create asking for it); its uid goes as before, since nothing of it
 * runs any more.  A cgroup still busy (its last tasks dying on their
 * own CPU time) is waited for here, SBX_KILL_WAIT_MS at most, killing
 * what is left, and then left behind for the next reconcile.
 *
 * It is forked when a destroy has work for it, and runnerd closes its
 * socket once it has been idle UNMOUNT_IDLE_MS: at EOF it exits, so it
 * lives only while sandboxes go.  One job is one SOCK_SEQPACKET message
 * each way: the id and the directory out, the id and an errno back.  A
 * job that cannot be sent now (no unmounter, UNMOUNT_QUEUE_MAX pending,
 * the socket full) is done in the loop as before, so the queue is
 * bounded.  The unmounter works in runnerd's mount namespace, which
 * runnerd never leaves, and dies with runnerd; a directory it leaves,
 * the next runnerd's reconcile removes.
 */
#include <sys/types.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <event.h>
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

#define UNMOUNT_QUEUE_MAX	256
#define UNMOUNT_STOP_MS		10000	/* at a stop, for what is queued */
#define UNMOUNT_IDLE_MS		1000

struct unmount_job {
	char	 id[SANDBOX_ID_SIZE];
	char	 dir[CONF_PATH_SIZE];
};

struct unmount_done {
	char	 id[SANDBOX_ID_SIZE];
	int	 cgroup_busy;		/* left behind */
	int	 err;			/* errno of the first failure, or 0 */
	char	 what[CONF_PATH_SIZE];	/* what failed: rmdir, or umount */
};

struct unmount_pending {
	TAILQ_ENTRY(unmount_pending)	 entry;
	char				 id[SANDBOX_ID_SIZE];
	char				 dir[CONF_PATH_SIZE];
};

static TAILQ_HEAD(, unmount_pending)	 unmount_pendings =
    TAILQ_HEAD_INITIALIZER(unmount_pendings);
static size_t				 unmount_npending;
static int				 unmount_sock = -1;
static pid_t				 unmount_pid = -1;
static void				(*unmount_freed)(const char *, int);
static struct event			 ev_unmount_read, ev_unmount_idle;

static int	sandbox_unmount_read(void);
static void	unmount_report(const struct unmount_done *);

/* rmdir that may find it gone; the first failure is kept. */
static void
unmount_rmdir(const char *path, struct unmount_done *d)
{
	if (unlinkat(AT_FDCWD, path, AT_REMOVEDIR) == -1 && errno != ENOENT &&
	    d->err == 0) {
		d->err = errno;
		strlcpy(d->what, path, sizeof(d->what));
	}
}

static void
unmount_do(const struct unmount_job *j, struct unmount_done *d)
{
	char	 ws[CONF_PATH_SIZE], root[CONF_PATH_SIZE];

	memset(d, 0, sizeof(*d));
	strlcpy(d->id, j->id, sizeof(d->id));
	d->cgroup_busy = cgroup_remove(j->id, SBX_KILL_WAIT_MS) == 1;
	if ((size_t)snprintf(ws, sizeof(ws), "%s/workspace", j->dir) >=
	    sizeof(ws) || (size_t)snprintf(root, sizeof(root), "%s/root",
	    j->dir) >= sizeof(root)) {
		d->err = ENAMETOOLONG;
		strlcpy(d->what, j->dir, sizeof(d->what));
		return;
	}
	if (umount2(ws, MNT_DETACH) == -1 && errno != EINVAL &&
	    errno != ENOENT) {
		d->err = errno;
		strlcpy(d->what, ws, sizeof(d->what));
	}
	unmount_rmdir(root, d);
	unmount_rmdir(ws, d);
	unmount_rmdir(j->dir, d);
}

__attribute__((noreturn))
static void
unmount_main(int sock)
{
	struct unmount_job	 j;
	struct unmount_done	 d;
	ssize_t			 n;

	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	prctl(PR_SET_NAME, "runnerd-umount", 0, 0, 0);
	ident_reset_signals_child();	/* libevent's handlers are runnerd's */
	/* Nothing of runnerd's: a pid 1 sees its socket close. */
	if (dup2(sock, 3) == -1 || close_range(4, ~0U, 0) == -1)
		_exit(1);
	sock = 3;
	for (;;) {
		n = recv(sock, &j, sizeof(j), 0);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0);
		if (n != sizeof(j))
			_exit(1);
		j.id[sizeof(j.id) - 1] = '\0';
		j.dir[sizeof(j.dir) - 1] = '\0';
		unmount_do(&j, &d);
		if (send(sock, &d, sizeof(d), MSG_NOSIGNAL) != sizeof(d))
			_exit(1);
	}
}

static void
unmount_read_cb(int fd, short event, void *arg)
{
	(void)sandbox_unmount_read();
}

/* Idle since the timer was armed: it goes, and comes back on demand. */
static void
unmount_idle_cb(int fd, short event, void *arg)
{
	if (unmount_npending != 0)
		return;
	log_debug("%s: unmounter %d idle: it goes", __func__,
	    (int)unmount_pid);
	sandbox_unmount_stop();
}

static int
unmount_fork(void)
{
	int	 sp[2];
	pid_t	 pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) == -1) {
		log_warn("%s: socketpair", __func__);
		return (-1);
	}
	if ((pid = fork()) == -1) {
		log_warn("%s: fork", __func__);
		close(sp[0]);
		close(sp[1]);
		return (-1);
	}
	if (pid == 0) {
		close(sp[0]);
		unmount_main(sp[1]);
	}
	close(sp[1]);
	log_debug("%s: unmounter %d forked", __func__, (int)pid);
	unmount_sock = sp[0];
	unmount_pid = pid;
	event_set(&ev_unmount_read, unmount_sock, EV_READ | EV_PERSIST,
	    unmount_read_cb, NULL);
	event_add(&ev_unmount_read, NULL);
	return (0);
}

void
sandbox_unmount_init(void (*freed)(const char *, int))
{
	unmount_freed = freed;
	evtimer_set(&ev_unmount_idle, unmount_idle_cb, NULL);
}

/* 0: the unmounter has it; -1: the caller does it now. */
int
sandbox_unmount_queue(const char *id, const char *dir)
{
	struct unmount_job	 j;
	struct unmount_pending	*p;

	if (unmount_freed == NULL || unmount_npending >= UNMOUNT_QUEUE_MAX ||
	    (unmount_sock == -1 && unmount_fork() == -1))
		return (-1);
	memset(&j, 0, sizeof(j));
	if (strlcpy(j.id, id, sizeof(j.id)) >= sizeof(j.id) ||
	    strlcpy(j.dir, dir, sizeof(j.dir)) >= sizeof(j.dir))
		return (-1);
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return (-1);
	if (send(unmount_sock, &j, sizeof(j), MSG_DONTWAIT | MSG_NOSIGNAL) !=
	    sizeof(j)) {
		free(p);
		return (-1);
	}
	strlcpy(p->id, id, sizeof(p->id));
	strlcpy(p->dir, dir, sizeof(p->dir));
	TAILQ_INSERT_TAIL(&unmount_pendings, p, entry);
	unmount_npending++;
	evtimer_del(&ev_unmount_idle);
	return (0);
}

int
sandbox_unmount_pending(const char *id)
{
	struct unmount_pending	*p;

	TAILQ_FOREACH(p, &unmount_pendings, entry)
		if (strcmp(p->id, id) == 0)
			return (1);
	return (0);
}

/*
 * The first pending job of id is done; its id is free once none is,
 * or goes on waiting for its cgroup (busy: runnerd retries it).
 */
static void
unmount_forget(const char *id, int busy, void (*freed)(const char *, int))
{
	struct timeval		 tv = { UNMOUNT_IDLE_MS / 1000,
				    (UNMOUNT_IDLE_MS % 1000) * 1000 };
	struct unmount_pending	*p;
	char			 copy[SANDBOX_ID_SIZE];

	TAILQ_FOREACH(p, &unmount_pendings, entry)
		if (strcmp(p->id, id) == 0)
			break;
	if (p == NULL)
		return;
	strlcpy(copy, p->id, sizeof(copy));
	TAILQ_REMOVE(&unmount_pendings, p, entry);
	unmount_npending--;
	free(p);
	if (unmount_npending == 0 && unmount_sock != -1)
		evtimer_add(&ev_unmount_idle, &tv);
	if (freed != NULL && !sandbox_unmount_pending(copy))
		freed(copy, busy);
}

/* Its socket closed; the process waited for (dead, or dies at EOF). */
static void
unmount_close(void)
{
	event_del(&ev_unmount_read);
	evtimer_del(&ev_unmount_idle);
	close(unmount_sock);
	unmount_sock = -1;
	if (unmount_pid != -1)
		waitpid(unmount_pid, NULL, 0);
	unmount_pid = -1;
}

/*
 * The unmounter is gone: what it had is done here, in the loop, as a
 * job that could not be queued.  The list is taken first: freeing an
 * id may start a create whose failure queues a job to a new unmounter.
 */
static void
unmount_lost(void (*freed)(const char *, int))
{
	TAILQ_HEAD(, unmount_pending)	 lost = TAILQ_HEAD_INITIALIZER(lost);
	struct unmount_pending		*p;
	struct unmount_job		 j;
	struct unmount_done		 d;

	if (unmount_sock == -1)
		return;
	log_warnx("%s: the unmounter is gone; %zu sandboxes cleaned up here",
	    __func__, unmount_npending);
	unmount_close();
	TAILQ_CONCAT(&lost, &unmount_pendings, entry);
	unmount_npending = 0;
	while ((p = TAILQ_FIRST(&lost)) != NULL) {
		TAILQ_REMOVE(&lost, p, entry);
		memset(&j, 0, sizeof(j));
		strlcpy(j.id, p->id, sizeof(j.id));
		strlcpy(j.dir, p->dir, sizeof(j.dir));
		free(p);
		unmount_do(&j, &d);
		unmount_report(&d);
		if (freed != NULL && !sandbox_unmount_pending(j.id))
			freed(j.id, d.cgroup_busy);
	}
}

static void
unmount_report(const struct unmount_done *d)
{
	if (d->cgroup_busy)
		log_warnx("sandbox %s: its cgroup is still busy after %d ms: "
		    "retried", d->id, SBX_KILL_WAIT_MS);
	if (d->err != 0)
		log_warnx("sandbox %s: %s: %s", d->id, d->what,
		    strerror(d->err));
}

/* What the unmounter finished, each id freed; never blocks. */
static int
sandbox_unmount_read(void)
{
	struct unmount_done	 d;
	ssize_t			 n;

	while (unmount_sock != -1) {
		/* MSG_TRUNC: a longer message says its length, refused. */
		n = recv(unmount_sock, &d, sizeof(d), MSG_DONTWAIT | MSG_TRUNC);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return (0);
		if (n != sizeof(d)) {
			unmount_lost(unmount_freed);
			break;
		}
		d.id[sizeof(d.id) - 1] = '\0';
		d.what[sizeof(d.what) - 1] = '\0';
		unmount_report(&d);
		unmount_forget(d.id, d.cgroup_busy, unmount_freed);
	}
	return (-1);
}

/*
 * A stop, or idle: what is queued is done, within UNMOUNT_STOP_MS, and
 * it goes.  The ids done meanwhile are freed as usual.
 */
void
sandbox_unmount_stop(void)
{
	struct pollfd	 pfd;
	struct timespec	 t0;
	long		 left;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (unmount_sock != -1 && unmount_npending > 0 &&
	    (left = UNMOUNT_STOP_MS - sbx_elapsed_ms(&t0)) > 0) {
		pfd.fd = unmount_sock;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, left) == -1 && errno != EINTR)
			break;
		(void)sandbox_unmount_read();
	}
	if (unmount_sock == -1)
		return;
	if (unmount_npending > 0) {
		/* Stuck in the kernel: the next reconcile does the rest. */
		kill(unmount_pid, SIGKILL);
		unmount_lost(unmount_freed);
		return;
	}
	unmount_close();	/* EOF: it exits */
}
