/*
 * Sandboxes in the datapath: the elements a policy turns into, the
 * registry of what each sandbox has in the kernel, pins, and the
 * reconciliation of the kernel's sets with that registry.
 */
#include <sys/socket.h>
#include <sys/time.h>
#include <netinet/in.h>
#include <net/if.h>
#include <linux/netlink.h>
#include <linux/netfilter/nf_tables.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "addrclass.h"
#include "log.h"
#include "dp.h"

/* Elements per batch when many go at once (pins, reconciliation). */
#define DP_ELEMS_PER_BATCH	1024

static int	dp_sbx_cmp(struct dp_sbx *, struct dp_sbx *);
static int	dp_pin_cmp(struct dp_pin *, struct dp_pin *);
RB_PROTOTYPE(dp_sbxs, dp_sbx, entry, dp_sbx_cmp)
RB_GENERATE(dp_sbxs, dp_sbx, entry, dp_sbx_cmp)
RB_PROTOTYPE(dp_pins, dp_pin, entry, dp_pin_cmp)
RB_GENERATE(dp_pins, dp_pin, entry, dp_pin_cmp)

static int
dp_sbx_cmp(struct dp_sbx *a, struct dp_sbx *b)
{
	return (strcmp(a->ident.ifname, b->ident.ifname));
}

int
dp_elem_cmp(const struct dp_elem *a, const struct dp_elem *b)
{
	if (a->set != b->set)
		return (a->set < b->set ? -1 : 1);
	return (memcmp(a->key, b->key, DP_KEY_MAX));
}

static int
dp_pin_cmp(struct dp_pin *a, struct dp_pin *b)
{
	return (dp_elem_cmp(&a->e, &b->e));
}

int
dp_elem_qcmp(const void *a, const void *b)
{
	return (dp_elem_cmp(a, b));
}

struct dp_sbx *
dp_sbx_find(struct dp *dp, const char *ifname)
{
	struct dp_sbx	 key;

	memset(key.ident.ifname, 0, sizeof(key.ident.ifname));
	strlcpy(key.ident.ifname, ifname, sizeof(key.ident.ifname));
	return (RB_FIND(dp_sbxs, &dp->sbxs, &key));
}

/*
 * Whether the registry says the kernel holds e: an element of a
 * sandbox's policy, a pin before its expiry, a sandbox's counter.
 */
int
dp_elem_known(struct dp *dp, const struct dp_elem *e,
    const struct timespec *now)
{
	struct dp_sbx	*sbx;
	struct dp_pin	 key, *pin;
	char		 ifname[IFNAMSIZ];

	dp_elem_ifname(e, ifname);
	if ((sbx = dp_sbx_find(dp, ifname)) == NULL)
		return (0);
	if (e->set == DP_OBJ_COUNTER)
		return (1);
	if (e->set == DS_PIN4 || e->set == DS_PIN6) {
		key.e = *e;
		pin = RB_FIND(dp_pins, &sbx->pins, &key);
		return (pin != NULL && timespeccmp(&pin->expiry, now, >));
	}
	return (bsearch(e, sbx->elems, sbx->nelems, sizeof(*e),
	    dp_elem_qcmp) != NULL);
}

int
dp_sandbox_known(struct dp *dp, const char *ifname)
{
	return (dp_sbx_find(dp, ifname) != NULL);
}

static void
dp_sbx_free(struct dp *dp, struct dp_sbx *sbx)
{
	struct dp_pin	*pin, *next;

	RB_FOREACH_SAFE(pin, dp_pins, &sbx->pins, next) {
		RB_REMOVE(dp_pins, &sbx->pins, pin);
		free(pin);
	}
	RB_REMOVE(dp_sbxs, &dp->sbxs, sbx);
	free(sbx->elems);
	free(sbx->names);
	free(sbx->cidrs);
	free(sbx);
}

void
dp_sbx_free_all(struct dp *dp)
{
	struct dp_sbx	*sbx, *next;

	RB_FOREACH_SAFE(sbx, dp_sbxs, &dp->sbxs, next)
		dp_sbx_free(dp, sbx);
}

static int	dp_pin_named(const struct dp_name *, size_t,
		    const struct dp_elem *);
static const struct addrclass_range *dp_pin_blocked(
		    const struct conf_prefix *, size_t, const struct dp_elem *);
