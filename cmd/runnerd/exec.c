/*
 * One command run inside a sandbox: its output streamed line by line
 * under per-stream caps, its timeout, the abort sequence and its result.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "log.h"
#include "runnerd.h"
#include "env_msg.h"
#include "sbx_msg.h"

static void	exec_read(int, short, void *);
static void	exec_finish(struct rexec *);
static void	exec_done(struct rexec *);
static void	exec_fail(struct rexec *, int, const char *);
static void	exec_start_end(struct rexec *);

/*
 * What an abort signals: the whole sandbox, as an exec's timeout and
 * a kill of the sandbox always did; a detached exec and a kill of one
 * exec reach only that exec's process group (it called setsid).
 */
static void
exec_signal_scope(struct rexec *e, int sig)
{
	if (e->group_only)
		sandbox_signal_group(&e->rs->sb, e->pid, sig);
	else
		sigall_send(e->rs, sig);
}

static int
exec_nprocs(struct rexec *e)
{
	if (e->group_only)
		return (sandbox_group_nprocs(&e->rs->sb, e->pid));
	return (sandbox_nprocs(&e->rs->sb));
}

int
exec_count(struct rsandbox *rs)
{
	struct rexec	*e;
	int		 n = 0;

	TAILQ_FOREACH(e, &rs->execs, entry)
		n++;
	return (n);
}

static void
exec_stream_init(struct rexec *e, int i, int fd, uint64_t cap)
{
	struct rstream	*s = &e->out[i];

	s->fd = fd;
	s->open = 1;
	s->which = i == 0 ? SBX_STDOUT : SBX_STDERR;
	s->cap = cap;
	event_set(&s->ev, fd, EV_READ | EV_PERSIST, exec_read, e);
	event_add(&s->ev, NULL);
}

static void
exec_send(struct rexec *e, struct rstream *s, size_t len)
{
	struct sbx_output_hdr	 hdr;
	struct ibuf		*b;

	if (len == 0)
		return;
	if (e->peerid != 0) {
		memset(&hdr, 0, sizeof(hdr));
		strlcpy(hdr.id, e->rs->sb.id, sizeof(hdr.id));
		hdr.exec_id = e->id;
		hdr.stream = s->which;
		hdr.len = len;
		if ((b = imsg_create(&child_iev_main()->ibuf, IMSG_CTL_OUTPUT,
		    e->peerid, 0, sizeof(hdr) + len)) == NULL ||
		    imsg_add(b, &hdr, sizeof(hdr)) == -1 ||
		    imsg_add(b, s->buf, len) == -1)
			fatal("%s", __func__);
		imsg_close(&child_iev_main()->ibuf, b);
		imsgev_add(child_iev_main());
	}
	execrec_output(e, s->which, s->buf, len);
	memmove(s->buf, s->buf + len, s->len - len);
	s->len -= len;
}

/*
 * Send every whole line held.  What is left of a line goes too when
 * the stream ends or when one line alone fills the buffer.
 */
static void
exec_flush_lines(struct rexec *e, struct rstream *s, int all)
{
	char	*nl;

	if ((nl = memrchr(s->buf, '\n', s->len)) != NULL)
		exec_send(e, s, nl - s->buf + 1);
	if (all || s->len == sizeof(s->buf))
		exec_send(e, s, s->len);
}

/* Keep what fits under the cap; past it, count and drop. */
static void
exec_take(struct rexec *e, struct rstream *s, const char *data, size_t n)
{
	size_t	 take, room;

	s->produced += n;
	while (n > 0 && s->kept < s->cap) {
		room = sizeof(s->buf) - s->len;
		take = n < room ? n : room;
		if (take > s->cap - s->kept)
			take = s->cap - s->kept;
		memcpy(s->buf + s->len, data, take);
		s->len += take;
		s->kept += take;
		data += take;
		n -= take;
		exec_flush_lines(e, s, s->kept == s->cap);
	}
}

static void
exec_stream_close(struct rexec *e, struct rstream *s)
{
	if (!s->open)
		return;
	exec_flush_lines(e, s, 1);
	event_del(&s->ev);
	close(s->fd);
	s->open = 0;
}

/* The master has caught up: read the service's streams again. */
static void
exec_resume(int fd, short event, void *arg)
{
	struct rexec	*e = arg;
	int		 i;

	for (i = 0; i < 2; i++)
		if (e->out[i].open)
			event_add(&e->out[i].ev, NULL);
}

/* A service's uncapped output waits while the master is behind. */
static int
exec_paused(struct rexec *e)
{
	struct timeval	 tv = { 0, EXEC_PAUSE_MS * 1000 };
	int		 i;

	if (!e->service ||
	    imsg_queued(&child_iev_main()->ibuf) <= EXEC_QUEUE_MAX)
		return (0);
	for (i = 0; i < 2; i++)
		if (e->out[i].open)
			event_del(&e->out[i].ev);
	evtimer_add(&e->ev_resume, &tv);
	return (1);
}

