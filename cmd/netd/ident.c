/*
 * Network identities.  A sandbox id hashes to a /30 slot of the node
 * subnet (linear probing past taken slots) and names its host-side
 * interface <prefix><first 8 hex digits of the id> (a hash instead in
 * the rare case another live sandbox has those digits); the MACs come
 * from the same hash.  So an id gets the same identity every time
 * unless a colliding id holds its place.
 */
#include <sys/tree.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "netd.h"

#define IDENT_NAME_TRIES	64

struct ident_ent {
	RB_ENTRY(ident_ent)	 by_id;
	RB_ENTRY(ident_ent)	 by_slot;
	RB_ENTRY(ident_ent)	 by_if;
	struct netd_ident	 ident;
};

static int	ident_cmp_id(struct ident_ent *, struct ident_ent *);
static int	ident_cmp_slot(struct ident_ent *, struct ident_ent *);
static int	ident_cmp_if(struct ident_ent *, struct ident_ent *);

RB_HEAD(ident_ids, ident_ent);
RB_HEAD(ident_slots, ident_ent);
RB_HEAD(ident_ifs, ident_ent);
RB_PROTOTYPE(ident_ids, ident_ent, by_id, ident_cmp_id)
RB_PROTOTYPE(ident_slots, ident_ent, by_slot, ident_cmp_slot)
RB_PROTOTYPE(ident_ifs, ident_ent, by_if, ident_cmp_if)
RB_GENERATE(ident_ids, ident_ent, by_id, ident_cmp_id)
RB_GENERATE(ident_slots, ident_ent, by_slot, ident_cmp_slot)
RB_GENERATE(ident_ifs, ident_ent, by_if, ident_cmp_if)

struct ident_pool {
	struct netd_params	 p;
	uint32_t		 nslots;
	size_t			 count;
	struct ident_ids	 ids;
	struct ident_slots	 slots;
	struct ident_ifs	 ifs;
};

static int
ident_cmp_id(struct ident_ent *a, struct ident_ent *b)
{
	return (strcmp(a->ident.id, b->ident.id));
}

static int
ident_cmp_slot(struct ident_ent *a, struct ident_ent *b)
{
	return (a->ident.slot < b->ident.slot ? -1 :
	    a->ident.slot > b->ident.slot);
}

static int
ident_cmp_if(struct ident_ent *a, struct ident_ent *b)
{
	return (strcmp(a->ident.ifname, b->ident.ifname));
}

/* FNV-1a: stable across runs and builds, which is all we need of it. */
static uint64_t
ident_hash(const char *s, uint32_t salt)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;

	h = (h ^ salt) * 0x100000001b3ULL;
	for (; *s != '\0'; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
	return (h);
}

struct ident_pool *
ident_pool_new(const struct netd_params *p)
{
	struct ident_pool	*pool;

	if (p->subnet_len < 8 || p->subnet_len > NETD_PLEN) {
		log_warnx("%s: subnet /%u: 8 to %u required", __func__,
		    p->subnet_len, NETD_PLEN);
		errno = EINVAL;
		return (NULL);
	}
	if ((pool = calloc(1, sizeof(*pool))) == NULL) {
		log_warn("%s", __func__);
		return (NULL);
	}
	pool->p = *p;
	pool->nslots = 1U << (NETD_PLEN - p->subnet_len);
	RB_INIT(&pool->ids);
	RB_INIT(&pool->slots);
	RB_INIT(&pool->ifs);
	return (pool);
}

void
ident_pool_free(struct ident_pool *pool)
{
	struct ident_ent	*e, *next;

	if (pool == NULL)
		return;
	RB_FOREACH_SAFE(e, ident_ids, &pool->ids, next) {
		RB_REMOVE(ident_ids, &pool->ids, e);
		free(e);
	}
	free(pool);
}

int
ident_valid_id(const char *id)
{
	size_t	 i;

	for (i = 0; i < NETD_ID_LEN; i++)
		if (!((id[i] >= '0' && id[i] <= '9') ||
		    (id[i] >= 'a' && id[i] <= 'f')))
			return (0);
	return (id[NETD_ID_LEN] == '\0');
}

/* Addresses of a slot; MACs and names are set by the caller. */
void
ident_fill(const struct netd_params *p, uint32_t slot,
    struct netd_ident *ni)
{
	uint32_t	 net = ntohl(p->subnet.s_addr) + slot * 4;

	ni->slot = slot;
	ni->net.s_addr = htonl(net);
	ni->gw.s_addr = htonl(net + 1);
	ni->guest.s_addr = htonl(net + 2);
	netd_v6_addr(&ni->gw6, ni->gw);
	netd_v6_addr(&ni->guest6, ni->guest);
}

/* Locally administered (bit 1) unicast (bit 0 clear) MACs. */
static void
ident_macs(struct netd_ident *ni)
{
	uint64_t	 h = ident_hash(ni->id, 1);
	int		 i;

	ni->guest_mac[0] = 0x02;
	ni->host_mac[0] = 0x06;
	for (i = 1; i < 6; i++)
		ni->guest_mac[i] = ni->host_mac[i] = h >> (8 * (i - 1));
}

static struct ident_ent *
ident_byif(struct ident_pool *pool, const char *ifname)
{
	struct ident_ent	 key;

	strlcpy(key.ident.ifname, ifname, sizeof(key.ident.ifname));
	return (RB_FIND(ident_ifs, &pool->ifs, &key));
}

