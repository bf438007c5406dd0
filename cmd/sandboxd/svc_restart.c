/*
 * When a service's instance ends: why, in words; whether its policy's
 * restart cap gives up on it; else a restart after an exponential
 * backoff with full jitter (sandboxd.conf(5), restart).  And its
 * watchdog: an instance silent for longer than its policy's watchdog is
 * aborted, then treated as any other failure (sandboxd(8)).
 */
#include <sys/types.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "services.h"

/* Its backoff is over: the next instance. */
void
svc_restart_cb(int fd, short event, void *arg)
{
	struct service	*s = arg;

	s->restarts++;
	svc_start_instance(s);
}

void
svc_watchdog_arm(struct service *s)
{
	const struct policy_msg	*p = svc_policy(s);
	struct timeval		 tv = { 0, 0 };

	if (p == NULL || p->watchdog == 0 || s->state != SVC_STATE_RUNNING)
		return;
	tv.tv_sec = p->watchdog;
	evtimer_add(&s->ev_watchdog, &tv);
}

/* Silent for longer than its watchdog: the abort sequence, then its policy. */
void
svc_watchdog_cb(int fd, short event, void *arg)
{
	struct service		*s = arg;
	const struct policy_msg	*p = svc_policy(s);

	if (s->state != SVC_STATE_RUNNING)
		return;
	s->watchdog_fired = 1;
	log_warnx("service %s: no health for %us; aborting it", s->name,
	    p != NULL ? p->watchdog : 0);
	svc_audit(s, "service.watchdog", json_pack("{s:I, s:i}", "watchdog",
	    (json_int_t)(p != NULL ? p->watchdog : 0), "pid", (int)s->pid));
	svc_kill(s);
}

void
services_health(const char *id)
{
	struct service	*s;

	TAILQ_FOREACH(s, &services, entry)
		if (s->state == SVC_STATE_RUNNING && strcmp(s->id, id) == 0) {
			evtimer_del(&s->ev_watchdog);
			svc_watchdog_arm(s);
			return;
		}
}

/* Why this instance ended, in words; 1 if that counts as a failure. */
int
svc_end_reason(struct service *s, char *buf, size_t len)
{
	const struct sbx_exec_result	*r = &s->result;

	if (!s->have_result) {
		snprintf(buf, len, "could not start: %.200s", s->start_err);
		return (1);
	}
	if (s->watchdog_fired) {
		snprintf(buf, len, "watchdog: no health in time, aborted "
		    "(%s %d)", r->signal ? "signal" : "status",
		    r->signal ? r->signal : r->status);
		return (1);
	}
	if (r->signal != 0) {
		snprintf(buf, len, "killed by signal %d (%s)", r->signal,
		    sigabbrev_np(r->signal) ? sigabbrev_np(r->signal) : "?");
		return (1);
	}
	snprintf(buf, len, "exited with status %d", r->status);
	return (r->status != 0 || r->reason != SBX_REASON_EXIT);
}

/* Restarts inside the window so far; the cap says whether one more. */
static int
svc_capped(struct service *s, const struct policy_msg *p, time_t now)
{
	unsigned int	 i, recent = 0;

	for (i = 0; i < CONF_RESTART_MAX; i++)
		if (s->restart_times[i] != 0 &&
		    now - s->restart_times[i] < (time_t)p->restart_window)
			recent++;
	return (recent >= p->restart_max);
}

/* Full jitter: uniform in [0, min(cap, base * 2^step)]. */
static uint32_t
svc_backoff(struct service *s, uint32_t *ceiling)
{
	uint32_t	 c = SVC_BACKOFF_BASE_MS;
	unsigned int	 i;

	for (i = 0; i < s->backoff_step && c < SVC_BACKOFF_CAP_MS; i++)
		c *= 2;
	if (c > SVC_BACKOFF_CAP_MS)
		c = SVC_BACKOFF_CAP_MS;
	*ceiling = c;
	return (arc4random_uniform(c + 1));
}

void
svc_schedule(struct service *s, const struct policy_msg *p)
{
	struct timeval	 tv;
	time_t		 now = monotime();
	uint32_t	 ceiling;
	char		 why[CTL_MSG_SIZE];

	if (svc_capped(s, p, now)) {
		s->state = SVC_STATE_FAILED;
		log_warnx("service %s: giving up after %u restarts within %us: "
		    "%s", s->name, p->restart_max, p->restart_window,
		    s->reason);
		svc_audit(s, "service.giveup", json_pack("{s:s, s:I, s:I}",
		    "reason", s->reason, "restart_max",
		    (json_int_t)p->restart_max, "restart_window",
		    (json_int_t)p->restart_window));
		strlcpy(why, s->reason, sizeof(why));
		snprintf(s->reason, sizeof(s->reason), "%.180s (gave up after "
		    "%u restarts within %us)", why, p->restart_max,
		    p->restart_window);
		return;
	}
	if (now - s->started >= SVC_STABLE_SECS)
		s->backoff_step = 0;
	s->backoff_ms = svc_backoff(s, &ceiling);
	s->restart_times[s->nrestart_times++ % CONF_RESTART_MAX] = now;
	s->backoff_step++;
	s->state = SVC_STATE_BACKOFF;
	svc_audit(s, "service.backoff", json_pack("{s:I, s:I, s:I}",
	    "delay_ms", (json_int_t)s->backoff_ms, "ceiling_ms",
	    (json_int_t)ceiling, "attempt", (json_int_t)s->backoff_step));
	log_info("service %s: restarting in %u ms", s->name, s->backoff_ms);
	tv.tv_sec = s->backoff_ms / 1000;
	tv.tv_usec = (s->backoff_ms % 1000) * 1000;
	evtimer_add(&s->ev_restart, &tv);
}
