/*
 * sandboxd -nv: the config in canonical form.  Every value is printed,
 * defaults included, and the output parses back to the same output.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "conf.h"

#define FMT_SIZE	32

static const char *
fmt_size(uint64_t v, char *buf, size_t len)
{
	static const char	 units[] = "TGMK";
	int			 i;

	for (i = 0; v != 0 && units[i] != '\0'; i++)
		if (v % (1ULL << (10 * (4 - i))) == 0) {
			snprintf(buf, len, "%" PRIu64 "%c",
			    v >> (10 * (4 - i)), units[i]);
			return (buf);
		}
	snprintf(buf, len, "%" PRIu64, v);
	return (buf);
}

static const char *
fmt_ms(uint64_t ms, char *buf, size_t len)
{
	static const struct {
		const char	*sfx;
		uint64_t	 ms;
	} units[] = {
		{ "h", 3600000 }, { "m", 60000 }, { "s", 1000 }, { "ms", 1 }
	};
	size_t	 i;

	if (ms == 0) {
		snprintf(buf, len, "0s");
		return (buf);
	}
	for (i = 0; ms % units[i].ms != 0; i++)
		;
	snprintf(buf, len, "%" PRIu64 "%s", ms / units[i].ms, units[i].sfx);
	return (buf);
}

static const char *
fmt_secs(uint32_t s, char *buf, size_t len)
{
	return (fmt_ms((uint64_t)s * 1000, buf, len));
}

static const char *
fmt_addr(const struct conf_prefix *p, int withlen, char *buf, size_t len)
{
	char	 a[INET6_ADDRSTRLEN];

	if (inet_ntop(p->af, &p->addr, a, sizeof(a)) == NULL)
		strlcpy(a, "?", sizeof(a));
	if (withlen)
		snprintf(buf, len, "%s/%u", a, p->len);
	else
		snprintf(buf, len, "%s", a);
	return (buf);
}

/* Quoted, with the escapes the lexer reads back. */
static void
print_str(const char *s)
{
	putchar('"');
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if (*s == '\n')
			printf("\\n");
		else if (*s == '\t')
			printf("\\t");
		else
			putchar(*s);
	}
	putchar('"');
}

