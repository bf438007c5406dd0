/*
 * Sandboxes in the datapath: the registry of what each sandbox this
 * netd programmed has in the kernel, and the batches that add a
 * sandbox, change its policy and remove it.  The elements come from
 * dp_policy.c, pins from dp_pin.c; a sandbox not in the registry is
 * found by a scan of the sets (dp_scan.c).
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

static int	dp_sbx_cmp(struct dp_sbx *, struct dp_sbx *);
static int	dp_pin_cmp(struct dp_pin *, struct dp_pin *);
RB_GENERATE(dp_sbxs, dp_sbx, entry, dp_sbx_cmp)
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

void
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

int
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

