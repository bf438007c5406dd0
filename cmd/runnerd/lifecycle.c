/*
 * A sandbox's lifecycle past create and destroy: a time to live and an
 * idle limit, each ending in an automatic destroy that is audited with
 * its reason; labels; pause and resume.  While a sandbox is paused no
 * clock of it runs: ttl, idle and its execs' timeouts are stopped with
 * what was left of them, and re-armed with that on resume.
 *
 * A pause is an event: the freezer is asked, the sandbox counts as
 * paused at once (execs and kills refused), and a short timer watches
 * until every task has stopped, which takes the sandbox's own CPU time,
 * before the pause is answered; past LIFE_FREEZE_MS it is thawed and
 * the pause fails.  A resume or destroy meanwhile answers it instead.
 */
#include <sys/types.h>
#include <sys/time.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "label.h"
#include "log.h"
#include "runnerd.h"

/* An exec timer stopped by a pause, and what was left of it. */
struct rlife_held {
	struct rexec		*exec;	/* compared, never followed */
	int			 abort;	/* ev_abort, else ev_timeout */
	struct timeval		 left;
};

#define LIFE_FREEZE_MS	2000	/* a loaded v1 host is slow */
#define LIFE_FREEZE_TICK_MS	2

static void	life_idle_arm(struct rsandbox *, const struct timespec *);
static void	life_pause_cancel(struct rsandbox *, const char *);

static void
ts_add(struct timespec *ts, const struct timespec *d)
{
	ts->tv_sec += d->tv_sec;
	ts->tv_nsec += d->tv_nsec;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

/* end - now, never below zero. */
static struct timespec
ts_left(const struct timespec *end)
{
	struct timespec	 now, d = { 0, 0 };

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > end->tv_sec || (now.tv_sec == end->tv_sec &&
	    now.tv_nsec >= end->tv_nsec))
		return (d);
	d.tv_sec = end->tv_sec - now.tv_sec;
	d.tv_nsec = end->tv_nsec - now.tv_nsec;
	if (d.tv_nsec < 0) {
		d.tv_sec--;
		d.tv_nsec += 1000000000L;
	}
	return (d);
}

/* Arm ev for d from now, and say when that is in *end. */
static void
life_arm(struct event *ev, struct timespec *end, const struct timespec *d)
{
	struct timeval	 tv;

	clock_gettime(CLOCK_MONOTONIC, end);
	ts_add(end, d);
	tv.tv_sec = d->tv_sec;
	tv.tv_usec = d->tv_nsec / 1000;
	evtimer_add(ev, &tv);
}

/* One JSON audit line, as the master, envd and dnspind write theirs. */
static void
life_audit(struct rsandbox *rs, const char *event, const char *reason,
    uint32_t secs)
{
	struct timespec	 ts;
	json_t		*a, *labels;
	const char	*p;
	char		*out, key[LABEL_KEY_MAX + 1];
	uint32_t	 i;

	clock_gettime(CLOCK_REALTIME, &ts);
	if ((labels = json_object()) == NULL)
		fatalx("%s: json_object", __func__);
	for (i = 0, p = rs->life.labels; i < rs->life.nlabels;
	    i++, p += strlen(p) + 1) {
		strlcpy(key, p, sizeof(key));
		key[strcspn(key, "=")] = '\0';
		json_object_set_new(labels, key,
		    json_string(p + strlen(key) + 1));
	}
	a = json_pack("{s:s, s:s, s:s, s:s, s:I, s:o, s:f}", "audit", event,
	    "sandbox", rs->sb.id, "corr", rs->corr, "reason", reason,
	    "limit", (json_int_t)secs, "labels", labels, "time",
	    ts.tv_sec + ts.tv_nsec / 1e9);
	if (a == NULL)
		fatalx("%s: json_pack", __func__);
	if ((out = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_REAL_PRECISION(15))) == NULL)
		fatalx("%s: json_dumps", __func__);
	log_info("audit %s", out);
	free(out);
	json_decref(a);
}

