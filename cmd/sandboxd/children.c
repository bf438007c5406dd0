/*
 * Supervising the children: start, notice death, restart with capped
 * jittered backoff, give up on a crash loop, stop them all at exit.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "conf_imsg.h"
#include "log.h"
#include "msgtab.h"
#include "sandboxd.h"

static void	child_dispatch(int, short, void *);
static void	child_spawn(struct child *);

static void
child_close_channel(struct child *c)
{
	if (!c->iev_open)
		return;
	imsgev_del(&c->iev);
	close(c->iev.ibuf.fd);
	imsg_clear(&c->iev.ibuf);
	c->iev_open = 0;
}

static void
child_send_conf(struct child *c)
{
	if (!c->iev_open)
		return;
	if (conf_send(&c->iev, sbx->conf, c->spec->conf_parts) == -1)
		log_warn("%s: %s", __func__, c->spec->name);
}

static void
child_restart_cb(int fd, short event, void *arg)
{
	child_spawn(arg);
}

static void
child_spawn(struct child *c)
{
	char	 path[PATH_MAX];
	int	 fd;

	if (proc_exec_path(c->spec->name, path, sizeof(path)) == -1)
		fatal("%s: cannot find %s", __func__, c->spec->name);
	c->pid = proc_start(c->spec, path, sbx->debug, sbx->verbose,
	    sbx->without, c->id == PROC_NETD ? sbx->nft_fd : -1, &fd);
	if (c->pid == -1)
		fatal("%s: start %s", __func__, c->spec->name);
	imsgev_init(&c->iev, fd, child_dispatch, c);
	if (c->spec->fdpass)
		imsg_allow_fdpass(&c->iev.ibuf);
	c->iev_open = 1;
	c->state = PROC_STATE_STARTING;
	c->started = monotime();
	watchdog_reset(c);
	child_send_conf(c);
	log_debug("%s: %s started, pid %d", __func__, c->spec->name,
	    (int)c->pid);
}

void
children_start(void)
{
	struct child	*c;
	int		 i;

	for (i = 0; i < PROC_MAX; i++) {
		c = &sbx->children[i];
		c->id = i;
		c->spec = &proc_specs[i];
		evtimer_set(&c->ev_restart, child_restart_cb, c);
		child_spawn(c);
	}
}

/* Delay n: 250ms * 2^n capped at 30s, half of it random. */
static unsigned int
child_backoff_ms(struct child *c)
{
	unsigned int	 ms = CHILD_BACKOFF_MIN_MS;
	unsigned int	 i;

	for (i = 0; i < c->backoff_step && ms < CHILD_BACKOFF_MAX_MS; i++)
		ms *= 2;
	if (ms > CHILD_BACKOFF_MAX_MS)
		ms = CHILD_BACKOFF_MAX_MS;
	return (ms / 2 + arc4random_uniform(ms / 2 + 1));
}

/* Count restarts inside the window, remembering this one. */
static int
child_crash_loop(struct child *c, time_t now)
{
	unsigned int	 i, recent = 0;

	for (i = 0; i < CHILD_RESTART_MAX; i++)
		if (c->crashes[i] != 0 &&
		    now - c->crashes[i] < CHILD_RESTART_WINDOW)
			recent++;
	if (recent >= CHILD_RESTART_MAX)
		return (1);
	c->crashes[c->ncrashes++ % CHILD_RESTART_MAX] = now;
	return (0);
}

static void
child_schedule_restart(struct child *c)
{
	struct timeval	 tv;
	time_t		 now = monotime();
	unsigned int	 ms;

	if (now - c->started >= CHILD_STABLE_SECS)
		c->backoff_step = 0;
	if (child_crash_loop(c, now)) {
		c->state = PROC_STATE_FAILED;
		log_warnx("%s: giving up on %s: %d restarts within %d "
		    "seconds; fix the cause and run sandboxctl reload",
		    __func__, c->spec->name, CHILD_RESTART_MAX,
		    CHILD_RESTART_WINDOW);
		notify_child_failed(c);
		return;
	}
	ms = child_backoff_ms(c);
	c->backoff_step++;
	c->state = PROC_STATE_BACKOFF;
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	evtimer_add(&c->ev_restart, &tv);
	log_info("%s: restarting %s in %u ms", __func__, c->spec->name, ms);
}

