/*
 * The configuration as every process holds it.  Only the master parses
 * sandboxd.conf; children receive it as IMSG_RECONF_* messages whose
 * payloads are the *_msg structs below, exactly as stored here.
 * Every string member is NUL-terminated within its array.
 */
#ifndef SANDBOXD_CONF_H
/*
 * 0x78000000: above login.defs' SUB_UID_MAX/SUB_GID_MAX (600100000), so
 * no subordinate range useradd hands out reaches it, and in the gap
 * systemd leaves unused between its container ranges (up to 0x6FFFFFFF)
 * and its foreign range (0x7FFE0000), below 2^31 where ids turn negative
 * as signed ints.  sandboxd.conf(5) gives the reasoning.
 */
#define CONF_UID_BASE_DEFAULT	0x78000000U
#define CONF_UID_COUNT_DEFAULT	65536

#define SANDBOXD_CONF_H

#include <sys/queue.h>
#include <netinet/in.h>
#include <limits.h>
#include <stdint.h>

#define CONF_NAME_SIZE		64	/* policy, group names */
#define CONF_DNSNAME_SIZE	256	/* "*.example.com", lowercased */
#define CONF_ENVKEY_SIZE	128
#define CONF_ENVVAL_SIZE	4096
#define CONF_SECRET_SIZE	128	/* secret names */
#define CONF_SECRET_VALUE_SIZE	4096	/* a secret's value, NUL included */
#define CONF_IFPREFIX_SIZE	8	/* prefix + 8 hex digits <= 15 */
#define CONF_IFNAME_SIZE	16	/* IFNAMSIZ */
#define CONF_PATH_SIZE		1024
#define CORR_ID_SIZE		33	/* 32 hex digits */

#define CONF_DEFAULT_FILE	"/etc/sandboxd.conf"
#define CONF_DEFAULT_SOCKET	"/run/sandboxd.sock"
#define CONF_DEFAULT_POLICY	"default"
#define CONF_EXEC_RETENTION_DEFAULT	600	/* seconds */
#define CONF_EXEC_HISTORY_DEFAULT	32
#define CONF_PIN_CEILING_MAX	86400	/* a day, in seconds */

/* An address with a prefix length; a host address has len 32 or 128. */
struct conf_prefix {
	uint8_t		af;		/* AF_INET, AF_INET6, 0 = unset */
	uint8_t		len;
	uint8_t		pad[2];
	union {
		struct in_addr	v4;
		struct in6_addr	v6;
	} addr;
};

struct conf_global_msg {
	uint64_t		generation;	/* bumped by every load */
	char			corr[CORR_ID_SIZE];	/* of the reload */
	struct conf_prefix	subnet;		/* 10.200.0.0/16 */
	struct conf_prefix	resolver;	/* 169.254.1.1 */
	uint32_t		pin_floor;	/* seconds, 30 */
	uint32_t		pin_ceiling;	/* seconds, 3600 */
	uint32_t		upstream_timeout_ms;	/* 2000 */
	char			uplink[CONF_IFNAME_SIZE];	/* "" none */
	char			ifprefix[CONF_IFPREFIX_SIZE];	/* "sbx" */
	char			control_socket[CONF_PATH_SIZE];
	char			control_group[CONF_NAME_SIZE];	/* "" none */
	char			secrets_path[CONF_PATH_SIZE];	/* "" none */
	char			state_dir[CONF_PATH_SIZE];
	uint32_t		uid_base;	/* CONF_UID_BASE_DEFAULT */
	uint32_t		uid_count;	/* 65536 */
	char			env_prefix[CONF_ENVKEY_SIZE];	/* SANDBOX_ENV_ */
	uint32_t		env_budget;	/* bytes, 32768 */
	uint32_t		prebuild;	/* sandboxes built ahead, 1 */
	uint32_t		control_clients;	/* connected at once, 4096 */
	uint32_t		exec_retention;	/* seconds a finished exec is kept, 600 */
	uint32_t		exec_history;	/* finished execs kept per sandbox, 32 */
};

enum policy_egress {
	EGRESS_DENY = 0,
	EGRESS_ALLOW
};

enum policy_inbound {
	INBOUND_DENY = 0,
	INBOUND_ALLOW
};

