/*
 * The configuration in memory: defaults, lookups and the checks.  The
 * parser runs the checks on every statement and every process re-runs
 * them on what it receives, so they trust nothing a struct can hold.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "utf8.h"

#define V4ADDR(a, b, c, d)	htonl(((uint32_t)(a) << 24) | \
				    ((uint32_t)(b) << 16) | \
				    ((uint32_t)(c) << 8) | (uint32_t)(d))
#define CHECK_NUL(f, what)	do {					\
	if (check_nul((f), sizeof(f), (what), buf, len) == -1)		\
		return (-1);						\
} while (0)

#define ENV_BUDGET_MAX		(64 * 1024)
#define PREBUILD_MAX		8
#define CONTROL_CLIENTS_DEFAULT	4096
#define CONTROL_CLIENTS_MAX	65536
#define EXEC_RETENTION_MAX	86400
#define EXEC_HISTORY_MAX	1024

/* The system allowlist when the global env block has no pass. */
static const char *const sysenv_default[] = {
	"PATH", "HOME", "USER", "SHELL", "LANG", "LC_ALL", "TERM", "TMPDIR",
	"TZ"
};

static int	fail(char *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

static int
fail(char *buf, size_t len, const char *fmt, ...)
{
	va_list	 ap;

	if (buf != NULL && len > 0) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return (-1);
}

/* ASCII classes: receivers never call setlocale, but do not rely on it. */
static int
is_lower(int c)
{
	return (c >= 'a' && c <= 'z');
}

static int
is_alpha(int c)
{
	return (is_lower(c) || (c >= 'A' && c <= 'Z'));
}

static int
is_digit(int c)
{
	return (c >= '0' && c <= '9');
}

struct sandboxd_conf *
conf_new(void)
{
	struct sandboxd_conf	*c;
	struct conf_global_msg	*g;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return (NULL);
	TAILQ_INIT(&c->policies);
	TAILQ_INIT(&c->net_rules);
	TAILQ_INIT(&c->upstreams);
	TAILQ_INIT(&c->env_rules);
	TAILQ_INIT(&c->secret_rules);
	TAILQ_INIT(&c->fs_rules);
	TAILQ_INIT(&c->secrets);
	TAILQ_INIT(&c->services);
	g = &c->global;
	g->subnet.af = AF_INET;
	g->subnet.len = 16;
	g->subnet.addr.v4.s_addr = V4ADDR(10, 200, 0, 0);
	g->resolver.af = AF_INET;
	g->resolver.len = 32;
	g->resolver.addr.v4.s_addr = V4ADDR(169, 254, 1, 1);
	g->pin_floor = 30;
	g->pin_ceiling = 3600;
	g->upstream_timeout_ms = 2000;
	strlcpy(g->ifprefix, "sbx", sizeof(g->ifprefix));
	strlcpy(g->control_socket, CONF_DEFAULT_SOCKET,
	    sizeof(g->control_socket));
	strlcpy(g->state_dir, "/var/lib/sandboxd", sizeof(g->state_dir));
	g->uid_base = CONF_UID_BASE_DEFAULT;
	g->uid_count = CONF_UID_COUNT_DEFAULT;
	strlcpy(g->env_prefix, "SANDBOX_ENV_", sizeof(g->env_prefix));
	g->env_budget = 32768;
	g->prebuild = 1;
	g->control_clients = CONTROL_CLIENTS_DEFAULT;
	g->exec_retention = CONF_EXEC_RETENTION_DEFAULT;
	g->exec_history = CONF_EXEC_HISTORY_DEFAULT;
	return (c);
}

#define FREE_LIST(head, type) do {					\
	struct type	*e_;						\
	while ((e_ = TAILQ_FIRST(head)) != NULL) {			\
		TAILQ_REMOVE(head, e_, entry);				\
		free(e_);						\
	}								\
} while (0)

