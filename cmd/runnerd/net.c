/*
 * runnerd's side of netd.  A sandbox whose policy has a network block
 * asks netd for its network before it is built, handing over a
 * NETLINK_ROUTE socket opened inside the net namespace prepared for
 * it; netd works while runnerd builds, and the sandbox's execs (and a
 * create's reply) wait for its answer.  Everything goes through the
 * master, which checks it.
 */
#include <sys/param.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "log.h"
#include "msgtab.h"
#include "peerch.h"
#include "runnerd.h"

/* While we have a channel to netd (net_up to net_down). */
static int	 net_available;

/*
 * The networks of the next sandboxes, made ahead of demand (runnerd(8),
 * Sandboxes built ahead of demand; netd(8), Identities): each a spare
 * net namespace with its veth, the guest end configured, and an id
 * picked for that sandbox.  Only its rules are
 * left for the create, which netd adds in microseconds whatever the
 * number of sandboxes; the link's own setup is not (the kernel walks
 * every IPv6 route of the host each time a veth's carrier changes), so
 * it is done here, off the create's path.  `prebuild N` spares, at
 * least one: a burst of creates finds that many ready.  A create may
 * claim one while netd is still making it: netd takes requests in
 * order.
 */
#define NET_SPARE_MAX	8	/* = the config's PREBUILD_MAX */
enum spare_state {
	SPARE_NONE = 0,
	SPARE_PENDING,		/* asked netd */
	SPARE_READY
};
struct net_spare {
	enum spare_state	 state;
	char			 id[SBX_ID_SIZE];
	int			 netns;
};
static struct net_spare	 spares[NET_SPARE_MAX];
static struct event	 ev_prepare;

/*
 * The shows netd owes an end, from NET_SHOW to its NET_SHOWN: if netd
 * dies first, its end never comes, and net_down gives it in its place
 * lest the client wait for ever.
 */
struct net_pending_show {
	TAILQ_ENTRY(net_pending_show)	 entry;
	uint32_t			 peerid;
	char				 corr[CORR_ID_SIZE];
};
static TAILQ_HEAD(, net_pending_show) net_shows =
    TAILQ_HEAD_INITIALIZER(net_shows);

/* Those lent to sandboxes built ahead (spare.c) count. */
static size_t
net_spare_want(void)
{
	size_t	 want, lent;

	if (runnerd_conf == NULL)
		return (1);
	want = MAX(1, MIN(runnerd_conf->global.prebuild, NET_SPARE_MAX));
	lent = spare_net_count();
	return (lent >= want ? 0 : want - lent);
}

/* The spare of that id, or NULL. */
static struct net_spare *
net_spare_find(const char *id)
{
	size_t	 i;

	for (i = 0; i < NET_SPARE_MAX; i++)
		if (spares[i].state != SPARE_NONE &&
		    strcmp(spares[i].id, id) == 0)
			return (&spares[i]);
	return (NULL);
}

static void
net_spare_forget(struct net_spare *sp)
{
	if (sp->netns != -1)
		close(sp->netns);
	sp->netns = -1;
	sp->state = SPARE_NONE;
	sp->id[0] = '\0';
}

static void	 net_tun_ask(struct rsandbox *);
static void	 net_shows_fail(void);

/*
 * To netd or dnspind on our channel to it.  Without one nothing is
 * lost: a new channel brings net_up (netd resynced; net_available is 0
 * until then, and what waited for an answer failed in net_down) or
 * net_dns_up (every networked sandbox announced).  -1 if it did not go.
 */
static int
net_send(uint32_t type, uint32_t peerid, int fd, const void *data,
    size_t len)
{
	enum msg_prog	 to = msg_receiver(msg_row(type));

	if (peerch_send(to, type, peerid, fd, data, len) == 0)
		return (0);
	if (errno != EAGAIN)
		log_warn("%s: %s", __func__, msg_name(type));
	return (-1);
}

/* Does any policy give a network? */
static int
net_configured(void)
{
	struct conf_policy	*p;

	if (runnerd_conf == NULL)
		return (0);
	TAILQ_FOREACH(p, &runnerd_conf->policies, entry)
		if (p->m.has_network)
			return (1);
	return (0);
}

