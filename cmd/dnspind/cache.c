/*
 * The answers dnspind released, kept per sandbox for the TTL it told
 * that sandbox: a repeat query within that TTL is not asked upstream
 * again.  It still goes through netd (resolve.c): the answer's pins are
 * refreshed and the answer is released only once netd acknowledged
 * them, exactly as for one from upstream, unless netd acknowledged them
 * less than CACHE_REPIN_MS ago for longer than the TTL the repeat is
 * told (cache_get): then it goes at once, and netd is spared one
 * netlink batch per answer of a name asked over and over.  An entry is found only by
 * the sandbox, the policy, the name, the type, the EDNS flags and the
 * transport of the query it answered (an upstream's answers may differ
 * by transport: over UDP one may come truncated, and is asked again
 * over TCP); entries go with their sandbox and with any new
 * config (whose allowlist or cidrs may have changed).  Bounded: the
 * least recently used entry makes room.  A query finds its entry
 * through a hash of its key; a tree ordered by a hash of the sandbox
 * id finds a sandbox's entries when it goes.  Neither compares ids and
 * names along a path of the tree (a lookup per repeat, an insertion
 * per answer asked upstream).
 */
#include <sys/queue.h>
#include <sys/tree.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dnspind.h"
#include "log.h"

#define CACHE_MAX		16384	/* entries, all sandboxes */
#define CACHE_REPIN_MS		1000	/* a repeat's pins go in again after */
#define CACHE_BUCKETS		16384	/* CACHE_MAX: a chain of one or so */

struct cache_ent {
	RB_ENTRY(cache_ent)	 by_key;
	LIST_ENTRY(cache_ent)	 by_hash;
	uint32_t		 hash;		/* of the key (cache_hash) */
	uint32_t		 sbhash;	/* of the sandbox id */
	uint64_t		 seq;		/* the tree's order after it */
	TAILQ_ENTRY(cache_ent)	 lru;		/* most recent first */
	char			 sandbox[SBX_ID_SIZE];
	char			 policy[CONF_NAME_SIZE];
	char			 name[DNS_NAME_MAX + 1];
	uint16_t		 qtype;
	uint8_t			 edns;
	uint8_t			 edns_do;
	uint8_t			 tcp;
	uint16_t		 qlen;		/* of its question */
	uint64_t		 born_ms;	/* when released */
	uint32_t		 ttl;		/* the TTL told then */
	uint64_t		 pin_epoch;	/* netd's channel that acked */
	uint64_t		 pin_acked_ms;	/* when its pins were queued */
	uint64_t		 pin_until_ms;	/* they last at least until */
	size_t			 naddrs;
	struct dns_addr		*addrs;		/* as upstream said */
	uint8_t			*ans;
	size_t			 anslen;
};

RB_HEAD(cache_tree, cache_ent);
static TAILQ_HEAD(cache_lru_head, cache_ent) cache_lru =
    TAILQ_HEAD_INITIALIZER(cache_lru);
static struct cache_tree	 cache_tree = RB_INITIALIZER(&cache_tree);
static size_t			 cache_count;
static uint64_t			 cache_seq;
static LIST_HEAD(, cache_ent)	 cache_buckets[CACHE_BUCKETS];

/* A sandbox's entries are together (and a few of another's, rarely). */
static int
cache_cmp(struct cache_ent *a, struct cache_ent *b)
{
	if (a->sbhash != b->sbhash)
		return (a->sbhash < b->sbhash ? -1 : 1);
	return (a->seq < b->seq ? -1 : a->seq > b->seq);
}
RB_PROTOTYPE(cache_tree, cache_ent, by_key, cache_cmp)
RB_GENERATE(cache_tree, cache_ent, by_key, cache_cmp)

uint64_t
cache_now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* FNV-1a of the key's strings and fields, as cache_cmp tells them apart. */
static uint32_t
cache_hash_str(uint32_t h, const char *s)
{
	for (; *s != '\0'; s++)
		h = (h ^ (uint8_t)*s) * 16777619;
	return ((h ^ 0xff) * 16777619);
}

static uint32_t
cache_hash(const char *sandbox, const char *policy, const struct dns_query *q,
    int tcp)
{
	uint32_t	 h = 2166136261u;

	h = cache_hash_str(h, sandbox);
	h = cache_hash_str(h, q->name);
	h = cache_hash_str(h, policy);
	h = (h ^ q->qtype) * 16777619;
	h = (h ^ ((q->edns != 0) | (q->edns_do != 0) << 1 |
	    (tcp != 0) << 2)) * 16777619;
	return (h);
}

