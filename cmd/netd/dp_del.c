/*
 * Deletions in the datapath, on kernels with and without the
 * NFT_MSG_DESTROY* commands (Linux 6.3): DESTROY deletes what exists
 * and passes over what does not; DEL fails on an absent object with
 * ENOENT, and that one failure throws the whole batch away.
 *
 * Without DESTROY, a batch deletes only what netd knows exists: what
 * its registry holds (its sandboxes' elements and counters, and pins
 * not yet past their expiry), what it has just dumped, and for the
 * rest what a get of the object finds.  A pin can still expire between
 * the registry's word and the batch (the kernel's expiry is a few
 * milliseconds before ours), and an operator can delete an element by
 * hand.  Then the batch fails, ENOENT, having changed nothing; every
 * deletion in it is asked of the kernel, those found absent are left
 * out, and the batch is built and sent again.  Nothing absent is ever
 * deleted, nothing present is ever left behind.
 */
#include <sys/socket.h>
#include <net/if.h>
#include <linux/netfilter/nf_tables.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "dp.h"

/* Message types newer than Debian 12's headers. */
#define DP_MSG_DESTROYTABLE	26
#define DP_MSG_DESTROYCHAIN	27
#define DP_MSG_DESTROYRULE	28
#define DP_MSG_DESTROYSETELEM	30
#define DP_MSG_DESTROYOBJ	31

/* Attempts at a batch whose deletions found something gone. */
#define DP_COMMIT_TRIES		3

/* The one place that picks DESTROY or DEL. */
uint16_t
dp_del_op(const struct dp *dp, enum dp_del_kind k)
{
	static const uint16_t	 destroy[] = {
		[DD_TABLE] = DP_MSG_DESTROYTABLE,
		[DD_CHAIN] = DP_MSG_DESTROYCHAIN,
		[DD_RULE] = DP_MSG_DESTROYRULE,
		[DD_SETELEM] = DP_MSG_DESTROYSETELEM,
		[DD_OBJ] = DP_MSG_DESTROYOBJ,
	};
	static const uint16_t	 del[] = {
		[DD_TABLE] = NFT_MSG_DELTABLE,
		[DD_CHAIN] = NFT_MSG_DELCHAIN,
		[DD_RULE] = NFT_MSG_DELRULE,
		[DD_SETELEM] = NFT_MSG_DELSETELEM,
		[DD_OBJ] = NFT_MSG_DELOBJ,
	};

	return (dp->destroy ? destroy[k] : del[k]);
}

static int
dp_is_gone(struct dp *dp, const struct dp_elem *e)
{
	return (dp->gone.n > 0 && bsearch(e, dp->gone.v, dp->gone.n,
	    sizeof(*e), dp_elem_qcmp) != NULL);
}

/* Whether a DEL of e can go into the batch; -1 if that cannot be told. */
static int
dp_del_wanted(struct dp *dp, const struct dp_elem *e, int trust,
    const struct timespec *now)
{
	if (dp_is_gone(dp, e))
		return (0);
	if (trust == DP_SEEN || dp_elem_known(dp, e, now))
		return (1);
	return (dp_elem_present(dp, e));
}

static int
dp_put_del_run(struct dp *dp, const struct dp_elem *v, size_t n)
{
	char	 ifname[IFNAMSIZ];
	size_t	 i;

	if (n == 0)
		return (0);
	if (v[0].set != DP_OBJ_COUNTER)
		return (dp_put_elems(dp, dp_del_op(dp, DD_SETELEM), 0, v, n));
	for (i = 0; i < n; i++) {
		dp_elem_ifname(&v[i], ifname);
		if (dp_put_counter(dp, dp_del_op(dp, DD_OBJ), 0, ifname) == -1)
			return (-1);
	}
	return (0);
}

/*
 * Delete the n elements (and counters, DP_OBJ_COUNTER) at v, in that
 * order.  Without DESTROY only those that exist go in, and are noted
 * for a retry.
 */
int
dp_put_dels(struct dp *dp, const struct dp_elem *v, size_t n, int trust)
{
	struct timespec	 now;
	struct dp_elem	*keep, *d;
	size_t		 i, j, nkeep = 0;
	int		 rc = 0, w;

	if (n == 0)
		return (0);
	if (dp->destroy)
		keep = (struct dp_elem *)v, nkeep = n;
	else {
		if ((keep = calloc(n, sizeof(*keep))) == NULL)
			return (-1);
		clock_gettime(CLOCK_MONOTONIC, &now);
		for (i = 0; i < n; i++) {
			if ((w = dp_del_wanted(dp, &v[i], trust, &now)) == -1) {
				free(keep);
				return (-1);
			}
			if (!w)
				continue;
			keep[nkeep++] = v[i];
			if ((d = dp_elems_add(&dp->dels)) == NULL) {
				free(keep);
				return (-1);
			}
			*d = v[i];
		}
	}
	/* Runs of elements, each counter object alone. */
	for (i = 0; i < nkeep && rc == 0; i = j) {
		for (j = i + 1; j < nkeep &&
		    (keep[j].set == DP_OBJ_COUNTER) ==
		    (keep[i].set == DP_OBJ_COUNTER); j++)
			;
		rc = dp_put_del_run(dp, keep + i, j - i);
	}
	if (keep != v)
		free(keep);
	return (rc);
}

/* After an ENOENT: which of the attempt's deletions found nothing. */
static int
dp_dels_check(struct dp *dp, size_t *found)
{
	struct dp_elem	*g;
	size_t		 i;
	int		 p;

	*found = 0;
	for (i = 0; i < dp->dels.n; i++) {
		if ((p = dp_elem_present(dp, &dp->dels.v[i])) == -1)
			return (-1);
		if (p)
			continue;
		if ((g = dp_elems_add(&dp->gone)) == NULL)
			return (-1);
		*g = dp->dels.v[i];
		(*found)++;
	}
	if (dp->gone.n > 0)
		qsort(dp->gone.v, dp->gone.n, sizeof(*dp->gone.v),
		    dp_elem_qcmp);
	return (0);
}

/*
 * One batch, built by build: committed, or on an ENOENT without
 * DESTROY, built again without what was found gone.  The kernel applies
 * a batch all or nothing, so a failed attempt has changed nothing.
 */
int
dp_commit(struct dp *dp, const char *who, dp_build_fn build, void *arg)
{
	size_t	 found;
	int	 try, again;

	dp->gone.n = 0;
	for (try = 1;; try++) {
		nft_batch_reset(dp->b);
		dp->dels.n = 0;
		if (build(dp, arg) == -1) {
			nft_batch_reset(dp->b);
			if (errno == 0)
				errno = ENOMEM;
			log_warn("%s: %s", __func__, who);
			return (-1);
		}
		again = !dp->destroy && try < DP_COMMIT_TRIES;
		if (again)
			nft_batch_quiet(dp->b, ENOENT);
		if (nft_batch_commit(dp->b, who) == 0)
			return (0);
		if (!again || errno != ENOENT)
			return (-1);
		if (dp_dels_check(dp, &found) == -1) {
			log_warn("%s: %s", __func__, who);
			return (-1);
		}
		log_debug("%s: %s: %zu of %zu deletions found nothing, again",
		    __func__, who, found, dp->dels.n);
	}
}

void
dp_del_free(struct dp *dp)
{
	free(dp->dels.v);
	free(dp->gone.v);
	memset(&dp->dels, 0, sizeof(dp->dels));
	memset(&dp->gone, 0, sizeof(dp->gone));
}