/* Destroyed by a clock: a run's client hears the end it waits for. */
static void
life_expire(struct rsandbox *rs, const char *reason, uint32_t secs)
{
	log_setcorr(rs->corr);
	log_info("sandbox %s: %s of %us reached: destroying it", rs->sb.id,
	    reason, (unsigned int)secs);
	life_audit(rs, "sandbox.expire", reason, secs);
	log_setcorr(NULL);
	if (rs->run_once)
		runnerd_retire(rs, rs->owner, rs->run_corr);
	else
		runnerd_retire(rs, 0, rs->corr);
}

static void
life_ttl_fired(int fd, short event, void *arg)
{
	struct rsandbox	*rs = arg;

	life_expire(rs, "ttl", rs->life.ttl);
}

static void
life_idle_fired(int fd, short event, void *arg)
{
	struct rsandbox	*rs = arg;

	rs->life.idle_on = 0;
	if (exec_count(rs) > 0)
		return;		/* an exec came; its end re-arms */
	life_expire(rs, "idle", rs->life.idle);
}

static void
life_idle_arm(struct rsandbox *rs, const struct timespec *d)
{
	life_arm(&rs->life.ev_idle, &rs->life.idle_end, d);
	rs->life.idle_on = 1;
}

void
life_begin(struct rsandbox *rs, const struct sbx_create_req *req)
{
	struct rlife		*l = &rs->life;
	const struct policy_msg	*p = &rs->sb.policy;
	struct timespec		 d = { 0, 0 };

	/* A service's sandboxes live as long as the service does. */
	l->ttl = req->ttl != 0 ? req->ttl : rs->service[0] == '\0' ?
	    p->ttl : 0;
	l->idle = req->idle != 0 ? req->idle : rs->service[0] == '\0' ?
	    p->idle : 0;
	l->nlabels = req->nlabels;
	l->labels_len = req->labels_len;
	memcpy(l->labels, req->labels, sizeof(l->labels));
	evtimer_set(&l->ev_ttl, life_ttl_fired, rs);
	evtimer_set(&l->ev_idle, life_idle_fired, rs);
	l->set = 1;
	if (l->ttl != 0) {
		d.tv_sec = l->ttl;
		life_arm(&l->ev_ttl, &l->ttl_end, &d);
	}
	life_activity(rs);
}

/* An exec began or ended, a file moved: the idle clock starts over. */
void
life_activity(struct rsandbox *rs)
{
	struct rlife	*l = &rs->life;
	struct timespec	 d = { 0, 0 };

	if (!l->set || l->idle == 0 || rstate_paused(rs) ||
	    rstate_ending(rs))
		return;
	if (l->idle_on) {
		evtimer_del(&l->ev_idle);
		l->idle_on = 0;
	}
	if (exec_count(rs) > 0)
		return;
	d.tv_sec = l->idle;
	life_idle_arm(rs, &d);
}

/* The teardown's first step (runnerd_teardown), before DYING. */
void
life_end(struct rsandbox *rs)
{
	struct rlife	*l = &rs->life;

	if (l->set) {
		evtimer_del(&l->ev_ttl);
		evtimer_del(&l->ev_idle);
		l->set = l->idle_on = 0;
	}
	life_pause_cancel(rs, "destroyed");
	free(l->held);
	l->held = NULL;
	l->nheld = 0;
	/* Killed while frozen, then thawed: nothing of it runs again. */
	sandbox_kill_paused(&rs->sb);
}

int
life_exec_refused(struct rsandbox *rs, const char *corr, uint32_t peerid)
{
	if (!rstate_paused(rs))
		return (0);
	runnerd_result(peerid, corr, EBUSY, "sandbox %s is paused: "
	    "sandboxctl resume %s first", rs->sb.id, rs->sb.id);
	return (1);
}

int
life_kill_refused(struct rsandbox *rs, const char *corr, uint32_t peerid)
{
	if (!rstate_paused(rs))
		return (0);
	runnerd_result(peerid, corr, EBUSY, "sandbox %s is paused: resume "
	    "it to kill its execs, or destroy it", rs->sb.id);
	return (1);
}