static void
child_exited(struct child *c, int status)
{
	if (WIFSIGNALED(status))
		log_warnx("%s: %s (pid %d) killed by signal %d (%s)", __func__,
		    c->spec->name, (int)c->pid, WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
	else
		log_warnx("%s: %s (pid %d) exited with status %d", __func__,
		    c->spec->name, (int)c->pid, WEXITSTATUS(status));
	child_close_channel(c);
	c->pid = 0;
	c->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	c->conf_generation = 0;
	if (c->id == PROC_RUNNERD) {
		services_runnerd_gone();
		control_runnerd_gone();
	}
	if (sbx->shutting_down)
		return;
	c->restarts++;
	child_schedule_restart(c);
	/* It owes no confirmation of a reload any more. */
	reload_check();
	notify_status();
}

void
children_reap(void)
{
	pid_t	 pid;
	int	 status, i;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (i = 0; i < PROC_MAX; i++)
			if (sbx->children[i].pid == pid) {
				child_exited(&sbx->children[i], status);
				break;
			}
	}
}

/* A child that speaks out of turn is treated as compromised. */
static void
child_misbehaved(struct child *c, const char *why)
{
	log_warnx("%s: %s (pid %d): %s; killing it", __func__, c->spec->name,
	    (int)c->pid, why);
	child_close_channel(c);
	if (c->pid > 0)
		kill(c->pid, SIGKILL);
}

/* To a running child; the fd is closed whatever happens. */
int
children_send(enum proc_id id, uint32_t type, int fd, const void *data,
    size_t len)
{
	return (children_send_peer(id, type, 0, fd, data, len));
}

int
children_send_runnerd(uint32_t type, uint32_t peerid, int fd,
    const void *data, size_t len)
{
	return (children_send_peer(PROC_RUNNERD, type, peerid, fd, data,
	    len));
}

int
children_running(enum proc_id id)
{
	struct child	*c = &sbx->children[id];

	return (c->iev_open && c->state == PROC_STATE_RUNNING);
}

/* As children_send, for a request made on behalf of a control client. */
int
children_send_peer(enum proc_id id, uint32_t type, uint32_t peerid, int fd,
    const void *data, size_t len)
{
	struct child	*c = &sbx->children[id];

	if (!c->iev_open || c->state != PROC_STATE_RUNNING) {
		if (fd != -1)
			close(fd);
		errno = EAGAIN;
		return (-1);
	}
	return (imsgev_compose(&c->iev, type, peerid, 0, fd, data, len));
}

/*
 * A checked message from a child for another program: a reply goes to
 * the control client (or service) its peerid names.  Children talk to
 * each other on channels of their own (channels.c): the master relays
 * only to the control clients.
 * Only runnerd answers a service's requests: another child's reply
 * with a service's peerid is dropped, lest it end an instance.
 */
static int
child_relay(const struct msg_row *r, enum msg_prog from, struct imsg *imsg)
{
	uint32_t	 peerid = imsg_get_peerid(imsg);

	if (msg_receiver(r) != MSG_CTL) {
		log_warnx("%s: %s from %s: not for a client", __func__,
		    msg_name(r->type), msg_prog_name(from));
		return (-1);
	}
	if (peerid < SVC_PEER_BASE) {
		control_relay(peerid, r->type, imsg->data, imsg_get_len(imsg));
		return (0);
	}
	if (from != MSG_RUNNERD) {
		log_warnx("%s: %s from %s for a service", __func__,
		    msg_name(r->type), msg_prog_name(from));
		return (-1);
	}
	services_reply(peerid, r->type, imsg->data, imsg_get_len(imsg));
	return (0);
}

