/*
 * The environment envd built last for each of a few policies, when the
 * policy and the config alone made it (ENV_READY_REUSABLE: the exec had
 * no -e, its sandbox no exposed secret, nothing was skipped).  The
 * first exec of a sandbox with no -e takes it from here instead of
 * asking envd, which saves a round trip through the master on the way
 * to every `sandboxctl run`; envd is still given the exec's broker
 * channel (IMSG_ENV_BROKER), a fresh one for each exec.
 *
 * An entry holds for the config generation envd built it under, and
 * only while runnerd has that generation too: a reload makes every
 * entry stale, whichever of runnerd and envd heard of it first.  envd
 * going away empties the cache.  An exec given an entry's environment
 * holds a reference to it, not a copy: it outlives the slot when the
 * slot is emptied or taken before the exec starts.
 */
#include <sys/types.h>

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "runnerd.h"

#define ENVCACHE_SLOTS	4

struct envcache {
	char		 policy[CONF_NAME_SIZE];	/* "": free */
	uint64_t	 conf_gen;
	uint64_t	 used;
	struct envbuf	*env;
};

static struct envcache	 slots[ENVCACHE_SLOTS];
static uint64_t		 envcache_clock;

/* One reference less to env; the last one frees it. */
void
envbuf_unref(struct envbuf *env)
{
	if (env == NULL || --env->refs > 0)
		return;
	freezero(env, sizeof(*env) + env->len);
}

static void
envcache_clear(struct envcache *c)
{
	envbuf_unref(c->env);
	memset(c, 0, sizeof(*c));
}

static uint64_t
envcache_gen(void)
{
	return (runnerd_conf != NULL ? runnerd_conf->global.generation : 0);
}

/*
 * The environment of policy's last reusable build, a reference the
 * caller gives back with envbuf_unref; NULL if none.
 */
struct envbuf *
envcache_get(const char *policy)
{
	size_t	 i;

	for (i = 0; i < ENVCACHE_SLOTS; i++) {
		if (slots[i].policy[0] == '\0' ||
		    strcmp(slots[i].policy, policy) != 0)
			continue;
		if (slots[i].conf_gen != envcache_gen()) {
			envcache_clear(&slots[i]);
			return (NULL);
		}
		slots[i].used = ++envcache_clock;
		slots[i].env->refs++;
		return (slots[i].env);
	}
	return (NULL);
}

/* policy's slot, else a free one, else the least recently used. */
static struct envcache *
envcache_slot(const char *policy)
{
	struct envcache	*c = NULL;
	size_t		 i;

	for (i = 0; i < ENVCACHE_SLOTS; i++)
		if (strcmp(slots[i].policy, policy) == 0)
			return (&slots[i]);
	for (i = 0; i < ENVCACHE_SLOTS; i++)
		if (c == NULL || slots[i].used < c->used)
			c = &slots[i];
	return (c);
}

/* A reusable build under conf_gen: kept if runnerd is at it too. */
void
envcache_put(const char *policy, uint64_t conf_gen, const char *buf,
    size_t len, uint32_t count)
{
	struct envcache	*c;

	if (conf_gen != envcache_gen() || len == 0)
		return;
	c = envcache_slot(policy);
	envcache_clear(c);
	if ((c->env = malloc(sizeof(*c->env) + len)) == NULL)
		fatal("%s", __func__);
	memcpy(c->env->data, buf, len);
	c->env->refs = 1;
	c->env->len = len;
	c->env->count = count;
	strlcpy(c->policy, policy, sizeof(c->policy));
	c->conf_gen = conf_gen;
	c->used = ++envcache_clock;
}

/* envd went away: what it built is forgotten with it. */
void
envcache_drop(void)
{
	size_t	 i;

	for (i = 0; i < ENVCACHE_SLOTS; i++)
		envcache_clear(&slots[i]);
}