static int	dp_pin_allowed(const struct dp_sbx *, const struct dp_elem *);

/* Elements of a that b lacks, into out (both sorted). */
static size_t
dp_elems_minus(const struct dp_elem *a, size_t na, const struct dp_elem *b,
    size_t nb, struct dp_elem *out)
{
	size_t	 i, j = 0, n = 0;

	for (i = 0; i < na; i++) {
		while (j < nb && dp_elem_cmp(&b[j], &a[i]) < 0)
			j++;
		if (j < nb && dp_elem_cmp(&b[j], &a[i]) == 0)
			continue;
		out[n++] = a[i];
	}
	return (n);
}

/* What dp_build_sandbox puts in the batch. */
struct dp_put {
	struct dp_sbx		*old;
	const char		*ifname;
	const struct dp_elems	*es;
	const struct dp_name	*names;
	size_t			 nnames;
	const struct conf_prefix *cidrs;
	size_t			 ncidrs;
};

/*
 * A sandbox new to this netd gets its counter and every element; its
 * counter map entry is replaced, in case one survived a restart.  A
 * known sandbox (a policy change) gets the difference, and loses the
 * pins of ports its new policy does not name and those of special
 * ground no allow cidr holds any more.  One batch.
 */
static int
dp_build_sandbox(struct dp *dp, void *arg)
{
	struct dp_put	*p = arg;
	struct dp_sbx	*old = p->old;
	struct dp_elem	*diff;
	struct dp_pin	*pin;
	size_t		 n, max;
	int		 rc = 0;

	max = p->es->n + (old != NULL ? old->nelems + old->npins : 0);
	if ((diff = calloc(max + 1, sizeof(*diff))) == NULL)
		return (-1);
	if (old == NULL) {
		rc |= dp_put_counter(dp, NFT_MSG_NEWOBJ, NLM_F_CREATE,
		    p->ifname);
		rc |= dp_put_dels(dp, p->es->v, 1, DP_ASK);
		rc |= dp_put_elems(dp, NFT_MSG_NEWSETELEM, NLM_F_CREATE,
		    p->es->v, p->es->n);
	} else {
		n = dp_elems_minus(old->elems, old->nelems, p->es->v,
		    p->es->n, diff);
		rc |= dp_put_dels(dp, diff, n, DP_ASK);
		n = dp_elems_minus(p->es->v, p->es->n, old->elems,
		    old->nelems, diff);
		rc |= dp_put_elems(dp, NFT_MSG_NEWSETELEM, NLM_F_CREATE,
		    diff, n);
		n = 0;
		RB_FOREACH(pin, dp_pins, &old->pins)
			if (!dp_pin_named(p->names, p->nnames, &pin->e) ||
			    dp_pin_blocked(p->cidrs, p->ncidrs, &pin->e))
				diff[n++] = pin->e;
		rc |= dp_put_dels(dp, diff, n, DP_ASK);
	}
	free(diff);
	return (rc);
}

/* After a policy change: forget the pins it took away. */
static void
dp_pins_renamed(struct dp_sbx *sbx)
{
	struct dp_pin	*pin, *next;

	RB_FOREACH_SAFE(pin, dp_pins, &sbx->pins, next)
		if (!dp_pin_allowed(sbx, &pin->e)) {
			RB_REMOVE(dp_pins, &sbx->pins, pin);
			free(pin);
			sbx->npins--;
		}
}