static void
exec_read(int fd, short event, void *arg)
{
	struct rexec	*e = arg;
	struct rstream	*s = fd == e->out[0].fd ? &e->out[0] : &e->out[1];
	char		 buf[EXEC_READ_SIZE];
	ssize_t		 n;

	if (exec_paused(e))
		return;
	n = read(fd, buf, sizeof(buf));
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		exec_stream_close(e, s);
		if (e->exited && !e->out[0].open && !e->out[1].open) {
			evtimer_del(&e->ev_drain);
			exec_done(e);
		}
		return;
	}
	exec_take(e, s, buf, n);
}

static uint32_t
exec_reason(struct rexec *e)
{
	int	 sig;

	if (e->reason != 0)
		return (e->reason);
	if (!WIFSIGNALED(e->wstatus))
		return (SBX_REASON_EXIT);
	sig = WTERMSIG(e->wstatus);
	if (sig == SIGXFSZ || sig == SIGXCPU ||
	    (sig == SIGKILL && sandbox_oom_killed(&e->rs->sb)))
		return (SBX_REASON_LIMIT);
	return (SBX_REASON_EXIT);
}

static void
exec_env_free(struct rexec *e)
{
	int	 i;

	for (i = 0; i < 2; i++)
		if (e->stdio[i] != -1) {
			close(e->stdio[i]);
			e->stdio[i] = -1;
		}
	if (e->env == NULL)
		return;
	evtimer_del(&e->env->ev_wait);
	if (e->env->broker != -1)
		close(e->env->broker);
	free(e->env->req);
	if (e->env->cached != NULL)
		envbuf_unref(e->env->cached);
	else
		freezero(e->env->buf, e->env->len);
	free(e->env);
	e->env = NULL;
}

static void
exec_free(struct rexec *e)
{
	int	 i;

	exec_env_free(e);
	exec_start_end(e);
	for (i = 0; i < 2; i++)
		exec_stream_close(e, &e->out[i]);
	if (e->rec != NULL)
		execrec_discard(e);
	evtimer_del(&e->ev_timeout);
	evtimer_del(&e->ev_abort);
	evtimer_del(&e->ev_drain);
	evtimer_del(&e->ev_resume);
	TAILQ_REMOVE(&e->rs->execs, e, entry);
	free(e);
}

static void
exec_finish(struct rexec *e)
{
	struct rsandbox		*rs;
	struct sbx_exec_result	 res;
	struct timespec		 now;
	int			 i;

	for (i = 0; i < 2; i++)
		exec_stream_close(e, &e->out[i]);
	clock_gettime(CLOCK_MONOTONIC, &now);
	memset(&res, 0, sizeof(res));
	strlcpy(res.id, e->rs->sb.id, sizeof(res.id));
	res.exec_id = e->id;
	res.status = WIFEXITED(e->wstatus) ? WEXITSTATUS(e->wstatus) : -1;
	res.signal = WIFSIGNALED(e->wstatus) ? WTERMSIG(e->wstatus) : 0;
	res.reason = exec_reason(e);
	res.duration_us = (now.tv_sec - e->start.tv_sec) * 1000000LL +
	    (now.tv_nsec - e->start.tv_nsec) / 1000;
	res.bytes_stdout = e->out[0].produced;
	res.bytes_stderr = e->out[1].produced;
	res.truncated_stdout = e->out[0].produced > e->out[0].kept;
	res.truncated_stderr = e->out[1].produced > e->out[1].kept;
	res.utime_us = e->usage.utime_us;
	res.stime_us = e->usage.stime_us;
	res.maxrss_kb = e->usage.maxrss_kb;
	sbx_format_exec_id(res.exec, res.id, res.exec_id);
	/* keep-failed: the command failed, not the sandbox's destruction. */
	if (res.reason != SBX_REASON_KILLED &&
	    (res.reason != SBX_REASON_EXIT || res.status != 0))
		e->rs->failed = 1;
	log_setcorr(e->corr);
	log_info("sandbox %s exec %u: %s, status %d, signal %d, %llu us",
	    e->rs->sb.id, e->id, sbx_reason_name(res.reason), res.status,
	    res.signal, (unsigned long long)res.duration_us);
	log_setcorr(NULL);
	runnerd_reply(IMSG_CTL_EXEC_RESULT, e->peerid, &res, sizeof(res));
	execrec_finished(e, &res);
	rs = e->rs;
	exec_free(e);
	runnerd_exec_done(rs);
}

/*
 * During an abort the result waits until nothing of the sandbox is
 * left running: at once if the SIGTERM left nothing, else until the
 * SIGKILL step.
 */