/* Stop one exec timer, keeping what was left of it. */
static void
life_hold(struct rlife *l, struct rexec *e, struct event *ev, int abort)
{
	struct timeval	 end, now;
	struct rlife_held *h;

	if (!evtimer_pending(ev, &end))
		return;
	evtimer_del(ev);
	if ((l->held = reallocarray(l->held, l->nheld + 1,
	    sizeof(*l->held))) == NULL)
		fatal("%s", __func__);
	h = &l->held[l->nheld++];
	h->exec = e;
	h->abort = abort;
	/* libevent reports a timer's end on the wall clock. */
	gettimeofday(&now, NULL);
	if (timercmp(&end, &now, >))
		timersub(&end, &now, &h->left);
	else
		timerclear(&h->left);
}

static void
life_stop_clocks(struct rsandbox *rs)
{
	struct rlife	*l = &rs->life;
	struct rexec	*e;

	if (l->ttl != 0 && l->set) {
		l->ttl_left = ts_left(&l->ttl_end);
		evtimer_del(&l->ev_ttl);
	}
	if (l->idle_on) {
		l->idle_left = ts_left(&l->idle_end);
		evtimer_del(&l->ev_idle);
	} else
		l->idle_left.tv_sec = l->idle_left.tv_nsec = -1;
	TAILQ_FOREACH(e, &rs->execs, entry) {
		life_hold(l, e, &e->ev_timeout, 0);
		life_hold(l, e, &e->ev_abort, 1);
	}
}

/* Each exec still there gets its own timers back, unless re-armed. */
static void
life_start_clocks(struct rsandbox *rs)
{
	struct rlife	*l = &rs->life;
	struct rexec	*e;
	struct event	*ev;
	size_t		 i;

	if (l->ttl != 0 && l->set)
		life_arm(&l->ev_ttl, &l->ttl_end, &l->ttl_left);
	if (l->idle_on && l->idle_left.tv_sec >= 0)
		life_idle_arm(rs, &l->idle_left);
	else
		/* An exec killed while it was paused may have been the last. */
		life_activity(rs);
	TAILQ_FOREACH(e, &rs->execs, entry)
		for (i = 0; i < l->nheld; i++) {
			if (l->held[i].exec != e)
				continue;
			ev = l->held[i].abort ? &e->ev_abort : &e->ev_timeout;
			if (!evtimer_pending(ev, NULL))
				evtimer_add(ev, &l->held[i].left);
		}
	free(l->held);
	l->held = NULL;
	l->nheld = 0;
}

static long
life_elapsed_ms(const struct timespec *t0)
{
	struct timespec	 now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ((now.tv_sec - t0->tv_sec) * 1000 +
	    (now.tv_nsec - t0->tv_nsec) / 1000000);
}

/* Frozen: the pause is answered.  Too slow: thawed, it fails. */
static void
life_pause_tick(int fd, short event, void *arg)
{
	struct rsandbox	*rs = arg;
	struct rlife	*l = &rs->life;
	struct timeval	 tv = { 0, LIFE_FREEZE_TICK_MS * 1000 };
	char		 err[256];

	if (!sandbox_pause_done(&rs->sb)) {
		if (life_elapsed_ms(&l->pause_t0) < LIFE_FREEZE_MS) {
			evtimer_add(&l->ev_pause, &tv);
			return;
		}
		/* Left frozen if the thaw failed: paused, as it is. */
		if (sandbox_resume(&rs->sb, err, sizeof(err)) == -1) {
			log_warnx("%s: %s", __func__, err);
			rstate_set(rs, RS_PAUSED);
		} else {
			rstate_set(rs, RS_LIVE);
			life_start_clocks(rs);
		}
		runnerd_result(l->pause_peer, l->pause_corr, ENOTSUP,
		    "pause: sandbox %s did not freeze within %d ms; left "
		    "running", rs->sb.id, LIFE_FREEZE_MS);
		return;
	}
	rstate_set(rs, RS_PAUSED);
	log_setcorr(l->pause_corr);
	log_info("sandbox %s paused", rs->sb.id);
	log_setcorr(NULL);
	runnerd_result(l->pause_peer, l->pause_corr, 0, "paused");
}

/*
 * A pause still freezing is answered: the sandbox is being resumed or
 * destroyed, and its caller sets the state that follows.
 */
