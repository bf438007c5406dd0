/*
 * The IMSG_ENV_* payloads are checked by the master before it relays
 * them and again by their receiver: exact sizes, NUL-terminated
 * strings, ids that are ids, string blocks that hold what they claim.
 */
#include <stdio.h>
#include <string.h>

#include "env_msg.h"
#include "sbx_msg.h"

static int
env_fail(char *err, size_t len, const char *what)
{
	snprintf(err, len, "malformed %s message", what);
	return (-1);
}

/* len bytes hold exactly n NUL-terminated "K=V" strings, K not empty. */
static int
env_check_strings(const char *p, size_t len, uint32_t n)
{
	const char	*end = p + len, *nul;
	uint32_t	 seen = 0;

	while (p < end) {
		if ((nul = memchr(p, '\0', end - p)) == NULL ||
		    p[0] == '=' || memchr(p, '=', nul - p) == NULL)
			return (-1);
		p = nul + 1;
		seen++;
	}
	return (seen == n ? 0 : -1);
}

int
env_check_sandbox(const struct env_sandbox *m, char *err, size_t len)
{
	if (sbx_check_corr(m->corr, sizeof(m->corr)) == -1 ||
	    sbx_check_id(m->id, sizeof(m->id)) == -1 ||
	    memchr(m->policy, '\0', sizeof(m->policy)) == NULL)
		return (env_fail(err, len, "env sandbox"));
	return (0);
}

int
env_check_build(const struct env_build_req *m, char *err, size_t len)
{
	if (sbx_check_corr(m->corr, sizeof(m->corr)) == -1 ||
	    sbx_check_id(m->id, sizeof(m->id)) == -1 ||
	    memchr(m->policy, '\0', sizeof(m->policy)) == NULL ||
	    m->envc > ENV_MAX_VARS || m->env_len > sizeof(m->env) ||
	    env_check_strings(m->env, m->env_len, m->envc) == -1)
		return (env_fail(err, len, "env build"));
	return (0);
}

int
env_check_abort(const struct env_abort *m, char *err, size_t len)
{
	if (sbx_check_id(m->id, sizeof(m->id)) == -1 ||
	    m->reason < SBX_REASON_EXIT || m->reason > SBX_REASON_LIMIT)
		return (env_fail(err, len, "env abort"));
	return (0);
}

int
env_check_chunk(const struct env_chunk_hdr *h, const char *data,
    size_t datalen, char *err, size_t len)
{
	if (sbx_check_id(h->id, sizeof(h->id)) == -1 ||
	    h->len > ENV_CHUNK_MAX || h->len != datalen ||
	    h->count == 0 || h->count > ENV_MAX_VARS ||
	    env_check_strings(data, h->len, h->count) == -1)
		return (env_fail(err, len, "env chunk"));
	return (0);
}

int
env_check_ready(const struct env_ready *m, char *err, size_t len)
{
	if (sbx_check_id(m->id, sizeof(m->id)) == -1 ||
	    memchr(m->msg, '\0', sizeof(m->msg)) == NULL ||
	    m->envc > ENV_MAX_VARS || (m->flags & ~ENV_READY_REUSABLE) != 0)
		return (env_fail(err, len, "env ready"));
	return (0);
}

int
env_check_broker(const struct env_broker *m, char *err, size_t len)
{
	if (sbx_check_corr(m->corr, sizeof(m->corr)) == -1 ||
	    sbx_check_id(m->id, sizeof(m->id)) == -1 ||
	    memchr(m->policy, '\0', sizeof(m->policy)) == NULL)
		return (env_fail(err, len, "env broker"));
	return (0);
}

void
env_build_unpack(struct env_build_req *m, char **vars)
{
	char		*p = m->env;
	uint32_t	 i;

	for (i = 0; i < m->envc; i++, p += strlen(p) + 1)
		vars[i] = p;
	vars[i] = NULL;
}

int
env_check_health(const struct env_health *m, char *err, size_t len)
{
	if (sbx_check_id(m->id, sizeof(m->id)) == -1)
		return (env_fail(err, len, "env health"));
	return (0);
}
