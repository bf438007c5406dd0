/*
 * The control socket.  Peer credentials decide what a client may do:
 * root everything, members of the control group status only, anyone
 * else nothing.  A client that sends garbage, too much, or too little
 * for too long is dropped; everyone else goes on being served.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdguard.h"
#include "fileop.h"
#include "log.h"
#include "msgtab.h"
#include "sandboxd.h"
#include "sbx_msg.h"

#define CONTROL_MAX_MSG		MAX_IMSGSIZE
#define CONTROL_TIMEOUT_SECS	5	/* to finish a request */
#define CONTROL_MAX_GROUPS	256
#define CONTROL_QUEUE_MAX	(1024 * 1024)	/* unread: stop reading it */
#define CONTROL_QUEUE_STALL	30	/* secs over it reading nothing */
#define CONTROL_QUEUE_HARD	(64 * 1024 * 1024) /* unread: drop anyway */
#define CONTROL_QUEUE_SUM_AT	(64 * 1024)	/* then sum all queues */
#define CONTROL_ACCEPT_PAUSE_MS	100	/* out of fds: retry after */

enum ctl_rights {
	CTL_RIGHTS_NONE = 0,
	CTL_RIGHTS_READ,
	CTL_RIGHTS_ALL
};

struct ctl_conn {
	TAILQ_ENTRY(ctl_conn)	 entry;
	uint32_t		 id;		/* peerid towards runnerd */
	int			 inflight;	/* requests runnerd owes */
	int			 used_runnerd;
	struct imsgev		 iev;
	struct event		 ev_timeout;
	uid_t			 uid;
	pid_t			 pid;
	enum ctl_rights		 rights;
	int			 closing;	/* flush, then close */
	int			 attached;	/* to a service: no timeout */
	uint64_t		 reload_gen;	/* a reload it waits for */
	char			 reload_corr[CORR_ID_SIZE];
	int			 overflowed;	/* replies unread: dropping */
	int			 paused;	/* over the queue limit */
	uint64_t		 qmark;		/* bytes it had read then */
	struct event		 ev_qstall;
	int			 shed;	/* control queue */
};

static TAILQ_HEAD(, ctl_conn)	 ctl_conns = TAILQ_HEAD_INITIALIZER(ctl_conns);
static int			 ctl_fd = -1;
static int			 ctl_nconns;
static uint32_t			 ctl_next_id;
static gid_t			 ctl_gid = (gid_t)-1;
static struct event		 ev_ctl_accept;
static struct event		 ev_ctl_accept_pause;
static int			 ctl_accept_paused;	/* logged */

static void	control_dispatch(int, short, void *);
static void	control_settle(struct ctl_conn *);

int
control_init(const char *path, const char *group)
{
	struct sockaddr_un	 sun;
	struct stat		 st;
	struct group		*gr;
	mode_t			 old;
	int			 fd;

	if (*group != '\0') {
		if ((gr = getgrnam(group)) == NULL) {
			log_warnx("%s: no such group %s", __func__, group);
			return (-1);
		}
		ctl_gid = gr->gr_gid;
	}
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlcpy(sun.sun_path, path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path)) {
		log_warnx("%s: path too long: %s", __func__, path);
		return (-1);
	}
	/* Remove a stale socket, never anything else. */
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			log_warnx("%s: %s exists and is not a socket",
			    __func__, path);
			return (-1);
		}
		unlink(path);
	}
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) == -1) {
		log_warn("%s: socket", __func__);
		return (-1);
	}
	old = umask(S_IXUSR | S_IXGRP | S_IRWXO);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		log_warn("%s: bind %s", __func__, path);
		umask(old);
		close(fd);
		return (-1);
	}
	umask(old);
	if (chown(path, 0, ctl_gid) == -1 ||
	    chmod(path, ctl_gid == (gid_t)-1 ? 0600 : 0660) == -1) {
		log_warn("%s: %s", __func__, path);
		close(fd);
		unlink(path);
		return (-1);
	}
	ctl_fd = fd;
	return (0);
}

