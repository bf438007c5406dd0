/*
 * JSON-RPC 2.0 on the broker channel (envd(8) has the protocol):
 * secrets.get, secrets.has and secrets.expose, each checked against the
 * sandbox's policy as the running config has it, and each written to
 * the log as one JSON audit line that never holds a value.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "envd.h"
#include "log.h"

#define RPC_PARSE_ERROR		-32700
#define RPC_INVALID_REQUEST	-32600
#define RPC_METHOD_NOT_FOUND	-32601
#define RPC_INVALID_PARAMS	-32602
#define RPC_DENIED		-32001
#define RPC_NO_SUCH_SECRET	-32002

/* 1 if policy lets its sandboxes have (or expose) name. */
int
rpc_permitted(const char *policy, const char *name, int type)
{
	struct conf_secret_rule	*r;

	TAILQ_FOREACH(r, &envd_conf->secret_rules, entry)
		if (r->m.type == (uint32_t)type &&
		    strcmp(r->m.policy, policy) == 0 &&
		    strcmp(r->m.name, name) == 0)
			return (1);
	return (0);
}

static void
rpc_reply(struct bconn *c, json_t *msg)
{
	char	*s;
	size_t	 len;

	if ((s = json_dumps(msg, JSON_COMPACT)) == NULL)
		fatalx("%s: json_dumps", __func__);
	len = strlen(s);
	broker_send(c, s, len);
	explicit_bzero(s, len);
	free(s);
	json_decref(msg);
}

static void
rpc_reply_error(struct bconn *c, json_t *id, int code, const char *msg)
{
	json_t	*m;

	m = json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0", "id",
	    id != NULL ? id : json_null(), "error", "code", code, "message",
	    msg);
	if (m == NULL)
		fatalx("%s: json_pack", __func__);
	rpc_reply(c, m);
}

/* An error that belongs to no request (a broken frame, say). */
void
rpc_error(struct bconn *c, int code, const char *msg)
{
	rpc_reply_error(c, NULL, code, msg);
}

/* One audit line: who asked what, and the answer; never a value. */
static void
rpc_audit(struct bconn *c, const char *method, const char *name,
    int granted, const char *why)
{
	json_t	*a;
	char	*s;

	a = json_pack("{s:s, s:s, s:s, s:s, s:b, s:s, s:s}", "audit",
	    "broker", "sandbox", c->sb->id, "method", method, "name", name,
	    "granted", granted, "reason", why, "corr", c->sb->corr);
	if (a == NULL)
		fatalx("%s: json_pack", __func__);
	if (c->exec_id != 0)
		json_object_set_new(a, "exec", json_integer(c->exec_id));
	if ((s = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS)) == NULL)
		fatalx("%s: json_dumps", __func__);
	log_info("audit %s", s);
	free(s);
	json_decref(a);
}

static void
rpc_expose(struct esandbox *sb, const char *name)
{
	struct exposed	*x;

	TAILQ_FOREACH(x, &sb->exposed, entry)
		if (strcmp(x->name, name) == 0)
			return;
	if ((x = calloc(1, sizeof(*x))) == NULL)
		fatal("%s", __func__);
	strlcpy(x->name, name, sizeof(x->name));
	TAILQ_INSERT_TAIL(&sb->exposed, x, entry);
}

/*
 * The answer to one secrets.* call: a result, or an error code and
 * message; granted and why for the audit line.
 */
static json_t *
rpc_secret(struct bconn *c, const char *method, const char *name,
    int *code, const char **msg, int *granted)
{
	const struct secret_msg	*s = conf_secret_find(envd_conf, name);
	const char		*pol = c->sb->policy;
	int			 want;

	want = strcmp(method, "secrets.expose") == 0 ? SECRET_RULE_EXPOSE :
	    SECRET_RULE_PERMIT;
	*granted = 0;
	if (strcmp(method, "secrets.has") == 0) {
		*granted = rpc_permitted(pol, name, want) && s != NULL;
		*msg = *granted ? "available" : "not available";
		return (json_pack("{s:s, s:b}", "name", name, "available",
		    *granted));
	}
	if (!rpc_permitted(pol, name, want)) {
		*code = RPC_DENIED;
		*msg = want == SECRET_RULE_EXPOSE ? "not exposable under the "
		    "sandbox's policy" : "not permitted by the sandbox's policy";
		return (NULL);
	}
	if (s == NULL) {
		*code = RPC_NO_SUCH_SECRET;
		*msg = "no such secret";
		return (NULL);
	}
	*granted = 1;
	*msg = "granted";
	if (want == SECRET_RULE_EXPOSE) {
		rpc_expose(c->sb, name);
		return (json_pack("{s:s, s:b}", "name", name, "exposed", 1));
	}
	return (json_pack("{s:s, s:s}", "name", name, "value", s->value));
}