/*
 * Everything a child sends is checked against the table first
 * (lib/msgtab.c): who may send it, its length, fd and contents.  What
 * is for another program is relayed; the rest is the master's own.
 */
static int
child_dispatch_imsg(struct child *c, struct imsg *imsg)
{
	const struct msg_row	*r;
	uint32_t		 type = imsg_get_type(imsg);
	char			 err[160];

	if (imsg_check(MSG_MASTER, msg_prog_of(c->id), imsg, err,
	    sizeof(err)) == -1) {
		log_warnx("%s: from %s: %s", __func__, c->spec->name, err);
		return (-1);
	}
	r = msg_row(type);
	if ((r->to & MSG_MASTER) == 0)
		return (child_relay(r, msg_prog_of(c->id), imsg));
	switch (type) {
	case IMSG_PROC_READY:
		c->state = PROC_STATE_RUNNING;
		log_info("%s ready, pid %d", c->spec->name, (int)c->pid);
		/* A new dnspind: its sockets, then every sandbox. */
		if (c->id == PROC_DNSPIND)
			resolver_send();
		/* Its channels to the others, made again: they resync. */
		channels_make(c->id);
		if (c->id == PROC_RUNNERD)
			services_runnerd_up();
		/* With everyone there, services that wait start. */
		services_kick();
		notify_children();
		break;
	case IMSG_PROC_PONG:
		return (watchdog_pong(c, imsg));
	case IMSG_RECONF_DONE:
		c->conf_generation =
		    IMSG_PAYLOAD(imsg, struct reconf_done)->generation;
		reload_check();
		notify_children();
		break;
	case IMSG_NET_HOSTFW:
		/* The host's other filters, for sandboxctl status. */
		sbx->hostfw = *IMSG_PAYLOAD(imsg, struct net_hostfw);
		break;
	case IMSG_NET_TUN_OPEN:
		tun_open(imsg);
		break;
	case IMSG_ENV_HEALTH:
		/* A sandbox said it is alive: for the watchdog. */
		services_health(IMSG_PAYLOAD(imsg, struct env_health)->id);
		break;
	case IMSG_PEER_DROPPED:
		channels_dropped(c->id, imsg);
		break;
	default:
		log_warnx("%s: %s from %s: no handler", __func__, r->name,
		    c->spec->name);
		return (-1);
	}
	return (0);
}

static void
child_dispatch(int fd, short event, void *arg)
{
	struct imsgev	*iev = arg;
	struct child	*c = iev->data;
	struct imsg	 imsg;
	int		 n;

	if (imsgev_io(&c->iev, event) == -1) {
		/* EOF: the exit itself arrives as SIGCHLD. */
		if (errno != 0)
			log_warn("%s: %s channel", __func__, c->spec->name);
		child_close_channel(c);
		return;
	}
	for (;;) {
		if ((n = imsg_get(&c->iev.ibuf, &imsg)) == -1) {
			child_misbehaved(c, "malformed message");
			return;
		}
		if (n == 0)
			break;
		n = child_dispatch_imsg(c, &imsg);
		imsg_free(&imsg);
		if (n == -1) {
			child_misbehaved(c, "unexpected message");
			return;
		}
	}
	imsgev_add(&c->iev);
}

void
children_send_conf(void)
{
	int	 i;

	for (i = 0; i < PROC_MAX; i++)
		child_send_conf(&sbx->children[i]);
}

void
children_send_verbose(int v)
{
	int	 i;

	for (i = 0; i < PROC_MAX; i++)
		if (sbx->children[i].iev_open)
			imsgev_compose(&sbx->children[i].iev, IMSG_LOG_VERBOSE,
			    0, 0, -1, &v, sizeof(v));
}