void
control_cleanup(const char *path)
{
	if (ctl_fd == -1)
		return;
	event_del(&ev_ctl_accept);
	evtimer_del(&ev_ctl_accept_pause);
	close(ctl_fd);
	unlink(path);
	ctl_fd = -1;
}

static void
control_close(struct ctl_conn *c)
{
	/* What it ran and what it made to last only as long: abort. */
	if (c->used_runnerd)
		children_send_runnerd(IMSG_RUN_CLIENT_GONE, c->id, -1, NULL, 0);
	services_client_gone(c->id);
	TAILQ_REMOVE(&ctl_conns, c, entry);
	ctl_nconns--;
	event_del(&c->ev_timeout);
	event_del(&c->ev_qstall);
	imsgev_del(&c->iev);
	close(c->iev.ibuf.fd);
	imsg_clear(&c->iev.ibuf);
	free(c);
}

static void
control_drop(struct ctl_conn *c, const char *why)
{
	log_warnx("control: dropping client uid %u pid %d: %s",
	    (unsigned int)c->uid, (int)c->pid, why);
	control_close(c);
}

static void
control_timeout(int fd, short event, void *arg)
{
	struct ctl_conn	*c = arg;

	if (c->shed)
		control_drop(c, "did not read its error in time");
	else if (c->overflowed && imsg_queued_bytes(&c->iev.ibuf) >
	    CONTROL_QUEUE_HARD)
		control_drop(c, "more than 64 MiB of replies left unread");
	else if (c->overflowed)
		control_drop(c, "more than 1 MiB of replies left unread, "
		    "none read for 30 s");
	else if (c->paused)
		control_drop(c, "more than 1 MiB of replies left unread, "
		    "idle");
	else
		control_drop(c, "request not completed in time");
}

/*
 * Replies past CONTROL_QUEUE_MAX: no more requests are read from the
 * client until it has read them down.  One that reads nothing for
 * CONTROL_QUEUE_STALL seconds meanwhile, or lets CONTROL_QUEUE_HARD pile
 * up (an exec's output outrunning it), is dropped, from the event loop:
 * the caller may still hold c.  A slow reader of a long listing is not.
 */
static void
control_overflow(struct ctl_conn *c)
{
	struct timeval	 now = { 0, 0 };

	c->overflowed = 1;
	evtimer_del(&c->ev_timeout);
	evtimer_add(&c->ev_timeout, &now);
}

/*
 * Over the control queue limit, summed over every client: the client
 * holding the most loses its unsent replies, what it ran is aborted,
 * and it is told why in their place, then closed.
 */
static void
control_shed(struct ctl_conn *c, size_t total)
{
	struct ctl_result	 res;
	struct timeval		 tv = { CONTROL_TIMEOUT_SECS, 0 };
	size_t			 held = imsg_queued_bytes(&c->iev.ibuf);

	log_warnx("control: dropping client uid %u pid %d: %zu bytes of "
	    "replies unread, the most of all clients, who hold %zu (control "
	    "queue %llu)", (unsigned int)c->uid, (int)c->pid, held, total,
	    (unsigned long long)sbx->conf->global.control_queue);
	imsg_discard_unsent(&c->iev.ibuf);
	if (c->used_runnerd)
		children_send_runnerd(IMSG_RUN_CLIENT_GONE, c->id, -1, NULL, 0);
	c->used_runnerd = 0;
	c->shed = c->closing = 1;
	c->paused = 0;
	evtimer_del(&c->ev_qstall);
	memset(&res, 0, sizeof(res));
	res.error = ENOBUFS;
	res.fail = CTL_FAIL_LIMIT;
	snprintf(res.msg, sizeof(res.msg), "dropped: %zu bytes of replies "
	    "left unread, the most of any client, while all clients held "
	    "more than the control queue limit of %llu bytes", held,
	    (unsigned long long)sbx->conf->global.control_queue);
	imsgev_compose(&c->iev, IMSG_CTL_RESULT, 0, 0, -1, &res, sizeof(res));
	evtimer_del(&c->ev_timeout);
	evtimer_add(&c->ev_timeout, &tv);
}