void
conf_free(struct sandboxd_conf *c)
{
	struct conf_secret	*s;

	if (c == NULL)
		return;
	FREE_LIST(&c->policies, conf_policy);
	FREE_LIST(&c->net_rules, conf_net_rule);
	FREE_LIST(&c->upstreams, conf_upstream);
	FREE_LIST(&c->env_rules, conf_env_rule);
	FREE_LIST(&c->secret_rules, conf_secret_rule);
	FREE_LIST(&c->fs_rules, conf_fs_rule);
	FREE_LIST(&c->services, conf_service);
	while ((s = TAILQ_FIRST(&c->secrets)) != NULL) {
		TAILQ_REMOVE(&c->secrets, s, entry);
		freezero(s, sizeof(*s));
	}
	free(c);
}

void
conf_policy_defaults(struct policy_msg *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	if (name != NULL)
		strlcpy(p->name, name, sizeof(p->name));
	p->egress = EGRESS_DENY;
	p->inbound = INBOUND_DENY;
	p->memory = 512ULL << 20;
	p->pids = 256;
	p->cpu_percent = 100;
	p->timeout = 120;
	p->timeout_max = 300;
	p->stdout_cap = 100ULL << 10;
	p->stderr_cap = 50ULL << 10;
	p->workspace = 5ULL << 30;
	p->tmp_size = 64ULL << 20;
	p->fsize = 1ULL << 30;
	p->nofile = 1024;
	p->grace_ms = 2000;
	p->restart = RESTART_ON_FAILURE;
	p->restart_max = 5;
	p->restart_window = 600;
	p->pins_max = CONF_PINS_DEFAULT;
}

struct conf_policy *
conf_policy_find(struct sandboxd_conf *c, const char *name)
{
	struct conf_policy	*p;

	TAILQ_FOREACH(p, &c->policies, entry)
		if (strcmp(p->m.name, name) == 0)
			return (p);
	return (NULL);
}

/*
 * One list's entries of a policy, in order, the same in both configs
 * (every message is zeroed before it is filled, so memcmp is exact);
 * one function per list, as RB_GENERATE makes them.
 */
#define CONF_RULES_SAME(tag)						\
static int								\
tag##_same(struct tag *ra, struct tag *rb, const char *name)		\
{									\
	for (;; ra = TAILQ_NEXT(ra, entry), rb = TAILQ_NEXT(rb, entry)) { \
		while (ra != NULL && strcmp(ra->m.policy, name) != 0)	\
			ra = TAILQ_NEXT(ra, entry);			\
		while (rb != NULL && strcmp(rb->m.policy, name) != 0)	\
			rb = TAILQ_NEXT(rb, entry);			\
		if (ra == NULL || rb == NULL)				\
			return (ra == rb);				\
		if (memcmp(&ra->m, &rb->m, sizeof(ra->m)) != 0)		\
			return (0);					\
	}								\
}
CONF_RULES_SAME(conf_net_rule)
CONF_RULES_SAME(conf_env_rule)
CONF_RULES_SAME(conf_secret_rule)
CONF_RULES_SAME(conf_fs_rule)

int
conf_policy_same(struct sandboxd_conf *a, struct sandboxd_conf *b,
    const char *name)
{
	struct conf_policy	*pa, *pb;

	pa = conf_policy_find(a, name);
	pb = conf_policy_find(b, name);
	if (pa == NULL || pb == NULL)
		return (pa == pb);
	return (memcmp(&pa->m, &pb->m, sizeof(pa->m)) == 0 &&
	    conf_net_rule_same(TAILQ_FIRST(&a->net_rules),
	    TAILQ_FIRST(&b->net_rules), name) &&
	    conf_env_rule_same(TAILQ_FIRST(&a->env_rules),
	    TAILQ_FIRST(&b->env_rules), name) &&
	    conf_secret_rule_same(TAILQ_FIRST(&a->secret_rules),
	    TAILQ_FIRST(&b->secret_rules), name) &&
	    conf_fs_rule_same(TAILQ_FIRST(&a->fs_rules),
	    TAILQ_FIRST(&b->fs_rules), name));
}

