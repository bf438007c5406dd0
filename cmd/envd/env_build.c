/*
 * The environment of an exec, lowest precedence first: the system
 * allowlist from envd's own environment, the sandbox's own HOME, USER,
 * LOGNAME and PATH, operator variables forwarded by prefix (stripped),
 * the policy's env { pass; set; unset }, secrets the sandbox exposed,
 * the exec's own -e, and the broker channel's two variables.  A
 * variable that breaks a rule is skipped and logged by key and reason,
 * never its value; the whole block fits the budget, higher layers
 * first.  It goes to runnerd as chunks, then READY with the exec's
 * broker channel.
 */
#include <sys/socket.h>
#include <sys/tree.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define LIBBSD_OPENBSD_VIS
#include <vis.h>

#include "child.h"
#include "env_msg.h"
#include "envd.h"
#include "log.h"
#include "peerch.h"
#include "utf8.h"

#define ENV_OWN_PATH	"/usr/local/bin:/usr/bin:/bin"
#define ENV_OWN_HOME	"/workspace"
#define ENV_OWN_USER	"sandbox"

enum env_layer {
	LAYER_SYSTEM = 1,
	LAYER_OWN,
	LAYER_PREFIX,
	LAYER_POLICY,
	LAYER_EXPOSED,
	LAYER_EXEC,
	LAYER_BROKER
};

static const char *const layer_names[] = {
	[LAYER_SYSTEM] = "system",
	[LAYER_OWN] = "sandbox",
	[LAYER_PREFIX] = "prefix",
	[LAYER_POLICY] = "policy",
	[LAYER_EXPOSED] = "exposed secret",
	[LAYER_EXEC] = "exec",
	[LAYER_BROKER] = "broker"
};

struct evar {
	RB_ENTRY(evar)	 entry;
	int		 layer;
	char		*key;
	char		*value;
	size_t		 size;		/* "K=V" and its NUL */
};

RB_HEAD(evar_tree, evar);
RB_PROTOTYPE(evar_tree, evar, entry, evar_cmp);

static int
evar_cmp(struct evar *a, struct evar *b)
{
	return (strcmp(a->key, b->key));
}

RB_GENERATE(evar_tree, evar, entry, evar_cmp);


struct ebuild {
	struct evar_tree	 vars;
	const char		*id;
	uint32_t		 exec_id;
	int			 reusable;	/* no -e, no exposed secret */
	int			 skipped;	/* variables left out */
};

/* envd's environment as it was started, before anything could change it. */
static char	**env_saved;

void
env_snapshot(char **envp)
{
	size_t	 n, i;

	for (n = 0; envp != NULL && envp[n] != NULL; n++)
		;
	if ((env_saved = calloc(n + 1, sizeof(*env_saved))) == NULL)
		fatal("%s", __func__);
	for (i = 0; i < n; i++)
		if ((env_saved[i] = strdup(envp[i])) == NULL)
			fatal("%s", __func__);
}

static const char *
env_saved_get(const char *key)
{
	size_t	 i, klen = strlen(key);

	for (i = 0; env_saved[i] != NULL; i++)
		if (strncmp(env_saved[i], key, klen) == 0 &&
		    env_saved[i][klen] == '=')
			return (env_saved[i] + klen + 1);
	return (NULL);
}

/* Why a value cannot be passed, or NULL. */
static const char *
env_value_bad(const char *v)
{
	size_t	 i, len = strlen(v);

	if (len >= CONF_ENVVAL_SIZE)
		return ("value longer than 4095 bytes");
	if (!utf8_valid(v, len))
		return ("value is not UTF-8");
	for (i = 0; i < len; i++)
		if ((unsigned char)v[i] < 0x20 && v[i] != '\t')
			return ("value holds a control character");
		else if (v[i] == 0x7f)
			return ("value holds a control character");
	return (NULL);
}

/* Logged by key (made printable, cut at 64 bytes) and reason. */
static void
env_skip(struct ebuild *b, int layer, const char *key, size_t keylen,
    const char *why)
{
	char	 raw[65], vis[4 * sizeof(raw)];

	if (keylen >= sizeof(raw))
		keylen = sizeof(raw) - 1;
	memcpy(raw, key, keylen);
	raw[keylen] = '\0';
	strvis(vis, raw, VIS_SAFE | VIS_OCTAL | VIS_CSTYLE |
	    VIS_DQ);
	log_warnx("sandbox %s exec %u: %s variable \"%s\" skipped: %s", b->id,
	    b->exec_id, layer_names[layer], vis, why);
	b->skipped++;
}

static void
evar_free(struct evar *v)
{
	free(v->key);
	freezero(v->value, strlen(v->value));
	free(v);
}