/* 1 if c was shed for the sum of all queues. */
static int
control_check_total(struct ctl_conn *c)
{
	struct ctl_conn	*o, *big = NULL;
	size_t		 q, total = 0, most = 0;

	TAILQ_FOREACH(o, &ctl_conns, entry) {
		q = imsg_queued_bytes(&o->iev.ibuf);
		total += q;
		if (!o->shed && q > most) {
			most = q;
			big = o;
		}
	}
	if (total <= sbx->conf->global.control_queue || big == NULL)
		return (0);
	control_shed(big, total);
	return (big == c);
}

static void
control_check_queue(struct ctl_conn *c)
{
	struct timeval	 tv = { CONTROL_QUEUE_STALL, 0 };
	size_t		 q = imsg_queued_bytes(&c->iev.ibuf);

	if (c->shed || c->overflowed)
		return;
	if (q > CONTROL_QUEUE_SUM_AT && control_check_total(c))
		return;
	if (q <= CONTROL_QUEUE_MAX)
		return;
	if (q > CONTROL_QUEUE_HARD) {
		control_overflow(c);
		return;
	}
	if (c->paused)
		return;
	c->paused = 1;
	c->qmark = imsg_written_bytes(&c->iev.ibuf);
	event_del(&c->iev.ev);
	evtimer_add(&c->ev_qstall, &tv);
}

static void	control_process(struct ctl_conn *);

/* Over the limit for a while: read down, reading, or stalled. */
static void
control_qstall(int fd, short event, void *arg)
{
	struct ctl_conn	*c = arg;
	struct timeval	 tv = { CONTROL_QUEUE_STALL, 0 };
	uint64_t	 w = imsg_written_bytes(&c->iev.ibuf);

	if (!c->paused || c->overflowed)
		return;
	if (w == c->qmark) {
		control_overflow(c);
		return;
	}
	c->qmark = w;
	evtimer_add(&c->ev_qstall, &tv);
}

/* Read down below the limit: its requests are read again. */
static void
control_resume(struct ctl_conn *c)
{
	if (!c->paused || c->overflowed ||
	    imsg_queued_bytes(&c->iev.ibuf) > CONTROL_QUEUE_MAX)
		return;
	c->paused = 0;
	evtimer_del(&c->ev_qstall);
	event_add(&c->iev.ev, NULL);
	control_process(c);
}

static void
control_arm_timeout(struct ctl_conn *c)
{
	struct timeval	 tv = { CONTROL_TIMEOUT_SECS, 0 };

	evtimer_add(&c->ev_timeout, &tv);
}

static int
control_in_group(int fd, gid_t gid)
{
	gid_t		 groups[CONTROL_MAX_GROUPS];
	socklen_t	 len = sizeof(groups);
	size_t		 i;

	if (gid == (gid_t)-1)
		return (0);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) == -1)
		return (0);
	for (i = 0; i < len / sizeof(gid_t); i++)
		if (groups[i] == gid)
			return (1);
	return (0);
}

static enum ctl_rights
control_rights(int fd, uid_t *uid, pid_t *pid)
{
	struct ucred	 cred;
	socklen_t	 len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == -1) {
		log_warn("%s: SO_PEERCRED", __func__);
		return (CTL_RIGHTS_NONE);
	}
	*uid = cred.uid;
	*pid = cred.pid;
	if (cred.uid == 0)
		return (CTL_RIGHTS_ALL);
	if (cred.gid == ctl_gid || control_in_group(fd, ctl_gid))
		return (CTL_RIGHTS_READ);
	return (CTL_RIGHTS_NONE);
}

