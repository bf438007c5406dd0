/*
 * Sandboxes built ahead of demand (`prebuild N`; runnerd(8), the section
 * of that name):
 * up to N sandboxes for each of the SPARE_POOLS policies last asked
 * for, built while runnerd is idle, so that a create or a run finds one
 * ready and what its caller waits for is the exec, not the namespaces,
 * mounts and cgroups.
 *
 * A spare is a whole sandbox, pid 1 waiting for its first exec, with
 * its id, uid and cgroup; it is in no tree, runs nothing and no client
 * knows it.  One for a policy with a network is built in a namespace
 * whose veth netd made ahead (net.c): it has that network's id, and
 * its rules are asked of netd only when it is taken.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "runnerd.h"

#define SPARE_MAX		8	/* = the config's PREBUILD_MAX */
#define SPARE_POOLS		4	/* policies with spares at once */
#define SPARE_BUILDING_MAX	2	/* pid 1s building at once */

struct spare_pool {
	char		 policy[CONF_NAME_SIZE];	/* "": unused */
	struct rsandbox	*sb[SPARE_MAX];
	size_t		 n;
	uint64_t	 used;		/* when last taken from, or set */
	int		 failed;	/* no retry until it is asked */
};

static struct spare_pool pools[SPARE_POOLS];
static uint64_t		 spare_clock;
static struct event	 ev_spare;

static size_t
spare_want(const struct spare_pool *p)
{
	if (runnerd_conf == NULL || p->policy[0] == '\0' || p->failed)
		return (0);
	return (MIN(runnerd_conf->global.prebuild, SPARE_MAX));
}

static int
spare_fits(const struct sbx_create_req *req)
{
	return (req == NULL || !req->tap);
}

/* pid 1s of spares not yet reported. */
static size_t
spare_nbuilding(void)
{
	size_t	 i, j, n = 0;

	for (i = 0; i < SPARE_POOLS; i++)
		for (j = 0; j < pools[i].n; j++)
			n += pools[i].sb[j]->state == RS_SPARE_BUILDING;
	return (n);
}

static struct spare_pool *
spare_pool_find(const char *policy)
{
	size_t	 i;

	for (i = 0; i < SPARE_POOLS; i++)
		if (strcmp(pools[i].policy, policy) == 0)
			return (&pools[i]);
	return (NULL);
}

/* Through the one teardown: runnerd waits for no pid 1 of them. */
static void
spare_discard(struct rsandbox *rs)
{
	runnerd_teardown(rs);
}

static void
spare_pool_empty(struct spare_pool *p)
{
	while (p->n > 0)
		spare_discard(p->sb[--p->n]);
}

/* The pool of a policy, the least recently used one turned to it. */
static struct spare_pool *
spare_pool_get(const char *policy)
{
	struct spare_pool	*p, *lru = NULL;
	size_t			 i;

	if ((p = spare_pool_find(policy)) != NULL)
		return (p);
	for (i = 0; i < SPARE_POOLS; i++)
		if (lru == NULL || pools[i].used < lru->used)
			lru = &pools[i];
	spare_pool_empty(lru);
	strlcpy(lru->policy, policy, sizeof(lru->policy));
	lru->failed = 0;
	return (lru);
}

static void
spare_remove(struct spare_pool *p, size_t i)
{
	p->sb[i] = p->sb[--p->n];
}

/* pid 1 is done (or gone): finish it, or let it go. */
static int
spare_finish(struct spare_pool *p, struct rsandbox *rs)
{
	char	 err[256];

	if (rs->state != RS_SPARE_BUILDING)
		return (0);
	event_del(&rs->ev_events);
	rs->ev_events_set = 0;
	if (sandbox_create_check(&rs->sb, err, sizeof(err)) == 0) {
		rstate_set(rs, RS_SPARE);
		return (0);
	}
	log_warnx("%s: sandbox %s: %s", __func__, rs->sb.id, err);
	spare_discard(rs);
	p->failed = 1;
	return (-1);
}

