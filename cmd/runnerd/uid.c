/*
 * Sandbox uids: one per live sandbox from the configured range, never
 * shared, handed out round-robin so a freed uid is reused last.
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "runnerd.h"

static uint8_t	*uid_used;	/* one byte per uid: simple, 64 KiB max */
static uint32_t	 uid_count;
static uint32_t	 uid_next;

/* At every config: the map of the range, with live sandboxes marked. */
void
uid_reset(const struct conf_global_msg *g)
{
	struct rsandbox	*rs;

	free(uid_used);
	if ((uid_used = calloc(g->uid_count, 1)) == NULL)
		fatal("%s", __func__);
	uid_count = g->uid_count;
	uid_next = 0;
	RB_FOREACH(rs, rsandbox_tree, &rsandboxes)
		if (rs->sb.uid >= g->uid_base &&
		    rs->sb.uid - g->uid_base < uid_count)
			uid_used[rs->sb.uid - g->uid_base] = 1;
}

int
uid_alloc(const struct conf_global_msg *g, uid_t *uid)
{
	uint32_t	 i, n;

	for (i = 0; i < uid_count; i++) {
		n = (uid_next + i) % uid_count;
		if (uid_used[n])
			continue;
		uid_used[n] = 1;
		uid_next = n + 1;
		*uid = g->uid_base + n;
		return (0);
	}
	return (-1);
}

void
uid_free(const struct conf_global_msg *g, uid_t uid)
{
	if (uid_used == NULL || uid < g->uid_base ||
	    uid - g->uid_base >= uid_count)
		return;
	uid_used[uid - g->uid_base] = 0;
}

/* A uid held for a service's kept workspace; -1 if out of the range. */
int
uid_reserve(const struct conf_global_msg *g, uid_t uid)
{
	if (uid_used == NULL || uid < g->uid_base ||
	    uid - g->uid_base >= uid_count)
		return (-1);
	uid_used[uid - g->uid_base] = 1;
	return (0);
}