static void
control_reply_fail(struct ctl_conn *c, const char *corr, int error,
    uint32_t fail, const char *msg)
{
	struct ctl_result	 res;

	if (c->shed)
		return;
	memset(&res, 0, sizeof(res));
	strlcpy(res.corr, corr, sizeof(res.corr));
	res.error = error;
	res.fail = fail;
	strlcpy(res.msg, msg, sizeof(res.msg));
	imsgev_compose(&c->iev, IMSG_CTL_RESULT, 0, 0, -1, &res, sizeof(res));
	control_check_queue(c);
}

static void
control_reply(struct ctl_conn *c, const char *corr, int error,
    const char *msg)
{
	control_reply_fail(c, corr, error, CTL_FAIL_OTHER, msg);
}

/* Out of fds: no accept for a moment, rather than a busy loop. */
static void
control_accept_resume(int fd, short event, void *arg)
{
	event_add(&ev_ctl_accept, NULL);
}

static void
control_accept_pause(void)
{
	struct timeval	 tv = { 0, CONTROL_ACCEPT_PAUSE_MS * 1000 };

	if (!ctl_accept_paused)
		log_warn("control: accept; not accepting for %d ms at a time "
		    "until it works again", CONTROL_ACCEPT_PAUSE_MS);
	ctl_accept_paused = 1;
	event_del(&ev_ctl_accept);
	evtimer_add(&ev_ctl_accept_pause, &tv);
}

static void
control_accept(int fd, short event, void *arg)
{
	struct ctl_conn	*c;
	int		 cfd;

	if ((cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) ==
	    -1) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM)
			control_accept_pause();
		else if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED)
			log_warn("%s: accept", __func__);
		return;
	}
	if (ctl_accept_paused)
		log_info("control: accepting clients again");
	ctl_accept_paused = 0;
	if ((c = calloc(1, sizeof(*c))) == NULL) {
		log_warn("%s", __func__);
		close(cfd);
		return;
	}
	c->rights = control_rights(cfd, &c->uid, &c->pid);
	/* Above SVC_PEER_BASE the peerids are the services'. */
	if (++ctl_next_id == 0 || ctl_next_id >= SVC_PEER_BASE)
		ctl_next_id = 1;
	c->id = ctl_next_id;
	imsgev_init(&c->iev, cfd, control_dispatch, c);
	imsg_set_maxsize(&c->iev.ibuf, CONTROL_MAX_MSG);
	/*
	 * Only root's requests carry fds (put, get, stdio).  Anyone
	 * else's are refused by the kernel from now on; ones sent before
	 * this accept arrive, are discarded and drop the client.
	 */
	if (c->rights == CTL_RIGHTS_ALL)
		imsg_allow_fdpass(&c->iev.ibuf);
	else if (fdguard_refuse(cfd) == -1 && errno != ENOPROTOOPT)
		log_warn("%s: SO_PASSRIGHTS", __func__);
	evtimer_set(&c->ev_timeout, control_timeout, c);
	evtimer_set(&c->ev_qstall, control_qstall, c);
	TAILQ_INSERT_TAIL(&ctl_conns, c, entry);
	ctl_nconns++;
	/*
	 * Over the limit a client is still answered, with a reason, and
	 * never reset: it holds one fd until its reply is flushed.
	 */
	if ((uint32_t)ctl_nconns > sbx->conf->global.control_clients) {
		log_warnx("control: refusing uid %u pid %d: too many clients "
		    "(control clients %u)", (unsigned int)c->uid, (int)c->pid,
		    sbx->conf->global.control_clients);
		control_reply_fail(c, "", EAGAIN, CTL_FAIL_LIMIT, "too many "
		    "clients: sandboxd serves at most its control clients "
		    "limit at once");
		c->closing = 1;
	} else if (c->rights == CTL_RIGHTS_NONE) {
		log_warnx("control: refusing uid %u pid %d: not root and not "
		    "in the control group", (unsigned int)c->uid, (int)c->pid);
		control_reply(c, "", EPERM, "permission denied: only root "
		    "and members of the control group may use sandboxd");
		c->closing = 1;
	}
	control_arm_timeout(c);
}

