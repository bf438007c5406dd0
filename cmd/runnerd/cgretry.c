/*
 * A sandbox's cgroup still busy at its teardown (its last tasks die on
 * their own CPU time, a starved sandbox's slowly) is removed from a
 * timer instead of waited for in the loop: every CGRETRY_TICK_MS, each
 * try killing and thawing what is left, for SBX_KILL_WAIT_MS; then it
 * is given up with a warning (the next runnerd's reconcile removes it).
 * Its id stays taken until then: a service's next sandbox waits.
 */
#include <sys/types.h>
#include <sys/queue.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "runnerd.h"

#define CGRETRY_TICK_MS	5

struct cgretry {
	TAILQ_ENTRY(cgretry)	 entry;
	char			 id[SANDBOX_ID_SIZE];
	struct timespec		 t0;
};

static void	cgretry_tick_cb(int, short, void *);

static TAILQ_HEAD(, cgretry)	 cgretries = TAILQ_HEAD_INITIALIZER(cgretries);
static struct event		 ev_cgretry;

static long
cgretry_elapsed_ms(const struct timespec *t0)
{
	struct timespec	 now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ((now.tv_sec - t0->tv_sec) * 1000 +
	    (now.tv_nsec - t0->tv_nsec) / 1000000);
}

static void
cgretry_arm(void)
{
	struct timeval	 tv = { 0, CGRETRY_TICK_MS * 1000 };

	if (!evtimer_initialized(&ev_cgretry))
		evtimer_set(&ev_cgretry, cgretry_tick_cb, NULL);
	if (!evtimer_pending(&ev_cgretry, NULL))
		evtimer_add(&ev_cgretry, &tv);
}

static void
cgretry_done(struct cgretry *c)
{
	char	 id[SANDBOX_ID_SIZE];

	strlcpy(id, c->id, sizeof(id));
	TAILQ_REMOVE(&cgretries, c, entry);
	free(c);
	runnerd_id_freed(id);
}

static void
cgretry_tick_cb(int fd, short event, void *arg)
{
	struct cgretry	*c, *next;

	TAILQ_FOREACH_SAFE(c, &cgretries, entry, next) {
		if (!sandbox_cgroup_retry(c->id, 0)) {
			cgretry_done(c);
			continue;
		}
		if (cgretry_elapsed_ms(&c->t0) >= SBX_KILL_WAIT_MS) {
			log_warnx("sandbox %s: its cgroup is still busy after "
			    "%d ms: left behind", c->id, SBX_KILL_WAIT_MS);
			cgretry_done(c);
		}
	}
	if (!TAILQ_EMPTY(&cgretries))
		cgretry_arm();
}

void
cgretry_add(const char *id)
{
	struct cgretry	*c;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		fatal("%s", __func__);
	strlcpy(c->id, id, sizeof(c->id));
	clock_gettime(CLOCK_MONOTONIC, &c->t0);
	TAILQ_INSERT_TAIL(&cgretries, c, entry);
	cgretry_arm();
}

int
cgretry_pending(const char *id)
{
	struct cgretry	*c;

	TAILQ_FOREACH(c, &cgretries, entry)
		if (strcmp(c->id, id) == 0)
			return (1);
	return (0);
}

/* sandbox_destroy, and its cgroup retried here if still busy. */
void
cgretry_destroy(struct sandbox *sb, int keep)
{
	sandbox_destroy(sb, keep);
	if (sb->cgroup_busy)
		cgretry_add(sb->id);
}

/* A clean stop, the loop is over: each waited for, as before. */
void
cgretry_flush(void)
{
	struct cgretry	*c;

	if (evtimer_initialized(&ev_cgretry))
		evtimer_del(&ev_cgretry);
	while ((c = TAILQ_FIRST(&cgretries)) != NULL) {
		if (sandbox_cgroup_retry(c->id, SBX_KILL_WAIT_MS))
			log_warnx("sandbox %s: its cgroup is still busy at "
			    "the stop: left behind", c->id);
		cgretry_done(c);
	}
}
