/*
 * Exec records: every exec of a sandbox has one, from its request
 * until its retention runs out, so that it can be listed (ps ID),
 * waited for, attached to and signalled by its id "<sandbox>.<n>".
 *
 * A detached exec's output is kept here, in runnerd, in the order it
 * was sent, within the policy's per-stream caps (what passes them was
 * never kept by exec.c either): the master only relays it to whoever
 * attaches, and holds none of it.  An exec that has a client of its
 * own streams to it and keeps nothing.  A finished record stays for
 * the configured exec retention, and at most exec history of them per
 * sandbox; the sandbox's end forgets them all.
 */
#include <sys/types.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "child.h"
#include "log.h"
#include "runnerd.h"
#include "sbx_msg.h"

/* Someone attached to (follow) or waiting for (result only) an exec. */
struct execpeer {
	TAILQ_ENTRY(execpeer)	 entry;
	uint32_t		 peerid;
	int			 follow;
};

/* Kept output: chunks of a struct execchunk then its bytes. */
struct execchunk {
	uint32_t	 stream;	/* enum sbx_stream */
	uint32_t	 len;
};

struct execrec {
	TAILQ_ENTRY(execrec)	 entry;
	struct rsandbox		*rs;
	struct rexec		*e;		/* NULL once finished */
	uint32_t		 exec_id;
	uint32_t		 state;		/* enum sbx_exec_state */
	int			 detached;
	pid_t			 pid;
	time_t			 started;
	time_t			 ended;
	struct sbx_exec_result	 res;		/* once finished */
	char			*kept;		/* execchunks */
	size_t			 kept_len;
	size_t			 kept_size;
	TAILQ_HEAD(, execpeer)	 peers;
	int			 npeers;
	struct event		 ev_expire;
	char			 command[CTL_MSG_SIZE];
};

/* Clients attached or waiting, over all execs: most often none. */
static uint32_t	 execrec_npeers;

static void
execrec_command(struct execrec *r, const struct sbx_exec_req *req)
{
	const char	*p = req->args;
	size_t		 n = 0;
	uint32_t	 i;

	for (i = 0; i < req->argc && n + 1 < sizeof(r->command); i++) {
		if (i > 0)
			r->command[n++] = ' ';
		n += strlcpy(r->command + n, p, sizeof(r->command) - n);
		if (n >= sizeof(r->command))
			n = sizeof(r->command) - 1;
		p += strlen(p) + 1;
	}
	r->command[n] = '\0';
}

void
execrec_new(struct rexec *e, const struct sbx_exec_req *req)
{
	struct execrec	*r;

	if ((r = calloc(1, sizeof(*r))) == NULL)
		fatal("%s", __func__);
	r->rs = e->rs;
	r->e = e;
	r->exec_id = e->id;
	r->state = SBX_EXEC_STARTING;
	r->detached = e->detached;
	r->started = time(NULL);
	TAILQ_INIT(&r->peers);
	execrec_command(r, req);
	TAILQ_INSERT_TAIL(&e->rs->recs, r, entry);
	e->rec = r;
}

void
execrec_started(struct rexec *e, struct sbx_exec_start *st)
{
	struct execrec	*r = e->rec;

	r->state = SBX_EXEC_RUNNING;
	r->pid = e->pid;
	r->started = time(NULL);
	sbx_format_exec_id(st->exec, e->rs->sb.id, e->id);
	st->detached = e->detached;
	st->started = r->started;
}

static void
execrec_send_output(uint32_t peerid, struct execrec *r, uint32_t stream,
    const char *data, size_t len)
{
	struct sbx_output_hdr	 hdr;
	struct ibuf		*b;

	memset(&hdr, 0, sizeof(hdr));
	strlcpy(hdr.id, r->rs->sb.id, sizeof(hdr.id));
	hdr.exec_id = r->exec_id;
	hdr.stream = stream;
	hdr.len = len;
	if ((b = imsg_create(&child_iev_main()->ibuf, IMSG_CTL_OUTPUT,
	    peerid, 0, sizeof(hdr) + len)) == NULL ||
	    imsg_add(b, &hdr, sizeof(hdr)) == -1 ||
	    imsg_add(b, data, len) == -1)
		fatal("%s", __func__);
	imsg_close(&child_iev_main()->ibuf, b);
	imsgev_add(child_iev_main());
}

/* Keep the chunk (exec.c kept it under the caps), and pass it on. */
static void
execrec_keep(struct execrec *r, uint32_t stream, const char *data,
    size_t len)
{
	struct execchunk	 c;
	size_t			 need = r->kept_len + sizeof(c) + len, nsize;
	char			*p;

	if (need > r->kept_size) {
		for (nsize = r->kept_size ? r->kept_size : 4096;
		    nsize < need; nsize *= 2)
			;
		if ((p = realloc(r->kept, nsize)) == NULL)
			fatal("%s", __func__);
		r->kept = p;
		r->kept_size = nsize;
	}
	c.stream = stream;
	c.len = len;
	memcpy(r->kept + r->kept_len, &c, sizeof(c));
	memcpy(r->kept + r->kept_len + sizeof(c), data, len);
	r->kept_len = need;
}