struct policy_msg {
	char		name[CONF_NAME_SIZE];
	/* network { } */
	uint8_t		has_network;
	uint8_t		egress;		/* enum policy_egress, deny */
	uint8_t		block_all;
	uint8_t		inbound;	/* enum policy_inbound, deny */
	/* limits { } */
	uint64_t	memory;		/* bytes, 512M */
	uint32_t	pids;		/* 256 */
	uint32_t	cpu_percent;	/* of one CPU, 100 */
	uint32_t	timeout;	/* seconds, 120 */
	uint32_t	timeout_max;	/* seconds, 300 */
	uint64_t	stdout_cap;	/* bytes, 100K */
	uint64_t	stderr_cap;	/* bytes, 50K */
	uint64_t	workspace;	/* bytes, 5G */
	uint64_t	tmp_size;	/* bytes, 64M */
	uint64_t	fsize;		/* RLIMIT_FSIZE bytes, 1G */
	uint32_t	nofile;		/* RLIMIT_NOFILE, 1024 */
	uint32_t	grace_ms;	/* abort grace periods, 2000 */
	/* filesystem { } */
	char		root[CONF_PATH_SIZE];	/* "" = host system dirs */
	uint8_t		keep_failed;
	/* a service run under it: restart ..., watchdog */
	uint8_t		restart;	/* enum policy_restart, on-failure */
	uint8_t		keep_workspace;	/* across a service's restarts */
	uint8_t		pad;
	uint32_t	restart_max;	/* restarts within the window, 5 */
	uint32_t	restart_window;	/* seconds, 600 */
	uint32_t	watchdog;	/* seconds, 0 = none */
	/* network { pins N }: live DNS pins a sandbox may hold */
	uint32_t	pins_max;	/* CONF_PINS_DEFAULT */
};

enum policy_restart {
	RESTART_NEVER = 0,
	RESTART_ON_FAILURE,
	RESTART_ALWAYS
};

#define CONF_RESTART_MAX	100
#define CONF_PINS_DEFAULT	4096
#define CONF_PINS_MAX		1048576	/* the kernel's sets are shared */
#define CONF_SERVICE_ARGS	4096	/* a service's argv, NUL-separated */
#define CONF_SERVICES_MAX	64

/* service "name" { policy "p"; command "..." }: the master's alone. */
struct service_msg {
	char		name[CONF_NAME_SIZE];
	char		policy[CONF_NAME_SIZE];
	uint32_t	argc;
	uint32_t	args_len;
	char		args[CONF_SERVICE_ARGS];
};

enum net_rule_type {
	NET_RULE_HOST = 1,	/* allow ADDR port N [tcp|udp] */
	NET_RULE_CIDR,		/* allow cidr A/N */
	NET_RULE_NAME,		/* allow name "x" port N [tcp|udp] */
	NET_RULE_INBOUND_FROM	/* inbound allow from A/N */
};

struct net_rule_msg {
	char			policy[CONF_NAME_SIZE];
	uint32_t		type;		/* enum net_rule_type */
	struct conf_prefix	prefix;		/* HOST, CIDR, INBOUND_FROM */
	char			name[CONF_DNSNAME_SIZE];	/* NAME */
	uint16_t		port;		/* HOST, NAME */
	uint8_t			proto;		/* IPPROTO_TCP (default), _UDP */
	uint8_t			pad;
};

struct upstream_msg {
	struct conf_prefix	addr;		/* host address */
	uint16_t		port;		/* 53 */
	uint16_t		pad;
};

enum env_rule_type {
	ENV_RULE_SYSTEM = 1,	/* global env { pass K }: system allowlist */
	ENV_RULE_PASS,		/* policy env { pass K } */
	ENV_RULE_SET,		/* policy env { set K "v" } */
	ENV_RULE_UNSET		/* policy env { unset K } */
};

struct env_rule_msg {
	char		policy[CONF_NAME_SIZE];	/* "" for global rules */
	uint32_t	type;			/* enum env_rule_type */
	char		key[CONF_ENVKEY_SIZE];
	char		value[CONF_ENVVAL_SIZE];	/* SET only */
};

enum secret_rule_type {
	SECRET_RULE_PERMIT = 1,
	SECRET_RULE_EXPOSE
};