int
dp_sandbox_add(struct dp *dp, const struct netd_ident *ni,
    const struct policy_msg *pol, const struct net_rule_msg *rules,
    size_t nrules)
{
	struct dp_sbx	*old, *sbx = NULL;
	struct dp_elems	 es;
	struct dp_name	*names = NULL;
	struct conf_prefix *cidrs = NULL;
	struct dp_put	 put;
	size_t		 nnames, ncidrs;

	if (dp_policy_elems(ni, pol, rules, nrules, &es) == -1 ||
	    dp_policy_names(rules, nrules, &names, &nnames) == -1 ||
	    dp_policy_cidrs(rules, nrules, &cidrs, &ncidrs) == -1) {
		log_warn("%s: %s", __func__, ni->id);
		free(es.v);
		free(names);
		return (-1);
	}
	old = dp_sbx_find(dp, ni->ifname);
	if (old == NULL && (sbx = calloc(1, sizeof(*sbx))) == NULL)
		goto fail;
	put = (struct dp_put){ old, ni->ifname, &es, names, nnames, cidrs,
	    ncidrs };
	if (dp_commit(dp, __func__, dp_build_sandbox, &put) == -1) {
		log_warn("%s: %s %s", __func__, ni->id, ni->ifname);
		free(sbx);
		free(es.v);
		free(names);
		free(cidrs);
		return (-1);
	}
	if (old == NULL) {
		sbx->ident = *ni;
		strlcpy(sbx->policy, pol->name, sizeof(sbx->policy));
		RB_INIT(&sbx->pins);
		RB_INSERT(dp_sbxs, &dp->sbxs, sbx);
		old = sbx;
	}
	free(old->elems);
	free(old->names);
	free(old->cidrs);
	old->cidrs = cidrs;
	old->ncidrs = ncidrs;
	old->ident = *ni;
	strlcpy(old->policy, pol->name, sizeof(old->policy));
	old->pins_max = pol->pins_max;
	old->elems = es.v;
	old->nelems = es.n;
	old->names = names;
	old->nnames = nnames;
	dp_pins_renamed(old);
	log_debug("%s: %s %s: %zu elements", __func__, ni->id, ni->ifname,
	    es.n);
	return (0);
 fail:
	log_warn("%s: %s", __func__, ni->id);
	free(sbx);
	free(es.v);
	free(names);
	free(cidrs);
	return (-1);
}

/* The deletion of a sandbox's pins, all of them, into the open batch. */
static int
dp_put_pins_del(struct dp *dp, struct dp_sbx *sbx)
{
	struct dp_elem	*v;
	struct dp_pin	*pin;
	size_t		 n = 0;
	int		 rc = 0;

	if (sbx->npins == 0)
		return (0);
	if ((v = calloc(sbx->npins, sizeof(*v))) == NULL)
		return (-1);
	RB_FOREACH(pin, dp_pins, &sbx->pins)
		v[n++] = pin->e;
	rc = dp_put_dels(dp, v, n, DP_ASK);
	free(v);
	return (rc);
}

static void
dp_pins_prune(struct dp_sbx *sbx, const struct timespec *now)
{
	struct dp_pin	*pin, *next;

	RB_FOREACH_SAFE(pin, dp_pins, &sbx->pins, next)
		if (pin->expiry.tv_sec < now->tv_sec ||
		    (pin->expiry.tv_sec == now->tv_sec &&
		    pin->expiry.tv_nsec < now->tv_nsec)) {
			RB_REMOVE(dp_pins, &sbx->pins, pin);
			free(pin);
			sbx->npins--;
		}
}

/* Remember a pin as live until ms from now. */
static int
dp_pins_note(struct dp_sbx *sbx, const struct dp_elem *e, uint64_t ms,
    const struct timespec *now)
{
	struct dp_pin	 key, *pin;

	key.e = *e;
	if ((pin = RB_FIND(dp_pins, &sbx->pins, &key)) == NULL) {
		if ((pin = calloc(1, sizeof(*pin))) == NULL)
			return (-1);
		pin->e = *e;
		pin->e.ttl = 0;
		pin->e.expires = 0;
		pin->e.timeout_ms = 0;
		RB_INSERT(dp_pins, &sbx->pins, pin);
		sbx->npins++;
	}
	pin->expiry.tv_sec = now->tv_sec + ms / 1000;
	pin->expiry.tv_nsec = now->tv_nsec + (ms % 1000) * 1000000;
	if (pin->expiry.tv_nsec >= 1000000000) {
		pin->expiry.tv_sec++;
		pin->expiry.tv_nsec -= 1000000000;
	}
	return (0);
}

/* Elements, pins, then the counter they refer to. */
static int
dp_build_del_known(struct dp *dp, void *arg)
{
	struct dp_sbx	*sbx = arg;
	struct dp_elem	 ctr;
	int		 rc = 0;

	dp_key_start(&ctr, DS_COUNTERS, sbx->ident.ifname);
	ctr.set = DP_OBJ_COUNTER;
	rc |= dp_put_dels(dp, sbx->elems, sbx->nelems, DP_ASK);
	rc |= dp_put_pins_del(dp, sbx);
	rc |= dp_put_dels(dp, &ctr, 1, DP_ASK);
	return (rc);
}

