/*
 * A sandbox's network as one unit: identity, link and datapath up in
 * that order, undoing a half-made setup.  Teardown has two steps: down
 * takes the rules away at once (the sandbox has no network from then
 * on); reap, when convenient, deletes the links of every sandbox gone
 * since in one request (a veth's deletion waits out RCU grace periods,
 * tens of milliseconds), flushes their conntrack entries and only then
 * gives their /30s back.
 */
#include <sys/socket.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "netd.h"

#define NETD_MROUTE_TRIES	16	/* flushes before one is given up */

/* A host side whose ff00::/8 route is still to go (link_mroute_del). */
struct netd_mroute {
	char		 ifname[IFNAMSIZ];
	int		 index;
	int		 tries;
};

struct netd {
	struct netd_params	 p;
	struct ident_pool	*pool;
	struct dp		*dp;
	struct rtnl		*rt;
	struct netd_ident	*retired;	/* down, not yet reaped */
	size_t			 nretired;
	struct netd_mroute	*mroutes;
	size_t			 nmroutes;
};

struct netd *
netd_new(const struct netd_params *p)
{
	struct netd	*n;

	if ((n = calloc(1, sizeof(*n))) == NULL) {
		log_warn("%s", __func__);
		return (NULL);
	}
	n->p = *p;
	if ((n->pool = ident_pool_new(p)) == NULL ||
	    (n->dp = dp_open(p)) == NULL || (n->rt = rtnl_open()) == NULL) {
		netd_free(n);
		return (NULL);
	}
	return (n);
}

void
netd_free(struct netd *n)
{
	if (n == NULL)
		return;
	rtnl_close(n->rt);
	dp_close(n->dp);
	ident_pool_free(n->pool);
	free(n->retired);
	free(n->mroutes);
	free(n);
}

struct dp *
netd_dp(struct netd *n)
{
	return (n->dp);
}

struct ident_pool *
netd_pool(struct netd *n)
{
	return (n->pool);
}

int
netd_table_init(struct netd *n)
{
	return (dp_init(n->dp));
}

static void
netd_ct_addrs(const struct netd_ident *ni, struct ct_addr *a)
{
	memset(a, 0, 2 * sizeof(*a));
	a[0].af = AF_INET;
	memcpy(a[0].addr, &ni->guest, sizeof(ni->guest));
	a[1].af = AF_INET6;
	memcpy(a[1].addr, &ni->guest6, sizeof(ni->guest6));
}

static ssize_t
netd_retired_find(struct netd *n, const char *id)
{
	size_t	 i;

	for (i = 0; i < n->nretired; i++)
		if (strcmp(n->retired[i].id, id) == 0)
			return (i);
	return (-1);
}

/*
 * A sandbox back before its reap (the same id again) takes its identity
 * out of the retired set; the entries of its last life go first.
 */
static int
netd_unretire(struct netd *n, const char *id)
{
	struct ct_addr	 a[2];
	ssize_t		 i;

	if ((i = netd_retired_find(n, id)) == -1)
		return (0);
	netd_ct_addrs(&n->retired[i], a);
	if (ct_flush(a, 2) == -1)
		return (-1);
	n->retired[i] = n->retired[--n->nretired];
	return (0);
}

static int
netd_acquire(struct netd *n, const char *id, const struct policy_msg *pol,
    struct netd_ident *ni, int *fresh)
{
	if (pol != NULL && !pol->has_network) {
		log_warnx("%s: %s: policy \"%s\" has no network", __func__,
		    id, pol->name);
		errno = EINVAL;
		return (-1);
	}
	if (netd_unretire(n, id) == -1) {
		log_warnx("%s: %s: cannot flush its old conntrack entries",
		    __func__, id);
		return (-1);
	}
	*fresh = ident_find(n->pool, id) == NULL;
	return (ident_acquire(n->pool, id, ni));
}

/*
 * The kernel adds a host side's ff00::/8 route once the link is ready,
 * after the setup returns; it goes at the next netd_mroutes_flush(),
 * off the path of a create (a spare's setup, a reap).  Only an
 * optimisation: on failure the route stays.
 */
static void
netd_mroute_note(struct netd *n, const char *ifname, int index)
{
	struct netd_mroute	*v;

	if ((v = reallocarray(n->mroutes, n->nmroutes + 1,
	    sizeof(*v))) == NULL) {
		log_debug("%s: %s: %s", __func__, ifname, strerror(errno));
		return;
	}
	n->mroutes = v;
	memset(&v[n->nmroutes], 0, sizeof(*v));
	strlcpy(v[n->nmroutes].ifname, ifname, sizeof(v->ifname));
	v[n->nmroutes++].index = index;
}