/* Keywords are lowercase: an uppercase name needs no quotes. */
static void
print_key(const char *k)
{
	if (strspn(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(k))
		printf("%s", k);
	else
		print_str(k);
}

static void
print_kv(const char *indent, const char *kw, const char *s)
{
	printf("%s%s ", indent, kw);
	print_str(s);
	putchar('\n');
}

static void
print_global_net(struct sandboxd_conf *conf)
{
	struct conf_global_msg	*g = &conf->global;
	struct conf_upstream	*u;
	char			 b[INET6_ADDRSTRLEN + 8];

	printf("subnet %s\n", fmt_addr(&g->subnet, 1, b, sizeof(b)));
	printf("resolver %s\n", fmt_addr(&g->resolver, 0, b, sizeof(b)));
	TAILQ_FOREACH(u, &conf->upstreams, entry)
		printf("upstream %s port %u\n",
		    fmt_addr(&u->m.addr, 0, b, sizeof(b)), u->m.port);
	printf("upstream timeout %s\n",
	    fmt_ms(g->upstream_timeout_ms, b, sizeof(b)));
	printf("pin-floor %s\n", fmt_secs(g->pin_floor, b, sizeof(b)));
	printf("pin-ceiling %s\n", fmt_secs(g->pin_ceiling, b, sizeof(b)));
	if (g->uplink[0] != '\0')
		print_kv("", "uplink", g->uplink);
	print_kv("", "interface-prefix", g->ifprefix);
}

static void
print_global(struct sandboxd_conf *conf)
{
	struct conf_global_msg	*g = &conf->global;
	struct conf_env_rule	*r;
	char			 b[FMT_SIZE];
	int			 n = 0;

	print_global_net(conf);
	print_kv("", "control socket", g->control_socket);
	printf("control clients %u\n", g->control_clients);
	if (g->control_group[0] != '\0')
		print_kv("", "control group", g->control_group);
	if (g->secrets_path[0] != '\0')
		print_kv("", "secrets", g->secrets_path);
	print_kv("", "state-dir", g->state_dir);
	printf("uid-range %u %u\n", g->uid_base, g->uid_count);
	printf("prebuild %u\n", g->prebuild);
	/* Only when set: most configs never touch them. */
	if (g->exec_retention != CONF_EXEC_RETENTION_DEFAULT)
		printf("exec retention %us\n", g->exec_retention);
	if (g->exec_history != CONF_EXEC_HISTORY_DEFAULT)
		printf("exec history %u\n", g->exec_history);
	printf("env {\n");
	TAILQ_FOREACH(r, &conf->env_rules, entry)
		if (r->m.type == ENV_RULE_SYSTEM) {
			printf("%s", n++ == 0 ? "\tpass " : " ");
			print_key(r->m.key);
		}
	if (n)
		putchar('\n');
	print_kv("\t", "prefix", g->env_prefix);
	printf("\tbudget %s\n}\n", fmt_size(g->env_budget, b, sizeof(b)));
}

static void
print_inbound(struct sandboxd_conf *conf, struct policy_msg *p)
{
	struct conf_net_rule	*r;
	char			 b[INET6_ADDRSTRLEN + 8];
	int			 n = 0;

	TAILQ_FOREACH(r, &conf->net_rules, entry)
		if (r->m.type == NET_RULE_INBOUND_FROM &&
		    strcmp(r->m.policy, p->name) == 0)
			n++;
	if (p->inbound == INBOUND_DENY) {
		printf("\t\tinbound deny\n");
		return;
	}
	printf("\t\tinbound allow%s%s", n ? " from" : "", n > 1 ? " {" : "");
	TAILQ_FOREACH(r, &conf->net_rules, entry)
		if (r->m.type == NET_RULE_INBOUND_FROM &&
		    strcmp(r->m.policy, p->name) == 0)
			printf(" %s", fmt_addr(&r->m.prefix, 1, b, sizeof(b)));
	printf("%s\n", n > 1 ? " }" : "");
}

static void
print_net_rule(struct net_rule_msg *m)
{
	char	 b[INET6_ADDRSTRLEN + 8];

	switch (m->type) {
	case NET_RULE_HOST:
		printf("\t\tallow %s", fmt_addr(&m->prefix, 0, b, sizeof(b)));
		break;
	case NET_RULE_CIDR:
		printf("\t\tallow cidr %s\n",
		    fmt_addr(&m->prefix, 1, b, sizeof(b)));
		return;
	case NET_RULE_NAME:
		printf("\t\tallow name ");
		print_str(m->name);
		break;
	default:
		return;
	}
	printf(" port %u %s\n", m->port, m->proto == IPPROTO_UDP ?
	    "udp" : "tcp");
}

static void
print_network(struct sandboxd_conf *conf, struct policy_msg *p)
{
	struct conf_net_rule	*r;

	if (!p->has_network)
		return;
	printf("\tnetwork {\n");
	printf("\t\tegress %s\n", p->egress == EGRESS_ALLOW ? "allow" :
	    "deny");
	print_inbound(conf, p);
	if (p->block_all)
		printf("\t\tblock-all\n");
	printf("\t\tpins %u\n", p->pins_max);
	TAILQ_FOREACH(r, &conf->net_rules, entry)
		if (strcmp(r->m.policy, p->name) == 0)
			print_net_rule(&r->m);
	printf("\t}\n");
}

static void
print_env(struct sandboxd_conf *conf, struct policy_msg *p)
{
	static const char	*kw[] = { NULL, NULL, "pass", "set", "unset" };
	struct conf_env_rule	*r;
	int			 n = 0;

	TAILQ_FOREACH(r, &conf->env_rules, entry) {
		if (r->m.type == ENV_RULE_SYSTEM || r->m.type > ENV_RULE_UNSET ||
		    strcmp(r->m.policy, p->name) != 0)
			continue;
		if (n++ == 0)
			printf("\tenv {\n");
		printf("\t\t%s ", kw[r->m.type]);
		print_key(r->m.key);
		if (r->m.type == ENV_RULE_SET) {
			putchar(' ');
			print_str(r->m.value);
		}
		putchar('\n');
	}
	if (n)
		printf("\t}\n");
}

static void
print_secrets(struct sandboxd_conf *conf, struct policy_msg *p)
{
	struct conf_secret_rule	*r;
	int			 n = 0;

	TAILQ_FOREACH(r, &conf->secret_rules, entry) {
		if (strcmp(r->m.policy, p->name) != 0)
			continue;
		if (n++ == 0)
			printf("\tsecrets {\n");
		print_kv("\t\t", r->m.type == SECRET_RULE_EXPOSE ? "expose" :
		    "permit", r->m.name);
	}
	if (n)
		printf("\t}\n");
}

static void
print_limits(struct policy_msg *p)
{
	char	 a[FMT_SIZE], b[FMT_SIZE];

	printf("\tlimits {\n");
	printf("\t\tmemory %s\n", fmt_size(p->memory, a, sizeof(a)));
	printf("\t\tpids %u\n", p->pids);
	printf("\t\tcpu %u%%\n", p->cpu_percent);
	printf("\t\ttimeout %s max %s\n", fmt_secs(p->timeout, a, sizeof(a)),
	    fmt_secs(p->timeout_max, b, sizeof(b)));
	printf("\t\tstdout %s\n", fmt_size(p->stdout_cap, a, sizeof(a)));
	printf("\t\tstderr %s\n", fmt_size(p->stderr_cap, a, sizeof(a)));
	printf("\t\tworkspace %s\n", fmt_size(p->workspace, a, sizeof(a)));
	printf("\t\ttmp %s\n", fmt_size(p->tmp_size, a, sizeof(a)));
	printf("\t\tfsize %s\n", fmt_size(p->fsize, a, sizeof(a)));
	printf("\t\tnofile %u\n", p->nofile);
	printf("\t\tgrace %s\n", fmt_ms(p->grace_ms, a, sizeof(a)));
	printf("\t}\n");
}

static void
print_fs(struct sandboxd_conf *conf, struct policy_msg *p)
{
	static const char	*kw[] = { NULL, "read", "write", "exec" };
	struct conf_fs_rule	*r;
	int			 n = 0;

	if (p->root[0] != '\0' || p->keep_failed)
		n++;
	TAILQ_FOREACH(r, &conf->fs_rules, entry)
		if (strcmp(r->m.policy, p->name) == 0)
			n++;
	if (n == 0)
		return;
	printf("\tfilesystem {\n");
	if (p->root[0] != '\0')
		print_kv("\t\t", "root", p->root);
	TAILQ_FOREACH(r, &conf->fs_rules, entry)
		if (strcmp(r->m.policy, p->name) == 0 &&
		    r->m.type >= FS_RULE_READ && r->m.type <= FS_RULE_EXEC)
			print_kv("\t\t", kw[r->m.type], r->m.path);
	if (p->keep_failed)
		printf("\t\tkeep-failed\n");
	printf("\t}\n");
}

static void
print_restart(struct policy_msg *p)
{
	static const char	*kw[] = { "never", "on-failure", "always" };
	char			 a[FMT_SIZE];

	/* The defaults go unsaid, as -nv output of older configs was. */
	if (p->restart <= RESTART_ALWAYS && (p->restart != RESTART_ON_FAILURE ||
	    p->restart_max != 5 || p->restart_window != 600))
		printf("\trestart %s max %u per %s\n", kw[p->restart],
		    p->restart_max, fmt_secs(p->restart_window, a, sizeof(a)));
	if (p->watchdog != 0)
		printf("\twatchdog %s\n", fmt_secs(p->watchdog, a, sizeof(a)));
	if (p->keep_workspace)
		printf("\tkeep-workspace\n");
}

/* Each argument quoted on its own, so a blank inside one stays put. */
static void
print_service(struct service_msg *m)
{
	const char	*a = m->args;
	uint32_t	 i;

	printf("\nservice ");
	print_str(m->name);
	printf(" {\n");
	if (m->policy[0] != '\0')
		print_kv("\t", "policy", m->policy);
	printf("\tcommand");
	for (i = 0; i < m->argc; i++, a += strlen(a) + 1) {
		putchar(' ');
		print_str(a);
	}
	printf("\n}\n");
}

void
print_config(struct sandboxd_conf *conf)
{
	struct conf_policy	*p;
	struct conf_service	*s;

	print_global(conf);
	TAILQ_FOREACH(p, &conf->policies, entry) {
		printf("\npolicy ");
		print_str(p->m.name);
		printf(" {\n");
		print_network(conf, &p->m);
		print_env(conf, &p->m);
		print_secrets(conf, &p->m);
		print_limits(&p->m);
		print_fs(conf, &p->m);
		print_restart(&p->m);
		printf("}\n");
	}
	TAILQ_FOREACH(s, &conf->services, entry)
		print_service(&s->m);
}