/* Ask netd for the next sandboxes' veths, up to the number wanted. */
void
net_prepare(void)
{
	struct net_spare	*sp;
	struct net_id		 m;
	char			 err[CTL_MSG_SIZE];
	size_t			 i, want, have;
	int			 rtnl;

	if (!net_available || !net_configured())
		return;
	want = net_spare_want();
	for (i = 0, have = 0; i < NET_SPARE_MAX; i++)
		have += spares[i].state != SPARE_NONE;
	for (i = 0; i < NET_SPARE_MAX && have < want; i++) {
		if ((sp = &spares[i])->state != SPARE_NONE)
			continue;
		have++;
		if (sandbox_net_take(&sp->netns, &rtnl, err,
		    sizeof(err)) == -1) {
			log_warnx("%s: %s", __func__, err);
			sp->netns = -1;
			return;
		}
		runnerd_new_id(sp->id);
		memset(&m, 0, sizeof(m));
		strlcpy(m.id, sp->id, sizeof(m.id));
		net_send(IMSG_NET_PREPARE, 0, rtnl, &m, sizeof(m));
		sp->state = SPARE_PENDING;
	}
}

static void
net_prepare_cb(int fd, short event, void *arg)
{
	net_prepare();
}

/* When the event loop is next idle: after this request's work. */
void
net_prepare_soon(void)
{
	struct timeval	 tv = { 0, 0 };

	if (!evtimer_initialized(&ev_prepare))
		evtimer_set(&ev_prepare, net_prepare_cb, NULL);
	if (!evtimer_pending(&ev_prepare, NULL))
		evtimer_add(&ev_prepare, &tv);
}

/* Forget the spares; teardown: tell netd too (a clean stop). */
void
net_spare_drop(int teardown)
{
	struct net_id	 m;
	size_t		 i;

	for (i = 0; i < NET_SPARE_MAX; i++) {
		if (spares[i].state == SPARE_NONE)
			continue;
		if (teardown) {
			memset(&m, 0, sizeof(m));
			strlcpy(m.id, spares[i].id, sizeof(m.id));
			net_send(IMSG_NET_TEARDOWN, 0, -1, &m, sizeof(m));
		}
		net_spare_forget(&spares[i]);
	}
}

/*
 * A veth sandbox may take a spare's id, a ready one first; 1 if it
 * did.
 */
int
net_claim(const struct policy_msg *pol, const struct sbx_create_req *req,
    char *id)
{
	struct net_spare	*sp, *pick = NULL;
	size_t			 i;

	if (!pol->has_network || req->tap)
		return (0);
	for (i = 0; i < NET_SPARE_MAX; i++) {
		sp = &spares[i];
		if (sp->state == SPARE_NONE || sp->netns == -1 ||
		    runnerd_find(sp->id) != NULL)
			continue;
		if (pick == NULL || (sp->state == SPARE_READY &&
		    pick->state != SPARE_READY))
			pick = sp;
	}
	if (pick == NULL)
		return (0);
	strlcpy(id, pick->id, SBX_ID_SIZE);
	return (1);
}

/* Is a veth made ahead ready to be built around (spare.c)? */
int
net_spare_ready(void)
{
	size_t	 i;

	if (!net_available)
		return (0);
	for (i = 0; i < NET_SPARE_MAX; i++)
		if (spares[i].state == SPARE_READY && spares[i].netns != -1 &&
		    runnerd_find(spares[i].id) == NULL)
			return (1);
	return (0);
}

/*
 * A ready veth's id and namespace, for a sandbox built ahead around
 * it: no longer a spare of ours, another is asked for.  -1 if none.
 */
int
net_spare_lend(char *id, int *netns)
{
	struct net_spare	*sp;
	size_t			 i;

	*netns = -1;
	for (i = 0; i < NET_SPARE_MAX; i++) {
		sp = &spares[i];
		if (sp->state != SPARE_READY || sp->netns == -1 ||
		    runnerd_find(sp->id) != NULL)
			continue;
		strlcpy(id, sp->id, SBX_ID_SIZE);
		*netns = sp->netns;
		sp->netns = -1;
		net_spare_forget(sp);
		net_prepare_soon();
		return (0);
	}
	return (-1);
}