static int
dp_sandbox_del_known(struct dp *dp, struct dp_sbx *sbx)
{
	const char	*ifname = sbx->ident.ifname;

	if (dp_commit(dp, __func__, dp_build_del_known, sbx) == -1) {
		log_warn("%s: %s", __func__, ifname);
		return (-1);
	}
	log_debug("%s: %s", __func__, ifname);
	dp_sbx_free(dp, sbx);
	return (0);
}

/* What to keep of the kernel's elements and counters. */
struct dp_scan {
	netd_owned_fn	 owned;
	void		*arg;
	const char	*only;		/* remove all of this name alone */
	struct dp_elems	 kill;		/* and counters: DP_OBJ_COUNTER */
	size_t		 nckill;
	size_t		 adopted;
	struct timespec	 now;
};

static int
dp_scan_doomed(struct dp_scan *sc, const char *ifname)
{
	if (sc->only != NULL)
		return (strcmp(ifname, sc->only) == 0);
	return (!sc->owned(ifname, sc->arg));
}

/* A pin is allowed while the policy has an allow name rule of its port. */
static int
dp_pin_named(const struct dp_name *names, size_t nnames,
    const struct dp_elem *e)
{
	size_t		 i, off = DP_IFLEN + (e->set == DS_PIN4 ? 4 : 16);
	uint16_t	 port;

	memcpy(&port, e->key + off + 4, sizeof(port));
	port = ntohs(port);
	for (i = 0; i < nnames; i++)
		if (names[i].proto == e->key[off] && names[i].port == port)
			return (1);
	return (0);
}

/*
 * The special-purpose range (lib/addrclass.c) a pin's address is in,
 * unless an allow cidr of the policy holds it: NULL if it may be
 * pinned.  dnspind filters answers so already; this holds even if it
 * were made to ask.
 */
static const struct addrclass_range *
dp_pin_blocked(const struct conf_prefix *cidrs, size_t ncidrs,
    const struct dp_elem *e)
{
	int	 af = e->set == DS_PIN4 ? AF_INET : AF_INET6;

	return (addrclass_blocked(af, e->key + DP_IFLEN, cidrs, ncidrs));
}

static int
dp_pin_allowed(const struct dp_sbx *sbx, const struct dp_elem *e)
{
	return (dp_pin_named(sbx->names, sbx->nnames, e) &&
	    dp_pin_blocked(sbx->cidrs, sbx->ncidrs, e) == NULL);
}

static int
dp_scan_elem(struct dp *dp, const struct dp_elem *e, void *arg)
{
	struct dp_scan	*sc = arg;
	struct dp_sbx	*sbx;
	struct dp_elem	*k;
	struct timespec	 now;
	char		 ifname[IFNAMSIZ];
	int		 keep = 1;

	dp_elem_ifname(e, ifname);
	if (dp_scan_doomed(sc, ifname))
		keep = 0;
	else if (sc->only == NULL && (sbx = dp_sbx_find(dp, ifname)) != NULL) {
		if (e->set == DS_PIN4 || e->set == DS_PIN6) {
			keep = dp_pin_allowed(sbx, e);
			/* Timed from after the dump: never before the kernel. */
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (keep && dp_pins_note(sbx, e, e->expires,
			    &now) == 0)
				sc->adopted++;
		} else
			keep = bsearch(e, sbx->elems, sbx->nelems,
			    sizeof(*e), dp_elem_qcmp) != NULL;
	}
	if (keep)
		return (0);
	if ((k = dp_elems_add(&sc->kill)) == NULL)
		return (-1);
	*k = *e;
	return (0);
}

static int
dp_scan_counter(struct dp *dp, const char *name, uint64_t pkts,
    uint64_t bytes, void *arg)
{
	struct dp_scan	*sc = arg;
	struct dp_elem	*k;

	if (!dp_scan_doomed(sc, name))
		return (0);
	if ((k = dp_elems_add(&sc->kill)) == NULL)
		return (-1);
	dp_key_start(k, DS_COUNTERS, name);
	k->set = DP_OBJ_COUNTER;
	sc->nckill++;
	return (0);
}

/* A slice of what the scan doomed, all seen in the kernel just now. */
struct dp_slice {
	const struct dp_elem	*v;
	size_t			 n;
};

static int
dp_build_slice(struct dp *dp, void *arg)
{
	struct dp_slice	*sl = arg;

	return (dp_put_dels(dp, sl->v, sl->n, DP_SEEN));
}