/* A reload is the operator's word that the cause may be fixed. */
void
children_retry_failed(void)
{
	struct child	*c;
	int		 i;

	for (i = 0; i < PROC_MAX; i++) {
		c = &sbx->children[i];
		if (c->state != PROC_STATE_FAILED)
			continue;
		memset(c->crashes, 0, sizeof(c->crashes));
		c->backoff_step = 0;
		log_info("%s: retrying %s", __func__, c->spec->name);
		child_spawn(c);
	}
}

/* SIGTERM, wait, then SIGKILL: none of them outlives the master. */
static void
children_stop_set(const int *ids, size_t n, int signal_them)
{
	struct child	*c;
	size_t		 i;
	int		 waited, alive;

	for (i = 0; i < n; i++) {
		c = &sbx->children[ids[i]];
		evtimer_del(&c->ev_restart);
		child_close_channel(c);
		if (c->pid > 0 && signal_them)
			kill(c->pid, SIGTERM);
	}
	for (waited = 0; waited < CHILD_STOP_WAIT_MS; waited += 10) {
		children_reap();
		for (i = alive = 0; i < n; i++)
			alive += sbx->children[ids[i]].pid > 0;
		if (alive == 0)
			return;
		usleep(10000);
	}
	for (i = 0; i < n; i++) {
		c = &sbx->children[ids[i]];
		if (c->pid <= 0)
			continue;
		log_warnx("%s: %s did not stop, killing it", __func__,
		    c->spec->name);
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
		c->pid = 0;
		c->exit_status = -1;
	}
}

/* As imsg_flush, but a child that does not read cannot hold the stop. */
static int
child_flush_bounded(struct child *c)
{
	struct pollfd	 pfd;
	int		 n;

	pfd.fd = c->iev.ibuf.fd;
	pfd.events = POLLOUT;
	while (imsg_queued(&c->iev.ibuf) > 0) {
		if (imsg_write(&c->iev.ibuf) == -1)
			return (-1);
		if (imsg_queued(&c->iev.ibuf) == 0)
			break;
		if ((n = poll(&pfd, 1, CHILD_STOP_WAIT_MS)) == 0) {
			errno = ETIMEDOUT;
			return (-1);
		}
		if (n == -1 && errno != EINTR)
			return (-1);
	}
	return (0);
}

/*
 * netd's last job on an orderly stop: once runnerd exited cleanly (its
 * sandboxes are gone), netd deletes every link, then the table, and
 * exits.  Sent only here: a crash or a child restart keeps the table.
 */
static int
children_netd_stop(void)
{
	struct child	*c = &sbx->children[PROC_NETD];
	struct child	*r = &sbx->children[PROC_RUNNERD];

	if (r->exit_status != 0) {
		log_warnx("%s: runnerd did not stop cleanly: table inet "
		    "sandboxd kept", __func__);
		return (-1);
	}
	if (c->pid <= 0 || !c->iev_open) {
		log_warnx("%s: netd not running: table inet sandboxd kept",
		    __func__);
		return (-1);
	}
	if (imsgev_compose(&c->iev, IMSG_NET_STOP, 0, 0, -1, NULL, 0) ==
	    -1 || child_flush_bounded(c) == -1) {
		log_warn("%s: netd: table inet sandboxd kept", __func__);
		return (-1);
	}
	return (0);
}

/*
 * Every child but netd first: runnerd takes the sandboxes down.  Then
 * netd, told to delete the links and the table if orderly.
 */
void
children_stop(int orderly)
{
	static const int	 rest[] = { PROC_ENVD, PROC_RUNNERD,
				    PROC_DNSPIND };
	static const int	 netd[] = { PROC_NETD };
	struct child		*c = &sbx->children[PROC_NETD];
	int			 told;

	evtimer_del(&c->ev_restart);
	children_stop_set(rest, sizeof(rest) / sizeof(rest[0]), 1);
	told = orderly && children_netd_stop() == 0;
	children_stop_set(netd, 1, !told);
	if (told && c->exit_status != 0)
		log_warnx("%s: netd kept table inet sandboxd (status %d); "
		    "see its log", __func__, c->exit_status);
}