static void
life_pause_cancel(struct rsandbox *rs, const char *why)
{
	struct rlife	*l = &rs->life;

	if (rs->state != RS_FREEZING)
		return;
	evtimer_del(&l->ev_pause);
	runnerd_result(l->pause_peer, l->pause_corr, ECANCELED, "pause: "
	    "sandbox %s was %s before it froze", rs->sb.id, why);
}

void
life_pause(struct rsandbox *rs, const char *corr, uint32_t peerid)
{
	struct rlife	*l = &rs->life;
	struct rexec	*e;
	char		 err[256];

	if (rs->state == RS_PAUSED) {
		runnerd_result(peerid, corr, 0, "paused");
		return;
	}
	if (!runnerd_ready(rs)) {
		runnerd_result(peerid, corr, EAGAIN, "sandbox %s is still "
		    "being built; try again", rs->sb.id);
		return;
	}
	/* Its supervisor (the master) must be able to stop it any time. */
	if (rs->service[0] != '\0') {
		runnerd_result(peerid, corr, EPERM, "sandbox %s runs service "
		    "%s: a service's sandbox is not paused", rs->sb.id,
		    rs->service);
		return;
	}
	/* Its pid 1 must answer an exec's start: none may be under way. */
	TAILQ_FOREACH(e, &rs->execs, entry)
		if (e->env != NULL) {
			runnerd_result(peerid, corr, EAGAIN, "sandbox %s has "
			    "an exec starting; try again", rs->sb.id);
			return;
		}
	if (rs->state == RS_FREEZING) {
		runnerd_result(peerid, corr, EAGAIN, "sandbox %s is still "
		    "freezing; try again", rs->sb.id);
		return;
	}
	if (sandbox_pause_begin(&rs->sb, err, sizeof(err)) == -1) {
		runnerd_result(peerid, corr, ENOTSUP, "pause: %s", err);
		return;
	}
	life_stop_clocks(rs);
	rstate_set(rs, RS_FREEZING);
	l->pause_peer = peerid;
	strlcpy(l->pause_corr, corr, sizeof(l->pause_corr));
	clock_gettime(CLOCK_MONOTONIC, &l->pause_t0);
	if (!evtimer_initialized(&l->ev_pause))
		evtimer_set(&l->ev_pause, life_pause_tick, rs);
	life_pause_tick(-1, 0, rs);
}

void
life_resume(struct rsandbox *rs, const char *corr, uint32_t peerid)
{
	char	 err[256];

	if (!rstate_paused(rs)) {
		runnerd_result(peerid, corr, 0, "running");
		return;
	}
	life_pause_cancel(rs, "resumed");
	if (sandbox_resume(&rs->sb, err, sizeof(err)) == -1) {
		/* Still frozen, a pause under way answered: paused. */
		if (rs->state == RS_FREEZING)
			rstate_set(rs, RS_PAUSED);
		runnerd_result(peerid, corr, EIO, "resume: %s", err);
		return;
	}
	rstate_set(rs, RS_LIVE);
	life_start_clocks(rs);
	log_setcorr(corr);
	log_info("sandbox %s resumed", rs->sb.id);
	log_setcorr(NULL);
	runnerd_result(peerid, corr, 0, "resumed");
}

static int64_t
life_secs(const struct timespec *d)
{
	return (d->tv_sec + (d->tv_nsec > 0));
}

void
life_info(struct rsandbox *rs, struct sbx_info *info)
{
	struct rlife	*l = &rs->life;
	struct timespec	 d;

	info->paused = rstate_paused(rs);
	info->ttl = l->ttl;
	info->idle = l->idle;
	info->ttl_left = info->idle_left = -1;
	if (l->set && l->ttl != 0) {
		d = rstate_paused(rs) ? l->ttl_left : ts_left(&l->ttl_end);
		info->ttl_left = life_secs(&d);
	}
	if (l->set && l->idle_on) {
		d = rstate_paused(rs) ? l->idle_left :
		    ts_left(&l->idle_end);
		info->idle_left = d.tv_sec < 0 ? -1 : life_secs(&d);
	}
	info->nlabels = l->nlabels;
	info->labels_len = l->labels_len;
	memcpy(info->labels, l->labels, sizeof(info->labels));
}