void
control_listen(void)
{
	if (listen(ctl_fd, SOMAXCONN) == -1)
		fatal("%s: listen", __func__);
	event_set(&ev_ctl_accept, ctl_fd, EV_READ | EV_PERSIST,
	    control_accept, NULL);
	evtimer_set(&ev_ctl_accept_pause, control_accept_resume, NULL);
	event_add(&ev_ctl_accept, NULL);
}

static void
control_status(struct ctl_conn *c, const char *corr)
{
	struct ctl_proc_status	 ps;
	struct child		*ch;
	int			 i;

	memset(&ps, 0, sizeof(ps));
	status_fill(&ps, "sandboxd", getpid());
	ps.state = PROC_STATE_SELF;
	ps.uptime = monotime() - sbx->started;
	ps.conf_generation = sbx->conf->global.generation;
	imsgev_compose(&c->iev, IMSG_CTL_PROC_STATUS, 0, 0, -1, &ps,
	    sizeof(ps));
	for (i = 0; i < PROC_MAX; i++) {
		ch = &sbx->children[i];
		memset(&ps, 0, sizeof(ps));
		status_fill(&ps, ch->spec->name, ch->pid);
		ps.state = ch->state;
		ps.restarts = ch->restarts;
		ps.uptime = ch->pid > 0 ? monotime() - ch->started : 0;
		ps.conf_generation = ch->conf_generation;
		imsgev_compose(&c->iev, IMSG_CTL_PROC_STATUS, 0, 0, -1, &ps,
		    sizeof(ps));
	}
	if (sbx->hostfw.text[0] != '\0')
		imsgev_compose(&c->iev, IMSG_CTL_HOSTFW, 0, 0, -1,
		    &sbx->hostfw, sizeof(sbx->hostfw));
	control_check_queue(c);
	services_status(c->id);
	control_reply(c, corr, 0, "");
}

static void
control_request(struct ctl_conn *c, uint32_t type, struct ctl_request *req)
{
	char		 err[CTL_MSG_SIZE];
	uint64_t	 gen;

	switch (type) {
	case IMSG_CTL_STATUS:
		log_debug("control: uid %u: status", (unsigned int)c->uid);
		control_status(c, req->corr);
		return;
	case IMSG_CTL_RELOAD:
		log_info("control: uid %u: reload", (unsigned int)c->uid);
		if (reload_start(req->corr, err, sizeof(err), &gen) == -1) {
			control_reply(c, req->corr, EINVAL, err);
			return;
		}
		/* Answered once every child has the new config. */
		c->reload_gen = gen;
		strlcpy(c->reload_corr, req->corr, sizeof(c->reload_corr));
		control_settle(c);
		reload_check();
		return;
	case IMSG_CTL_LOG_VERBOSE:
		log_info("control: uid %u: log %s", (unsigned int)c->uid,
		    req->arg ? "verbose" : "brief");
		log_setverbose(req->arg);
		children_send_verbose(req->arg);
		control_reply(c, req->corr, 0, req->arg ? "logging verbose" :
		    "logging brief");
		return;
	}
}

/*
 * Requests for runnerd: what runnerd gets for each and who may send it
 * (the table in lib/msgtab.c says what it must hold).
 */
struct ctl_fwd {
	uint32_t	 type;
	uint32_t	 run_type;
	enum ctl_rights	 rights;
	int		 noreply;	/* runnerd answers nothing */
};