static void
spare_ready(int fd, short event, void *arg)
{
	struct rsandbox	*rs = arg;
	size_t		 i, j;

	for (i = 0; i < SPARE_POOLS; i++)
		for (j = 0; j < pools[i].n; j++)
			if (pools[i].sb[j] == rs) {
				if (spare_finish(&pools[i], rs) == -1)
					spare_remove(&pools[i], j);
				spare_soon();
				return;
			}
	fatalx("%s: sandbox %s is no spare", __func__, rs->sb.id);
}

/*
 * The most recently used pool short of spares that can have one now: a
 * network's needs a veth netd has made ahead.
 */
static struct spare_pool *
spare_pool_next(struct conf_policy **polp)
{
	struct spare_pool	*p, *pick = NULL;
	struct conf_policy	*pol, *pick_pol = NULL;
	size_t			 i;

	for (i = 0; i < SPARE_POOLS; i++) {
		p = &pools[i];
		if (p->n >= spare_want(p) ||
		    (pick != NULL && p->used < pick->used))
			continue;
		if ((pol = conf_policy_find(runnerd_conf, p->policy)) ==
		    NULL) {
			p->policy[0] = '\0';
			continue;
		}
		if (pol->m.has_network && !net_spare_ready())
			continue;
		pick = p;
		pick_pol = pol;
	}
	*polp = pick_pol;
	return (pick);
}

/*
 * Begun here, finished when pid 1 reports (spare_ready): runnerd serves
 * requests while pid 1 builds.  rs->ev_events is free until the
 * sandbox is taken, so it waits on pid 1's socket meanwhile.  One per
 * turn of the event loop, at most SPARE_BUILDING_MAX at once.
 */
static void
spare_build(int fd, short event, void *arg)
{
	struct spare_pool	*p;
	struct conf_policy	*pol;
	struct rsandbox		*rs;
	char			 err[256];
	int			 netns = -1;

	if (spare_nbuilding() >= SPARE_BUILDING_MAX ||
	    (p = spare_pool_next(&pol)) == NULL)
		return;
	/* The reply that made room for it goes out before its build. */
	runnerd_flush();
	if ((rs = calloc(1, sizeof(*rs))) == NULL)
		fatal("%s", __func__);
	TAILQ_INIT(&rs->execs);
	TAILQ_INIT(&rs->recs);
	rs->sb.policy = pol->m;
	if (uid_alloc(&runnerd_conf->global, &rs->sb.uid) == -1) {
		free(rs);
		return;
	}
	if (!pol->m.has_network)
		runnerd_new_id(rs->sb.id);
	else if (net_spare_lend(rs->sb.id, &netns) == 0)
		rs->spare_net = 1;
	else {
		uid_free(&runnerd_conf->global, rs->sb.uid);
		free(rs);
		return;
	}
	if (runnerd_build(rs, pol, netns, err, sizeof(err)) == -1) {
		log_warnx("%s: policy %s: %s", __func__, pol->m.name, err);
		if (netns != -1)
			close(netns);
		if (rs->spare_net)
			net_spare_release(rs->sb.id);
		uid_free(&runnerd_conf->global, rs->sb.uid);
		free(rs);
		p->failed = 1;
		return;
	}
	if (netns != -1)
		close(netns);
	log_debug("%s: sandbox %s built ahead for policy %s", __func__,
	    rs->sb.id, pol->m.name);
	rstate_set(rs, RS_SPARE_BUILDING);
	event_set(&rs->ev_events, rs->sb.sock, EV_READ, spare_ready, rs);
	event_add(&rs->ev_events, NULL);
	rs->ev_events_set = 1;
	p->sb[p->n++] = rs;
	spare_soon();
}

/*
 * Called once a caller has its answer (a create's reply, a run's
 * result), a spare is ready, or netd made a veth ahead: building
 * earlier would hold up the exec a caller is waiting for.  Also when
 * a spare still building is taken (spare_take): its taker waits for
 * that build anyway, and a refill begun only after the answer is what
 * the next of a series of runs waits for (9.4 -> 7.0 ms median
 * start-to-exit, back to back, on 2 cores).
 */