void
execrec_output(struct rexec *e, uint32_t stream, const char *data,
    size_t len)
{
	struct execrec	*r = e->rec;
	struct execpeer	*p;

	if (r == NULL || len == 0)
		return;
	if (r->detached)
		execrec_keep(r, stream, data, len);
	TAILQ_FOREACH(p, &r->peers, entry)
		if (p->follow)
			execrec_send_output(p->peerid, r, stream, data, len);
}

static void
execrec_free(struct execrec *r)
{
	struct execpeer	*p;

	while ((p = TAILQ_FIRST(&r->peers)) != NULL) {
		TAILQ_REMOVE(&r->peers, p, entry);
		free(p);
		execrec_npeers--;
	}
	if (r->state == SBX_EXEC_DONE) {
		evtimer_del(&r->ev_expire);
		r->rs->nrecs_done--;
	}
	TAILQ_REMOVE(&r->rs->recs, r, entry);
	free(r->kept);
	free(r);
}

static void
execrec_expire(int fd, short event, void *arg)
{
	struct execrec	*r = arg;

	log_debug("sandbox %s exec %u: retention over, forgotten",
	    r->rs->sb.id, r->exec_id);
	execrec_free(r);
}

/* Past exec history finished records, the oldest finished goes. */
static void
execrec_trim(struct rsandbox *rs)
{
	struct execrec	*r, *next;

	TAILQ_FOREACH_SAFE(r, &rs->recs, entry, next) {
		if (rs->nrecs_done <= runnerd_conf->global.exec_history)
			break;
		if (r->state == SBX_EXEC_DONE)
			execrec_free(r);
	}
}

void
execrec_finished(struct rexec *e, struct sbx_exec_result *res)
{
	struct execrec	*r = e->rec;
	struct execpeer	*p;
	struct timeval	 tv = { runnerd_conf->global.exec_retention, 0 };

	if (r == NULL)
		return;
	e->rec = NULL;
	r->e = NULL;
	r->res = *res;
	r->state = SBX_EXEC_DONE;
	r->ended = time(NULL);
	while ((p = TAILQ_FIRST(&r->peers)) != NULL) {
		runnerd_reply(IMSG_CTL_EXEC_RESULT, p->peerid, res,
		    sizeof(*res));
		TAILQ_REMOVE(&r->peers, p, entry);
		free(p);
		execrec_npeers--;
	}
	r->npeers = 0;
	r->rs->nrecs_done++;
	evtimer_set(&r->ev_expire, execrec_expire, r);
	evtimer_add(&r->ev_expire, &tv);
	execrec_trim(r->rs);
}

/* It never started: whoever waited hears so. */
void
execrec_discard(struct rexec *e)
{
	struct execrec	*r = e->rec;
	struct execpeer	*p;

	e->rec = NULL;
	TAILQ_FOREACH(p, &r->peers, entry)
		runnerd_result(p->peerid, "", ECANCELED, "exec %s.%u ended "
		    "before it started", r->rs->sb.id, r->exec_id);
	execrec_free(r);
}

void
execrec_forget_all(struct rsandbox *rs)
{
	struct execrec	*r;

	while ((r = TAILQ_FIRST(&rs->recs)) != NULL) {
		if (r->e != NULL)
			execrec_discard(r->e);
		else
			execrec_free(r);
	}
}

void
execrec_client_gone(uint32_t peerid)
{
	struct rsandbox	*rs;
	struct execrec	*r;
	struct execpeer	*p, *next;

	/* Every client's end comes here: the common case costs nothing. */
	if (execrec_npeers == 0)
		return;
	RB_FOREACH(rs, rsandbox_tree, &rsandboxes)
		TAILQ_FOREACH(r, &rs->recs, entry)
			TAILQ_FOREACH_SAFE(p, &r->peers, entry, next)
				if (p->peerid == peerid) {
					TAILQ_REMOVE(&r->peers, p, entry);
					free(p);
					r->npeers--;
					execrec_npeers--;
				}
}