static const struct ctl_fwd ctl_fwds[] = {
	{ IMSG_CTL_CREATE, IMSG_RUN_CREATE, CTL_RIGHTS_ALL, 0 },
	{ IMSG_CTL_EXEC, IMSG_RUN_EXEC, CTL_RIGHTS_ALL, 0 },
	{ IMSG_CTL_KILL, IMSG_RUN_KILL, CTL_RIGHTS_ALL, 0 },
	{ IMSG_CTL_DESTROY, IMSG_RUN_DESTROY, CTL_RIGHTS_ALL, 0 },
	{ IMSG_CTL_PS, IMSG_RUN_PS, CTL_RIGHTS_READ, 0 },
	{ IMSG_CTL_SHOW, IMSG_RUN_SHOW, CTL_RIGHTS_READ, 0 },
	{ IMSG_CTL_PUT, IMSG_RUN_PUT, CTL_RIGHTS_ALL, 0 },
	{ IMSG_CTL_GET, IMSG_RUN_GET, CTL_RIGHTS_ALL, 0 },
	{ IMSG_CTL_RUN, IMSG_RUN_RUN, CTL_RIGHTS_ALL, 0 },
	{ IMSG_CTL_STDIO, IMSG_RUN_STDIO, CTL_RIGHTS_ALL, 1 },
	{ IMSG_CTL_EXEC_OP, IMSG_RUN_EXEC_OP, CTL_RIGHTS_ALL, 0 },
	/* Root's: an exec's command line may hold what others may not see. */
	{ IMSG_CTL_EXEC_PS, IMSG_RUN_EXEC_PS, CTL_RIGHTS_ALL, 0 },
	{ IMSG_CTL_FILEOP, IMSG_RUN_FILEOP, CTL_RIGHTS_ALL, 0 },
	{ IMSG_CTL_PAUSE, IMSG_RUN_PAUSE, CTL_RIGHTS_ALL, 0 },
	{ IMSG_CTL_RESUME, IMSG_RUN_RESUME, CTL_RIGHTS_ALL, 0 },
};

static const struct ctl_fwd *
control_fwd_find(uint32_t type)
{
	size_t	 i;

	for (i = 0; i < sizeof(ctl_fwds) / sizeof(ctl_fwds[0]); i++)
		if (ctl_fwds[i].type == type)
			return (&ctl_fwds[i]);
	return (NULL);
}

/* What only the master sets for its services, a client may not. */
static int
control_fwd_reserved(uint32_t type, void *p)
{
	struct sbx_create_req	*cr = NULL;
	struct sbx_exec_req	*er = NULL;

	if (type == IMSG_CTL_CREATE)
		cr = p;
	else if (type == IMSG_CTL_RUN) {
		cr = &((struct sbx_run_req *)p)->create;
		er = &((struct sbx_run_req *)p)->exec;
	} else if (type == IMSG_CTL_EXEC)
		er = p;
	return ((cr != NULL && (cr->service[0] != '\0' ||
	    cr->want_id[0] != '\0' || cr->restart)) ||
	    (er != NULL && (er->flags & SBX_EXEC_SERVICE)));
}

/* A checked request for runnerd, its payload filled in in place. */
static int
control_forward(struct ctl_conn *c, const struct ctl_fwd *f,
    struct imsg *imsg)
{
	void		*u = imsg->data;
	char		*corr = u;	/* every payload starts with it */
	size_t		 len = imsg_get_len(imsg);
	int		 fd = imsg_get_fd(imsg);

	if (corr[0] == '\0')
		corr_new(corr, CORR_ID_SIZE);
	if (control_fwd_reserved(f->type, u)) {
		fdguard_discard(fd);
		control_reply(c, corr, EINVAL, "a service's sandbox and the "
		    "service exec flag are the master's to set");
		return (0);
	}
	/* A tap belongs to whoever asked for it, as the kernel says. */
	if (f->type == IMSG_CTL_CREATE)
		((struct sbx_create_req *)u)->tap_uid = c->uid;
	else if (f->type == IMSG_CTL_RUN)
		((struct sbx_run_req *)u)->create.tap_uid = c->uid;
	log_setcorr(corr);
	if (c->rights < f->rights) {
		fdguard_discard(fd);
		log_warnx("control: uid %u: request %u refused",
		    (unsigned int)c->uid, f->type);
		control_reply(c, corr, EPERM, "permission denied: only root "
		    "may do that");
	} else if (children_send_runnerd(f->run_type, c->id, fd, u, len) ==
	    -1)
		control_reply(c, corr, EAGAIN, "runnerd is not running; try "
		    "again shortly");
	else {
		log_debug("control: uid %u: request %u for runnerd",
		    (unsigned int)c->uid, f->type);
		if (!f->noreply)
			c->inflight++;
		c->used_runnerd = 1;
	}
	log_setcorr(NULL);
	return (0);
}