/* Its link goes: the index is no longer its.  The order stays. */
static void
netd_mroute_forget(struct netd *n, const char *ifname)
{
	size_t	 i;

	for (i = 0; i < n->nmroutes; i++)
		if (strcmp(n->mroutes[i].ifname, ifname) == 0) {
			memmove(&n->mroutes[i], &n->mroutes[i + 1],
			    (--n->nmroutes - i) * sizeof(*n->mroutes));
			return;
		}
}

/*
 * Oldest first: the kernel keeps these routes in the order made and
 * looks for each from the first, so a backlog goes in linear time.
 * Those not made yet (ESRCH) stay for the next flush, a few times.
 */
static void
netd_mroutes_flush(struct netd *n)
{
	struct netd_mroute	*m;
	size_t			 i, kept = 0;

	for (i = 0; i < n->nmroutes; i++) {
		m = &n->mroutes[i];
		if (link_mroute_del(n->rt, m->index, m->ifname) == -1 &&
		    errno == ESRCH && ++m->tries < NETD_MROUTE_TRIES)
			n->mroutes[kept++] = *m;
	}
	n->nmroutes = kept;
}

/* Undo a failed setup: what this call made goes, the rest stays. */
static void
netd_undo(struct netd *n, const struct netd_ident *ni, int fresh, int link)
{
	int	 saved = errno;

	if (link) {
		netd_mroute_forget(n, ni->ifname);
		(void)link_del(n->rt, ni->ifname);
	}
	if (fresh) {
		(void)dp_sandbox_del(n->dp, ni->ifname);
		(void)ident_release(n->pool, ni->id);
	}
	errno = saved;
}

/*
 * The last step of a setup is done, with rc: on failure all of the
 * setup is undone (link: its link too), else the identity goes out.
 */
static int
netd_setup_end(struct netd *n, const struct netd_ident *ni, int fresh,
    int link, int rc, const char *who, struct netd_ident *out)
{
	if (rc == -1) {
		log_warnx("%s: %s: failed, undone", who, ni->id);
		netd_undo(n, ni, fresh, link);
		return (-1);
	}
	if (out != NULL)
		*out = *ni;
	return (0);
}

/* The guest end, through guestfd: a NETLINK_ROUTE socket in its netns. */
static int
netd_guest_setup(int guestfd, const struct netd_ident *ni)
{
	struct rtnl	*g;
	int		 rc;

	if ((g = rtnl_fdopen(guestfd)) == NULL)
		return (-1);
	rc = link_guest_setup(g, ni);
	rtnl_close(g);
	return (rc);
}

int
netd_sandbox_up(struct netd *n, const char *id, const struct policy_msg *pol,
    const struct net_rule_msg *rules, size_t nrules, int netnsfd,
    int guestfd, struct netd_ident *out)
{
	struct netd_ident	 ni;
	int			 fresh, index, rc = 0;

	if (netd_acquire(n, id, pol, &ni, &fresh) == -1)
		return (-1);
	if (netnsfd != -1) {
		if ((index = link_veth_add(n->rt, &ni, netnsfd)) == -1) {
			netd_undo(n, &ni, fresh, 0);
			return (-1);
		}
		netd_mroute_note(n, ni.ifname, index);
	}
	if (guestfd != -1)
		rc = netd_guest_setup(guestfd, &ni);
	if (rc == 0)
		rc = dp_sandbox_add(n->dp, &ni, pol, rules, nrules);
	return (netd_setup_end(n, &ni, fresh, netnsfd != -1, rc, __func__,
	    out));
}

/*
 * Ahead of demand: the identity and the veth, the guest end configured,
 * no rules (the interface drops everything until netd_sandbox_up adds
 * them with netnsfd and guestfd -1).
 */
int
netd_sandbox_prepare(struct netd *n, const char *id, int netnsfd,
    int guestfd, struct netd_ident *out)
{
	struct netd_ident	 ni;
	int			 fresh, index, rc;

	netd_mroutes_flush(n);
	if (netd_acquire(n, id, NULL, &ni, &fresh) == -1)
		return (-1);
	if ((index = link_veth_add(n->rt, &ni, netnsfd)) == -1) {
		netd_undo(n, &ni, fresh, 0);
		return (-1);
	}
	netd_mroute_note(n, ni.ifname, index);
	rc = netd_guest_setup(guestfd, &ni);
	return (netd_setup_end(n, &ni, fresh, 1, rc, __func__, out));
}