/* A sandbox built around a lent veth goes untaken: so does the veth. */
void
net_spare_release(const char *id)
{
	struct net_id	 m;

	if (!net_available)
		return;
	memset(&m, 0, sizeof(m));
	strlcpy(m.id, id, sizeof(m.id));
	net_send(IMSG_NET_TEARDOWN, 0, -1, &m, sizeof(m));
	net_prepare_soon();
}

/*
 * A sandbox built ahead around a lent veth is taken: netd adds its
 * policy's rules, and its execs wait for that as any other's.
 */
void
net_begin_spare(struct rsandbox *rs)
{
	struct net_setup	 m;

	memset(&m, 0, sizeof(m));
	strlcpy(m.corr, rs->corr, sizeof(m.corr));
	strlcpy(m.id, rs->sb.id, sizeof(m.id));
	strlcpy(m.policy, rs->sb.policy.name, sizeof(m.policy));
	m.prepared = 1;
	net_send(IMSG_NET_SETUP, 0, -1, &m, sizeof(m));
	runnerd_flush();
	rs->spare_net = 0;
	net_prepare_soon();
	rs->net = RNET_PENDING;
	rs->tap = 0;
	rs->tap_uid = 0;
}

/*
 * Ask netd for the sandbox's network; *netns is the namespace the
 * sandbox is to be built in (-1 for none prepared: a tap sandbox's
 * own is loopback only).  -1 with err if it cannot have one now.
 */
int
net_begin(struct rsandbox *rs, const struct sbx_create_req *req,
    const struct policy_msg *pol, int *netns, char *err, size_t len)
{
	struct net_setup	 m;
	struct net_spare	*sp;
	int			 rtnl = -1;

	*netns = -1;
	if (!pol->has_network) {
		if (!req->tap)
			return (0);
		snprintf(err, len, "policy %s has no network block, so no tap",
		    pol->name);
		return (-1);
	}
	if (!net_available) {
		snprintf(err, len, "netd is not running; try again");
		return (-1);
	}
	memset(&m, 0, sizeof(m));
	if ((sp = net_spare_find(rs->sb.id)) != NULL && sp->netns != -1) {
		/* Claimed: its namespace is this sandbox's. */
		*netns = sp->netns;
		sp->netns = -1;
		net_spare_forget(sp);
		m.prepared = 1;
		net_prepare_soon();
	} else if (!req->tap && sandbox_net_take(netns, &rtnl, err, len) ==
	    -1)
		return (-1);
	strlcpy(m.corr, rs->corr, sizeof(m.corr));
	strlcpy(m.id, rs->sb.id, sizeof(m.id));
	strlcpy(m.policy, pol->name, sizeof(m.policy));
	m.tap = req->tap;
	m.tap_uid = req->tap_uid;
	m.carry_pins = req->restart && req->service[0] != '\0' && !req->tap;
	if (m.tap && !m.prepared)
		net_tun_ask(rs);	/* NET_SETUP goes with the tun */
	else
		(void)net_send(IMSG_NET_SETUP, 0, rtnl, &m, sizeof(m));
	runnerd_flush();
	rs->net = RNET_PENDING;
	rs->tap = req->tap;
	rs->tap_uid = req->tap_uid;
	return (0);
}

/* A tap's /dev/net/tun comes from the master: net_tun. */
static void
net_tun_ask(struct rsandbox *rs)
{
	struct net_id	 m;

	memset(&m, 0, sizeof(m));
	strlcpy(m.corr, rs->corr, sizeof(m.corr));
	strlcpy(m.id, rs->sb.id, sizeof(m.id));
	if (imsgev_compose(child_iev_main(), IMSG_NET_TUN_OPEN, 0, 0, -1, &m,
	    sizeof(m)) == -1)
		log_warn("%s", __func__);
}

/*
 * The master's answer: the tap's setup goes to netd with the tun, if
 * the sandbox still waits for it; or the sandbox hears why not.
 */
