/*
 * The sandboxes dnspind answers, as runnerd announced them through the
 * master: a query belongs to the sandbox whose address it comes from,
 * and to no other; from an address no sandbox has, it is refused.
 */
#include <netinet/in.h>

#include <stdlib.h>
#include <string.h>

#include "dnspind.h"
#include "log.h"

RB_HEAD(dsbx_addr4, dsandbox);
RB_HEAD(dsbx_addr6, dsandbox);
RB_HEAD(dsbx_id, dsandbox);

static int
dsbx_cmp4(struct dsandbox *a, struct dsandbox *b)
{
	return (memcmp(a->m.guest, b->m.guest, sizeof(a->m.guest)));
}

static int
dsbx_cmp6(struct dsandbox *a, struct dsandbox *b)
{
	return (memcmp(a->m.guest6, b->m.guest6, sizeof(a->m.guest6)));
}

static int
dsbx_cmpid(struct dsandbox *a, struct dsandbox *b)
{
	return (strcmp(a->m.id, b->m.id));
}

RB_PROTOTYPE(dsbx_addr4, dsandbox, by_addr4, dsbx_cmp4)
RB_PROTOTYPE(dsbx_addr6, dsandbox, by_addr6, dsbx_cmp6)
RB_PROTOTYPE(dsbx_id, dsandbox, by_id, dsbx_cmpid)
RB_GENERATE(dsbx_addr4, dsandbox, by_addr4, dsbx_cmp4)
RB_GENERATE(dsbx_addr6, dsandbox, by_addr6, dsbx_cmp6)
RB_GENERATE(dsbx_id, dsandbox, by_id, dsbx_cmpid)

static struct dsbx_addr4	 by4 = RB_INITIALIZER(&by4);
static struct dsbx_addr6	 by6 = RB_INITIALIZER(&by6);
static struct dsbx_id		 byid = RB_INITIALIZER(&byid);

const struct dsandbox *
sandboxes_find(const char *id)
{
	struct dsandbox	 key;

	strlcpy(key.m.id, id, sizeof(key.m.id));
	return (RB_FIND(dsbx_id, &byid, &key));
}

void
sandboxes_del(const char *id)
{
	struct dsandbox	*s;

	cache_drop(id);
	if ((s = (struct dsandbox *)sandboxes_find(id)) == NULL)
		return;
	RB_REMOVE(dsbx_id, &byid, s);
	RB_REMOVE(dsbx_addr4, &by4, s);
	RB_REMOVE(dsbx_addr6, &by6, s);
	free(s);
}

/*
 * One more query of this sandbox in flight, or -1 if it has its share.
 * Its first DNSPIND_QUERIES_OWN are always taken, even with the shared
 * cap reached (full): a flood of other sandboxes, however many, cannot
 * starve one that asks little.  Past them, a query needs room under the
 * shared cap and under the sandbox's own.
 */
int
sandboxes_hold(const char *id, int full)
{
	struct dsandbox	*s;

	if ((s = (struct dsandbox *)sandboxes_find(id)) == NULL)
		return (-1);
	if (s->inflight >= DNSPIND_QUERIES_OWN &&
	    (full || s->inflight >= DNSPIND_QUERIES_SANDBOX)) {
		/* Once per flood: a line per dropped query would slow all. */
		if (!s->capped)
			log_info("%s: sandbox %s: %zu queries in flight: "
			    "dropped until fewer%s", __func__, id, s->inflight,
			    full ? " (all sandboxes' cap reached)" : "");
		s->capped = 1;
		return (-1);
	}
	s->inflight++;
	return (0);
}

void
sandboxes_release(const char *id)
{
	struct dsandbox	*s;

	if ((s = (struct dsandbox *)sandboxes_find(id)) == NULL ||
	    s->inflight == 0)
		return;
	if (--s->inflight < DNSPIND_QUERIES_OWN)
		s->capped = 0;
}

/* A sandbox again (runnerd re-announces) replaces what was known. */
void
sandboxes_add(const struct dns_sandbox *m)
{
	struct dsandbox	*s, *old;
	size_t		 inflight = 0;

	if ((old = (struct dsandbox *)sandboxes_find(m->id)) != NULL)
		inflight = old->inflight;
	sandboxes_del(m->id);
	if ((s = calloc(1, sizeof(*s))) == NULL)
		fatal("%s", __func__);
	s->m = *m;
	s->inflight = inflight;
	/* An address reused before its old owner's GONE: the new one wins. */
	if ((old = RB_FIND(dsbx_addr4, &by4, s)) != NULL)
		sandboxes_del(old->m.id);
	if ((old = RB_FIND(dsbx_addr6, &by6, s)) != NULL)
		sandboxes_del(old->m.id);
	RB_INSERT(dsbx_id, &byid, s);
	RB_INSERT(dsbx_addr4, &by4, s);
	RB_INSERT(dsbx_addr6, &by6, s);
}

/*
 * A new channel to runnerd: it announces every sandbox it has, then
 * DNS_SYNC_END.  Until then what we knew stands (a query of a live
 * sandbox is not refused for the resync); what it did not announce by
 * then is gone, its cache with it.
 */
void
sandboxes_resync(void)
{
	struct dsandbox	*s;

	RB_FOREACH(s, dsbx_id, &byid)
		s->unconfirmed = 1;
}

void
sandboxes_resync_end(void)
{
	struct dsandbox	*s, *next;
	size_t		 kept = 0, gone = 0;

	RB_FOREACH_SAFE(s, dsbx_id, &byid, next) {
		if (!s->unconfirmed) {
			kept++;
			continue;
		}
		/* One line each only with -v: they may be thousands. */
		log_debug("%s: sandbox %s: not announced again by runnerd: "
		    "forgotten", __func__, s->m.id);
		sandboxes_del(s->m.id);
		gone++;
	}
	log_info("%s: runnerd announced %zu sandboxes; %zu forgotten",
	    __func__, kept, gone);
}

const struct dsandbox *
sandboxes_from(const struct sockaddr_storage *ss)
{
	struct dsandbox			 key;
	const struct sockaddr_in	*sin = (const void *)ss;
	const struct sockaddr_in6	*sin6 = (const void *)ss;

	memset(&key, 0, sizeof(key));
	if (ss->ss_family == AF_INET) {
		memcpy(key.m.guest, &sin->sin_addr, sizeof(key.m.guest));
		return (RB_FIND(dsbx_addr4, &by4, &key));
	}
	if (ss->ss_family == AF_INET6) {
		memcpy(key.m.guest6, &sin6->sin6_addr, sizeof(key.m.guest6));
		return (RB_FIND(dsbx_addr6, &by6, &key));
	}
	return (NULL);
}
