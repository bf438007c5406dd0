/*
 * The life of one sandbox in runnerd, as a state machine: every state
 * a struct rsandbox is in, and the moves between them.  rstate_set is
 * the only place its state changes; a move the table does not allow
 * is a bug in runnerd, and fatal.
 *
 *   (prebuild: spare.c)      NEW  (a client's create or run: runnerd.c)
 *          +----------------/   \-------------------+
 *          v                                         v
 *   SPARE_BUILDING ------------(taken)----------> BUILDING
 *          |                                         |
 *          | (pid 1 reported)                        | (pid 1 reported)
 *          v                                         v
 *        SPARE -----(taken, netd asked)------> NET_WAIT
 *          |                                         | (netd's NET_READY)
 *          +---------(taken, no network)----------+  v
 *                                                 +-> LIVE <------------+
 *                                    (pause: freezer)  |                 |
 *                                                   FREEZING --(thawed)--+
 *                                        (all stopped) |                 |
 *                                                    PAUSED --(resume)---+
 *
 *   any of the above but NEW: a client's destroy, the end of a run, ttl,
 *   idle, a client gone, a failed build, netd's refusal, runnerd's stop,
 *   a spare dropped or found dead
 *          |
 *          v
 *        DYING  (pid 1 killed; execs, copiers and network gone)
 *          |  (pid 1's pidfd: buried, its uid free)
 *          +--------------> UNMOUNTING  (the unmounter works)
 *          |                    |
 *          |                    | (done, the cgroup still busy)
 *          +--------------> CGROUP_RETRY  (cgretry.c's timer)
 *          |                    |
 *          v                    v
 *         GONE <----------------+------ NEW (a create that failed before
 *                                            its build: nothing to kill)
 *
 * BUILDING goes straight to LIVE when netd answered first or there is
 * no network, and UNMOUNTING straight to GONE when the unmounter found
 * the cgroup empty.  The table below is the truth; state_test checks it.
 *
 * The one teardown (runnerd_teardown, runnerd.c) walks DYING to GONE
 * in one order for every way a sandbox ends; see the comment there.
 * The network's own progress (rs->net) and an exec's wait for envd
 * (rexec_env) are not states of the sandbox: netd works while pid 1
 * builds, and each exec waits for its own environment.
 */
#include <sys/types.h>

#include "log.h"
#include "runnerd.h"

#define TO(s)	(1U << (s))

static const struct {
	const char	*name;
	unsigned int	 to;		/* TO() of each state it may go to */
} rstates[RS_NSTATES] = {
	[RS_NEW] =		{ "new",
	    TO(RS_SPARE_BUILDING) | TO(RS_BUILDING) | TO(RS_GONE) },
	[RS_SPARE_BUILDING] =	{ "spare-building",
	    TO(RS_SPARE) | TO(RS_BUILDING) | TO(RS_DYING) },
	[RS_SPARE] =		{ "spare",
	    TO(RS_NET_WAIT) | TO(RS_LIVE) | TO(RS_DYING) },
	[RS_BUILDING] =		{ "building",
	    TO(RS_NET_WAIT) | TO(RS_LIVE) | TO(RS_DYING) },
	[RS_NET_WAIT] =		{ "net-wait",
	    TO(RS_LIVE) | TO(RS_DYING) },
	[RS_LIVE] =		{ "live",
	    TO(RS_FREEZING) | TO(RS_DYING) },
	[RS_FREEZING] =		{ "freezing",
	    TO(RS_PAUSED) | TO(RS_LIVE) | TO(RS_DYING) },
	[RS_PAUSED] =		{ "paused",
	    TO(RS_LIVE) | TO(RS_DYING) },
	[RS_DYING] =		{ "dying",
	    TO(RS_UNMOUNTING) | TO(RS_CGROUP_RETRY) | TO(RS_GONE) },
	[RS_UNMOUNTING] =	{ "unmounting",
	    TO(RS_CGROUP_RETRY) | TO(RS_GONE) },
	[RS_CGROUP_RETRY] =	{ "cgroup-retry",
	    TO(RS_GONE) },
	[RS_GONE] =		{ "gone", 0 },
};

const char *
rstate_name(enum rstate s)
{
	if ((unsigned int)s >= RS_NSTATES)
		return ("invalid");
	return (rstates[s].name);
}

/* 1 if the table allows from -> to. */
int
rstate_allowed(enum rstate from, enum rstate to)
{
	if ((unsigned int)from >= RS_NSTATES ||
	    (unsigned int)to >= RS_NSTATES)
		return (0);
	return ((rstates[from].to & TO(to)) != 0);
}

void
rstate_set(struct rsandbox *rs, enum rstate to)
{
	enum rstate	 from = rs->state;

	if (!rstate_allowed(from, to))
		fatalx("%s: sandbox %s: %s -> %s is not a move of its "
		    "lifecycle", __func__, rs->sb.id, rstate_name(from),
		    rstate_name(to));
	log_debug("sandbox %s: state %s -> %s", rs->sb.id,
	    rstate_name(from), rstate_name(to));
	if (to == RS_DYING)
		rs->died_from = from;
	rs->state = to;
}

/* Built, its network answered: LIVE, FREEZING or PAUSED. */
int
rstate_up(const struct rsandbox *rs)
{
	return (rs->state == RS_LIVE || rs->state == RS_FREEZING ||
	    rs->state == RS_PAUSED);
}

/* The freezer was asked: execs and kills are refused. */
int
rstate_paused(const struct rsandbox *rs)
{
	return (rs->state == RS_FREEZING || rs->state == RS_PAUSED);
}

/* On its way out: DYING or later. */
int
rstate_ending(const struct rsandbox *rs)
{
	return (rs->state >= RS_DYING);
}

/* Built ahead and never taken (of a dying one: it was, when it died). */
int
rstate_spare(const struct rsandbox *rs)
{
	enum rstate	 s = rstate_ending(rs) ? rs->died_from : rs->state;

	return (s == RS_SPARE_BUILDING || s == RS_SPARE);
}