void
net_tun(const struct net_ready *r, int tun)
{
	struct rsandbox		*rs;
	struct net_setup	 m;

	if ((rs = runnerd_find(r->id)) == NULL || rs->net != RNET_PENDING ||
	    !rs->tap) {
		if (tun != -1)
			close(tun);
		return;
	}
	if (r->error != 0) {
		net_ready(r);
		return;
	}
	memset(&m, 0, sizeof(m));
	strlcpy(m.corr, rs->corr, sizeof(m.corr));
	strlcpy(m.id, rs->sb.id, sizeof(m.id));
	strlcpy(m.policy, rs->sb.policy.name, sizeof(m.policy));
	m.tap = 1;
	m.tap_uid = rs->tap_uid;
	(void)net_send(IMSG_NET_SETUP, 0, tun, &m, sizeof(m));
	runnerd_flush();
}

/* Tell dnspind whose queries come from the sandbox's addresses. */
static void
net_dns_announce(struct rsandbox *rs, int gone)
{
	struct dns_sandbox	 m;

	memset(&m, 0, sizeof(m));
	strlcpy(m.id, rs->sb.id, sizeof(m.id));
	strlcpy(m.policy, rs->sb.policy.name, sizeof(m.policy));
	memcpy(m.guest, rs->net_ident.guest, sizeof(m.guest));
	memcpy(m.guest6, rs->net_ident.guest6, sizeof(m.guest6));
	net_send(gone ? IMSG_DNS_SANDBOX_GONE : IMSG_DNS_SANDBOX, 0, -1, &m,
	    sizeof(m));
}

/*
 * A new channel to dnspind: tell it of every sandbox with a network,
 * then that this is all of them.  It forgets the others: those gone
 * while runnerd was down (a new runnerd has none of the old ones) or
 * whose GONE was lost with the old channel.
 */
void
net_dns_up(void)
{
	struct rsandbox	*rs;

	RB_FOREACH(rs, rsandbox_tree, &rsandboxes)
		if (rs->net == RNET_UP)
			net_dns_announce(rs, 0);
	net_send(IMSG_DNS_SYNC_END, 0, -1, NULL, 0);
}

/* The sandbox goes: so does its network, whatever state it was in. */
void
net_end(struct rsandbox *rs)
{
	struct net_id	 m;

	if (rs->net == RNET_NONE)
		return;
	if (rs->net == RNET_UP)
		net_dns_announce(rs, 1);
	memset(&m, 0, sizeof(m));
	strlcpy(m.corr, rs->corr, sizeof(m.corr));
	strlcpy(m.id, rs->sb.id, sizeof(m.id));
	/* A service's pins wait in netd for its next sandbox. */
	m.hold_pins = rs->service[0] != '\0';
	net_send(IMSG_NET_TEARDOWN, 0, -1, &m, sizeof(m));
	rs->net = RNET_NONE;
}

void
net_ready(const struct net_ready *r)
{
	struct rsandbox		*rs;
	struct net_spare	*sp;
	char			 a[16];

	if (r->prepared) {
		/* Claimed meanwhile: the create's own answer follows. */
		if ((sp = net_spare_find(r->id)) == NULL ||
		    sp->state != SPARE_PENDING)
			return;
		if (r->error != 0) {
			log_warnx("no network ahead of demand: %s", r->msg);
			net_spare_forget(sp);
		} else {
			sp->state = SPARE_READY;
			spare_soon();
		}
		return;
	}
	if ((rs = runnerd_find(r->id)) == NULL || rs->net != RNET_PENDING)
		return;		/* gone meanwhile; its teardown went out */
	if (r->error != 0) {
		rs->net = RNET_NONE;
		log_warnx("sandbox %s: no network: %s", rs->sb.id, r->msg);
		runnerd_net_ready(rs, r->error, r->msg);
		return;
	}
	rs->net = RNET_UP;
	rs->net_ident = r->ident;
	snprintf(a, sizeof(a), "%u.%u.%u.%u", r->ident.guest[0],
	    r->ident.guest[1], r->ident.guest[2], r->ident.guest[3]);
	log_debug("sandbox %s: network up: %s %s", rs->sb.id,
	    r->ident.ifname, a);
	net_dns_announce(rs, 0);
	runnerd_net_ready(rs, 0, "");
}