/*
 * Delete what the scan doomed, a batch at a time: elements first, then
 * the counters (DP_OBJ_COUNTER sorts last).
 */
static int
dp_scan_apply(struct dp *dp, struct dp_scan *sc)
{
	struct dp_slice	 sl;
	size_t		 i, n;
	int		 rc = 0;

	if (sc->kill.n == 0)
		return (0);	/* v may be NULL: qsort must not see it */
	qsort(sc->kill.v, sc->kill.n, sizeof(*sc->kill.v), dp_elem_qcmp);
	for (i = 0; i < sc->kill.n; i += n) {
		n = sc->kill.n - i;
		if (n > DP_ELEMS_PER_BATCH)
			n = DP_ELEMS_PER_BATCH;
		sl.v = sc->kill.v + i;
		sl.n = n;
		if (dp_commit(dp, __func__, dp_build_slice, &sl) == -1)
			rc = -1;
	}
	return (rc);
}

static void
dp_scan_free(struct dp_scan *sc)
{
	free(sc->kill.v);
}

static int
dp_scan(struct dp *dp, struct dp_scan *sc)
{
	int	 set, rc = 0;

	clock_gettime(CLOCK_MONOTONIC, &sc->now);
	for (set = 0; set < DS_MAX && rc == 0; set++)
		rc = dp_dump_set(dp, set, dp_scan_elem, sc);
	if (rc == 0)
		rc = dp_dump_counters(dp, dp_scan_counter, sc);
	if (rc == 0)
		rc = dp_scan_apply(dp, sc);
	return (rc);
}

/*
 * Remove a sandbox.  One this netd programmed goes in one batch of
 * exactly its elements, pins and counter; an unknown name is looked
 * for in every set (after a restart, say).
 */
int
dp_sandbox_del(struct dp *dp, const char *ifname)
{
	struct dp_sbx	*sbx;
	struct dp_scan	 sc;
	int		 rc;

	if ((sbx = dp_sbx_find(dp, ifname)) != NULL)
		return (dp_sandbox_del_known(dp, sbx));
	memset(&sc, 0, sizeof(sc));
	sc.only = ifname;
	rc = dp_scan(dp, &sc);
	log_debug("%s: %s: %zu elements, %zu counters (scanned)", __func__,
	    ifname, sc.kill.n - sc.nckill, sc.nckill);
	dp_scan_free(&sc);
	if (rc == -1)
		log_warnx("%s: %s: incomplete", __func__, ifname);
	return (rc);
}

int
dp_reconcile(struct dp *dp, netd_owned_fn owned, void *arg)
{
	struct dp_scan	 sc;
	struct dp_sbx	*sbx, *next;
	int		 rc;

	memset(&sc, 0, sizeof(sc));
	sc.owned = owned;
	sc.arg = arg;
	rc = dp_scan(dp, &sc);
	/* Their elements are gone; so is what we knew of them. */
	RB_FOREACH_SAFE(sbx, dp_sbxs, &dp->sbxs, next)
		if (!owned(sbx->ident.ifname, arg))
			dp_sbx_free(dp, sbx);
	log_info("%s: removed %zu elements and %zu counters, adopted %zu "
	    "pins", __func__, sc.kill.n - sc.nckill, sc.nckill, sc.adopted);
	dp_scan_free(&sc);
	if (rc == -1)
		log_warnx("%s: incomplete", __func__);
	return (rc);
}

int
dp_pin_elem(const struct netd_pin *pin, const char *ifname,
    struct dp_elem *e)
{
	uint8_t	*k;

	if ((pin->af != AF_INET && pin->af != AF_INET6) ||
	    (pin->proto != IPPROTO_TCP && pin->proto != IPPROTO_UDP) ||
	    pin->port == 0 || pin->ttl == 0) {
		errno = EINVAL;
		return (-1);
	}
	k = dp_key_start(e, pin->af == AF_INET ? DS_PIN4 : DS_PIN6, ifname);
	k = dp_key_addr(k, pin->af, &pin->addr);
	dp_key_port(k, pin->proto, pin->port);
	e->ttl = pin->ttl;
	return (0);
}