/* Set key (keylen bytes) to value, checked; a later layer wins. */
static void
env_put(struct ebuild *b, int layer, const char *key, size_t keylen,
    const char *value)
{
	struct evar	*v, *old;
	const char	*why;
	char		 k[CONF_ENVKEY_SIZE];

	if (keylen == 0 || keylen >= sizeof(k)) {
		env_skip(b, layer, key, keylen, keylen == 0 ? "empty name" :
		    "name longer than 127 bytes");
		return;
	}
	memcpy(k, key, keylen);
	k[keylen] = '\0';
	if (!conf_valid_envkey(k)) {
		env_skip(b, layer, k, keylen, "name is not of the form "
		    "[A-Za-z_][A-Za-z0-9_]*");
		return;
	}
	if ((why = env_value_bad(value)) != NULL) {
		env_skip(b, layer, k, keylen, why);
		return;
	}
	if ((v = calloc(1, sizeof(*v))) == NULL ||
	    (v->key = strdup(k)) == NULL || (v->value = strdup(value)) == NULL)
		fatal("%s", __func__);
	v->layer = layer;
	v->size = keylen + 1 + strlen(value) + 1;
	if ((old = RB_INSERT(evar_tree, &b->vars, v)) != NULL) {
		RB_REMOVE(evar_tree, &b->vars, old);
		evar_free(old);
		RB_INSERT(evar_tree, &b->vars, v);
	}
}

static void
env_unset(struct ebuild *b, const char *key)
{
	struct evar	 k, *v;

	k.key = (char *)key;
	if ((v = RB_FIND(evar_tree, &b->vars, &k)) != NULL) {
		RB_REMOVE(evar_tree, &b->vars, v);
		evar_free(v);
	}
}

static void
env_putkv(struct ebuild *b, int layer, const char *key, const char *value)
{
	env_put(b, layer, key, strlen(key), value);
}

/* The allowlist from the config (or its default) and the sandbox's own. */
static void
env_layer_system(struct ebuild *b)
{
	struct conf_env_rule	*r;
	const char		*v;

	TAILQ_FOREACH(r, &envd_conf->env_rules, entry)
		if (r->m.type == ENV_RULE_SYSTEM &&
		    (v = env_saved_get(r->m.key)) != NULL)
			env_putkv(b, LAYER_SYSTEM, r->m.key, v);
	env_putkv(b, LAYER_OWN, "HOME", ENV_OWN_HOME);
	env_putkv(b, LAYER_OWN, "USER", ENV_OWN_USER);
	env_putkv(b, LAYER_OWN, "LOGNAME", ENV_OWN_USER);
	env_putkv(b, LAYER_OWN, "PATH", ENV_OWN_PATH);
}

/* SANDBOX_ENV_X=v becomes X=v; whatever X is, it is checked. */
static void
env_layer_prefix(struct ebuild *b)
{
	const char	*pfx = envd_conf->global.env_prefix, *e, *eq;
	size_t		 plen = strlen(pfx), i;

	for (i = 0; env_saved[i] != NULL; i++) {
		e = env_saved[i];
		if (strncmp(e, pfx, plen) != 0 ||
		    (eq = strchr(e, '=')) == NULL)
			continue;
		env_put(b, LAYER_PREFIX, e + plen, eq - e - plen, eq + 1);
	}
}

static void
env_layer_policy(struct ebuild *b, const char *policy)
{
	struct conf_env_rule	*r;
	const char		*v;

	TAILQ_FOREACH(r, &envd_conf->env_rules, entry) {
		if (strcmp(r->m.policy, policy) != 0)
			continue;
		switch (r->m.type) {
		case ENV_RULE_PASS:
			if ((v = env_saved_get(r->m.key)) != NULL)
				env_putkv(b, LAYER_POLICY, r->m.key, v);
			break;
		case ENV_RULE_SET:
			env_putkv(b, LAYER_POLICY, r->m.key, r->m.value);
			break;
		case ENV_RULE_UNSET:
			env_unset(b, r->m.key);
			break;
		}
	}
}

/* Exposed secrets still permitted and present, then the exec's -e. */
static void
env_layer_top(struct ebuild *b, struct esandbox *sb,
    struct env_build_req *req)
{
	const struct secret_msg	*s;
	struct exposed		*x;
	char			*vars[ENV_MAX_VARS + 1];
	const char		*eq;
	size_t			 i;

	TAILQ_FOREACH(x, &sb->exposed, entry)
		if (rpc_permitted(sb->policy, x->name, SECRET_RULE_EXPOSE) &&
		    (s = conf_secret_find(envd_conf, x->name)) != NULL)
			env_putkv(b, LAYER_EXPOSED, s->name, s->value);
	env_build_unpack(req, vars);
	for (i = 0; vars[i] != NULL; i++) {
		eq = strchr(vars[i], '=');
		env_put(b, LAYER_EXEC, vars[i], eq - vars[i], eq + 1);
	}
	env_putkv(b, LAYER_BROKER, ENV_BROKER_FD_VAR, "3");
	env_putkv(b, LAYER_BROKER, ENV_BROKER_PATH_VAR, ENV_BROKER_PATH);
}