/*
 * netd (re)started, or runnerd did: tell it which sandboxes are live
 * with what identity; it removes everything else of ours it finds.
 */
void
net_up(void)
{
	struct rsandbox	*rs;
	struct net_sync	 m;
	size_t		 n = 0;

	/* The spares are not live: netd removes them with the rest. */
	net_spare_drop(0);
	spare_drop_net();
	net_available = 1;
	RB_FOREACH(rs, rsandbox_tree, &rsandboxes) {
		if (rs->net != RNET_UP)
			continue;
		memset(&m, 0, sizeof(m));
		strlcpy(m.setup.corr, rs->corr, sizeof(m.setup.corr));
		strlcpy(m.setup.id, rs->sb.id, sizeof(m.setup.id));
		strlcpy(m.setup.policy, rs->sb.policy.name,
		    sizeof(m.setup.policy));
		m.setup.tap = rs->tap;
		m.setup.tap_uid = rs->tap_uid;
		m.ident = rs->net_ident;
		net_send(IMSG_NET_SYNC, 0, -1, &m, sizeof(m));
		n++;
	}
	net_send(IMSG_NET_SYNC_END, 0, -1, NULL, 0);
	log_info("netd is up: told it of %zu live sandboxes", n);
	net_prepare();
}

/* netd went away: what it was setting up will not come. */
void
net_down(void)
{
	struct rsandbox	*rs, *next;

	net_available = 0;
	net_shows_fail();
	net_spare_drop(0);
	spare_drop_net();
	RB_FOREACH_SAFE(rs, rsandbox_tree, &rsandboxes, next)
		if (rs->net == RNET_PENDING) {
			rs->net = RNET_NONE;
			runnerd_net_ready(rs, EAGAIN, "netd went away while "
			    "setting up the network; try again");
		}
}

/*
 * netd tells the client the rest of show, and ends the reply.  Without
 * a channel to netd (it died or is restarting) the sandbox still has
 * its network, but nobody can read it back: say so rather than end the
 * reply as if it had none.
 */
void
net_show(struct rsandbox *rs, uint32_t peerid, const char *corr)
{
	struct net_pending_show	*ps;
	struct net_id		 m;

	if (rs->net != RNET_UP) {
		runnerd_result(peerid, corr, 0, "%s", "");
		return;
	}
	memset(&m, 0, sizeof(m));
	strlcpy(m.corr, corr, sizeof(m.corr));
	strlcpy(m.id, rs->sb.id, sizeof(m.id));
	if (net_send(IMSG_NET_SHOW, peerid, -1, &m, sizeof(m)) == -1) {
		runnerd_result_fail(peerid, corr, EAGAIN, CTL_FAIL_NET,
		    "the sandbox's network is unavailable: netd is not "
		    "running (restarting); try again");
		return;
	}
	if ((ps = calloc(1, sizeof(*ps))) == NULL)
		fatal("%s", __func__);
	ps->peerid = peerid;
	strlcpy(ps->corr, corr, sizeof(ps->corr));
	TAILQ_INSERT_TAIL(&net_shows, ps, entry);
}

/* netd ended a show's reply itself. */
void
net_shown(const struct net_id *m, uint32_t peerid)
{
	struct net_pending_show	*ps;

	TAILQ_FOREACH(ps, &net_shows, entry)
		if (ps->peerid == peerid && strcmp(ps->corr, m->corr) == 0) {
			TAILQ_REMOVE(&net_shows, ps, entry);
			free(ps);
			return;
		}
}

/* netd went away owing these: they end here, said to be unanswered. */
static void
net_shows_fail(void)
{
	struct net_pending_show	*ps;

	while ((ps = TAILQ_FIRST(&net_shows)) != NULL) {
		TAILQ_REMOVE(&net_shows, ps, entry);
		runnerd_result_fail(ps->peerid, ps->corr, EAGAIN, CTL_FAIL_NET,
		    "the sandbox's network is unavailable: netd went away "
		    "before it answered; try again");
		free(ps);
	}
}