int
netd_sandbox_tap(struct netd *n, const char *id, const struct policy_msg *pol,
    const struct net_rule_msg *rules, size_t nrules, int tunfd, uid_t owner,
    struct netd_ident *out)
{
	struct netd_ident	 ni;
	int			 fresh, rc;

	if (netd_acquire(n, id, pol, &ni, &fresh) == -1)
		return (-1);
	if (link_tap_add(n->rt, &ni, tunfd, owner) == -1) {
		netd_undo(n, &ni, fresh, 0);
		return (-1);
	}
	rc = dp_sandbox_add(n->dp, &ni, pol, rules, nrules);
	return (netd_setup_end(n, &ni, fresh, 1, rc, __func__, out));
}

/*
 * Only the rules go now: from then on every packet on the interface is
 * dropped.  The link and the /30 wait for netd_reap(), which deals
 * with all the sandboxes gone since in a few requests; until then the
 * link sits unused and its /30 is not handed out.
 */
int
netd_sandbox_down(struct netd *n, const char *id)
{
	const struct netd_ident	*p;
	struct netd_ident	*v;

	if ((p = ident_find(n->pool, id)) == NULL) {
		errno = ENOENT;
		return (-1);
	}
	if (netd_retired_find(n, id) != -1)
		return (0);
	if ((v = reallocarray(n->retired, n->nretired + 1,
	    sizeof(*v))) == NULL) {
		log_warn("%s: %s", __func__, id);
		return (-1);
	}
	n->retired = v;
	if (dp_sandbox_del(n->dp, p->ifname) == -1)
		return (-1);
	netd_mroute_forget(n, p->ifname);
	n->retired[n->nretired++] = *p;
	return (0);
}

void
netd_sandbox_hold_pins(struct netd *n, const char *id)
{
	const struct netd_ident	*p;

	if ((p = ident_find(n->pool, id)) != NULL)
		dp_pins_hold(n->dp, id, p->ifname);
}

void
netd_sandbox_carry_pins(struct netd *n, const char *id, int carry)
{
	const struct netd_ident	*p;

	if ((p = ident_find(n->pool, id)) != NULL)
		dp_pins_carry(n->dp, id, p->ifname, carry);
}

/* Into the graveyard, or deleted alone if that fails. */
static int
netd_retire(struct netd *n, const char *ifname)
{
	if (link_retire(n->rt, ifname) == 0 || link_del(n->rt, ifname) == 0)
		return (0);
	log_warnx("%s: %s stays", __func__, ifname);
	return (-1);
}

/*
 * The links of the sandboxes gone since the last reap are deleted in
 * one request, then every conntrack entry of their guests' addresses
 * (nothing can make new ones now: the links are gone and the node
 * subnet is not routed elsewhere), then the /30s are free.  On failure
 * all of it stays for the next reap.
 */
int
netd_reap(struct netd *n)
{
	struct ct_addr	*a;
	size_t		 i, count = n->nretired;
	int		 rc = 0;

	netd_mroutes_flush(n);
	if (count == 0)
		return (0);
	if ((a = calloc(count, 2 * sizeof(*a))) == NULL) {
		log_warn("%s", __func__);
		return (-1);
	}
	for (i = 0; i < count; i++) {
		netd_ct_addrs(&n->retired[i], &a[2 * i]);
		if (netd_retire(n, n->retired[i].ifname) == -1)
			rc = -1;
	}
	if (rc == -1 || link_reap(n->rt) == -1 ||
	    ct_flush(a, 2 * count) == -1) {
		log_warnx("%s: %zu sandboxes wait for the next reap",
		    __func__, count);
		free(a);
		return (-1);
	}
	free(a);
	for (i = 0; i < count; i++)
		(void)ident_release(n->pool, n->retired[i].id);
	n->nretired = 0;
	log_debug("%s: %zu sandboxes", __func__, count);
	return (0);
}

struct netd_rec {
	struct netd	*n;
	netd_owned_fn	 owned;
	void		*arg;
	char		(*gone)[NETD_ID_LEN + 1];
	size_t		 ngone;
	struct ct_addr	*ct;		/* guests of the links removed */
	size_t		 nct;
	int		 links;
};

