/*
 * The kernel's sets and counters against netd's registry: a scan of
 * every set removes what belongs to no sandbox of ours, at a restart
 * (dp_reconcile: pins of live sandboxes are adopted), or everything of
 * one interface the registry does not know (dp_sandbox_del).
 */
#include <sys/socket.h>
#include <sys/time.h>
#include <net/if.h>
#include <linux/netlink.h>
#include <linux/netfilter/nf_tables.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "dp.h"

/* Elements per batch when many go at once (pins, reconciliation). */
#define DP_ELEMS_PER_BATCH	1024

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