static void
exec_done(struct rexec *e)
{
	/* Stragglers that outlive SIGTERM wait for the SIGKILL step. */
	if (e->abort == ABORT_TERM && exec_nprocs(e) > 0) {
		e->finish_pending = 1;
		return;
	}
	if (e->abort == ABORT_TERM) {
		evtimer_del(&e->ev_abort);
		e->abort = ABORT_KILL;
	}
	/* It heard the abort and left: what it left behind goes now. */
	if (e->abort == ABORT_NOTIFY) {
		evtimer_del(&e->ev_abort);
		e->abort = ABORT_KILL;
		exec_signal_scope(e, SIGKILL);
	}
	/* Nothing of the sandbox may run on: exec_killed finishes it. */
	if (e->abort == ABORT_KILL && !e->group_only &&
	    sigall_killing(e->rs)) {
		e->finish_pending = 1;
		return;
	}
	exec_finish(e);
}

/* A SIGKILL sweep is over: the results that waited for it go. */
void
exec_killed(struct rsandbox *rs)
{
	struct rexec	*e;

 again:
	if (sigall_killing(rs))
		return;
	TAILQ_FOREACH(e, &rs->execs, entry)
		if (e->finish_pending && e->abort == ABORT_KILL) {
			/* May end the sandbox, and every other exec. */
			exec_finish(e);
			goto again;
		}
}

/* The main process is gone; give the pipes a moment to drain. */
static void
exec_drain_timeout(int fd, short event, void *arg)
{
	exec_done(arg);
}

static void
exec_exited(struct rexec *e, int wstatus, const struct sandbox_usage *u)
{
	struct timeval	 tv = { 0, EXEC_DRAIN_MS * 1000 };

	e->exited = 1;
	e->wstatus = wstatus;
	e->usage = *u;
	evtimer_del(&e->ev_timeout);
	if (!e->out[0].open && !e->out[1].open) {
		exec_done(e);
		return;
	}
	evtimer_add(&e->ev_drain, &tv);
}

/* pid 1 reports an exec's end; an exec already finished is no more. */
static void
exec_ended(struct sandbox *sb, pid_t pid, int wstatus, void *arg)
{
	struct rsandbox	*rs = arg;
	struct rexec	*e;

	TAILQ_FOREACH(e, &rs->execs, entry)
		if (e->pid == pid && !e->exited) {
			exec_exited(e, wstatus, &sb->usage);
			return;
		}
}

static void
exec_events(struct rsandbox *rs)
{
	/* -1: pid 1 is gone, its execs reported; the fd stays at EOF. */
	if (sandbox_events_read(&rs->sb, exec_ended, rs) == -1 &&
	    rs->ev_events_set) {
		event_del(&rs->ev_events);
		rs->ev_events_set = 0;
	}
}

static void
exec_events_cb(int fd, short event, void *arg)
{
	exec_events(arg);
}

/* Tell the sandbox on its broker channels, through envd. */
static void
exec_abort_notify(struct rexec *e)
{
	struct env_abort	 m;

	memset(&m, 0, sizeof(m));
	strlcpy(m.id, e->rs->sb.id, sizeof(m.id));
	m.exec_id = e->id;
	m.reason = e->reason;
	m.grace_ms = e->rs->sb.policy.grace_ms;
	runnerd_env_send(IMSG_ENV_ABORT, -1, &m, sizeof(m));
}

/*
 * The abort sequence: an abort notification on the broker channel, a
 * grace period, SIGTERM, a second grace period, then SIGKILL.
 */
static void
exec_abort_step(int fd, short event, void *arg)
{
	struct rexec	*e = arg;
	struct timeval	 tv;

	tv.tv_sec = e->rs->sb.policy.grace_ms / 1000;
	tv.tv_usec = (e->rs->sb.policy.grace_ms % 1000) * 1000;
	switch (e->abort) {
	case ABORT_NONE:
		e->abort = ABORT_NOTIFY;
		exec_abort_notify(e);
		evtimer_add(&e->ev_abort, &tv);
		break;
	case ABORT_NOTIFY:
		e->abort = ABORT_TERM;
		exec_signal_scope(e, SIGTERM);
		evtimer_add(&e->ev_abort, &tv);
		break;
	case ABORT_TERM:
		e->abort = ABORT_KILL;
		exec_signal_scope(e, SIGKILL);
		/* The whole sandbox's sweep: exec_killed finishes it. */
		if (e->finish_pending && e->group_only)
			exec_finish(e);
		break;
	case ABORT_KILL:
		break;
	}
}

