/*
 * Under a service manager, the master pings every child once a tick
 * and tells the manager WATCHDOG=1 only while each running child
 * answers: a hung master sends nothing, a hung child (stopped, stuck in
 * a loop) stops the master's pings, and the manager restarts the
 * service.  A dead child is not a hang; children.c restarts it.  The
 * pongs also carry runnerd's sandbox count for the STATUS= line.
 * Without $NOTIFY_SOCKET nothing here runs.
 */
#include <sys/types.h>

#include <time.h>

#include "log.h"
#include "msgtab.h"
#include "sandboxd.h"
#include "sdnotify.h"

#define WATCHDOG_TICK_MS	1000	/* at most, between two pings */
#define WATCHDOG_TICK_MIN_MS	100
#define WATCHDOG_HANG_MS	10000	/* without a manager's watchdog */

static struct event	 ev_tick;
static uint64_t		 tick_ms, hang_ms;

uint64_t
monotime_ms(void)
{
	struct timespec	 ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		fatal("%s: clock_gettime", __func__);
	return ((uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Ping it unless a ping is still unanswered; 0 if it is not hung. */
static int
watchdog_child(struct child *c, uint64_t now)
{
	struct proc_ping	 ping;

	if (c->state == PROC_STATE_STARTING && c->pid > 0)
		return ((uint64_t)(monotime() - c->started) * 1000 > hang_ms);
	if (c->state != PROC_STATE_RUNNING || !c->iev_open)
		return (0);
	if (c->ping_seq != c->pong_seq) {
		if (now - c->ping_sent_ms <= hang_ms)
			return (0);
		if (!c->hung)
			log_warnx("%s: %s (pid %d) has not answered for %llu "
			    "ms; the service manager's watchdog is no longer "
			    "fed", __func__, c->spec->name, (int)c->pid,
			    (unsigned long long)(now - c->ping_sent_ms));
		c->hung = 1;
		return (1);
	}
	ping.seq = ++c->ping_seq;
	c->ping_sent_ms = now;
	imsgev_compose(&c->iev, IMSG_PROC_PING, 0, 0, -1, &ping,
	    sizeof(ping));
	return (0);
}

static void
watchdog_tick(int fd, short event, void *arg)
{
	struct timeval	 tv;
	uint64_t	 now = monotime_ms();
	int		 i, hung = 0;

	for (i = 0; i < PROC_MAX; i++)
		hung += watchdog_child(&sbx->children[i], now);
	if (hung == 0 && sdnotify_watchdog_usec() > 0)
		sdnotify("WATCHDOG=1");
	notify_status();
	tv.tv_sec = tick_ms / 1000;
	tv.tv_usec = (tick_ms % 1000) * 1000;
	evtimer_add(&ev_tick, &tv);
}

/* A child's answer: it lives, and says how loaded it is. */
int
watchdog_pong(struct child *c, struct imsg *imsg)
{
	const struct proc_pong	*pong;

	pong = IMSG_PAYLOAD(imsg, struct proc_pong);
	if (pong->seq != c->ping_seq)
		return (-1);
	c->pong_seq = pong->seq;
	c->load = pong->load;
	if (c->hung)
		log_info("%s: %s (pid %d) answers again", __func__,
		    c->spec->name, (int)c->pid);
	c->hung = 0;
	return (0);
}

/* A new instance of a child owes nothing. */
void
watchdog_reset(struct child *c)
{
	c->ping_seq = c->pong_seq = 0;
	c->hung = 0;
	c->load = 0;
}

/*
 * Tick at a quarter of the manager's interval (at most a second, for
 * STATUS=); a child is hung once it leaves a ping unanswered for half
 * of it, so the manager sees the silence well within its interval.
 */
void
watchdog_init(void)
{
	uint64_t	 wd_ms = sdnotify_watchdog_usec() / 1000;

	if (!sdnotify_active())
		return;
	tick_ms = WATCHDOG_TICK_MS;
	hang_ms = WATCHDOG_HANG_MS;
	if (wd_ms > 0) {
		if (wd_ms / 4 < tick_ms)
			tick_ms = wd_ms / 4;
		if (tick_ms < WATCHDOG_TICK_MIN_MS)
			tick_ms = WATCHDOG_TICK_MIN_MS;
		hang_ms = wd_ms / 2;
		if (hang_ms < 2 * tick_ms)
			hang_ms = 2 * tick_ms;
		log_info("%s: feeding the service manager's watchdog every "
		    "%llu ms", __func__, (unsigned long long)tick_ms);
	}
	evtimer_set(&ev_tick, watchdog_tick, NULL);
	watchdog_tick(-1, 0, NULL);
}