/* sandboxctl service ...: the master's own, see services.c. */
static int
control_service(struct ctl_conn *c, struct imsg *imsg)
{
	struct svc_req	*r = IMSG_PAYLOAD(imsg, struct svc_req);

	if (r->corr[0] == '\0')
		corr_new(r->corr, sizeof(r->corr));
	log_setcorr(r->corr);
	if (r->op != SVC_OP_LIST && r->op != SVC_OP_STATUS &&
	    c->rights != CTL_RIGHTS_ALL) {
		log_warnx("control: uid %u: service request refused",
		    (unsigned int)c->uid);
		control_reply(c, r->corr, EPERM, "permission denied: only "
		    "root may do that");
	} else {
		log_info("control: uid %u: service %u %s",
		    (unsigned int)c->uid, r->op, r->name);
		c->inflight++;
		services_request(c->id, r);
	}
	log_setcorr(NULL);
	return (0);
}

/*
 * Every request is checked against the table (lib/msgtab.c) first.
 * Returns -1 when it is malformed: drop the client.
 */
static int
control_dispatch_imsg(struct ctl_conn *c, struct imsg *imsg)
{
	const struct ctl_fwd	*f;
	struct ctl_request	*req;
	uint32_t		 type = imsg_get_type(imsg);
	char			 err[160];

	if (imsg_check(MSG_MASTER, MSG_CTL, imsg, err, sizeof(err)) == -1) {
		log_warnx("control: uid %u: %s", (unsigned int)c->uid, err);
		fdguard_discard(imsg_get_fd(imsg));
		return (-1);
	}
	if ((f = control_fwd_find(type)) != NULL)
		return (control_forward(c, f, imsg));
	if (type == IMSG_CTL_SERVICE)
		return (control_service(c, imsg));
	req = IMSG_PAYLOAD(imsg, struct ctl_request);
	if (req->corr[0] == '\0')
		corr_new(req->corr, sizeof(req->corr));
	log_setcorr(req->corr);
	if (type != IMSG_CTL_STATUS && c->rights != CTL_RIGHTS_ALL) {
		log_warnx("control: uid %u: request %u refused: only root may "
		    "change sandboxd", (unsigned int)c->uid, type);
		control_reply(c, req->corr, EPERM, "permission denied: only "
		    "root may do that");
	} else
		control_request(c, type, req);
	log_setcorr(NULL);
	return (0);
}

static struct ctl_conn *
control_find(uint32_t id)
{
	struct ctl_conn	*c;

	TAILQ_FOREACH(c, &ctl_conns, entry)
		if (c->id == id)
			return (c);
	return (NULL);
}

/* Idle clients are timed out; ones waiting on a child are not. */
static void
control_settle(struct ctl_conn *c)
{
	if (c->overflowed)
		return;
	if (c->inflight > 0 || c->attached || c->reload_gen != 0)
		evtimer_del(&c->ev_timeout);
	else
		control_arm_timeout(c);
}

void
control_relay(uint32_t id, uint32_t type, const void *data, size_t len)
{
	struct ctl_conn	*c;

	if ((c = control_find(id)) == NULL)
		return;
	if (c->overflowed || c->shed)
		return;
	imsgev_compose(&c->iev, type, 0, 0, -1, data, len);
	control_check_queue(c);
	if ((type == IMSG_CTL_RESULT || type == IMSG_CTL_EXEC_RESULT) &&
	    c->inflight > 0) {
		c->inflight--;
		control_settle(c);
	}
}