void
exec_abort(struct rexec *e, uint32_t reason)
{
	if (e->env != NULL || e->starting) {
		exec_fail(e, ECANCELED, "killed before it started");
		return;
	}
	if (e->exited || e->abort != ABORT_NONE)
		return;
	e->reason = reason;
	log_setcorr(e->corr);
	log_info("sandbox %s exec %u: aborting (%s)", e->rs->sb.id, e->id,
	    sbx_reason_name(reason));
	log_setcorr(NULL);
	exec_abort_step(-1, 0, e);
}

static void
exec_timeout(int fd, short event, void *arg)
{
	exec_abort(arg, SBX_REASON_TIMEOUT);
}

static int
exec_timeout_for(struct rsandbox *rs, struct sbx_exec_req *req,
    uint32_t peerid)
{
	const struct policy_msg	*p = &rs->sb.policy;

	/* A service runs until it ends or is stopped: 0, no clock. */
	if (req->flags & SBX_EXEC_SERVICE)
		return (0);
	if (req->timeout == 0)
		return (p->timeout);
	if (req->timeout > p->timeout_max) {
		runnerd_result(peerid, req->corr, EINVAL, "timeout %us exceeds "
		    "the policy's maximum of %us", req->timeout,
		    p->timeout_max);
		return (-1);
	}
	return (req->timeout);
}

/* envd's strings as the NULL-terminated vector exec wants. */
static char **
exec_envv(struct rexec_env *env)
{
	char		**v, *p = env->buf;
	uint32_t	 i;

	if ((v = calloc(env->count + 1, sizeof(*v))) == NULL)
		fatal("%s", __func__);
	for (i = 0; i < env->count; i++, p += strlen(p) + 1)
		v[i] = p;
	return (v);
}

static void
exec_pipes_close(struct rexec *e)
{
	int	 i;

	for (i = 0; i < 2; i++)
		if (e->pipes[i] != -1) {
			close(e->pipes[i]);
			e->pipes[i] = -1;
		}
}