/* How many of the n pins at v the sandbox does not hold yet. */
static size_t
dp_pins_new(struct dp_sbx *sbx, const struct dp_elem *v, size_t n)
{
	struct dp_pin	 key;
	size_t		 i, count = 0;

	for (i = 0; i < n; i++) {
		key.e = v[i];
		if (RB_FIND(dp_pins, &sbx->pins, &key) == NULL)
			count++;
	}
	return (count);
}

/*
 * Room for the group's new pins under the sandbox's cap, after dropping
 * the expired ones from the count if need be.  Refreshing a pin held
 * already always fits.
 */
static int
dp_pins_room(struct dp_sbx *sbx, const struct dp_elem *v, size_t n)
{
	struct timespec	 now;
	size_t		 want;

	if (sbx->npins + n <= sbx->pins_max ||
	    (want = dp_pins_new(sbx, v, n)) == 0)
		return (1);
	if (sbx->npins + want > sbx->pins_max) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		dp_pins_prune(sbx, &now);
		sbx->pins_pruned = now.tv_sec;
		want = dp_pins_new(sbx, v, n);
	}
	return (sbx->npins + want <= sbx->pins_max);
}

/* A group's pins as elements at v; an errno if one may not be. */
static int
dp_pin_group_elems(struct dp *dp, const struct dp_pin_group *g,
    struct dp_elem *v)
{
	const struct addrclass_range	*ar;
	struct dp_sbx			*sbx;
	size_t				 i;

	if ((sbx = dp_sbx_find(dp, g->ifname)) == NULL) {
		log_warnx("%s: %s: no such sandbox", __func__, g->ifname);
		return (ENOENT);
	}
	for (i = 0; i < g->n; i++) {
		if (dp_pin_elem(&g->pins[i], g->ifname, &v[i]) == -1) {
			log_warnx("%s: %s: pin %zu: invalid", __func__,
			    g->ifname, i);
			return (EINVAL);
		}
		if (!dp_pin_named(sbx->names, sbx->nnames, &v[i])) {
			log_warnx("%s: %s: pin %zu: port not allowed by name",
			    __func__, g->ifname, i);
			return (EPERM);
		}
		if ((ar = dp_pin_blocked(sbx->cidrs, sbx->ncidrs,
		    &v[i])) != NULL) {
			log_warnx("%s: %s: pin %zu: %s address, no allow "
			    "cidr of the policy holds it", __func__,
			    g->ifname, i, ar->name);
			return (EPERM);
		}
	}
	if (!dp_pins_room(sbx, v, g->n)) {
		log_warnx("%s: %s: holds %zu live pins, at most %zu",
		    __func__, g->ifname, sbx->npins, sbx->pins_max);
		return (ENOSPC);
	}
	return (0);
}

/* Each sandbox's bookkeeping of what the batch pinned. */
static void
dp_pin_groups_note(struct dp *dp, struct dp_pin_group *g, size_t ng,
    const struct dp_elem *v)
{
	struct dp_sbx	*sbx;
	struct timespec	 now;
	size_t		 i, j, off = 0;

	clock_gettime(CLOCK_MONOTONIC, &now);
	for (i = 0; i < ng; off += g[i].n, i++) {
		if (g[i].error != 0 ||
		    (sbx = dp_sbx_find(dp, g[i].ifname)) == NULL)
			continue;
		/*
		 * A walk of every pin: once a second at most, not per
		 * batch, or a sandbox holding many pins slows every
		 * answer (the kernel expires the elements itself).
		 */
		if (sbx->pins_pruned != now.tv_sec) {
			dp_pins_prune(sbx, &now);
			sbx->pins_pruned = now.tv_sec;
		}
		for (j = 0; j < g[i].n; j++)
			if (dp_pins_note(sbx, &v[off + j],
			    (uint64_t)v[off + j].ttl * 1000, &now) == -1)
				log_warn("%s: %s: pin bookkeeping", __func__,
				    g[i].ifname);
	}
}

/* Pins deleted where they are, and added again with their new TTL. */
static int
dp_build_repin(struct dp *dp, void *arg)
{
	struct dp_slice	*sl = arg;

	if (dp_put_dels(dp, sl->v, sl->n, DP_ASK) == -1)
		return (-1);
	return (dp_put_elems(dp, NFT_MSG_NEWSETELEM, NLM_F_CREATE, sl->v,
	    sl->n));
}