/* A reply with an fd (attach), to a client by id. */
void
control_send_fd(uint32_t id, uint32_t type, int fd, const void *data,
    size_t len)
{
	struct ctl_conn	*c;

	if ((c = control_find(id)) == NULL || c->shed) {
		close(fd);
		return;
	}
	if (imsgev_compose(&c->iev, type, 0, 0, fd, data, len) == -1)
		log_warn("%s", __func__);
	control_check_queue(c);
}

/* Attached to a service: it may stay quiet as long as it likes. */
void
control_set_attached(uint32_t id, int on)
{
	struct ctl_conn	*c;

	if ((c = control_find(id)) == NULL)
		return;
	c->attached = on;
	control_settle(c);
}

/* A reload is over: tell every client that waits for it or before. */
void
control_reload_done(uint64_t gen, int error, const char *msg)
{
	struct ctl_conn	*c;

	TAILQ_FOREACH(c, &ctl_conns, entry) {
		if (c->reload_gen == 0 || c->reload_gen > gen)
			continue;
		control_reply(c, c->reload_corr, error, msg);
		c->reload_gen = 0;
		control_settle(c);
	}
}

/* Whatever runnerd owed is lost with it; say so. */
void
control_runnerd_gone(void)
{
	struct ctl_conn	*c;

	TAILQ_FOREACH(c, &ctl_conns, entry) {
		if (c->inflight == 0)
			continue;
		control_reply(c, "", EIO, "runnerd died; its sandboxes are "
		    "gone");
		c->inflight = 0;
		c->used_runnerd = 0;
		control_settle(c);
	}
}

static void
control_dispatch(int fd, short event, void *arg)
{
	struct imsgev	*iev = arg;
	struct ctl_conn	*c = iev->data;

	if (imsgev_io(&c->iev, event) == -1) {
		if (c->iev.ibuf.fds_refused)
			control_drop(c, "sent file descriptors; only root's "
			    "requests may carry one");
		else if (errno == 0 && imsg_pending(&c->iev.ibuf) > 0)
			control_drop(c, "closed in the middle of a request");
		else if (errno != 0)
			control_drop(c, strerror(errno));
		else
			control_close(c);
		return;
	}
	if (c->overflowed)
		return;		/* dropped on the next turn */
	if (c->paused) {
		if (imsg_queued_bytes(&c->iev.ibuf) > CONTROL_QUEUE_MAX) {
			imsgev_add(&c->iev);
			return;
		}
		control_resume(c);
		return;
	}
	control_process(c);
}

/* The requests read so far, until its replies pile up. */
static void
control_process(struct ctl_conn *c)
{
	struct imsg	 imsg;
	int		 n;

	if (c->closing) {
		if (imsg_queued(&c->iev.ibuf) == 0)
			control_close(c);
		else
			imsgev_add(&c->iev);
		return;
	}
	while (!c->overflowed && !c->paused &&
	    (n = imsg_get(&c->iev.ibuf, &imsg)) != 0) {
		if (n == -1) {
			control_drop(c, errno == ERANGE ? "oversized request" :
			    "malformed request");
			return;
		}
		n = control_dispatch_imsg(c, &imsg);
		imsg_free(&imsg);
		if (n == -1) {
			control_drop(c, "malformed request");
			return;
		}
		control_settle(c);
	}
	if (c->overflowed)
		return;		/* dropped on the next turn */
	/* Every whole message is in: an fd none of them claimed is stray. */
	if (!c->paused && imsg_pending(&c->iev.ibuf) == 0 &&
	    imsg_fds_held(&c->iev.ibuf) > 0) {
		control_drop(c, "sent a file descriptor with a request that "
		    "takes none");
		return;
	}
	imsgev_add(&c->iev);
}