/* The request to pid 1; exec_started hears how it went. */
static int
exec_spawn(struct rexec *e, int broker, char *err, size_t errlen)
{
	struct sbx_exec_req		*req = e->env->req;
	struct sandbox_exec_spec	 spec;
	char				*argv[SBX_EXEC_MAX_ARGS + 1];
	char				*envp[SBX_EXEC_MAX_ARGS + 1];
	char				**env;
	int				 po[2] = { -1, -1 }, pe[2], rc;

	/* -i: stdout is the caller's own, not read here. */
	if (e->stdio[1] == -1 && pipe2(po, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return (-1);
	}
	if (pipe2(pe, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		if (po[0] != -1) {
			close(po[0]);
			close(po[1]);
		}
		return (-1);
	}
	/* The request's own env went to envd; its block replaces it. */
	sbx_exec_unpack(req, argv, envp);
	env = exec_envv(e->env);
	memset(&spec, 0, sizeof(spec));
	spec.argv = argv;
	spec.envp = env;
	spec.cwd = req->cwd[0] != '\0' ? req->cwd : NULL;
	spec.fd_stdin = e->stdio[0];
	spec.fd_stdout = e->stdio[1] != -1 ? e->stdio[1] : po[1];
	spec.fd_stderr = pe[1];
	spec.fd_extra = broker;
	rc = sandbox_spawn_begin(&e->rs->sb, &spec, &e->spawn, err, errlen);
	free(env);
	if (po[1] != -1)
		close(po[1]);
	close(pe[1]);
	e->pipes[0] = po[0];
	e->pipes[1] = pe[0];
	if (rc == -1) {
		exec_pipes_close(e);
		return (-1);
	}
	return (0);
}

/* It has exec'd: read its output, hear its end. */
static void
exec_running(struct rexec *e)
{
	struct rsandbox	*rs = e->rs;

	e->pid = e->spawn.pid;
	if (!rs->ev_events_set) {
		event_set(&rs->ev_events, sandbox_events_fd(&rs->sb),
		    EV_READ | EV_PERSIST, exec_events_cb, rs);
		event_add(&rs->ev_events, NULL);
		rs->ev_events_set = 1;
	}
	if (e->pipes[0] != -1) {
		fcntl(e->pipes[0], F_SETFL, O_NONBLOCK);
		exec_stream_init(e, 0, e->pipes[0], rs->sb.policy.stdout_cap);
	}
	fcntl(e->pipes[1], F_SETFL, O_NONBLOCK);
	/* A service's stderr goes on for days; the master keeps its tail. */
	exec_stream_init(e, 1, e->pipes[1], e->service ? UINT64_MAX :
	    rs->sb.policy.stderr_cap);
	e->pipes[0] = e->pipes[1] = -1;
}

/* An exec that never started: its caller hears why, nothing else. */
static void
exec_fail(struct rexec *e, int error, const char *msg)
{
	struct rsandbox	*rs = e->rs;

	runnerd_result(e->peerid, e->corr, error, "%s", msg);
	exec_free(e);
	runnerd_exec_failed(rs);
}

/* Not found (127) and not executable (126) are told apart. */
static void
exec_spawn_failed(struct rexec *e, const char *msg)
{
	struct rsandbox	*rs = e->rs;
	uint32_t	 fail = CTL_FAIL_OTHER;

	if (rs->sb.spawn_errno == ENOENT)
		fail = CTL_FAIL_NOCMD;
	else if (rs->sb.spawn_errno != 0)
		fail = CTL_FAIL_NOEXEC;
	runnerd_result_fail(e->peerid, e->corr, ENOEXEC, fail, msg);
	exec_free(e);
	runnerd_exec_failed(rs);
}

static void
exec_env_timeout(int fd, short event, void *arg)
{
	struct rexec	*e = arg;

	if (e->env->no_envd)
		exec_fail(e, EAGAIN, "envd is not running; try again");
	else if (e->env->ready && e->rs->state == RS_BUILDING)
		exec_fail(e, ETIMEDOUT, "the sandbox's pid 1 did not finish "
		    "building it in time");
	else if (e->env->ready)
		exec_fail(e, ETIMEDOUT, "netd did not set the network up in "
		    "time");
	else
		exec_fail(e, ETIMEDOUT, "envd did not build the environment "
		    "in time");
}

static void
exec_turn(int fd, short event, void *arg)
{
	struct rsandbox	*rs = arg;

	if (runnerd_find(rs->sb.id) == rs)
		exec_sandbox_ready(rs);
}

/*
 * Its start is cancelled: no longer in the way of the sandbox's next,
 * which goes on its own turn of the loop, not under the caller.
 */
static void
exec_start_end(struct rexec *e)
{
	struct rsandbox	*rs = e->rs;
	struct timeval	 now = { 0, 0 };

	if (!e->starting)
		return;
	event_del(&e->ev_spawn);
	sandbox_spawn_cancel(&rs->sb, &e->spawn);
	exec_pipes_close(e);
	e->starting = 0;
	if (rs->starting != e)
		return;
	rs->starting = NULL;
	if (rstate_ending(rs))
		return;
	if (!evtimer_initialized(&rs->ev_turn))
		evtimer_set(&rs->ev_turn, exec_turn, rs);
	if (!evtimer_pending(&rs->ev_turn, NULL))
		evtimer_add(&rs->ev_turn, &now);
}

/* Started: its caller hears so, its clock runs. */
static void
exec_run(struct rexec *e)
{
	struct sbx_exec_start	 st;
	struct timeval		 tv;

	exec_running(e);
	e->starting = 0;
	e->rs->starting = NULL;
	tv.tv_sec = e->timeout;
	tv.tv_usec = 0;
	if (e->timeout != 0)
		evtimer_add(&e->ev_timeout, &tv);
	memset(&st, 0, sizeof(st));
	strlcpy(st.id, e->rs->sb.id, sizeof(st.id));
	st.exec_id = e->id;
	st.pid = e->pid;
	st.timeout = e->timeout;
	execrec_started(e, &st);
	runnerd_reply(IMSG_CTL_EXEC_START, e->peerid, &st, sizeof(st));
	/* Detached: its starter has its id and goes; nobody is attached. */
	if (e->detached) {
		runnerd_result(e->peerid, e->corr, 0, "%s", "");
		e->peerid = 0;
	}
	/* pid 1 reported its end before its start was read. */
	if (e->spawn.ended)
		exec_exited(e, e->spawn.wstatus, &e->spawn.usage);
}

/*
 * pid 1 and the child at work, on the sandbox's own CPU quota: heard
 * as events, so that a starved sandbox holds up nobody else's exec.
 */
static void
exec_started(int fd, short event, void *arg)
{
	struct rexec	*e = arg;
	struct rsandbox	*rs = e->rs;
	struct timeval	 tv = { 0, SANDBOX_SPAWN_SLICE_MS * 1000 };
	char		 err[256];
	int		 rc;

	/* Off the loop first: a start that ends closes its fd. */
	event_del(&e->ev_spawn);
	if ((rc = sandbox_spawn_step(&rs->sb, &e->spawn, err,
	    sizeof(err))) == 1) {
		event_add(&e->ev_spawn, &tv);
		return;
	}
	if (rc == -1) {
		exec_start_end(e);
		exec_spawn_failed(e, err);
	} else
		exec_run(e);
	/* Its turn is over; a failed run took its sandbox along. */
	if (runnerd_find(rs->sb.id) == rs)
		exec_sandbox_ready(rs);
}

/* The environment is there: start it, and its clock. */
static void
exec_launch(struct rexec *e, int broker)
{
	struct timeval	 tv = { 0, SANDBOX_SPAWN_SLICE_MS * 1000 };
	char		 err[256];

	clock_gettime(CLOCK_MONOTONIC, &e->start);
	if (exec_spawn(e, broker, err, sizeof(err)) == -1) {
		exec_spawn_failed(e, err);
		return;
	}
	exec_env_free(e);
	e->starting = 1;
	e->rs->starting = e;
	event_set(&e->ev_spawn, e->spawn.fd, EV_READ | EV_PERSIST,
	    exec_started, e);
	event_add(&e->ev_spawn, &tv);
}

static struct rexec *
exec_find_pending(const char *id, uint32_t exec_id)
{
	struct rsandbox	*rs;
	struct rexec	*e;

	if ((rs = runnerd_find(id)) == NULL)
		return (NULL);
	/*
	 * One whose environment is whole (from envd or the cache, which
	 * it may share) takes nothing more from envd.
	 */
	TAILQ_FOREACH(e, &rs->execs, entry)
		if (e->id == exec_id)
			return (e->env != NULL && !e->env->ready ? e : NULL);
	return (NULL);
}

/* Strings of an exec's environment; envd's message was checked. */
void
exec_env_chunk(const struct env_chunk_hdr *h, const char *data)
{
	struct rexec	*e;
	char		*nbuf;

	if ((e = exec_find_pending(h->id, h->exec_id)) == NULL)
		return;
	if (e->env->len + h->len > EXEC_ENV_MAX ||
	    e->env->count + h->count > ENV_MAX_VARS) {
		exec_fail(e, E2BIG, "envd sent more environment than an exec "
		    "may have");
		return;
	}
	if ((nbuf = realloc(e->env->buf, e->env->len + h->len)) == NULL)
		fatal("%s", __func__);
	memcpy(nbuf + e->env->len, data, h->len);
	e->env->buf = nbuf;
	e->env->len += h->len;
	e->env->count += h->count;
}

void
exec_env_ready(const struct env_ready *r, int broker)
{
	struct rexec	*e;

	if ((e = exec_find_pending(r->id, r->exec_id)) == NULL) {
		if (broker != -1)
			close(broker);
		return;
	}
	if (r->error != 0)
		exec_fail(e, r->error, r->msg);
	else if (r->envc != e->env->count || r->env_len != e->env->len)
		exec_fail(e, EPROTO, "the environment from envd came "
		    "incomplete");
	else {
		if (r->flags & ENV_READY_REUSABLE)
			envcache_put(e->rs->sb.policy.name, r->conf_gen,
			    e->env->buf, e->env->len, e->env->count);
		if (!runnerd_ready(e->rs)) {
			/* It starts when pid 1 and netd are done. */
			e->env->ready = 1;
			e->env->broker = broker;
			return;
		}
		exec_launch(e, broker);
	}
	if (broker != -1)
		close(broker);
}

/* Built and networked: the execs that had their environment start. */
void
exec_sandbox_ready(struct rsandbox *rs)
{
	struct rexec	*e, *next;
	int		 broker;

	TAILQ_FOREACH_SAFE(e, &rs->execs, entry, next) {
		if (e->env == NULL || !e->env->ready)
			continue;
		broker = e->env->broker;
		e->env->broker = -1;
		exec_launch(e, broker);
		if (broker != -1)
			close(broker);
		if (runnerd_find(rs->sb.id) != rs || !runnerd_ready(rs))
			break;
	}
}

/* No network: every exec still waiting fails, with netd's reason. */
void
exec_net_failed(struct rsandbox *rs, int error, const char *msg)
{
	struct rexec	*e, *next;
	char		 m[CTL_MSG_SIZE];

	snprintf(m, sizeof(m), "network: %s", msg);
	TAILQ_FOREACH_SAFE(e, &rs->execs, entry, next) {
		if (e->env == NULL)
			continue;
		exec_fail(e, error, m);
		/* A failed run takes its sandbox along. */
		if (runnerd_find(rs->sb.id) != rs)
			break;
	}
}

/* envd went away: nothing it was building will come. */
void
exec_env_down(void)
{
	struct rsandbox	*rs, *next;
	struct rexec	*e, *enext;

	envcache_drop();
	RB_FOREACH_SAFE(rs, rsandbox_tree, &rsandboxes, next)
		TAILQ_FOREACH_SAFE(e, &rs->execs, entry, enext)
			if (e->env != NULL) {
				exec_fail(e, EAGAIN, "envd went away while "
				    "building the environment; try again");
				/* A failed run takes its sandbox along. */
				if (runnerd_find(rs->sb.id) != rs)
					break;
			}
}

/* Ask envd for the environment; the exec starts when it comes. */
static void
exec_env_request(struct rexec *e, const char *policy)
{
	struct env_build_req	*m;
	struct sbx_exec_req	*req = e->env->req;
	struct timeval		 tv = { EXEC_ENV_WAIT_MS / 1000,
				    (EXEC_ENV_WAIT_MS % 1000) * 1000 };
	char			*p;
	uint32_t		 i;

	if ((m = calloc(1, sizeof(*m))) == NULL)
		fatal("%s", __func__);
	strlcpy(m->corr, req->corr, sizeof(m->corr));
	strlcpy(m->id, e->rs->sb.id, sizeof(m->id));
	strlcpy(m->policy, policy, sizeof(m->policy));
	m->exec_id = e->id;
	/* argv comes first in the request; the -e strings follow it. */
	for (i = 0, p = req->args; i < req->argc; i++)
		p += strlen(p) + 1;
	m->envc = req->envc;
	m->env_len = req->args_len - (p - req->args);
	memcpy(m->env, p, m->env_len);
	/* No channel to envd: the exec fails from the event loop. */
	if (runnerd_env_send(IMSG_ENV_BUILD, -1, m, sizeof(*m)) == -1) {
		e->env->no_envd = 1;
		tv.tv_sec = tv.tv_usec = 0;
	}
	runnerd_flush();
	free(m);
	evtimer_set(&e->env->ev_wait, exec_env_timeout, e);
	evtimer_add(&e->env->ev_wait, &tv);
}

/* A cached exec whose sandbox was ready already: it starts now. */
static void
exec_env_cached_go(int fd, short event, void *arg)
{
	struct rexec	*e = arg;
	struct timeval	 tv = { EXEC_ENV_WAIT_MS / 1000,
			    (EXEC_ENV_WAIT_MS % 1000) * 1000 };
	int		 broker;

	if (runnerd_find(e->rs->sb.id) != e->rs || !runnerd_ready(e->rs)) {
		/* exec_sandbox_ready starts it when the sandbox is. */
		evtimer_set(&e->env->ev_wait, exec_env_timeout, e);
		evtimer_add(&e->env->ev_wait, &tv);
		return;
	}
	broker = e->env->broker;
	e->env->broker = -1;
	exec_launch(e, broker);
	if (broker != -1)
		close(broker);
}

/*
 * The first exec of a sandbox, without -e, has the environment envd
 * built last for its policy when the cache has one (envcache.c): no
 * secret can have been exposed in a sandbox where nothing ran yet.
 * envd still gets the exec's broker channel, a new one.  -1: ask envd.
 */
static int
exec_env_cached(struct rexec *e, const char *policy)
{
	struct env_broker	 m;
	struct timeval		 tv = { EXEC_ENV_WAIT_MS / 1000,
				    (EXEC_ENV_WAIT_MS % 1000) * 1000 };
	struct envbuf		*env;
	int			 sp[2];

	if (e->id != 1 || e->env->req->envc != 0 ||
	    (env = envcache_get(policy)) == NULL)
		return (-1);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == -1) {
		log_warn("%s: sandbox %s: socketpair", __func__, e->rs->sb.id);
		envbuf_unref(env);
		return (-1);
	}
	memset(&m, 0, sizeof(m));
	strlcpy(m.corr, e->corr, sizeof(m.corr));
	strlcpy(m.id, e->rs->sb.id, sizeof(m.id));
	strlcpy(m.policy, policy, sizeof(m.policy));
	m.exec_id = e->id;
	/* No envd channel: the exec asks envd, and hears it is away. */
	if (runnerd_env_send(IMSG_ENV_BROKER, sp[0], &m, sizeof(m)) == -1) {
		close(sp[1]);
		envbuf_unref(env);
		return (-1);
	}
	log_debug("%s: sandbox %s exec %u: the environment of policy %s "
	    "from the cache", __func__, e->rs->sb.id, e->id, policy);
	/* Shared, not copied: our reference keeps it until we are done. */
	e->env->cached = env;
	e->env->buf = env->data;
	e->env->len = env->len;
	e->env->count = env->count;
	e->env->ready = 1;
	e->env->broker = sp[1];
	/* A run's sandbox is not in the tree yet: runnerd_make starts it. */
	if (runnerd_find(e->rs->sb.id) == e->rs && runnerd_ready(e->rs)) {
		tv.tv_sec = tv.tv_usec = 0;
		evtimer_set(&e->env->ev_wait, exec_env_cached_go, e);
	} else
		evtimer_set(&e->env->ev_wait, exec_env_timeout, e);
	evtimer_add(&e->env->ev_wait, &tv);
	return (0);
}

/*
 * An exec begins by asking envd for its environment; it is part of
 * the sandbox from now on (kill and destroy see it), and starts once
 * the environment arrives.  Returns -1 if the request was refused.
 */
int
exec_start(struct rsandbox *rs, struct sbx_exec_req *req, uint32_t peerid)
{
	struct rexec	*e;
	int		 timeout, fds[2] = { -1, -1 };
	char		 err[128];

	if ((timeout = exec_timeout_for(rs, req, peerid)) == -1)
		return (-1);
	if ((req->flags & SBX_EXEC_INTERACTIVE) &&
	    stdio_take(peerid, fds, err, sizeof(err)) == -1) {
		runnerd_result(peerid, req->corr, EINVAL, "%s", err);
		return (-1);
	}
	if ((e = calloc(1, sizeof(*e))) == NULL ||
	    (e->env = calloc(1, sizeof(*e->env))) == NULL ||
	    (e->env->req = malloc(sizeof(*req))) == NULL)
		fatal("%s", __func__);
	memcpy(e->env->req, req, sizeof(*req));
	e->env->broker = -1;
	e->pipes[0] = e->pipes[1] = -1;
	e->stdio[0] = fds[0];
	e->stdio[1] = fds[1];
	e->rs = rs;
	e->id = ++rs->next_exec;
	e->peerid = peerid;
	e->timeout = timeout;
	strlcpy(e->corr, req->corr, sizeof(e->corr));
	evtimer_set(&e->ev_timeout, exec_timeout, e);
	evtimer_set(&e->ev_abort, exec_abort_step, e);
	evtimer_set(&e->ev_drain, exec_drain_timeout, e);
	evtimer_set(&e->ev_resume, exec_resume, e);
	e->service = (req->flags & SBX_EXEC_SERVICE) != 0;
	e->detached = e->group_only = (req->flags & SBX_EXEC_DETACH) != 0;
	TAILQ_INSERT_TAIL(&rs->execs, e, entry);
	execrec_new(e, req);
	if (exec_env_cached(e, rs->sb.policy.name) == -1)
		exec_env_request(e, rs->sb.policy.name);
	return (0);
}

/* The sandbox could not be built: its waiting execs go unheard. */
void
exec_discard(struct rsandbox *rs)
{
	struct rexec	*e;

	while ((e = TAILQ_FIRST(&rs->execs)) != NULL)
		exec_free(e);
}

/*
 * Destroy: no grace.  The ends pid 1 has reported are taken first;
 * every other exec dies with pid 1, which the caller kills next, in
 * the same turn of the event loop: reported as SIGKILL, reason killed.
 */
void
exec_kill_now(struct rsandbox *rs)
{
	struct rexec	*e, *next;

	sigall_cancel(rs);
	if (evtimer_initialized(&rs->ev_turn))
		evtimer_del(&rs->ev_turn);
	/* The teardown stopped waiting for a build: these are exec ends. */
	if (rs->ev_events_set) {
		exec_events(rs);
		if (rs->ev_events_set)
			event_del(&rs->ev_events);
		rs->ev_events_set = 0;
	}
	TAILQ_FOREACH_SAFE(e, &rs->execs, entry, next) {
		if (e->env != NULL || e->starting) {
			runnerd_result(e->peerid, e->corr, ECANCELED,
			    "the sandbox went away before the exec started");
			exec_free(e);
			continue;
		}
		if (e->reason == 0)
			e->reason = SBX_REASON_KILLED;
		if (!e->exited) {
			e->wstatus = SIGKILL;
			e->exited = 1;
		}
		exec_finish(e);
	}
	execrec_forget_all(rs);
}

/* Nobody reads the output any more: abort what that client ran. */
void
exec_client_gone(uint32_t peerid)
{
	struct rsandbox	*rs, *rnext;
	struct rexec	*e, *next;

	RB_FOREACH_SAFE(rs, rsandbox_tree, &rsandboxes, rnext)
		TAILQ_FOREACH_SAFE(e, &rs->execs, entry, next)
			if (e->peerid == peerid) {
				e->peerid = 0;
				exec_abort(e, SBX_REASON_KILLED);
			}
}

/*
 * sandboxctl kill EXEC: TERM (and KILL) run the abort sequence on its
 * process group alone; any other signal is passed on once.  -1 with
 * errno when there is nothing left to signal.
 */
int
exec_signal(struct rexec *e, int sig)
{
	if (e->env != NULL) {
		exec_abort(e, SBX_REASON_KILLED);
		return (0);
	}
	if (e->exited) {
		errno = ESRCH;
		return (-1);
	}
	if (sig == SIGTERM || sig == SIGKILL) {
		if (e->abort == ABORT_NONE)
			e->group_only = 1;
		exec_abort(e, SBX_REASON_KILLED);
		/* KILL skips the grace: straight to the last step. */
		if (sig == SIGKILL && e->group_only && !e->exited &&
		    e->abort != ABORT_KILL) {
			evtimer_del(&e->ev_abort);
			e->abort = ABORT_TERM;
			exec_abort_step(-1, 0, e);
		}
		return (0);
	}
	if (sandbox_signal_group(&e->rs->sb, e->pid, sig) == 0) {
		errno = ESRCH;
		return (-1);
	}
	return (0);
}