/* The request's params.name, if it is a plausible secret name. */
static const char *
rpc_name(json_t *req)
{
	json_t		*params, *name;
	const char	*s;

	if ((params = json_object_get(req, "params")) == NULL ||
	    !json_is_object(params) ||
	    (name = json_object_get(params, "name")) == NULL ||
	    !json_is_string(name))
		return (NULL);
	s = json_string_value(name);
	if (json_string_length(name) == 0 ||
	    json_string_length(name) >= CONF_SECRET_SIZE ||
	    strlen(s) != json_string_length(name))
		return (NULL);
	return (s);
}

/*
 * health: the sandbox says it is alive, for a service's watchdog.
 * The master hears of it, at most every HEALTH_FORWARD_MS per sandbox
 * so a chatty sandbox cannot flood it; never audited, it is no access.
 */
static void
rpc_health(struct bconn *c, json_t *id)
{
	struct env_health	 h;
	struct timespec		 now, *last = &c->sb->last_health;
	int64_t			 ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (now.tv_sec - last->tv_sec) * 1000 +
	    (now.tv_nsec - last->tv_nsec) / 1000000;
	if (last->tv_sec == 0 || ms >= HEALTH_FORWARD_MS) {
		*last = now;
		memset(&h, 0, sizeof(h));
		strlcpy(h.id, c->sb->id, sizeof(h.id));
		envd_send_master(IMSG_ENV_HEALTH, &h, sizeof(h));
	}
	if (id != NULL)
		rpc_reply(c, json_pack("{s:s, s:O, s:{s:b}}", "jsonrpc", "2.0",
		    "id", id, "result", "ok", 1));
}

static void
rpc_call(struct bconn *c, json_t *req, json_t *id, const char *method)
{
	json_t		*res;
	const char	*name, *msg = "";
	int		 code = 0, granted;

	if (strcmp(method, "health") == 0) {
		rpc_health(c, id);
		return;
	}
	if (strncmp(method, "secrets.", 8) != 0 ||
	    (strcmp(method + 8, "get") != 0 && strcmp(method + 8, "has") != 0 &&
	    strcmp(method + 8, "expose") != 0)) {
		if (id != NULL)
			rpc_reply_error(c, id, RPC_METHOD_NOT_FOUND,
			    "method not found");
		return;
	}
	if ((name = rpc_name(req)) == NULL) {
		if (id != NULL)
			rpc_reply_error(c, id, RPC_INVALID_PARAMS, "params must "
			    "be {\"name\": a secret's name}");
		return;
	}
	res = rpc_secret(c, method, name, &code, &msg, &granted);
	rpc_audit(c, method, name, granted, msg);
	if (id == NULL) {
		json_decref(res);
		return;
	}
	if (res == NULL) {
		rpc_reply_error(c, id, code, msg);
		return;
	}
	rpc_reply(c, json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id,
	    "result", res));
}

/* One frame's body; notifications (no id) get no answer. */
void
rpc_handle(struct bconn *c, const char *body, size_t len)
{
	json_error_t	 jerr;
	json_t		*req, *id, *v;

	if ((req = json_loadb(body, len, JSON_REJECT_DUPLICATES,
	    &jerr)) == NULL) {
		rpc_reply_error(c, NULL, RPC_PARSE_ERROR, "parse error");
		return;
	}
	if (!json_is_object(req)) {
		rpc_reply_error(c, NULL, RPC_INVALID_REQUEST,
		    json_is_array(req) ? "batch requests are not supported" :
		    "a request is a JSON object");
		json_decref(req);
		return;
	}
	id = json_object_get(req, "id");
	if (id != NULL && !json_is_string(id) && !json_is_integer(id) &&
	    !json_is_null(id)) {
		rpc_reply_error(c, NULL, RPC_INVALID_REQUEST, "bad id");
		json_decref(req);
		return;
	}
	if ((v = json_object_get(req, "jsonrpc")) == NULL ||
	    !json_is_string(v) || strcmp(json_string_value(v), "2.0") != 0 ||
	    (v = json_object_get(req, "method")) == NULL ||
	    !json_is_string(v)) {
		rpc_reply_error(c, id, RPC_INVALID_REQUEST, "not a JSON-RPC "
		    "2.0 request");
		json_decref(req);
		return;
	}
	rpc_call(c, req, id, json_string_value(v));
	json_decref(req);
}