static struct ident_ent *
ident_byslot(struct ident_pool *pool, uint32_t slot)
{
	struct ident_ent	 key;

	key.ident.slot = slot;
	return (RB_FIND(ident_slots, &pool->slots, &key));
}

static int
ident_name(struct ident_pool *pool, struct netd_ident *ni)
{
	uint32_t	 i;

	snprintf(ni->ifname, sizeof(ni->ifname), "%s%.8s",
	    pool->p.ifprefix, ni->id);
	for (i = 2; ident_byif(pool, ni->ifname) != NULL; i++) {
		if (i == IDENT_NAME_TRIES)
			return (-1);
		snprintf(ni->ifname, sizeof(ni->ifname), "%s%08x",
		    pool->p.ifprefix, (uint32_t)ident_hash(ni->id, i));
	}
	return (0);
}

static int
ident_insert(struct ident_pool *pool, const struct netd_ident *ni,
    struct netd_ident *out)
{
	struct ident_ent	*e;

	if ((e = calloc(1, sizeof(*e))) == NULL) {
		log_warn("%s", __func__);
		return (-1);
	}
	e->ident = *ni;
	RB_INSERT(ident_ids, &pool->ids, e);
	RB_INSERT(ident_slots, &pool->slots, e);
	RB_INSERT(ident_ifs, &pool->ifs, e);
	pool->count++;
	if (out != NULL)
		*out = e->ident;
	return (0);
}

int
ident_acquire(struct ident_pool *pool, const char *id,
    struct netd_ident *out)
{
	const struct netd_ident	*old;
	struct netd_ident	 ni;
	uint32_t		 slot;

	if (!ident_valid_id(id)) {
		log_warnx("%s: bad sandbox id", __func__);
		errno = EINVAL;
		return (-1);
	}
	if ((old = ident_find(pool, id)) != NULL) {
		if (out != NULL)
			*out = *old;
		return (0);
	}
	if (pool->count == pool->nslots) {
		log_warnx("%s: %s: subnet full (%u slots)", __func__, id,
		    pool->nslots);
		errno = ENOSPC;
		return (-1);
	}
	memset(&ni, 0, sizeof(ni));
	strlcpy(ni.id, id, sizeof(ni.id));
	slot = ident_hash(id, 0) % pool->nslots;
	while (ident_byslot(pool, slot) != NULL)
		slot = (slot + 1) % pool->nslots;
	ident_fill(&pool->p, slot, &ni);
	ident_macs(&ni);
	if (ident_name(pool, &ni) == -1) {
		log_warnx("%s: %s: no free interface name", __func__, id);
		errno = EEXIST;
		return (-1);
	}
	return (ident_insert(pool, &ni, out));
}

int
ident_adopt(struct ident_pool *pool, const char *id, uint32_t slot,
    const char *ifname, struct netd_ident *out)
{
	const struct netd_ident	*old;
	struct netd_ident	 ni;

	if (!ident_valid_id(id) || slot >= pool->nslots ||
	    !netd_ifname_ours(pool->p.ifprefix, ifname)) {
		log_warnx("%s: bad identity", __func__);
		errno = EINVAL;
		return (-1);
	}
	if ((old = ident_find(pool, id)) != NULL && old->slot == slot &&
	    strcmp(old->ifname, ifname) == 0) {
		if (out != NULL)
			*out = *old;
		return (0);
	}
	if (old != NULL || ident_byslot(pool, slot) != NULL ||
	    ident_byif(pool, ifname) != NULL) {
		log_warnx("%s: %s: slot %u or %s taken", __func__, id, slot,
		    ifname);
		errno = EEXIST;
		return (-1);
	}
	memset(&ni, 0, sizeof(ni));
	strlcpy(ni.id, id, sizeof(ni.id));
	strlcpy(ni.ifname, ifname, sizeof(ni.ifname));
	ident_fill(&pool->p, slot, &ni);
	ident_macs(&ni);
	return (ident_insert(pool, &ni, out));
}

int
ident_release(struct ident_pool *pool, const char *id)
{
	struct ident_ent	 key, *e;

	strlcpy(key.ident.id, id, sizeof(key.ident.id));
	if ((e = RB_FIND(ident_ids, &pool->ids, &key)) == NULL) {
		errno = ENOENT;
		return (-1);
	}
	RB_REMOVE(ident_ids, &pool->ids, e);
	RB_REMOVE(ident_slots, &pool->slots, e);
	RB_REMOVE(ident_ifs, &pool->ifs, e);
	pool->count--;
	free(e);
	return (0);
}

const struct netd_ident *
ident_find(struct ident_pool *pool, const char *id)
{
	struct ident_ent	 key, *e;

	strlcpy(key.ident.id, id, sizeof(key.ident.id));
	e = RB_FIND(ident_ids, &pool->ids, &key);
	return (e == NULL ? NULL : &e->ident);
}

const struct netd_ident *
ident_find_ifname(struct ident_pool *pool, const char *ifname)
{
	struct ident_ent	*e;

	e = ident_byif(pool, ifname);
	return (e == NULL ? NULL : &e->ident);
}

/* cb may not acquire or release; collect ids and act afterwards. */
int
ident_foreach(struct ident_pool *pool,
    int (*cb)(const struct netd_ident *, void *), void *arg)
{
	struct ident_ent	*e;

	RB_FOREACH(e, ident_ids, &pool->ids)
		if (cb(&e->ident, arg) == -1)
			return (-1);
	return (0);
}

size_t
ident_count(struct ident_pool *pool)
{
	return (pool->count);
}

uint32_t
ident_nslots(struct ident_pool *pool)
{
	return (pool->nslots);
}