/* The entry of this key, or NULL: what RB_FIND with cache_cmp finds. */
static struct cache_ent *
cache_lookup(const char *sandbox, const char *policy,
    const struct dns_query *q, int tcp)
{
	struct cache_ent	*e;
	uint32_t		 h = cache_hash(sandbox, policy, q, tcp);

	LIST_FOREACH(e, &cache_buckets[h % CACHE_BUCKETS], by_hash)
		if (e->hash == h && e->qtype == q->qtype &&
		    e->edns == q->edns && e->edns_do == q->edns_do &&
		    e->tcp == (tcp != 0) && strcmp(e->name, q->name) == 0 &&
		    strcmp(e->sandbox, sandbox) == 0 &&
		    strcmp(e->policy, policy) == 0)
			return (e);
	return (NULL);
}

static void
cache_key(struct cache_ent *k, const char *sandbox, const char *policy,
    const struct dns_query *q, int tcp)
{
	k->tcp = tcp != 0;
	strlcpy(k->sandbox, sandbox, sizeof(k->sandbox));
	strlcpy(k->policy, policy, sizeof(k->policy));
	strlcpy(k->name, q->name, sizeof(k->name));
	k->qtype = q->qtype;
	k->edns = q->edns;
	k->edns_do = q->edns_do;
}

static void
cache_free(struct cache_ent *e)
{
	RB_REMOVE(cache_tree, &cache_tree, e);
	LIST_REMOVE(e, by_hash);
	TAILQ_REMOVE(&cache_lru, e, lru);
	cache_count--;
	free(e->addrs);
	free(e->ans);
	free(e);
}

/*
 * A repeat of an answer released less than its TTL ago, made for q: the
 * client's id (query_answer sets it), RD and question as it wrote it,
 * every TTL held to the time left.  *ans is the caller's to free; addrs
 * (DNS_ADDRS_MAX of them) get the addresses to pin again, each with the
 * TTL upstream gave it less the time since.  0 if there is none.
 *
 * *pinned is 1 if the pins netd acknowledged for the answer are known
 * to be in place for the whole TTL told: acked on the channel of this
 * netd (epoch; a netd restart loses them with its table), within the
 * last CACHE_REPIN_MS, and lasting past the TTL, which is held to
 * their time left.  The repeat may then go at once; else its pins go
 * in again first.
 */
static struct cache_ent *
cache_find(const char *sandbox, const char *policy, const struct dns_query *q,
    int tcp, uint64_t now)
{
	struct cache_ent	*e;

	if ((e = cache_lookup(sandbox, policy, q, tcp)) == NULL)
		return (NULL);
	if ((now - e->born_ms) / 1000 >= e->ttl || e->qlen != q->qlen) {
		cache_free(e);
		return (NULL);
	}
	return (e);
}

/* The TTL to tell, and whether the pins are in place for all of it. */
static uint32_t
cache_ttl(const struct cache_ent *e, uint64_t epoch, uint64_t now,
    int *pinned)
{
	uint32_t	 ttl = e->ttl - (now - e->born_ms) / 1000;
	uint64_t	 left;

	*pinned = 0;
	if (epoch != 0 && e->pin_epoch == epoch &&
	    now - e->pin_acked_ms < CACHE_REPIN_MS &&
	    e->pin_until_ms > now + 1000) {
		left = (e->pin_until_ms - now) / 1000;
		if (left < ttl)
			ttl = left;
		*pinned = 1;
	}
	return (ttl);
}

/* e's answer into ans (e->anslen bytes), made for q, TTLs held to ttl. */
static int
cache_fill(struct cache_ent *e, const struct dns_query *q, uint32_t ttl,
    uint8_t *ans)
{
	uint16_t	 flags;

	memcpy(ans, e->ans, e->anslen);
	flags = dns_get16(ans + 2) & ~DNS_F_RD;
	dns_put16(ans + 2, flags | (q->rd ? DNS_F_RD : 0));
	/* The same name, type and class: only the letters' case differs. */
	memcpy(ans + DNS_HDR_LEN, q->question, q->qlen);
	if (dns_answer_ttl_cap(ans, e->anslen, ttl) == -1) {
		cache_free(e);
		return (-1);
	}
	TAILQ_REMOVE(&cache_lru, e, lru);
	TAILQ_INSERT_HEAD(&cache_lru, e, lru);
	return (0);
}

int
cache_get(const char *sandbox, const char *policy, const struct dns_query *q,
    int tcp, uint64_t epoch, struct cache_hit *h)
{
	struct cache_ent	*e;
	uint64_t		 now = cache_now_ms(), age;
	size_t			 i;

	if ((e = cache_find(sandbox, policy, q, tcp, now)) == NULL)
		return (0);
	age = (now - e->born_ms) / 1000;
	h->ttl = cache_ttl(e, epoch, now, &h->pinned);
	for (i = 0; i < e->naddrs; i++) {
		h->addrs[i] = e->addrs[i];
		h->addrs[i].ttl = h->addrs[i].ttl > age ?
		    h->addrs[i].ttl - age : 0;
	}
	h->naddrs = e->naddrs;
	if ((h->ans = malloc(e->anslen)) == NULL)
		fatal("%s", __func__);
	h->anslen = e->anslen;
	if (cache_fill(e, q, h->ttl, h->ans) == -1) {
		free(h->ans);
		h->ans = NULL;
		return (0);
	}
	return (1);
}