static int
netd_rec_ct(struct netd_rec *r, const struct netd_ident *ni)
{
	struct ct_addr	*v;

	if ((v = reallocarray(r->ct, r->nct + 2, sizeof(*v))) == NULL)
		return (-1);
	r->ct = v;
	netd_ct_addrs(ni, &v[r->nct]);
	r->nct += 2;
	return (0);
}

static int
netd_rec_link(const char *ifname, int index, const struct in_addr *gw,
    void *arg)
{
	struct netd_rec	*r = arg;
	struct netd_ident ni;

	if (r->owned(ifname, r->arg))
		return (0);
	if (netd_retire(r->n, ifname) == -1)
		return (-1);
	r->links++;
	if (gw == NULL)
		return (0);
	memset(&ni, 0, sizeof(ni));
	ni.guest.s_addr = htonl(ntohl(gw->s_addr) + 1);
	netd_v6_addr(&ni.guest6, ni.guest);
	return (netd_rec_ct(r, &ni));
}

static int
netd_rec_ident(const struct netd_ident *ni, void *arg)
{
	struct netd_rec	*r = arg;
	void		*v;

	if (r->owned(ni->ifname, r->arg))
		return (0);
	if ((v = reallocarray(r->gone, r->ngone + 1, sizeof(*r->gone))) ==
	    NULL)
		return (-1);
	r->gone = v;
	strlcpy(r->gone[r->ngone++], ni->id, sizeof(*r->gone));
	return (netd_rec_ct(r, ni));
}

/*
 * After a restart, once the live sandboxes are added again: remove the
 * elements, counters and links that no owned name holds (and the
 * conntrack entries of those links' guests), elements that owned
 * sandboxes' policies no longer have, and identities of the unowned.
 */
int
netd_reconcile(struct netd *n, netd_owned_fn owned, void *arg)
{
	struct netd_rec	 r;
	size_t		 i;
	int		 rc = 0;

	memset(&r, 0, sizeof(r));
	r.n = n;
	r.owned = owned;
	r.arg = arg;
	if (dp_reconcile(n->dp, owned, arg) == -1)
		rc = -1;
	if (link_foreach_ours(n->rt, n->p.ifprefix, netd_rec_link, &r) == -1)
		rc = -1;
	if (ident_foreach(n->pool, netd_rec_ident, &r) == -1)
		rc = -1;
	/* Links first, then their entries, then the /30s. */
	if (link_reap(n->rt) == -1 || ct_flush(r.ct, r.nct) == -1)
		rc = -1;
	else
		for (i = 0; i < r.ngone; i++) {
			if (netd_retired_find(n, r.gone[i]) != -1)
				continue;	/* netd_reap() will */
			(void)ident_release(n->pool, r.gone[i]);
		}
	log_info("%s: removed %d links, released %zu identities", __func__,
	    r.links, r.ngone);
	free(r.gone);
	free(r.ct);
	return (rc);
}

static int
netd_stop_del(const char *ifname, int index, const struct in_addr *a,
    void *arg)
{
	return (link_del(arg, ifname));
}

static int
netd_stop_left(const char *ifname, int index, const struct in_addr *a,
    void *arg)
{
	log_warnx("netd_stop: link %s is still there", ifname);
	(*(size_t *)arg)++;
	return (0);
}

/*
 * An orderly stop, sandboxes already gone: every link of ours (veth
 * host end, tap) is deleted, a second dump proves none is left, and
 * only then goes the table.  A link left keeps the table (fail closed).
 */
int
netd_stop(struct netd *n)
{
	size_t	 left = 0;

	(void)link_foreach_ours(n->rt, n->p.ifprefix, netd_stop_del, n->rt);
	if (link_foreach_ours(n->rt, n->p.ifprefix, netd_stop_left,
	    &left) == -1 || left > 0) {
		log_warnx("%s: %zu links of ours left: table inet %s kept",
		    __func__, left, NETD_TABLE);
		return (-1);
	}
	if (dp_drop(n->dp) == -1) {
		log_warnx("%s: cannot delete table inet %s", __func__,
		    NETD_TABLE);
		return (-1);
	}
	n->nretired = 0;
	n->nmroutes = 0;
	log_info("%s: every link and table inet %s deleted", __func__,
	    NETD_TABLE);
	return (0);
}
