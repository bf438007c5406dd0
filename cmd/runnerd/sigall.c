/*
 * Signalling every process of a sandbox but its pid 1, as events: the
 * freezer's stop and a SIGKILL's deaths take the sandbox's own CPU
 * time, which a starved sandbox (cpu 1%) gets one slice per 100 ms
 * period; runnerd serves everyone else meanwhile.
 *
 * A sweep: freeze (a stable snapshot: nobody forks between the read of
 * the cgroup and the signal), wait until frozen or SIGALL_FREEZE_MS,
 * signal, thaw.  A SIGKILL sweep then follows the sandbox until nothing
 * but pid 1 is left or SBX_KILL_WAIT_MS have passed, and tells exec.c
 * (exec_killed), whose results wait for it.  Sweeps asked for while
 * one runs follow it; a SIGKILL makes a pending SIGTERM pointless.
 */
#include <sys/types.h>

#include <signal.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "runnerd.h"

#define SIGALL_FREEZE_MS	500
#define SIGALL_TICK_MS		2

static void	sigall_tick(int, short, void *);

static long
sigall_elapsed_ms(const struct timespec *t0)
{
	struct timespec	 now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ((now.tv_sec - t0->tv_sec) * 1000 +
	    (now.tv_nsec - t0->tv_nsec) / 1000000);
}

static void
sigall_later(struct rsandbox *rs, int ms)
{
	struct timeval	 tv = { ms / 1000, (ms % 1000) * 1000 };

	evtimer_add(&rs->sig.ev, &tv);
}

/* The next sweep asked for, if any. */
static void
sigall_next(struct rsandbox *rs)
{
	struct rsigall	*s = &rs->sig;

	s->step = SIGALL_IDLE;
	if (s->want_kill)
		s->sig = SIGKILL;
	else if (s->want_term)
		s->sig = SIGTERM;
	else
		return;
	if (s->sig == SIGKILL)
		s->want_kill = s->want_term = 0;
	else
		s->want_term = 0;
	s->frozen = sandbox_freeze(&rs->sb, 1) == 0;
	s->step = SIGALL_FREEZING;
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	sigall_later(rs, 0);
}

static void
sigall_freezing(struct rsandbox *rs)
{
	struct rsigall	*s = &rs->sig;

	if (s->frozen && !sandbox_frozen(&rs->sb)) {
		if (sigall_elapsed_ms(&s->t0) < SIGALL_FREEZE_MS) {
			sigall_later(rs, SIGALL_TICK_MS);
			return;
		}
		log_warnx("%s: sandbox %s: still freezing after %d ms",
		    __func__, rs->sb.id, SIGALL_FREEZE_MS);
	}
	sandbox_signal_procs(&rs->sb, s->sig);
	if (s->frozen)
		sandbox_freeze(&rs->sb, 0);
	if (s->sig != SIGKILL) {
		sigall_next(rs);
		return;
	}
	s->step = SIGALL_REAPING;
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	sigall_later(rs, 0);
}

/* After SIGKILL: until nothing but pid 1 is left. */
static void
sigall_reaping(struct rsandbox *rs)
{
	struct rsigall	*s = &rs->sig;

	if (sandbox_nprocs(&rs->sb) > 0) {
		if (sigall_elapsed_ms(&s->t0) < SBX_KILL_WAIT_MS) {
			sandbox_signal_procs(&rs->sb, SIGKILL);
			sigall_later(rs, SIGALL_TICK_MS);
			return;
		}
		log_warnx("%s: sandbox %s: processes survive SIGKILL",
		    __func__, rs->sb.id);
	}
	sigall_next(rs);
	/* Last: exec_killed may end the sandbox. */
	exec_killed(rs);
}

static void
sigall_tick(int fd, short event, void *arg)
{
	struct rsandbox	*rs = arg;

	switch (rs->sig.step) {
	case SIGALL_FREEZING:
		sigall_freezing(rs);
		break;
	case SIGALL_REAPING:
		sigall_reaping(rs);
		break;
	case SIGALL_IDLE:
		break;
	}
}

void
sigall_send(struct rsandbox *rs, int sig)
{
	struct rsigall	*s = &rs->sig;

	if (!evtimer_initialized(&s->ev))
		evtimer_set(&s->ev, sigall_tick, rs);
	if (sig == SIGKILL)
		s->want_kill = 1;
	else
		s->want_term = 1;
	if (s->step == SIGALL_IDLE)
		sigall_next(rs);
}

/* A SIGKILL sweep asked for or under way: its exec results wait. */
int
sigall_killing(const struct rsandbox *rs)
{
	return (rs->sig.want_kill ||
	    (rs->sig.step != SIGALL_IDLE && rs->sig.sig == SIGKILL));
}

/* The sandbox goes: pid 1's death takes the rest, no sweep needed. */
void
sigall_cancel(struct rsandbox *rs)
{
	struct rsigall	*s = &rs->sig;

	if (!evtimer_initialized(&s->ev))
		return;
	evtimer_del(&s->ev);
	if (s->step == SIGALL_FREEZING && s->frozen)
		sandbox_freeze(&rs->sb, 0);
	s->step = SIGALL_IDLE;
	s->want_kill = s->want_term = 0;
}
