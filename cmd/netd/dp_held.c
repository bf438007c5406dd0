/*
 * Held pins: when a service's sandbox goes for a restart, its live pins
 * wait here (dp_pins_hold), and its next sandbox of the same policy gets
 * those still unexpired (dp_pins_carry), so that a restart does not cut
 * the service off from the names it resolved.
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