/*
 * Into the budget first: the broker's and the sandbox's own few bytes,
 * then the layers from the top down; what does not fit is skipped.
 */
static const int budget_order[] = {
	LAYER_BROKER, LAYER_OWN, LAYER_EXEC, LAYER_EXPOSED, LAYER_POLICY,
	LAYER_PREFIX, LAYER_SYSTEM
};

static void
env_budget(struct ebuild *b)
{
	struct evar	*v, *next;
	size_t		 used = 0, i;
	int		 layer;

	for (i = 0; i < sizeof(budget_order) / sizeof(budget_order[0]); i++)
		RB_FOREACH_SAFE(v, evar_tree, &b->vars, next) {
			layer = budget_order[i];
			if (v->layer != layer)
				continue;
			if (used + v->size <= envd_conf->global.env_budget) {
				used += v->size;
				continue;
			}
			env_skip(b, layer, v->key, strlen(v->key), "over the "
			    "environment budget");
			RB_REMOVE(evar_tree, &b->vars, v);
			evar_free(v);
		}
}

static void
env_flush_chunk(struct ebuild *b, char *buf, size_t len, uint32_t count)
{
	struct env_chunk_hdr	 h;
	struct ibuf		*ib;
	struct imsgev		*iev;

	/* runnerd gone: nobody waits for this environment any more. */
	if (count == 0 || (iev = peerch_iev(MSG_RUNNERD)) == NULL)
		return;
	memset(&h, 0, sizeof(h));
	strlcpy(h.id, b->id, sizeof(h.id));
	h.exec_id = b->exec_id;
	h.count = count;
	h.len = len;
	if ((ib = imsg_create(&iev->ibuf, IMSG_ENV_CHUNK, 0, 0,
	    sizeof(h) + len)) == NULL || imsg_add(ib, &h, sizeof(h)) == -1 ||
	    imsg_add(ib, buf, len) == -1)
		fatal("%s", __func__);
	imsg_close(&iev->ibuf, ib);
	imsgev_add(iev);
}

/* The block in key order, as chunks that never split a variable. */
static void
env_send(struct ebuild *b, uint32_t *envc, uint32_t *envlen)
{
	struct evar	*v;
	char		 buf[ENV_CHUNK_MAX];
	size_t		 len = 0, klen;
	uint32_t	 count = 0;

	*envc = *envlen = 0;
	RB_FOREACH(v, evar_tree, &b->vars) {
		if (len + v->size > sizeof(buf)) {
			env_flush_chunk(b, buf, len, count);
			len = count = 0;
		}
		klen = strlen(v->key);
		memcpy(buf + len, v->key, klen);
		buf[len + klen] = '=';
		memcpy(buf + len + klen + 1, v->value, v->size - klen - 1);
		len += v->size;
		count++;
		(*envc)++;
		*envlen += v->size;
	}
	env_flush_chunk(b, buf, len, count);
	explicit_bzero(buf, sizeof(buf));
}

static void
env_ready(struct ebuild *b, int error, const char *msg, uint32_t envc,
    uint32_t envlen, int fd)
{
	struct env_ready	 r;

	memset(&r, 0, sizeof(r));
	if (b->reusable && b->skipped == 0)
		r.flags |= ENV_READY_REUSABLE;
	r.conf_gen = envd_conf->global.generation;
	strlcpy(r.id, b->id, sizeof(r.id));
	r.exec_id = b->exec_id;
	r.error = error;
	r.envc = envc;
	r.env_len = envlen;
	strlcpy(r.msg, msg, sizeof(r.msg));
	envd_send(IMSG_ENV_READY, fd, &r, sizeof(r));
}

void
env_build(struct esandbox *sb, struct env_build_req *req)
{
	struct ebuild	 b;
	struct evar	*v;
	uint32_t	 envc, envlen;
	int		 sp[2];

	memset(&b, 0, sizeof(b));
	RB_INIT(&b.vars);
	b.id = sb->id;
	b.exec_id = req->exec_id;
	/* Its broker channel first: without one there is no exec. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == -1) {
		log_warn("%s: sandbox %s: socketpair", __func__, sb->id);
		env_ready(&b, EAGAIN, "envd cannot open a broker channel now",
		    0, 0, -1);
		return;
	}
	broker_conn_new(sb, sp[0], req->exec_id);
	env_layer_system(&b);
	env_layer_prefix(&b);
	env_layer_policy(&b, sb->policy);
	/* Policy and config alone: runnerd may give it to the next exec. */
	b.reusable = req->envc == 0 && TAILQ_EMPTY(&sb->exposed);
	env_layer_top(&b, sb, req);
	env_budget(&b);
	env_send(&b, &envc, &envlen);
	env_ready(&b, 0, "", envc, envlen, sp[1]);
	while ((v = RB_MIN(evar_tree, &b.vars)) != NULL) {
		RB_REMOVE(evar_tree, &b.vars, v);
		evar_free(v);
	}
}