/* The system allowlist defaults apply only if no global pass was given. */
static int
conf_ensure_sysenv(struct sandboxd_conf *c)
{
	struct conf_env_rule	*r;
	size_t			 i;

	TAILQ_FOREACH(r, &c->env_rules, entry)
		if (r->m.type == ENV_RULE_SYSTEM)
			return (0);
	for (i = 0; i < sizeof(sysenv_default) / sizeof(*sysenv_default);
	    i++) {
		if ((r = calloc(1, sizeof(*r))) == NULL)
			return (-1);
		r->m.type = ENV_RULE_SYSTEM;
		strlcpy(r->m.key, sysenv_default[i], sizeof(r->m.key));
		TAILQ_INSERT_TAIL(&c->env_rules, r, entry);
	}
	return (0);
}

/*
 * Fill in what a config may leave implicit: the "default" policy and
 * the system environment allowlist.  Both land here, after parsing, so
 * that a config naming either replaces the default instead of adding.
 */
int
conf_ensure_default_policy(struct sandboxd_conf *c)
{
	struct conf_policy	*p;

	if (conf_policy_find(c, CONF_DEFAULT_POLICY) == NULL) {
		if ((p = calloc(1, sizeof(*p))) == NULL)
			return (-1);
		conf_policy_defaults(&p->m, CONF_DEFAULT_POLICY);
		TAILQ_INSERT_TAIL(&c->policies, p, entry);
	}
	return (conf_ensure_sysenv(c));
}

static int
check_nul(const char *a, size_t sz, const char *what, char *buf, size_t len)
{
	if (memchr(a, '\0', sz) == NULL)
		return (fail(buf, len, "%s: not NUL-terminated", what));
	return (0);
}

/* An absolute path without empty, "." or ".." components. */
static int
check_path(const char *p, const char *what, int optional, char *buf,
    size_t len)
{
	const char	*c, *s;
	size_t		 n;

	if (*p == '\0') {
		if (optional)
			return (0);
		return (fail(buf, len, "%s: empty path", what));
	}
	if (*p != '/')
		return (fail(buf, len, "%s \"%s\": not an absolute path",
		    what, p));
	for (c = p; *c != '\0'; c = s + n) {
		s = c + 1;
		n = strcspn(s, "/");
		if ((n == 0 && !(c == p && *s == '\0')) ||
		    (n == 1 && s[0] == '.') ||
		    (n == 2 && s[0] == '.' && s[1] == '.'))
			return (fail(buf, len, "%s \"%s\": path has empty, "
			    "\".\" or \"..\" components", what, p));
	}
	return (0);
}

static int
prefix_maxlen(int af)
{
	if (af == AF_INET)
		return (32);
	if (af == AF_INET6)
		return (128);
	return (-1);
}

static int
prefix_has_host_bits(const struct conf_prefix *p)
{
	const uint8_t	*b = (const uint8_t *)&p->addr;
	int		 i, bits, n = prefix_maxlen(p->af) / 8;

	for (i = 0; i < n; i++) {
		bits = p->len - 8 * i;
		if (bits >= 8)
			continue;
		if (b[i] & (bits <= 0 ? 0xff : 0xff >> bits))
			return (1);
	}
	return (0);
}

static int
prefix_is_unspec(const struct conf_prefix *p)
{
	if (p->af == AF_INET)
		return (p->addr.v4.s_addr == INADDR_ANY);
	return (IN6_IS_ADDR_UNSPECIFIED(&p->addr.v6));
}