/*
 * Pins of several groups (answers) in one netlink batch: each pin is
 * destroyed and added again, since an add of an existing element keeps
 * its old expiry (kernel 6.18 too).  Only ports the policy allows by
 * name can be pinned; a group with one that is not fails alone, with
 * its error set, and the others go on.  -1 if the batch failed, every
 * group that was in it with its error set.
 */
int
dp_pin_groups(struct dp *dp, struct dp_pin_group *g, size_t ng)
{
	struct dp_elem	*v, *b;
	struct dp_slice	 sl;
	size_t		 i, total = 0, off, nb = 0;
	int		 rc = 0;

	for (i = 0; i < ng; i++)
		total += g[i].n;
	if (total == 0)
		return (0);
	if ((v = calloc(total, sizeof(*v))) == NULL ||
	    (b = calloc(total, sizeof(*b))) == NULL) {
		log_warn("%s", __func__);
		free(v);
		for (i = 0; i < ng; i++)
			if (g[i].error == 0)
				g[i].error = ENOMEM;
		return (-1);
	}
	for (i = off = 0; i < ng; off += g[i].n, i++) {
		if (g[i].error == 0)
			g[i].error = dp_pin_group_elems(dp, &g[i], &v[off]);
		if (g[i].error == 0) {
			memcpy(&b[nb], &v[off], g[i].n * sizeof(*b));
			nb += g[i].n;
		}
	}
	if (nb > 0) {
		/* The same pin twice in one batch: once, the longer TTL. */
		qsort(b, nb, sizeof(*b), dp_elem_qcmp);
		for (i = off = 0; i < nb; i++) {
			if (off > 0 && dp_elem_cmp(&b[off - 1], &b[i]) == 0) {
				if (b[i].ttl > b[off - 1].ttl)
					b[off - 1].ttl = b[i].ttl;
				continue;
			}
			b[off++] = b[i];
		}
		sl.v = b;
		sl.n = off;
		if (dp_commit(dp, __func__, dp_build_repin, &sl) == -1) {
			log_warn("%s: %zu pins", __func__, sl.n);
			for (i = 0; i < ng; i++)
				if (g[i].error == 0)
					g[i].error = errno != 0 ? errno : EIO;
			rc = -1;
		} else
			dp_pin_groups_note(dp, g, ng, v);
	}
	free(b);
	free(v);
	return (rc == 0 ? 0 : -1);
}

/* One sandbox's pins, in one batch. */
int
dp_pin_batch(struct dp *dp, const char *ifname, const struct netd_pin *pins,
    size_t n)
{
	struct dp_pin_group	 g = { ifname, pins, n, 0 };

	if (dp_sbx_find(dp, ifname) == NULL) {
		log_warnx("%s: %s: no such sandbox", __func__, ifname);
		errno = ENOENT;
		return (-1);
	}
	if (dp_pin_groups(dp, &g, 1) == -1 || g.error != 0) {
		errno = g.error != 0 ? g.error : EIO;
		return (-1);
	}
	return (0);
}

int
dp_pin_add(struct dp *dp, const char *ifname, const struct netd_pin *pin)
{
	return (dp_pin_batch(dp, ifname, pin, 1));
}

/* Held pins of services gone, at most this many services at a time. */
#define DP_HELD_MAX		1024

static void
dp_held_free(struct dp *dp, struct dp_held *h)
{
	struct dp_pin	*pin, *next;

	RB_FOREACH_SAFE(pin, dp_pins, &h->pins, next) {
		RB_REMOVE(dp_pins, &h->pins, pin);
		free(pin);
	}
	TAILQ_REMOVE(&dp->held, h, entry);
	dp->nheld--;
	free(h);
}

void
dp_held_free_all(struct dp *dp)
{
	struct dp_held	*h;

	while ((h = TAILQ_FIRST(&dp->held)) != NULL)
		dp_held_free(dp, h);
}

static struct dp_held *
dp_held_find(struct dp *dp, const char *id)
{
	struct dp_held	*h;

	TAILQ_FOREACH(h, &dp->held, entry)
		if (strcmp(h->id, id) == 0)
			return (h);
	return (NULL);
}

/* Held pins that expire meanwhile are gone, as the kernel's would be. */
static void
dp_held_prune(struct dp *dp, const struct timespec *now)
{
	struct dp_held	*h, *next;
	struct dp_pin	*pin, *pnext;

	TAILQ_FOREACH_SAFE(h, &dp->held, entry, next) {
		RB_FOREACH_SAFE(pin, dp_pins, &h->pins, pnext)
			if (timespeccmp(&pin->expiry, now, <)) {
				RB_REMOVE(dp_pins, &h->pins, pin);
				free(pin);
				h->npins--;
			}
		if (h->npins == 0)
			dp_held_free(dp, h);
	}
}

