/*
 * Sandboxes built ahead of demand (`prebuild N`, DESIGN.md section 9):
 * up to N sandboxes of the policy last asked for, built while runnerd
 * is idle, so that a create finds one ready and what its caller waits
 * for is the exec, not the namespaces, mounts and cgroups.
 *
 * A spare is a whole sandbox, pid 1 waiting for its first exec, with
 * its id, uid and cgroup; it is in no tree, runs nothing and no client
 * knows it.  Only policies without a network qualify: a network is
 * made per sandbox by netd, which has its own spare (net.c).
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "runnerd.h"

#define SPARE_MAX	8		/* = the config's PREBUILD_MAX */

static struct rsandbox	*spares[SPARE_MAX];
static size_t		 nspares;
static char		 spare_policy[CONF_NAME_SIZE] = CONF_DEFAULT_POLICY;
static struct event	 ev_spare;
static int		 spare_failed;	/* no retry until a create asks */

static size_t
spare_want(void)
{
	if (runnerd_conf == NULL || spare_failed)
		return (0);
	return (MIN(runnerd_conf->global.prebuild, SPARE_MAX));
}

static int
spare_fits(const struct conf_policy *pol, const struct sbx_create_req *req)
{
	return (!pol->m.has_network && (req == NULL || !req->tap));
}

static void
spare_free(struct rsandbox *rs)
{
	if (rs->ev_events_set)
		event_del(&rs->ev_events);
	cgretry_destroy(&rs->sb, 0);
	uid_free(&runnerd_conf->global, rs->sb.uid);
	free(rs);
}

static void
spare_remove(size_t i)
{
	spares[i] = spares[--nspares];
}

/* pid 1 is done (or gone): finish it, or let it go. */
static int
spare_finish(struct rsandbox *rs)
{
	char	 err[256];

	if (!rs->ev_events_set)
		return (0);
	event_del(&rs->ev_events);
	rs->ev_events_set = 0;
	if (sandbox_create_check(&rs->sb, err, sizeof(err)) == 0)
		return (0);
	log_warnx("%s: sandbox %s: %s", __func__, rs->sb.id, err);
	uid_free(&runnerd_conf->global, rs->sb.uid);
	runnerd_grave_spare(rs);
	spare_failed = 1;
	return (-1);
}

static void
spare_ready(int fd, short event, void *arg)
{
	struct rsandbox	*rs = arg;
	size_t		 i;

	for (i = 0; i < nspares && spares[i] != rs; i++)
		;
	if (i == nspares)
		fatalx("%s: sandbox %s is no spare", __func__, rs->sb.id);
	if (spare_finish(rs) == -1)
		spare_remove(i);
	else
		spare_soon();
}

/*
 * Begun here, finished when pid 1 reports (spare_ready): runnerd serves
 * requests while pid 1 builds.  rs->ev_events is free until the
 * sandbox is taken, so it waits on pid 1's socket meanwhile.
 */
static void
spare_build(int fd, short event, void *arg)
{
	struct conf_policy	*pol;
	struct rsandbox		*rs;
	char			 err[256];

	if (nspares >= spare_want() ||
	    (pol = conf_policy_find(runnerd_conf, spare_policy)) == NULL ||
	    !spare_fits(pol, NULL))
		return;
	/* The reply that made room for it goes out before its build. */
	runnerd_flush();
	if ((rs = calloc(1, sizeof(*rs))) == NULL)
		fatal("%s", __func__);
	TAILQ_INIT(&rs->execs);
	TAILQ_INIT(&rs->recs);
	runnerd_new_id(rs->sb.id);
	rs->sb.policy = pol->m;
	if (uid_alloc(&runnerd_conf->global, &rs->sb.uid) == -1) {
		free(rs);
		return;
	}
	if (runnerd_build(rs, pol, -1, err, sizeof(err)) == -1) {
		log_warnx("%s: policy %s: %s", __func__, pol->m.name, err);
		uid_free(&runnerd_conf->global, rs->sb.uid);
		free(rs);
		spare_failed = 1;
		return;
	}
	log_debug("%s: sandbox %s built ahead for policy %s", __func__,
	    rs->sb.id, pol->m.name);
	event_set(&rs->ev_events, rs->sb.sock, EV_READ, spare_ready, rs);
	event_add(&rs->ev_events, NULL);
	rs->ev_events_set = 1;
	spares[nspares++] = rs;
}

/*
 * Called once a caller has its answer (a create's reply, a run's
 * result): building earlier would hold up the exec it is waiting for.
 */
void
spare_soon(void)
{
	struct timeval	 tv = { 0, 0 };

	if (!evtimer_initialized(&ev_spare))
		evtimer_set(&ev_spare, spare_build, NULL);
	if (nspares < spare_want() && !evtimer_pending(&ev_spare, NULL))
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
 * A spare for this create, or NULL: then the caller builds one as
 * before.  Asking for another policy turns the spares to it.
 */
struct rsandbox *
spare_take(const struct conf_policy *pol, const struct sbx_create_req *req)
{
	struct rsandbox	*rs;

	if (!spare_fits(pol, req))
		return (NULL);
	spare_failed = 0;
	if (strcmp(spare_policy, pol->m.name) != 0) {
		spare_drop();
		strlcpy(spare_policy, pol->m.name, sizeof(spare_policy));
	}
	while (nspares > 0) {
		rs = spares[--nspares];
		/* Still building: the taker waits for it, not runnerd. */
		if (spare_alive(rs)) {
			if (rs->ev_events_set) {
				event_del(&rs->ev_events);
				rs->ev_events_set = 0;
				rs->building = 1;
			}
			return (rs);
		}
		log_warnx("%s: sandbox %s built ahead had died", __func__,
		    rs->sb.id);
		spare_free(rs);
	}
	return (NULL);
}

/*
 * A new config, a stop: what was built for the old one goes, through
 * the graveyard: runnerd waits for no pid 1 of them.  Their uids are
 * free at once, as a new config's uid map has them anyway.
 */
void
spare_drop(void)
{
	struct rsandbox	*rs;

	while (nspares > 0) {
		rs = spares[--nspares];
		if (rs->ev_events_set) {
			event_del(&rs->ev_events);
			rs->ev_events_set = 0;
		}
		uid_free(&runnerd_conf->global, rs->sb.uid);
		runnerd_grave_spare(rs);
	}
}

/* Its pid 1 is dead: the rest goes. */
void
spare_bury(struct rsandbox *rs)
{
	cgretry_destroy(&rs->sb, 0);
	free(rs);
}