void
spare_soon(void)
{
	struct timeval	 tv = { 0, 0 };

	if (!evtimer_initialized(&ev_spare))
		evtimer_set(&ev_spare, spare_build, NULL);
	if (!evtimer_pending(&ev_spare, NULL))
		evtimer_add(&ev_spare, &tv);
}

/* Its pid 1 still there, waiting?  Nothing else ever ran in it. */
static int
spare_alive(struct rsandbox *rs)
{
	siginfo_t	 si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PIDFD, rs->sb.init_pidfd, &si,
	    WEXITED | WNOHANG | WNOWAIT) == -1)
		return (0);
	return (si.si_pid == 0);
}

/*
 * Out of the pool: a spare whose pid 1 has reported if there is one.
 * The last one made, which was taken before, is the one most likely
 * still building, and its taker would wait for it.
 */
static struct rsandbox *
spare_pick(struct spare_pool *p)
{
	struct rsandbox	*rs;
	size_t		 i, pick = 0;

	for (i = 0; i < p->n; i++)
		if (p->sb[i]->state == RS_SPARE) {
			pick = i;
			break;
		}
	rs = p->sb[pick];
	memmove(&p->sb[pick], &p->sb[pick + 1],
	    (p->n - pick - 1) * sizeof(p->sb[0]));
	p->n--;
	return (rs);
}

/*
 * A spare for this create, or NULL: then the caller builds one as
 * before.  A policy asked for gets a pool, the least recently used
 * one's.
 */
struct rsandbox *
spare_take(const struct conf_policy *pol, const struct sbx_create_req *req)
{
	struct spare_pool	*p;
	struct rsandbox		*rs;

	if (!spare_fits(req) || runnerd_conf->global.prebuild == 0)
		return (NULL);
	p = spare_pool_get(pol->m.name);
	p->failed = 0;
	p->used = ++spare_clock;
	while (p->n > 0) {
		rs = spare_pick(p);
		/*
		 * Still building: the taker waits for it, not runnerd, and
		 * the refill builds beside it.
		 */
		if (spare_alive(rs)) {
			if (rs->state == RS_SPARE_BUILDING) {
				event_del(&rs->ev_events);
				rs->ev_events_set = 0;
				rstate_set(rs, RS_BUILDING);
				spare_soon();
			}
			return (rs);
		}
		log_warnx("%s: sandbox %s built ahead had died", __func__,
		    rs->sb.id);
		spare_discard(rs);
	}
	return (NULL);
}

/*
 * A new config, a stop: what was built for the old one goes, through
 * the graveyard; their uids stay taken until they are buried, in a new
 * config's uid map too (runnerd_uid_hold).  The pools keep their
 * policies: a reload rebuilds for those the new config still has.
 */
void
spare_drop(void)
{
	size_t	 i;

	for (i = 0; i < SPARE_POOLS; i++) {
		spare_pool_empty(&pools[i]);
		pools[i].failed = 0;
	}
}

/*
 * netd went or came back: the veths spares were built around are gone
 * (netd removes all it does not know live), and so are those spares.
 */
void
spare_drop_net(void)
{
	struct spare_pool	*p;
	struct rsandbox		*rs;
	size_t			 i, j;

	for (i = 0; i < SPARE_POOLS; i++) {
		p = &pools[i];
		for (j = 0; j < p->n; ) {
			rs = p->sb[j];
			if (!rs->spare_net) {
				j++;
				continue;
			}
			rs->spare_net = 0;
			spare_remove(p, j);
			spare_discard(rs);
		}
	}
}

/* Veths lent to spares, for netd's count of those made ahead (net.c). */
size_t
spare_net_count(void)
{
	size_t	 i, j, n = 0;

	for (i = 0; i < SPARE_POOLS; i++)
		for (j = 0; j < pools[i].n; j++)
			n += pools[i].sb[j]->spare_net;
	return (n);
}

/* At start-up, and at each config: the default policy has a pool. */
void
spare_conf(void)
{
	if (spare_pool_find(CONF_DEFAULT_POLICY) == NULL)
		(void)spare_pool_get(CONF_DEFAULT_POLICY);
	spare_soon();
}