void
dp_pins_hold(struct dp *dp, const char *id, const char *ifname)
{
	struct dp_sbx	*sbx;
	struct dp_held	*h;
	struct dp_pin	*pin, *copy;
	struct timespec	 now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	dp_held_prune(dp, &now);
	if ((h = dp_held_find(dp, id)) != NULL)
		dp_held_free(dp, h);
	if ((sbx = dp_sbx_find(dp, ifname)) == NULL)
		return;
	dp_pins_prune(sbx, &now);
	if (sbx->npins == 0)
		return;
	if (dp->nheld >= DP_HELD_MAX || (h = calloc(1, sizeof(*h))) == NULL) {
		log_warnx("%s: %s: its pins cannot be held", __func__, id);
		return;
	}
	strlcpy(h->id, id, sizeof(h->id));
	strlcpy(h->policy, sbx->policy, sizeof(h->policy));
	RB_INIT(&h->pins);
	TAILQ_INSERT_TAIL(&dp->held, h, entry);
	/* A copy: dp_sandbox_del takes the kernel's with the sandbox. */
	RB_FOREACH(pin, dp_pins, &sbx->pins) {
		if ((copy = malloc(sizeof(*copy))) == NULL) {
			log_warn("%s: %s", __func__, id);
			break;
		}
		*copy = *pin;
		RB_INSERT(dp_pins, &h->pins, copy);
		h->npins++;
	}
	dp->nheld++;
	log_debug("%s: %s: %zu pins held", __func__, id, h->npins);
}

/* The held pins for the new sandbox, as elements with their time left. */
static size_t
dp_held_elems(struct dp_held *h, struct dp_sbx *sbx, struct dp_elem *v,
    const struct timespec *now)
{
	struct dp_pin	*pin;
	struct timespec	 left;
	size_t		 n = 0;

	RB_FOREACH(pin, dp_pins, &h->pins) {
		/* A reload may have lowered the policy's cap meanwhile. */
		if (n >= sbx->pins_max)
			break;
		if (!timespeccmp(&pin->expiry, now, >))
			continue;
		timespecsub(&pin->expiry, now, &left);
		v[n] = pin->e;
		memset(v[n].key, 0, DP_IFLEN);
		memcpy(v[n].key, sbx->ident.ifname,
		    strnlen(sbx->ident.ifname, DP_IFLEN - 1));
		v[n].ttl = 0;
		v[n].expires = 0;
		v[n].timeout_ms = left.tv_sec * 1000 + left.tv_nsec / 1000000;
		/* The new policy's names decide, as on a reload. */
		if (v[n].timeout_ms == 0 || !dp_pin_allowed(sbx, &v[n]))
			continue;
		n++;
	}
	return (n);
}

void
dp_pins_carry(struct dp *dp, const char *id, const char *ifname, int carry)
{
	struct dp_held	*h;
	struct dp_sbx	*sbx;
	struct dp_elem	*v;
	struct dp_slice	 sl;
	struct timespec	 now;
	size_t		 i, n;

	if ((h = dp_held_find(dp, id)) == NULL)
		return;
	if (!carry || (sbx = dp_sbx_find(dp, ifname)) == NULL ||
	    strcmp(h->policy, sbx->policy) != 0 ||
	    (v = calloc(h->npins, sizeof(*v))) == NULL) {
		dp_held_free(dp, h);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	n = dp_held_elems(h, sbx, v, &now);
	dp_held_free(dp, h);
	sl.v = v;
	sl.n = n;
	if (n > 0 && dp_commit(dp, __func__, dp_build_repin, &sl) == -1) {
		log_warn("%s: %s: %zu pins", __func__, id, n);
		free(v);
		return;
	}
	for (i = 0; i < n; i++)
		if (dp_pins_note(sbx, &v[i], v[i].timeout_ms, &now) == -1)
			log_warn("%s: %s: pin bookkeeping", __func__, id);
	if (n > 0)
		log_info("sandbox %s: %zu pins carried over from its last "
		    "sandbox", id, n);
	free(v);
}