static void
execrec_info(struct execrec *r, struct sbx_exec_info *info)
{
	memset(info, 0, sizeof(*info));
	strlcpy(info->id, r->rs->sb.id, sizeof(info->id));
	sbx_format_exec_id(info->exec, r->rs->sb.id, r->exec_id);
	info->exec_id = r->exec_id;
	info->state = r->state;
	info->pid = r->pid;
	info->detached = r->detached;
	info->attached = r->npeers;
	info->started = r->started;
	info->ended = r->ended;
	strlcpy(info->command, r->command, sizeof(info->command));
	if (r->state == SBX_EXEC_DONE) {
		info->status = r->res.status;
		info->signal = r->res.signal;
		info->reason = r->res.reason;
		info->truncated_stdout = r->res.truncated_stdout;
		info->truncated_stderr = r->res.truncated_stderr;
		info->bytes_stdout = r->res.bytes_stdout;
		info->bytes_stderr = r->res.bytes_stderr;
	} else if (r->e != NULL) {
		info->bytes_stdout = r->e->out[0].produced;
		info->bytes_stderr = r->e->out[1].produced;
	}
}

static void
execrec_list(struct rsandbox *rs, const struct sbx_exec_op *op,
    uint32_t peerid)
{
	struct execrec		*r;
	struct sbx_exec_info	 info;

	TAILQ_FOREACH(r, &rs->recs, entry) {
		execrec_info(r, &info);
		runnerd_reply(IMSG_CTL_EXEC_INFO, peerid, &info, sizeof(info));
	}
	runnerd_result(peerid, op->corr, 0, "%s", "");
}

/* The kept output, in the order it came, then what follows live. */
static void
execrec_replay(struct execrec *r, uint32_t peerid)
{
	struct execchunk	 c;
	size_t			 off = 0;

	while (off < r->kept_len) {
		memcpy(&c, r->kept + off, sizeof(c));
		execrec_send_output(peerid, r, c.stream,
		    r->kept + off + sizeof(c), c.len);
		off += sizeof(c) + c.len;
	}
}

static void
execrec_attach(struct execrec *r, const struct sbx_exec_op *op,
    uint32_t peerid)
{
	struct sbx_exec_start	 st;
	struct execpeer		*p;
	int			 follow = op->op == SBX_EXEC_OP_ATTACH;

	if (r->state != SBX_EXEC_DONE && r->npeers >= EXEC_ATTACH_MAX) {
		runnerd_result(peerid, op->corr, EBUSY, "exec %s.%u has %d "
		    "clients attached or waiting already, the most there may "
		    "be", r->rs->sb.id, r->exec_id, EXEC_ATTACH_MAX);
		return;
	}
	if (follow) {
		memset(&st, 0, sizeof(st));
		strlcpy(st.id, r->rs->sb.id, sizeof(st.id));
		st.exec_id = r->exec_id;
		st.pid = r->pid;
		st.timeout = r->e != NULL ? r->e->timeout : 0;
		sbx_format_exec_id(st.exec, st.id, st.exec_id);
		st.detached = r->detached;
		st.replay = r->detached;
		st.started = r->started;
		runnerd_reply(IMSG_CTL_EXEC_START, peerid, &st, sizeof(st));
		execrec_replay(r, peerid);
	}
	if (r->state == SBX_EXEC_DONE) {
		runnerd_reply(IMSG_CTL_EXEC_RESULT, peerid, &r->res,
		    sizeof(r->res));
		return;
	}
	if ((p = calloc(1, sizeof(*p))) == NULL)
		fatal("%s", __func__);
	p->peerid = peerid;
	p->follow = follow;
	TAILQ_INSERT_TAIL(&r->peers, p, entry);
	r->npeers++;
	execrec_npeers++;
}

static void
execrec_kill(struct execrec *r, const struct sbx_exec_op *op,
    uint32_t peerid)
{
	if (r->e == NULL) {
		runnerd_result(peerid, op->corr, ESRCH, "exec %s.%u has ended "
		    "already", r->rs->sb.id, r->exec_id);
		return;
	}
	log_setcorr(op->corr);
	log_info("sandbox %s exec %u: signal %d by request", r->rs->sb.id,
	    r->exec_id, op->signal);
	log_setcorr(NULL);
	if (exec_signal(r->e, op->signal) == -1)
		runnerd_result(peerid, op->corr, ESRCH, "exec %s.%u has no "
		    "process left to signal", r->rs->sb.id, r->exec_id);
	else
		runnerd_result(peerid, op->corr, 0, "signalled");
}

void
execrec_request(struct rsandbox *rs, const struct sbx_exec_op *op,
    uint32_t peerid)
{
	struct execrec	*r;

	if (op->op == SBX_EXEC_OP_LIST) {
		execrec_list(rs, op, peerid);
		return;
	}
	TAILQ_FOREACH(r, &rs->recs, entry)
		if (r->exec_id == op->exec_id)
			break;
	if (r == NULL) {
		runnerd_result(peerid, op->corr, ENOENT, "no such exec: %s.%u "
		    "(never started, or forgotten after its retention)",
		    rs->sb.id, op->exec_id);
		return;
	}
	if (op->op == SBX_EXEC_OP_SIGNAL)
		execrec_kill(r, op, peerid);
	else
		execrec_attach(r, op, peerid);
}
