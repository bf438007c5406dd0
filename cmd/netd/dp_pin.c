/*
 * Pins: dnspind's answers, as timed elements of sets pin4 and pin6
 * that let a sandbox reach an address it resolved, on a port its policy
 * allows by name (netd(8), dnspind(8)).  netd keeps each sandbox's live
 * pins in its registry, under the policy's cap, so that a deletion
 * names only what exists and a sandbox cannot grow the sets without end.
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

/* After a policy change: forget the pins it took away. */
void
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

/* The deletion of a sandbox's pins, all of them, into the open batch. */
int
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

void
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

/* Remember a pin as live until ms from now, or later if it was so. */
int
dp_pins_note(struct dp_sbx *sbx, const struct dp_elem *e, uint64_t ms,
    const struct timespec *now)
{
	struct dp_pin	 key, *pin;
	struct timespec	 until;

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
	until.tv_sec = now->tv_sec + ms / 1000;
	until.tv_nsec = now->tv_nsec + (ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	if (until.tv_sec > pin->expiry.tv_sec ||
	    (until.tv_sec == pin->expiry.tv_sec &&
	    until.tv_nsec > pin->expiry.tv_nsec))
		pin->expiry = until;
	return (0);
}

/*
 * A pin is never cut short: an answer told its TTL, and another answer
 * (another name on the same address, say) pinning it again for less
 * must not end it before.  Each element of the batch keeps at least
 * the time its live pin has left, in whole seconds rounded up.
 */
static void
dp_pins_keep(struct dp *dp, struct dp_elem *v, size_t n)
{
	struct dp_sbx	*sbx;
	struct dp_pin	 key, *pin;
	struct timespec	 now;
	char		 ifname[DP_IFLEN + 1];
	long long	 left;
	size_t		 i;

	clock_gettime(CLOCK_MONOTONIC, &now);
	for (i = 0; i < n; i++) {
		memcpy(ifname, v[i].key, DP_IFLEN);
		ifname[DP_IFLEN] = '\0';
		if ((sbx = dp_sbx_find(dp, ifname)) == NULL)
			continue;
		key.e = v[i];
		if ((pin = RB_FIND(dp_pins, &sbx->pins, &key)) == NULL)
			continue;
		left = (long long)(pin->expiry.tv_sec - now.tv_sec) +
		    (pin->expiry.tv_nsec > now.tv_nsec ? 1 : 0);
		if (left > (long long)v[i].ttl)
			v[i].ttl = (uint32_t)left;
	}
}

/* A pin is allowed while the policy has an allow name rule of its port. */
int
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
const struct addrclass_range *
dp_pin_blocked(const struct conf_prefix *cidrs, size_t ncidrs,
    const struct dp_elem *e)
{
	int	 af = e->set == DS_PIN4 ? AF_INET : AF_INET6;

	return (addrclass_blocked(af, e->key + DP_IFLEN, cidrs, ncidrs));
}

int
dp_pin_allowed(const struct dp_sbx *sbx, const struct dp_elem *e)
{
	return (dp_pin_named(sbx->names, sbx->nnames, e) &&
	    dp_pin_blocked(sbx->cidrs, sbx->ncidrs, e) == NULL);
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
int
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
		dp_pins_keep(dp, b, off);
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