struct secret_rule_msg {
	char		policy[CONF_NAME_SIZE];
	uint32_t	type;			/* enum secret_rule_type */
	char		name[CONF_SECRET_SIZE];
};

/* A secret from the secrets file: only the master and envd hold these. */
struct secret_msg {
	char		name[CONF_SECRET_SIZE];
	char		value[CONF_SECRET_VALUE_SIZE];
};

enum fs_rule_type {
	FS_RULE_READ = 1,	/* filesystem { read "/p" } */
	FS_RULE_WRITE,		/* filesystem { write "/p" } */
	FS_RULE_EXEC		/* filesystem { exec "/p" } */
};

struct fs_rule_msg {
	char		policy[CONF_NAME_SIZE];
	uint32_t	type;			/* enum fs_rule_type */
	char		path[CONF_PATH_SIZE];
};

/* In-memory lists: each entry holds exactly what goes on the wire. */
#define CONF_ENTRY(tag, msgtype)				\
struct tag {							\
	TAILQ_ENTRY(tag)	entry;				\
	struct msgtype		m;				\
};								\
TAILQ_HEAD(tag##_list, tag)

CONF_ENTRY(conf_policy, policy_msg);
CONF_ENTRY(conf_net_rule, net_rule_msg);
CONF_ENTRY(conf_upstream, upstream_msg);
CONF_ENTRY(conf_env_rule, env_rule_msg);
CONF_ENTRY(conf_secret_rule, secret_rule_msg);
CONF_ENTRY(conf_fs_rule, fs_rule_msg);
CONF_ENTRY(conf_secret, secret_msg);
CONF_ENTRY(conf_service, service_msg);

struct sandboxd_conf {
	struct conf_global_msg		global;
	struct conf_policy_list		policies;	/* in config order */
	struct conf_net_rule_list	net_rules;
	struct conf_upstream_list	upstreams;
	struct conf_env_rule_list	env_rules;
	struct conf_secret_rule_list	secret_rules;
	struct conf_fs_rule_list	fs_rules;
	struct conf_secret_list		secrets;	/* zeroed when freed */
	struct conf_service_list	services;	/* the master's only */
};

/* conf.c */
struct sandboxd_conf	*conf_new(void);	/* global defaults, no lists */
void			 conf_free(struct sandboxd_conf *);
void			 conf_policy_defaults(struct policy_msg *,
			    const char *);
struct conf_policy	*conf_policy_find(struct sandboxd_conf *,
			    const char *);
/* 1 if the policy and its own rules are the same in both configs. */
int			 conf_policy_same(struct sandboxd_conf *,
			    struct sandboxd_conf *, const char *);
/* Add the implicit "default" policy unless the config defined one. */
int			 conf_ensure_default_policy(struct sandboxd_conf *);
/* Checks used by the parser and re-applied by every receiver. */
int			 conf_check_global(const struct conf_global_msg *,
			    char *, size_t);
int			 conf_check_policy(const struct policy_msg *,
			    char *, size_t);
int			 conf_check_net_rule(const struct net_rule_msg *,
			    char *, size_t);
int			 conf_check_upstream(const struct upstream_msg *,
			    char *, size_t);
int			 conf_check_env_rule(const struct env_rule_msg *,
			    char *, size_t);
int			 conf_check_secret_rule(const struct secret_rule_msg *,
			    char *, size_t);
int			 conf_check_fs_rule(const struct fs_rule_msg *,
			    char *, size_t);
int			 conf_check_secret(const struct secret_msg *,
			    char *, size_t);
int			 conf_check_service(const struct service_msg *,
			    char *, size_t);
int			 conf_check_name(const char *, size_t, const char *,
			    char *, size_t);
const struct secret_msg	*conf_secret_find(const struct sandboxd_conf *,
			    const char *);
/* The anchor-rule wildcard and name syntax; 0 if valid. */
int			 conf_check_dnsname(const char *, char *, size_t);
int			 conf_valid_envkey(const char *);

/* parse.y */
struct sandboxd_conf	*parse_config(const char *, int);
void			 parse_config_error(char *, size_t);
/* printconf.c */
void			 print_config(struct sandboxd_conf *);

#endif