/*
 * The repeat into ans (size bytes; CACHE_ANSWER_MAX fit any) only if
 * it may go at once, its pins in place (cache_get); its length, or 0.
 */
size_t
cache_get_pinned(const char *sandbox, const char *policy,
    const struct dns_query *q, int tcp, uint64_t epoch, uint8_t *ans,
    size_t size)
{
	struct cache_ent	*e;
	uint64_t		 now = cache_now_ms();
	uint32_t		 ttl;
	int			 pinned;

	if ((e = cache_find(sandbox, policy, q, tcp, now)) == NULL ||
	    e->anslen > size)
		return (0);
	ttl = cache_ttl(e, epoch, now, &pinned);
	if (!pinned)
		return (0);
	return (cache_fill(e, q, ttl, ans) == -1 ? 0 : e->anslen);
}

/*
 * netd acknowledged the pins of a repeat of q: queued at queued_ms on
 * the channel of epoch, the shortest for ttl seconds.
 */
void
cache_repinned(const char *sandbox, const char *policy,
    const struct dns_query *q, int tcp, uint64_t epoch, uint64_t queued_ms,
    uint32_t ttl)
{
	struct cache_ent	*e;

	if ((e = cache_lookup(sandbox, policy, q, tcp)) == NULL)
		return;
	e->pin_epoch = epoch;
	e->pin_acked_ms = queued_ms;
	e->pin_until_ms = queued_ms + (uint64_t)ttl * 1000;
}

/*
 * An answer to q released just now, its TTLs held to ttl, and the
 * addresses pinned for it: kept for repeats of q from the sandbox.
 */
void
cache_put(const char *sandbox, const char *policy, const struct dns_query *q,
    int tcp, const uint8_t *ans, size_t anslen, uint32_t ttl,
    const struct dns_addr *addrs, size_t naddrs, uint64_t epoch,
    uint64_t queued_ms, uint32_t pin_ttl)
{
	struct cache_ent	*e, *old;

	if (ttl == 0 || naddrs == 0 || naddrs > DNS_ADDRS_MAX ||
	    anslen > CACHE_ANSWER_MAX || anslen < (size_t)DNS_HDR_LEN + q->qlen)
		return;
	if ((e = calloc(1, sizeof(*e))) == NULL ||
	    (e->ans = malloc(anslen)) == NULL ||
	    (e->addrs = calloc(naddrs, sizeof(*addrs))) == NULL)
		fatal("%s", __func__);
	cache_key(e, sandbox, policy, q, tcp);
	if ((old = cache_lookup(sandbox, policy, q, tcp)) != NULL)
		cache_free(old);
	else if (cache_count >= CACHE_MAX)
		cache_free(TAILQ_LAST(&cache_lru, cache_lru_head));
	memcpy(e->ans, ans, anslen);
	e->anslen = anslen;
	e->qlen = q->qlen;
	memcpy(e->addrs, addrs, naddrs * sizeof(*addrs));
	e->naddrs = naddrs;
	e->ttl = ttl;
	e->born_ms = cache_now_ms();
	e->pin_epoch = epoch;
	e->pin_acked_ms = queued_ms;
	e->pin_until_ms = queued_ms + (uint64_t)pin_ttl * 1000;
	e->hash = cache_hash(sandbox, policy, q, tcp);
	e->sbhash = cache_hash_str(2166136261u, sandbox);
	e->seq = ++cache_seq;
	RB_INSERT(cache_tree, &cache_tree, e);
	LIST_INSERT_HEAD(&cache_buckets[e->hash % CACHE_BUCKETS], e, by_hash);
	TAILQ_INSERT_HEAD(&cache_lru, e, lru);
	cache_count++;
}

/* The sandbox is gone: none of its answers may go to another. */
void
cache_drop(const char *sandbox)
{
	struct cache_ent	 key, *e, *next;

	key.sbhash = cache_hash_str(2166136261u, sandbox);
	key.seq = 0;
	for (e = RB_NFIND(cache_tree, &cache_tree, &key); e != NULL &&
	    e->sbhash == key.sbhash; e = next) {
		next = RB_NEXT(cache_tree, &cache_tree, e);
		if (strcmp(e->sandbox, sandbox) == 0)
			cache_free(e);
	}
}

/* A new config: every answer is asked again. */
void
cache_flush(void)
{
	struct cache_ent	*e;

	while ((e = TAILQ_FIRST(&cache_lru)) != NULL)
		cache_free(e);
}

size_t
cache_size(void)
{
	return (cache_count);
}