static int
check_prefix(const struct conf_prefix *p, const char *what, int host,
    char *buf, size_t len)
{
	char	 s[INET6_ADDRSTRLEN];
	int	 max;

	if ((max = prefix_maxlen(p->af)) == -1)
		return (fail(buf, len, "%s: no address", what));
	if (inet_ntop(p->af, &p->addr, s, sizeof(s)) == NULL)
		return (fail(buf, len, "%s: bad address", what));
	if (p->len > max)
		return (fail(buf, len, "%s %s/%u: prefix length out of range",
		    what, s, p->len));
	if (host && (p->len != max || prefix_is_unspec(p)))
		return (fail(buf, len, "%s %s/%u: a host address is required",
		    what, s, p->len));
	if (p->af == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&p->addr.v6))
		return (fail(buf, len, "%s %s: IPv4-mapped address, use the "
		    "IPv4 form", what, s));
	if (prefix_has_host_bits(p))
		return (fail(buf, len, "%s %s/%u: host bits set", what, s,
		    p->len));
	return (0);
}

static int
check_ifname(const char *s, char *buf, size_t len)
{
	const char	*c;

	if (*s == '\0')
		return (0);
	if (strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return (fail(buf, len, "uplink \"%s\": bad interface name",
		    s));
	for (c = s; *c != '\0'; c++)
		if (*c <= ' ' || *c >= 0x7f || *c == '/' || *c == ':')
			return (fail(buf, len, "uplink \"%s\": bad interface "
			    "name", s));
	return (0);
}

static int
check_ifprefix(const char *s, char *buf, size_t len)
{
	const char	*c;

	if (*s == '\0' || strlen(s) > 7)
		return (fail(buf, len, "interface-prefix \"%s\": must be 1 "
		    "to 7 characters", s));
	for (c = s; *c != '\0'; c++)
		if (!is_lower(*c) && !is_digit(*c))
			return (fail(buf, len, "interface-prefix \"%s\": only "
			    "a-z and 0-9 allowed", s));
	return (0);
}

/* A group name as getgrnam(3) would take it, or "" for none. */
static int
check_groupname(const char *s, char *buf, size_t len)
{
	const char	*c;

	if (*s == '-')
		return (fail(buf, len, "control group \"%s\": bad name", s));
	for (c = s; *c != '\0'; c++)
		if (!is_alpha(*c) && !is_digit(*c) && *c != '_' &&
		    *c != '-' && *c != '.')
			return (fail(buf, len, "control group \"%s\": bad "
			    "name", s));
	return (0);
}

static int
check_global_strings(const struct conf_global_msg *g, char *buf, size_t len)
{
	const char	*c;

	CHECK_NUL(g->corr, "correlation id");
	for (c = g->corr; *c != '\0'; c++)
		if (!is_alpha(*c) && !is_digit(*c))
			return (fail(buf, len, "bad correlation id"));
	CHECK_NUL(g->uplink, "uplink");
	CHECK_NUL(g->ifprefix, "interface-prefix");
	CHECK_NUL(g->control_socket, "control socket");
	CHECK_NUL(g->control_group, "control group");
	CHECK_NUL(g->secrets_path, "secrets");
	CHECK_NUL(g->state_dir, "state-dir");
	CHECK_NUL(g->env_prefix, "env prefix");
	return (0);
}

static int
check_global_net(const struct conf_global_msg *g, char *buf, size_t len)
{
	const struct conf_prefix	*s = &g->subnet, *r = &g->resolver;
	uint32_t			 mask;

	if (check_prefix(s, "subnet", 0, buf, len) == -1)
		return (-1);
	if (s->af != AF_INET || s->len < 8 || s->len > 30)
		return (fail(buf, len, "subnet: an IPv4 prefix of length 8 "
		    "to 30 is required"));
	if (check_prefix(r, "resolver", 1, buf, len) == -1)
		return (-1);
	if (r->af != AF_INET || IN_MULTICAST(ntohl(r->addr.v4.s_addr)) ||
	    r->addr.v4.s_addr == INADDR_BROADCAST)
		return (fail(buf, len, "resolver: an IPv4 unicast address "
		    "is required"));
	mask = htonl(0xffffffffU << (32 - s->len));
	if ((r->addr.v4.s_addr & mask) == s->addr.v4.s_addr)
		return (fail(buf, len, "resolver: must not be inside the "
		    "subnet"));
	if (g->pin_floor == 0)
		return (fail(buf, len, "pin-floor: must not be zero"));
	if (g->pin_ceiling == 0 || g->pin_ceiling > CONF_PIN_CEILING_MAX)
		return (fail(buf, len, "pin-ceiling: must be 1s to 24h"));
	if (g->upstream_timeout_ms == 0)
		return (fail(buf, len, "upstream timeout: must not be zero"));
	if (check_ifname(g->uplink, buf, len) == -1)
		return (-1);
	return (check_ifprefix(g->ifprefix, buf, len));
}

static int
check_global_paths(const struct conf_global_msg *g, char *buf, size_t len)
{
	struct sockaddr_un	 sun;

	if (check_path(g->control_socket, "control socket", 0, buf,
	    len) == -1)
		return (-1);
	if (strlen(g->control_socket) >= sizeof(sun.sun_path))
		return (fail(buf, len, "control socket: path longer than "
		    "%zu characters", sizeof(sun.sun_path) - 1));
	if (check_groupname(g->control_group, buf, len) == -1)
		return (-1);
	if (check_path(g->secrets_path, "secrets", 1, buf, len) == -1)
		return (-1);
	return (check_path(g->state_dir, "state-dir", 0, buf, len));
}

static int
check_global_ids(const struct conf_global_msg *g, char *buf, size_t len)
{
	/* (uid_t)-1 means "no change" to setresuid(2): never hand it out. */
	if (g->uid_base == 0 || g->uid_count == 0 ||
	    (uint64_t)g->uid_base + g->uid_count > UINT32_MAX)
		return (fail(buf, len, "uid-range %u %u: must not contain 0, "
		    "be empty, or go past %u", g->uid_base, g->uid_count,
		    UINT32_MAX - 1));
	if (!conf_valid_envkey(g->env_prefix))
		return (fail(buf, len, "env prefix \"%s\": not a valid "
		    "variable name prefix", g->env_prefix));
	if (g->env_budget == 0 || g->env_budget > ENV_BUDGET_MAX)
		return (fail(buf, len, "env budget: must be 1 to %u bytes",
		    ENV_BUDGET_MAX));
	if (g->prebuild > PREBUILD_MAX)
		return (fail(buf, len, "prebuild %u: at most %u", g->prebuild,
		    PREBUILD_MAX));
	if (g->control_clients == 0 || g->control_clients > CONTROL_CLIENTS_MAX)
		return (fail(buf, len, "control clients %u: must be 1 to %u",
		    g->control_clients, CONTROL_CLIENTS_MAX));
	if (g->exec_retention == 0 || g->exec_retention > EXEC_RETENTION_MAX)
		return (fail(buf, len, "exec retention %us: must be 1 to %u "
		    "seconds", g->exec_retention, EXEC_RETENTION_MAX));
	if (g->exec_history == 0 || g->exec_history > EXEC_HISTORY_MAX)
		return (fail(buf, len, "exec history %u: must be 1 to %u",
		    g->exec_history, EXEC_HISTORY_MAX));
	return (0);
}

int
conf_check_global(const struct conf_global_msg *g, char *buf, size_t len)
{
	if (check_global_strings(g, buf, len) == -1 ||
	    check_global_net(g, buf, len) == -1 ||
	    check_global_paths(g, buf, len) == -1 ||
	    check_global_ids(g, buf, len) == -1)
		return (-1);
	return (0);
}

/* Policy names end up in logs, JSON and nft comments: keep them plain. */
static int
check_polname(const char *name, size_t sz, int empty, char *buf, size_t len)
{
	const char	*c;

	if (check_nul(name, sz, "policy name", buf, len) == -1)
		return (-1);
	if (*name == '\0' && empty)
		return (0);
	if (!is_alpha(*name) && !is_digit(*name))
		return (fail(buf, len, "policy \"%s\": name must start with a "
		    "letter or digit", name));
	for (c = name; *c != '\0'; c++)
		if (!is_alpha(*c) && !is_digit(*c) && *c != '_' &&
		    *c != '-' && *c != '.')
			return (fail(buf, len, "policy \"%s\": only letters, "
			    "digits, '_', '-' and '.' allowed", name));
	return (0);
}

/* A service's name: the same plain rules as a policy's. */
int
conf_check_name(const char *name, size_t sz, const char *what, char *buf,
    size_t len)
{
	const char	*c;

	if (check_nul(name, sz, what, buf, len) == -1)
		return (-1);
	if (!is_alpha(*name) && !is_digit(*name))
		return (fail(buf, len, "%s \"%s\": name must start with a "
		    "letter or digit", what, name));
	for (c = name; *c != '\0'; c++)
		if (!is_alpha(*c) && !is_digit(*c) && *c != '_' &&
		    *c != '-' && *c != '.')
			return (fail(buf, len, "%s \"%s\": only letters, "
			    "digits, '_', '-' and '.' allowed", what, name));
	return (0);
}

/* argc NUL-terminated strings, args_len bytes, the first not empty. */
int
conf_check_service(const struct service_msg *m, char *buf, size_t len)
{
	const char	*p = m->args, *end;
	uint32_t	 n = 0;

	if (conf_check_name(m->name, sizeof(m->name), "service", buf,
	    len) == -1 ||
	    check_polname(m->policy, sizeof(m->policy), 1, buf, len) == -1)
		return (-1);
	if (m->argc == 0 || m->args_len > sizeof(m->args) ||
	    m->args[0] == '\0')
		return (fail(buf, len, "service \"%s\": no command",
		    m->name));
	end = m->args + m->args_len;
	while (p < end) {
		if ((p = memchr(p, '\0', end - p)) == NULL)
			return (fail(buf, len, "service \"%s\": malformed "
			    "command", m->name));
		p++;
		n++;
	}
	if (n != m->argc)
		return (fail(buf, len, "service \"%s\": malformed command",
		    m->name));
	return (0);
}

static int
check_limits(const struct policy_msg *p, char *buf, size_t len)
{
	const struct {
		const char	*what;
		uint64_t	 v;
	} lim[] = {
		{ "memory", p->memory }, { "pids", p->pids },
		{ "cpu", p->cpu_percent }, { "timeout max", p->timeout_max },
		{ "timeout", p->timeout }, { "stdout", p->stdout_cap },
		{ "stderr", p->stderr_cap }, { "workspace", p->workspace },
		{ "tmp", p->tmp_size }, { "fsize", p->fsize },
		{ "nofile", p->nofile }
	};
	size_t	 i;

	for (i = 0; i < sizeof(lim) / sizeof(*lim); i++)
		if (lim[i].v == 0)
			return (fail(buf, len, "policy \"%s\": %s must not "
			    "be zero", p->name, lim[i].what));
	if (p->timeout > p->timeout_max)
		return (fail(buf, len, "policy \"%s\": timeout %us exceeds "
		    "timeout max %us", p->name, p->timeout, p->timeout_max));
	return (0);
}

int
conf_check_policy(const struct policy_msg *p, char *buf, size_t len)
{
	if (check_polname(p->name, sizeof(p->name), 0, buf, len) == -1)
		return (-1);
	if (p->has_network > 1 || p->block_all > 1 || p->keep_failed > 1 ||
	    p->keep_workspace > 1 ||
	    p->egress > EGRESS_ALLOW || p->inbound > INBOUND_ALLOW)
		return (fail(buf, len, "policy \"%s\": bad flag value",
		    p->name));
	if (check_limits(p, buf, len) == -1)
		return (-1);
	if (p->restart > RESTART_ALWAYS || p->restart_max > CONF_RESTART_MAX ||
	    p->restart_window == 0 || p->restart_window > 86400 ||
	    p->watchdog > 86400)
		return (fail(buf, len, "policy \"%s\": restart max 0-%u per "
		    "1s-24h and watchdog 0-24h, please", p->name,
		    CONF_RESTART_MAX));
	if (p->pins_max == 0 || p->pins_max > CONF_PINS_MAX)
		return (fail(buf, len, "policy \"%s\": pins %u out of range "
		    "1-%u", p->name, p->pins_max, CONF_PINS_MAX));
	CHECK_NUL(p->root, "filesystem root");
	return (check_path(p->root, "filesystem root", 1, buf, len));
}

static int
check_port_proto(uint16_t port, uint8_t proto, char *buf, size_t len)
{
	if (port == 0)
		return (fail(buf, len, "port 0 out of range 1-65535"));
	if (proto != IPPROTO_TCP && proto != IPPROTO_UDP)
		return (fail(buf, len, "protocol %u: tcp or udp required",
		    proto));
	return (0);
}

int
conf_check_net_rule(const struct net_rule_msg *r, char *buf, size_t len)
{
	if (check_polname(r->policy, sizeof(r->policy), 0, buf, len) == -1)
		return (-1);
	CHECK_NUL(r->name, "name");
	switch (r->type) {
	case NET_RULE_HOST:
		if (r->name[0] != '\0')
			return (fail(buf, len, "address rule with a name"));
		if (check_prefix(&r->prefix, "address", 1, buf, len) == -1)
			return (-1);
		return (check_port_proto(r->port, r->proto, buf, len));
	case NET_RULE_CIDR:
	case NET_RULE_INBOUND_FROM:
		if (r->name[0] != '\0' || r->port != 0 || r->proto != 0)
			return (fail(buf, len, "cidr rule with a name, port "
			    "or protocol"));
		return (check_prefix(&r->prefix, "cidr", 0, buf, len));
	case NET_RULE_NAME:
		if (r->prefix.af != 0)
			return (fail(buf, len, "name rule with an address"));
		if (conf_check_dnsname(r->name, buf, len) == -1)
			return (-1);
		return (check_port_proto(r->port, r->proto, buf, len));
	default:
		return (fail(buf, len, "bad network rule type %u", r->type));
	}
}

int
conf_check_upstream(const struct upstream_msg *u, char *buf, size_t len)
{
	if (check_prefix(&u->addr, "upstream", 1, buf, len) == -1)
		return (-1);
	if (u->port == 0)
		return (fail(buf, len, "upstream: port 0 out of range "
		    "1-65535"));
	return (0);
}

int
conf_check_env_rule(const struct env_rule_msg *r, char *buf, size_t len)
{
	int	 sys = r->type == ENV_RULE_SYSTEM;

	if (r->type < ENV_RULE_SYSTEM || r->type > ENV_RULE_UNSET)
		return (fail(buf, len, "bad env rule type %u", r->type));
	if (check_polname(r->policy, sizeof(r->policy), sys, buf, len) == -1)
		return (-1);
	if (sys && r->policy[0] != '\0')
		return (fail(buf, len, "system env rule with a policy"));
	CHECK_NUL(r->key, "env key");
	CHECK_NUL(r->value, "env value");
	if (!conf_valid_envkey(r->key))
		return (fail(buf, len, "env \"%s\": not a valid variable name",
		    r->key));
	if (r->type != ENV_RULE_SET && r->value[0] != '\0')
		return (fail(buf, len, "env %s: value given without set",
		    r->key));
	return (0);
}

/* Secret names double as variable names when exposed. */
int
conf_check_secret_rule(const struct secret_rule_msg *r, char *buf,
    size_t len)
{
	if (r->type != SECRET_RULE_PERMIT && r->type != SECRET_RULE_EXPOSE)
		return (fail(buf, len, "bad secret rule type %u", r->type));
	if (check_polname(r->policy, sizeof(r->policy), 0, buf, len) == -1)
		return (-1);
	CHECK_NUL(r->name, "secret name");
	if (!conf_valid_envkey(r->name))
		return (fail(buf, len, "secret \"%s\": not a valid variable "
		    "name", r->name));
	return (0);
}

/* A name that can be a variable, a value that fits JSON and a line. */
int
conf_check_secret(const struct secret_msg *m, char *buf, size_t len)
{
	CHECK_NUL(m->name, "secret name");
	CHECK_NUL(m->value, "secret value");
	if (!conf_valid_envkey(m->name))
		return (fail(buf, len, "secret \"%s\": not a valid variable "
		    "name", m->name));
	if (strchr(m->value, '\n') != NULL ||
	    !utf8_valid(m->value, strlen(m->value)))
		return (fail(buf, len, "secret \"%s\": the value must be "
		    "UTF-8 text on one line", m->name));
	return (0);
}

const struct secret_msg *
conf_secret_find(const struct sandboxd_conf *c, const char *name)
{
	struct conf_secret	*s;

	TAILQ_FOREACH(s, &c->secrets, entry)
		if (strcmp(s->m.name, name) == 0)
			return (&s->m);
	return (NULL);
}

int
conf_check_fs_rule(const struct fs_rule_msg *r, char *buf, size_t len)
{
	if (r->type < FS_RULE_READ || r->type > FS_RULE_EXEC)
		return (fail(buf, len, "bad filesystem rule type %u",
		    r->type));
	if (check_polname(r->policy, sizeof(r->policy), 0, buf, len) == -1)
		return (-1);
	CHECK_NUL(r->path, "filesystem path");
	return (check_path(r->path, "filesystem path", 0, buf, len));
}

static int
check_label(const char *name, const char *l, size_t n, char *buf,
    size_t len)
{
	size_t	 i;

	if (n == 0)
		return (fail(buf, len, "name \"%s\": empty label", name));
	if (n > 63)
		return (fail(buf, len, "name \"%s\": label longer than 63 "
		    "characters", name));
	if (l[0] == '-' || l[n - 1] == '-')
		return (fail(buf, len, "name \"%s\": label starts or ends "
		    "with '-'", name));
	for (i = 0; i < n; i++) {
		if (l[i] == '*')
			return (fail(buf, len, "bad wildcard \"%s\": '*' is "
			    "only allowed as the whole first label", name));
		if (!is_lower(l[i]) && !is_digit(l[i]) && l[i] != '-')
			return (fail(buf, len, "name \"%s\": only a-z, 0-9 "
			    "and '-' allowed in labels", name));
	}
	return (0);
}

static int
check_labels(const char *name, const char *d, char *buf, size_t len)
{
	const char	*l, *last;
	size_t		 n;

	for (l = d;; l += n + 1) {
		n = strcspn(l, ".");
		if (check_label(name, l, n, buf, len) == -1)
			return (-1);
		if (l[n] == '\0')
			break;
	}
	/* An all-numeric top label would make an address look like a name. */
	for (last = l; *last != '\0'; last++)
		if (!is_digit(*last))
			return (0);
	return (fail(buf, len, "name \"%s\": last label is numeric", name));
}

/*
 * Exact names are lowercase LDH names; a wildcard is "*." followed by
 * one, matching by the anchor rule.  Nothing else has a '*'.
 */
int
conf_check_dnsname(const char *name, char *buf, size_t len)
{
	const char	*d = name;
	size_t		 n = strlen(name);

	if (n == 0)
		return (fail(buf, len, "empty name"));
	if (n > 253)
		return (fail(buf, len, "name \"%.40s...\": longer than 253 "
		    "characters", name));
	if (name[0] == '*') {
		if (name[1] != '.' || name[2] == '\0')
			return (fail(buf, len, "bad wildcard \"%s\": only "
			    "\"*.\" followed by a domain is allowed", name));
		d = name + 2;
	}
	return (check_labels(name, d, buf, len));
}

/* A POSIX identifier: [A-Za-z_][A-Za-z0-9_]* */
int
conf_valid_envkey(const char *key)
{
	const char	*c;

	if (!is_alpha(*key) && *key != '_')
		return (0);
	for (c = key + 1; *c != '\0'; c++)
		if (!is_alpha(*c) && !is_digit(*c) && *c != '_')
			return (0);
	return (1);
}
