/*
 * sandboxd.conf(5), in the manner of OpenBSD's parse.y files: an own
 * lexer with macros and include, statements ended by a newline or ';',
 * every statement checked with the conf_check_* functions as it is read,
 * and every error reported as file:line before the config is refused.
 */

%{
#include <sys/types.h>
#include <sys/queue.h>
#include <sys/stat.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "log.h"

#define MAX_INCLUDE_DEPTH	8
#define LEX_BUFSIZE		8192	/* > CONF_ENVVAL_SIZE */
#define ERRBUF_SIZE		512
#define START_EXPAND		256	/* unget markers around a macro */
#define DONE_EXPAND		257

struct file {
	TAILQ_ENTRY(file)	 entry;
	FILE			*stream;
	char			*name;
	int			*ungetbuf;
	size_t			 ungetpos;
	size_t			 ungetsize;
	int			 lineno;
	int			 lastc;
	int			 expanding;
	dev_t			 dev;
	ino_t			 ino;
};
static TAILQ_HEAD(files, file)	 files = TAILQ_HEAD_INITIALIZER(files);
static struct file		*file, *topfile;

struct sym {
	TAILQ_ENTRY(sym)	 entry;
	int			 persist;	/* -D: the config cannot override */
	char			*nam;
	char			*val;
};
static TAILQ_HEAD(symhead, sym)	 symhead = TAILQ_HEAD_INITIALIZER(symhead);

/* What a list of names in a block adds. */
enum listctx {
	L_SYSENV, L_PASS, L_UNSET, L_PERMIT, L_EXPOSE, L_READ, L_WRITE, L_EXEC
};

/* The inbound statements of one policy must agree. */
enum inbound_seen {
	INB_NONE, INB_DENY, INB_ANY, INB_FROM
};

/* The last token, for syntax error messages. */
enum tokkind {
	TK_WORD, TK_KEYWORD, TK_QUOTED, TK_NUMBER, TK_NEWLINE, TK_CHAR,
	TK_EOF, TK_ERROR
};

static struct sandboxd_conf	*conf;
static struct conf_policy	*curpol;
static int			 curdetached;	/* bad or duplicate policy */
static enum inbound_seen	 curinbound;
static enum listctx		 listctx;
static struct conf_global_msg	 gsaved;
static struct policy_msg	 psaved;
static int			 errors;
static enum tokkind		 lastkind;
static char			 lasttext[48];
static int			 stmtpos, laststmtpos;	/* tokens into it */
static enum tokkind		 firstkind;	/* of the statement */
static char			 firsttext[48];
static char			 firsterror[200];	/* for sandboxctl */

typedef struct {
	union {
		int64_t		 number;
		uint64_t	 u64;
		char		*string;
	} v;
	int lineno;
} YYSTYPE;
#define YYSTYPE_IS_DECLARED	1

int		 yylex(void);
int		 yyerror(const char *, ...)
		    __attribute__((__format__ (printf, 1, 2)));
int		 cmdline_symset(char *);
static void	 parse_warnx(const char *, ...)
		    __attribute__((__format__ (printf, 1, 2)));

static struct file *pushfile(const char *, char *, size_t);
static int	 popfile(void);
static int	 symset(const char *, const char *, int);
static char	*symget(const char *);
static void	 macro_define(const char *, const char *);
static void	 include_file(const char *);
static struct conf_global_msg *gbegin(void);
static int	 gcommit(void);
static struct policy_msg *pbegin(void);
static int	 pcommit(int);
static int	 copystr(char *, size_t, const char *, const char *);
static int	 parse_size(const char *, uint64_t *);
static int	 parse_time(const char *, uint64_t *);
static int	 parse_percent(const char *, int64_t *);
static int	 secs(uint32_t *, uint64_t, const char *);
static int	 msecs(uint32_t *, uint64_t, const char *);
static void	 set_prefix(struct conf_prefix *, const char *, int);
static void	 set_gstr(char *, size_t, const char *, const char *);
static void	 set_pstr(char *, size_t, const char *, const char *);
static void	 set_timeout(const uint64_t *, const uint64_t *);
static void	 set_inbound(enum inbound_seen);
static void	 policy_begin(const char *);
static void	 policy_end(void);
static void	 add_upstream(const char *, int64_t);
static void	 add_host(const char *, int64_t, int64_t);
static void	 add_cidr(uint32_t, const char *);
static void	 add_name(const char *, int64_t, int64_t);
static void	 add_env(uint32_t, const char *, const char *);
static void	 add_listitem(const char *);
static void	 set_restart(int, const int64_t *, const uint64_t *);
static void	 set_watchdog(uint64_t);
static void	 service_begin(const char *);
static void	 service_policy(const char *);
static void	 service_command(void);
static void	 service_arg(const char *);
static void	 service_end(void);
static void	 services_check(struct sandboxd_conf *, const char *);
static char	*strpool(const char *);
%}

%token	ALLOW BLOCKALL BUDGET CIDR CONTROL CPU DENY EGRESS ENV EXEC EXPOSE
%token	FILESYSTEM FROM FSIZE GRACE GROUP INBOUND INCLUDE IFPREFIX KEEPFAILED
%token	LIMITS MAX MEMORY NAME NETWORK NOFILE PASS PERMIT PIDS PINFLOOR PINS
%token	POLICY PORT PREBUILD PREFIX READ RESOLVER ROOT SECRETS SET SOCKET STATEDIR
%token	STDERR STDOUT SUBNET TCP TIMEOUT TMP UDP UIDRANGE UNSET UPLINK
%token	UPSTREAM WORKSPACE WRITE ERROR ALWAYS COMMAND NEVER ONFAILURE PER
%token	RESTART SERVICE WATCHDOG KEEPWORKSPACE PINCEILING CLIENTS
%token	RETENTION HISTORY
%token	<v.string>	STRING
%token	<v.number>	NUMBER
%type	<v.string>	string
%type	<v.number>	port optport proto num32 percent restartmode
%type	<v.u64>		size time

%%

grammar		: /* empty */
		| grammar sep
		| grammar include sep
		| grammar varset sep
		| grammar main sep
		| grammar policy sep
		| grammar service sep
		| grammar error sep	{ yyerrok; }
		;

sep		: '\n'
		| ';'
		;

optnl		: /* empty */
		| optnl '\n'
		;

string		: STRING
		| NUMBER	{
			char	 buf[32];

			snprintf(buf, sizeof(buf), "%lld", (long long)$1);
			$$ = strpool(buf);
		}
		;

include		: INCLUDE string		{ include_file($2); }
		;

varset		: STRING '=' string		{ macro_define($1, $3); }
		;

num32		: NUMBER {
			if ($1 < 0 || $1 > UINT32_MAX) {
				yyerror("number %lld out of range 0-%u",
				    (long long)$1, UINT32_MAX);
				YYERROR;
			}
			$$ = $1;
		}
		| STRING {
			yyerror("\"%s\": not a number", $1);
			YYERROR;
		}
		;

port		: NUMBER {
			if ($1 < 1 || $1 > 65535) {
				yyerror("port %lld out of range 1-65535",
				    (long long)$1);
				YYERROR;
			}
			$$ = $1;
		}
		| STRING {
			yyerror("port \"%s\": not a number", $1);
			YYERROR;
		}
		;

optport		: /* empty */			{ $$ = 53; }
		| PORT port			{ $$ = $2; }
		;

proto		: /* empty */			{ $$ = IPPROTO_TCP; }
		| TCP				{ $$ = IPPROTO_TCP; }
		| UDP				{ $$ = IPPROTO_UDP; }
		;

size		: NUMBER {
			if ($1 < 0) {
				yyerror("size %lld is negative", (long long)$1);
				YYERROR;
			}
			$$ = $1;
		}
		| STRING {
			if (parse_size($1, &$$) == -1)
				YYERROR;
		}
		;

time		: NUMBER {
			if ($1 < 0 || (uint64_t)$1 > UINT64_MAX / 1000) {
				yyerror("time %lld out of range", (long long)$1);
				YYERROR;
			}
			$$ = $1 * 1000;
		}
		| STRING {
			if (parse_time($1, &$$) == -1)
				YYERROR;
		}
		;

percent		: NUMBER {
			if ($1 < 0 || $1 > UINT32_MAX) {
				yyerror("cpu %lld%% out of range", (long long)$1);
				YYERROR;
			}
			$$ = $1;
		}
		| STRING {
			if (parse_percent($1, &$$) == -1)
				YYERROR;
		}
		;

main		: SUBNET STRING {
			set_prefix(&conf->global.subnet, $2, 0);
		}
		| RESOLVER STRING {
			set_prefix(&conf->global.resolver, $2, 1);
		}
		| RESOLVER STRING UPSTREAM STRING optport {
			set_prefix(&conf->global.resolver, $2, 1);
			add_upstream($4, $5);
		}
		| UPSTREAM STRING optport	{ add_upstream($2, $3); }
		| UPSTREAM TIMEOUT time {
			if (msecs(&gbegin()->upstream_timeout_ms, $3,
			    "upstream timeout") == 0)
				gcommit();
		}
		| PINFLOOR time {
			if (secs(&gbegin()->pin_floor, $2, "pin-floor") == 0)
				gcommit();
		}
		| PINCEILING time {
			if (secs(&gbegin()->pin_ceiling, $2,
			    "pin-ceiling") == 0)
				gcommit();
		}
		| UPLINK string {
			set_gstr(conf->global.uplink,
			    sizeof(conf->global.uplink), $2, "uplink");
		}
		| IFPREFIX string {
			set_gstr(conf->global.ifprefix,
			    sizeof(conf->global.ifprefix), $2,
			    "interface-prefix");
		}
		| CONTROL SOCKET string {
			set_gstr(conf->global.control_socket,
			    sizeof(conf->global.control_socket), $3,
			    "control socket");
		}
		| CONTROL CLIENTS num32 {
			gbegin()->control_clients = $3;
			gcommit();
		}
		| CONTROL GROUP string {
			set_gstr(conf->global.control_group,
			    sizeof(conf->global.control_group), $3,
			    "control group");
		}
		| SECRETS string {
			set_gstr(conf->global.secrets_path,
			    sizeof(conf->global.secrets_path), $2, "secrets");
		}
		| STATEDIR string {
			set_gstr(conf->global.state_dir,
			    sizeof(conf->global.state_dir), $2, "state-dir");
		}
		| PREBUILD num32 {
			gbegin()->prebuild = $2;
			gcommit();
		}
		| EXEC RETENTION time {
			if (secs(&gbegin()->exec_retention, $3,
			    "exec retention") == 0)
				gcommit();
		}
		| EXEC HISTORY num32 {
			gbegin()->exec_history = $3;
			gcommit();
		}
		| UIDRANGE num32 num32 {
			gbegin()->uid_base = $2;
			conf->global.uid_count = $3;
			gcommit();
		}
		| ENV optnl genvblock
		;

genvblock	: '{' genvlist '}'
		| '{' genvlist genvopt '}'
		| '{' genvlist error '}'	{ yyerrok; }
		;

genvlist	: /* empty */
		| genvlist sep
		| genvlist genvopt sep
		| genvlist error sep	{ yyerrok; }
		;

genvopt		: PASS { listctx = L_SYSENV; } names
		| PREFIX string {
			set_gstr(conf->global.env_prefix,
			    sizeof(conf->global.env_prefix), $2, "env prefix");
		}
		| BUDGET size {
			if ($2 > UINT32_MAX)
				yyerror("env budget too large");
			else {
				gbegin()->env_budget = $2;
				gcommit();
			}
		}
		;

names		: string			{ add_listitem($1); }
		| names string			{ add_listitem($2); }
		;

policy		: policyhead '{' plist '}'		{ policy_end(); }
		| policyhead '{' plist pstmt '}'	{ policy_end(); }
		| policyhead '{' plist error '}' {
			yyerrok;
			policy_end();
		}
		;

policyhead	: POLICY string optnl		{ policy_begin($2); }
		;

plist		: /* empty */
		| plist sep
		| plist pstmt sep
		| plist error sep	{ yyerrok; }
		;

pstmt		: NETWORK optnl netblock {
			pbegin()->has_network = 1;
			pcommit(1);
		}
		| ENV optnl penvblock
		| SECRETS optnl secblock
		| LIMITS optnl limblock
		| FILESYSTEM optnl fsblock
		| RESTART restartmode		{ set_restart($2, NULL, NULL); }
		| RESTART restartmode MAX NUMBER PER time {
			set_restart($2, &$4, &$6);
		}
		| WATCHDOG time			{ set_watchdog($2); }
		| KEEPWORKSPACE			{
			pbegin()->keep_workspace = 1;
			pcommit(1);
		}
		;

restartmode	: NEVER				{ $$ = RESTART_NEVER; }
		| ONFAILURE			{ $$ = RESTART_ON_FAILURE; }
		| ALWAYS			{ $$ = RESTART_ALWAYS; }
		;

service		: servicehead '{' svclist '}'	{ service_end(); }
		| servicehead '{' svclist svcopt '}'	{ service_end(); }
		| servicehead '{' svclist error '}' {
			yyerrok;
			service_end();
		}
		;

servicehead	: SERVICE string optnl		{ service_begin($2); }
		;

svclist		: /* empty */
		| svclist sep
		| svclist svcopt sep
		| svclist error sep	{ yyerrok; }
		;

svcopt		: POLICY string			{ service_policy($2); }
		| COMMAND { service_command(); } svcargs
		;

svcargs		: string			{ service_arg($1); }
		| svcargs string		{ service_arg($2); }
		;

netblock	: '{' netlist '}'
		| '{' netlist netopt '}'
		| '{' netlist error '}'	{ yyerrok; }
		;

netlist		: /* empty */
		| netlist sep
		| netlist netopt sep
		| netlist error sep	{ yyerrok; }
		;

netopt		: EGRESS DENY {
			pbegin()->egress = EGRESS_DENY;
			pcommit(1);
		}
		| EGRESS ALLOW {
			pbegin()->egress = EGRESS_ALLOW;
			pcommit(1);
		}
		| BLOCKALL {
			pbegin()->block_all = 1;
			pcommit(1);
		}
		| PINS num32 {
			pbegin()->pins_max = $2;
			pcommit(1);
		}
		| INBOUND DENY			{ set_inbound(INB_DENY); }
		| INBOUND ALLOW			{ set_inbound(INB_ANY); }
		| INBOUND ALLOW FROM { set_inbound(INB_FROM); } fromlist
		| ALLOW STRING PORT port proto	{ add_host($2, $4, $5); }
		| ALLOW CIDR STRING	{ add_cidr(NET_RULE_CIDR, $3); }
		| ALLOW NAME string PORT port proto {
			add_name($3, $5, $6);
		}
		;

fromlist	: fromaddrs
		| '{' optnl fromaddrs optnl '}'
		;

fromaddrs	: STRING		{ add_cidr(NET_RULE_INBOUND_FROM, $1); }
		| fromaddrs optcomma STRING {
			add_cidr(NET_RULE_INBOUND_FROM, $3);
		}
		;

optcomma	: /* empty */
		| ','
		;

penvblock	: '{' penvlist '}'
		| '{' penvlist penvopt '}'
		| '{' penvlist error '}'	{ yyerrok; }
		;

penvlist	: /* empty */
		| penvlist sep
		| penvlist penvopt sep
		| penvlist error sep	{ yyerrok; }
		;

penvopt		: PASS { listctx = L_PASS; } names
		| SET string string	{ add_env(ENV_RULE_SET, $2, $3); }
		| UNSET { listctx = L_UNSET; } names
		;

secblock	: '{' seclist '}'
		| '{' seclist secopt '}'
		| '{' seclist error '}'	{ yyerrok; }
		;

seclist		: /* empty */
		| seclist sep
		| seclist secopt sep
		| seclist error sep	{ yyerrok; }
		;

secopt		: PERMIT { listctx = L_PERMIT; } names
		| EXPOSE { listctx = L_EXPOSE; } names
		;

limblock	: '{' limlist '}'
		| '{' limlist limopt '}'
		| '{' limlist error '}'	{ yyerrok; }
		;

limlist		: /* empty */
		| limlist sep
		| limlist limopt sep
		| limlist error sep	{ yyerrok; }
		;

limopt		: MEMORY size {
			pbegin()->memory = $2;
			pcommit(1);
		}
		| PIDS num32 {
			pbegin()->pids = $2;
			pcommit(1);
		}
		| CPU percent {
			pbegin()->cpu_percent = $2;
			pcommit(1);
		}
		| TIMEOUT time			{ set_timeout(&$2, NULL); }
		| TIMEOUT time MAX time		{ set_timeout(&$2, &$4); }
		| TIMEOUT MAX time		{ set_timeout(NULL, &$3); }
		| STDOUT size {
			pbegin()->stdout_cap = $2;
			pcommit(1);
		}
		| STDERR size {
			pbegin()->stderr_cap = $2;
			pcommit(1);
		}
		| WORKSPACE size {
			pbegin()->workspace = $2;
			pcommit(1);
		}
		| TMP size {
			pbegin()->tmp_size = $2;
			pcommit(1);
		}
		| FSIZE size {
			pbegin()->fsize = $2;
			pcommit(1);
		}
		| NOFILE num32 {
			pbegin()->nofile = $2;
			pcommit(1);
		}
		| GRACE time {
			if (msecs(&pbegin()->grace_ms, $2, "grace") == 0)
				pcommit(1);
		}
		;

fsblock		: '{' fslist '}'
		| '{' fslist fsopt '}'
		| '{' fslist error '}'	{ yyerrok; }
		;

fslist		: /* empty */
		| fslist sep
		| fslist fsopt sep
		| fslist error sep	{ yyerrok; }
		;

fsopt		: ROOT string {
			set_pstr(curpol->m.root, sizeof(curpol->m.root), $2,
			    "filesystem root");
		}
		| READ { listctx = L_READ; } names
		| WRITE { listctx = L_WRITE; } names
		| EXEC { listctx = L_EXEC; } names
		| KEEPFAILED {
			pbegin()->keep_failed = 1;
			pcommit(1);
		}
		;

%%

struct keywords {
	const char	*k_name;
	int		 k_val;
};

/* Sorted for bsearch(3). */
static const struct keywords keywords[] = {
	{ "allow",		ALLOW },
	{ "always",		ALWAYS },
	{ "block-all",		BLOCKALL },
	{ "budget",		BUDGET },
	{ "cidr",		CIDR },
	{ "clients",		CLIENTS },
	{ "command",		COMMAND },
	{ "control",		CONTROL },
	{ "cpu",		CPU },
	{ "deny",		DENY },
	{ "egress",		EGRESS },
	{ "env",		ENV },
	{ "exec",		EXEC },
	{ "expose",		EXPOSE },
	{ "filesystem",		FILESYSTEM },
	{ "from",		FROM },
	{ "fsize",		FSIZE },
	{ "grace",		GRACE },
	{ "group",		GROUP },
	{ "history",		HISTORY },
	{ "inbound",		INBOUND },
	{ "include",		INCLUDE },
	{ "interface-prefix",	IFPREFIX },
	{ "keep-failed",	KEEPFAILED },
	{ "keep-workspace",	KEEPWORKSPACE },
	{ "limits",		LIMITS },
	{ "max",		MAX },
	{ "memory",		MEMORY },
	{ "name",		NAME },
	{ "network",		NETWORK },
	{ "never",		NEVER },
	{ "nofile",		NOFILE },
	{ "on-failure",		ONFAILURE },
	{ "pass",		PASS },
	{ "per",		PER },
	{ "permit",		PERMIT },
	{ "pids",		PIDS },
	{ "pin-ceiling",	PINCEILING },
	{ "pin-floor",		PINFLOOR },
	{ "pins",		PINS },
	{ "policy",		POLICY },
	{ "port",		PORT },
	{ "prebuild",		PREBUILD },
	{ "prefix",		PREFIX },
	{ "read",		READ },
	{ "resolver",		RESOLVER },
	{ "restart",		RESTART },
	{ "retention",		RETENTION },
	{ "root",		ROOT },
	{ "secrets",		SECRETS },
	{ "service",		SERVICE },
	{ "set",		SET },
	{ "socket",		SOCKET },
	{ "state-dir",		STATEDIR },
	{ "stderr",		STDERR },
	{ "stdout",		STDOUT },
	{ "subnet",		SUBNET },
	{ "tcp",		TCP },
	{ "timeout",		TIMEOUT },
	{ "tmp",		TMP },
	{ "udp",		UDP },
	{ "uid-range",		UIDRANGE },
	{ "unset",		UNSET },
	{ "uplink",		UPLINK },
	{ "upstream",		UPSTREAM },
	{ "watchdog",		WATCHDOG },
	{ "workspace",		WORKSPACE },
	{ "write",		WRITE }
};

static int
kw_cmp(const void *k, const void *e)
{
	return (strcmp(k, ((const struct keywords *)e)->k_name));
}

static int
lookup(const char *s)
{
	const struct keywords	*p;

	p = bsearch(s, keywords, sizeof(keywords) / sizeof(keywords[0]),
	    sizeof(keywords[0]), kw_cmp);
	return (p != NULL ? p->k_val : STRING);
}

/* A syntax error names the token it stopped at. */
static void
syntax_error(void)
{
	const char	*f = file->name;
	int		 l = yylval.lineno;

	/* At top level a word may begin "name = value". */
	if (lastkind != TK_ERROR && firstkind == TK_WORD && laststmtpos <= 1) {
		parse_warnx("%s:%d: unknown keyword \"%s\"", f, l, firsttext);
		return;
	}
	switch (lastkind) {
	case TK_ERROR:		/* the lexer said why */
		break;
	case TK_KEYWORD:
		if (laststmtpos == 0)
			parse_warnx("%s:%d: \"%s\" is not allowed here", f, l,
			    lasttext);
		else
			parse_warnx("%s:%d: syntax error at \"%s\"", f, l,
			    lasttext);
		break;
	case TK_WORD:
	case TK_QUOTED:
	case TK_NUMBER:
		parse_warnx("%s:%d: syntax error at \"%s\"", f, l, lasttext);
		break;
	case TK_NEWLINE:
		parse_warnx("%s:%d: syntax error at end of line", f, l);
		break;
	case TK_EOF:
		parse_warnx("%s:%d: syntax error at end of file", f, l);
		break;
	case TK_CHAR:
		parse_warnx("%s:%d: syntax error at '%s'", f, l, lasttext);
		break;
	}
}

/* Every error is logged; the first is kept for the reload's reply. */
static void
parse_warnx(const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_warnx("%s", msg);
	if (firsterror[0] == '\0')
		strlcpy(firsterror, msg, sizeof(firsterror));
}

int
yyerror(const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	errors++;
	if (strcmp(fmt, "syntax error") == 0) {
		syntax_error();
		return (0);
	}
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		fatalx("%s: vasprintf", __func__);
	va_end(ap);
	parse_warnx("%s:%d: %s", file->name, yylval.lineno, msg);
	free(msg);
	return (0);
}

static void
lungetc(int c)
{
	int	*p;

	if (c == EOF)
		return;
	if (file->ungetpos >= file->ungetsize) {
		p = reallocarray(file->ungetbuf, file->ungetsize + 64,
		    sizeof(*p));
		if (p == NULL)
			fatal("%s", __func__);
		file->ungetbuf = p;
		file->ungetsize += 64;
	}
	file->ungetbuf[file->ungetpos++] = c;
}

/*
 * The next character: pushed back ones first, then the file.  A file's
 * last line ends with a newline even if the file does not; at the end of
 * an included file reading goes on in the file that included it.
 */
static int
lgetc(int quotec)
{
	int	 c, next;

	for (;;) {
		if (file->ungetpos > 0) {
			c = file->ungetbuf[--file->ungetpos];
			if (c != START_EXPAND && c != DONE_EXPAND)
				return (c);
			file->expanding = c == START_EXPAND;
			continue;
		}
		if ((c = getc(file->stream)) == EOF) {
			if (file->lastc != '\n')
				return (file->lastc = '\n');
			if (quotec || file == topfile || popfile() == EOF)
				return (EOF);
			continue;
		}
		file->lastc = c;
		if (c != '\\' || quotec)
			return (c);
		/* A backslash before a newline joins the lines. */
		if ((next = getc(file->stream)) == '\n') {
			file->lastc = next;
			file->lineno++;
			continue;
		}
		if (next != EOF)
			ungetc(next, file->stream);
		return (c);
	}
}

/* The lexer has reported the error; the parser recovers at ';' or '}'. */
static int
lex_error(void)
{
	lastkind = TK_ERROR;
	return (ERROR);
}

/* Skip the rest of a broken line; the newline still ends the statement. */
static int
findeol(void)
{
	int	 c;

	while ((c = lgetc(0)) != '\n' && c != EOF)
		;
	lungetc(c);
	return (lex_error());
}

/* Skip the rest of an overlong quoted string. */
static int
skip_quoted(int quotec)
{
	int	 c;

	while ((c = lgetc(quotec)) != quotec && c != '\n' && c != EOF)
		;
	if (c != quotec)
		lungetc(c);
	return (lex_error());
}

static int
expand_macro(char *buf, size_t len)
{
	char		*p = buf;
	const char	*val;
	size_t		 n;
	int		 c;

	while ((c = lgetc(0)) != EOF && c < 0x80 && (isalnum(c) || c == '_')) {
		if ((size_t)(p - buf) >= len - 1) {
			yyerror("macro name too long");
			return (-1);
		}
		*p++ = c;
	}
	lungetc(c);
	*p = '\0';
	if (p == buf) {
		yyerror("macro name expected after '$'");
		return (-1);
	}
	if ((val = symget(buf)) == NULL) {
		yyerror("macro \"%s\" not defined", buf);
		return (-1);
	}
	lungetc(DONE_EXPAND);
	for (n = strlen(val); n > 0; n--)
		lungetc((unsigned char)val[n - 1]);
	lungetc(START_EXPAND);
	return (0);
}

/*
 * Token strings live until the parse ends: actions and error recovery
 * need not track who frees them.
 */
struct pstr {
	struct pstr	*next;
	char		 s[];
};
static struct pstr	*strings;

static char *
strpool(const char *s)
{
	struct pstr	*p;
	size_t		 n = strlen(s) + 1;

	if ((p = malloc(sizeof(*p) + n)) == NULL)
		fatal("%s", __func__);
	memcpy(p->s, s, n);
	p->next = strings;
	strings = p;
	return (p->s);
}

static void
strpool_free(void)
{
	struct pstr	*p;

	while ((p = strings) != NULL) {
		strings = p->next;
		free(p);
	}
}

static int
lex_string(char *buf, enum tokkind kind)
{
	lastkind = kind;
	strlcpy(lasttext, buf, sizeof(lasttext));
	yylval.v.string = strpool(buf);
	return (STRING);
}

/* Escapes: \" \' \\ \n \t, and backslash-newline to go on. */
static int
lex_quoted(int quotec, char *buf, size_t len)
{
	char	*p = buf;
	int	 c, next;

	for (;;) {
		if ((c = lgetc(quotec)) == EOF || c == '\n') {
			yyerror("unterminated quoted string");
			lungetc(c);
			return (findeol());
		}
		if (c == quotec)
			break;
		if (c == '\0') {
			yyerror("NUL byte in quoted string");
			return (findeol());
		}
		if (c == '\\') {
			switch (next = lgetc(quotec)) {
			case '\n':
				if (!file->expanding)
					file->lineno++;
				continue;
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case '\\':
			case '"':
			case '\'':
				c = next;
				break;
			default:
				lungetc(next);
			}
		}
		if ((size_t)(p - buf) >= len - 1) {
			yyerror("string too long");
			return (skip_quoted(quotec));
		}
		*p++ = c;
	}
	*p = '\0';
	return (lex_string(buf, TK_QUOTED));
}

static int
ends_number(int c)
{
	return (c == EOF || c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
	    (c != '\0' && strchr(";,{}=#", c) != NULL));
}

static int
in_word(int c)
{
	if (c == EOF || c >= 0x80)
		return (0);
	if (isalnum(c))
		return (1);
	return (ispunct(c) && strchr("(){}!=#,;\"'", c) == NULL);
}

static int
word_start(int c)
{
	return (c != EOF && c < 0x80 &&
	    (isalnum(c) || (c != '\0' && strchr(":_*/.", c) != NULL)));
}

static int
skip_word(void)
{
	int	 c;

	while (in_word(c = lgetc(0)))
		;
	lungetc(c);
	return (lex_error());
}

/* A number, or -1 with everything pushed back if it is a word. */
static int
lex_number(int c, char *buf, size_t len)
{
	char		*p = buf;
	const char	*errstr;

	do {
		if ((size_t)(p - buf) >= len - 1) {
			yyerror("number too long");
			return (skip_word());
		}
		*p++ = c;
	} while ((c = lgetc(0)) != EOF && c < 0x80 && isdigit(c));
	lungetc(c);
	*p = '\0';
	if (strcmp(buf, "-") != 0 && ends_number(c)) {
		strlcpy(lasttext, buf, sizeof(lasttext));
		lastkind = TK_NUMBER;
		yylval.v.number = strtonum(buf, LLONG_MIN, LLONG_MAX, &errstr);
		if (errstr != NULL) {
			yyerror("number %s is %s", buf, errstr);
			return (lex_error());
		}
		return (NUMBER);
	}
	while (p > buf)
		lungetc((unsigned char)*--p);
	return (-1);
}

static int
lex_word(int c, char *buf, size_t len)
{
	char	*p = buf;
	int	 tok;

	do {
		if ((size_t)(p - buf) >= len - 1) {
			yyerror("string too long");
			return (skip_word());
		}
		*p++ = c;
	} while (in_word(c = lgetc(0)));
	lungetc(c);
	*p = '\0';
	if ((tok = lookup(buf)) == STRING)
		return (lex_string(buf, TK_WORD));
	strlcpy(lasttext, buf, sizeof(lasttext));
	lastkind = TK_KEYWORD;
	return (tok);
}

static int
lex_token(void)
{
	char	 buf[LEX_BUFSIZE];
	int	 c, tok;

top:
	while ((c = lgetc(0)) == ' ' || c == '\t' || c == '\r')
		;
	yylval.lineno = file->lineno;
	if (c == '#')
		while ((c = lgetc(0)) != '\n' && c != EOF)
			;
	if (c == '$' && !file->expanding) {
		if (expand_macro(buf, sizeof(buf)) == -1)
			return (lex_error());
		goto top;
	}
	if (c == '"' || c == '\'')
		return (lex_quoted(c, buf, sizeof(buf)));
	if (c == '-' || (c != EOF && c < 0x80 && isdigit(c))) {
		if ((tok = lex_number(c, buf, sizeof(buf))) != -1)
			return (tok);
		c = lgetc(0);
	}
	if (word_start(c))
		return (lex_word(c, buf, sizeof(buf)));
	if (c == '\n' && !file->expanding)
		file->lineno++;
	if (c == EOF) {
		lastkind = TK_EOF;
		return (0);
	}
	if (c == '\0') {
		yyerror("NUL byte in input");
		return (findeol());
	}
	lastkind = c == '\n' ? TK_NEWLINE : TK_CHAR;
	snprintf(lasttext, sizeof(lasttext), c < 0x20 || c >= 0x7f ?
	    "\\x%02x" : "%c", c);
	return (c);
}

/* Remember how statements begin, for error messages. */
int
yylex(void)
{
	int	 tok;

	tok = lex_token();
	if ((laststmtpos = stmtpos) == 0) {
		firstkind = lastkind;
		strlcpy(firsttext, lasttext, sizeof(firsttext));
	}
	if (tok == '\n' || tok == ';' || tok == '{' || tok == '}')
		stmtpos = 0;
	else
		stmtpos++;
	return (tok);
}

static struct file *
pushfile(const char *path, char *err, size_t errlen)
{
	struct file	*nf, *f;
	struct stat	 st;
	FILE		*fp;

	if ((fp = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s", strerror(errno));
		return (NULL);
	}
	if (fstat(fileno(fp), &st) == -1 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		fclose(fp);
		return (NULL);
	}
	TAILQ_FOREACH(f, &files, entry)
		if (f->dev == st.st_dev && f->ino == st.st_ino) {
			snprintf(err, errlen, "include loop");
			fclose(fp);
			return (NULL);
		}
	if ((nf = calloc(1, sizeof(*nf))) == NULL ||
	    (nf->name = strdup(path)) == NULL)
		fatal("%s", __func__);
	nf->stream = fp;
	nf->dev = st.st_dev;
	nf->ino = st.st_ino;
	/* An include starts with a pushed-back newline: see include_file. */
	nf->lineno = TAILQ_EMPTY(&files) ? 1 : 0;
	nf->lastc = '\n';
	TAILQ_INSERT_TAIL(&files, nf, entry);
	return (nf);
}

static int
popfile(void)
{
	struct file	*prev;

	prev = TAILQ_PREV(file, files, entry);
	TAILQ_REMOVE(&files, file, entry);
	fclose(file->stream);
	free(file->name);
	free(file->ungetbuf);
	free(file);
	file = prev;
	return (file != NULL ? 0 : EOF);
}

/* Relative includes are found beside the file that includes them. */
static void
include_file(const char *name)
{
	struct file	*nf;
	const char	*slash;
	char		*path, err[256];
	int		 depth = 0;

	TAILQ_FOREACH(nf, &files, entry)
		depth++;
	slash = strrchr(file->name, '/');
	if (name[0] == '/' || slash == NULL)
		path = strdup(name);
	else if (asprintf(&path, "%.*s/%s", (int)(slash - file->name),
	    file->name, name) == -1)
		path = NULL;
	if (path == NULL)
		fatal("%s", __func__);
	if (depth > MAX_INCLUDE_DEPTH)
		yyerror("include \"%s\": nested more than %d deep", name,
		    MAX_INCLUDE_DEPTH);
	else if ((nf = pushfile(path, err, sizeof(err))) == NULL)
		yyerror("include \"%s\": %s", path, err);
	else {
		file = nf;
		lungetc('\n');
	}
	free(path);
}

static int
macro_name_ok(const char *s)
{
	if (*s == '\0')
		return (0);
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return (0);
	return (1);
}

static void
macro_define(const char *name, const char *val)
{
	if (!macro_name_ok(name))
		yyerror("macro name \"%s\": only letters, digits and '_' "
		    "allowed", name);
	else if (symset(name, val, 0) == -1)
		fatal("%s", __func__);
}

static int
symset(const char *nam, const char *val, int persist)
{
	struct sym	*sym;

	TAILQ_FOREACH(sym, &symhead, entry)
		if (strcmp(nam, sym->nam) == 0)
			break;
	if (sym != NULL) {
		if (sym->persist)
			return (0);
		TAILQ_REMOVE(&symhead, sym, entry);
		free(sym->nam);
		free(sym->val);
		free(sym);
	}
	if ((sym = calloc(1, sizeof(*sym))) == NULL)
		return (-1);
	if ((sym->nam = strdup(nam)) == NULL ||
	    (sym->val = strdup(val)) == NULL) {
		free(sym->nam);
		free(sym);
		return (-1);
	}
	sym->persist = persist;
	TAILQ_INSERT_TAIL(&symhead, sym, entry);
	return (0);
}

/* -D name=value: overrides a definition of the same name in the file. */
int
cmdline_symset(char *s)
{
	char	*val, *nam;
	int	 ret;

	if ((val = strchr(s, '=')) == NULL)
		return (-1);
	if ((nam = strndup(s, val - s)) == NULL)
		return (-1);
	ret = macro_name_ok(nam) ? symset(nam, val + 1, 1) : -1;
	free(nam);
	return (ret);
}

static char *
symget(const char *nam)
{
	struct sym	*sym;

	TAILQ_FOREACH(sym, &symhead, entry)
		if (strcmp(nam, sym->nam) == 0)
			return (sym->val);
	return (NULL);
}

static void
symclear(void)
{
	struct sym	*sym, *next;

	for (sym = TAILQ_FIRST(&symhead); sym != NULL; sym = next) {
		next = TAILQ_NEXT(sym, entry);
		if (sym->persist)
			continue;
		TAILQ_REMOVE(&symhead, sym, entry);
		free(sym->nam);
		free(sym->val);
		free(sym);
	}
}

/*
 * Statements change the config in place; a change that fails its
 * check is reported on its own line and undone, so that later
 * statements are checked against a valid config.
 */
static struct conf_global_msg *
gbegin(void)
{
	gsaved = conf->global;
	return (&conf->global);
}

static int
gcommit(void)
{
	char	 buf[ERRBUF_SIZE];

	if (conf_check_global(&conf->global, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		conf->global = gsaved;
		return (-1);
	}
	return (0);
}

static struct policy_msg *
pbegin(void)
{
	psaved = curpol->m;
	return (&curpol->m);
}

/* Inside the block, timeout and its max may come in either order. */
static int
pcommit(int relax)
{
	struct policy_msg	 p = curpol->m;
	char			 buf[ERRBUF_SIZE];

	if (relax && p.timeout > p.timeout_max)
		p.timeout = p.timeout_max;
	if (conf_check_policy(&p, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		curpol->m = psaved;
		return (-1);
	}
	return (0);
}

static int
copystr(char *dst, size_t dsz, const char *src, const char *what)
{
	if (strlen(src) >= dsz) {
		yyerror("%s \"%.32s...\": too long, at most %zu characters",
		    what, src, dsz - 1);
		return (-1);
	}
	strlcpy(dst, src, dsz);
	return (0);
}

static void
set_gstr(char *field, size_t len, const char *s, const char *what)
{
	gbegin();
	if (copystr(field, len, s, what) == 0)
		gcommit();
}

static void
set_pstr(char *field, size_t len, const char *s, const char *what)
{
	pbegin();
	if (copystr(field, len, s, what) == 0)
		pcommit(1);
}

static int
parse_u64(const char *s, uint64_t *v, char **ep)
{
	if (!isdigit((unsigned char)*s))
		return (-1);
	errno = 0;
	*v = strtoull(s, ep, 10);
	return (errno == ERANGE ? -1 : 0);
}

/* Bytes, or K, M, G, T: powers of 1024. */
static int
parse_size(const char *s, uint64_t *out)
{
	const char	*units = "KMGT", *u;
	uint64_t	 v, mul = 1;
	char		*ep;

	if (parse_u64(s, &v, &ep) == -1 || (*ep != '\0' && (ep[1] != '\0' ||
	    (u = strchr(units, toupper((unsigned char)*ep))) == NULL))) {
		yyerror("\"%s\": bad size, want a number with an optional "
		    "K, M, G or T suffix", s);
		return (-1);
	}
	if (*ep != '\0')
		mul = 1ULL << (10 * (u - units + 1));
	if (v > UINT64_MAX / mul) {
		yyerror("\"%s\": size too large", s);
		return (-1);
	}
	*out = v * mul;
	return (0);
}

/* Milliseconds from seconds, or from ms, s, m or h. */
static int
parse_time(const char *s, uint64_t *ms)
{
	static const struct {
		const char	*sfx;
		uint64_t	 mul;
	} units[] = {
		{ "", 1000 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 },
		{ "h", 3600000 }
	};
	uint64_t	 v;
	size_t		 i;
	char		*ep;

	if (parse_u64(s, &v, &ep) == 0)
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			if (strcmp(ep, units[i].sfx) != 0)
				continue;
			if (v > UINT64_MAX / units[i].mul) {
				yyerror("\"%s\": time too large", s);
				return (-1);
			}
			*ms = v * units[i].mul;
			return (0);
		}
	yyerror("\"%s\": bad time, want a number with an optional ms, s, "
	    "m or h suffix", s);
	return (-1);
}

static int
parse_percent(const char *s, int64_t *out)
{
	uint64_t	 v;
	char		*ep;

	if (parse_u64(s, &v, &ep) == -1 || strcmp(ep, "%") != 0 ||
	    v > UINT32_MAX) {
		yyerror("\"%s\": bad percentage", s);
		return (-1);
	}
	*out = v;
	return (0);
}

static int
secs(uint32_t *field, uint64_t ms, const char *what)
{
	if (ms % 1000 != 0) {
		yyerror("%s: sub-second values are not allowed", what);
		return (-1);
	}
	if (ms / 1000 > UINT32_MAX) {
		yyerror("%s: too large", what);
		return (-1);
	}
	*field = ms / 1000;
	return (0);
}

static int
msecs(uint32_t *field, uint64_t ms, const char *what)
{
	if (ms > UINT32_MAX) {
		yyerror("%s: too large", what);
		return (-1);
	}
	*field = ms;
	return (0);
}

static void
set_timeout(const uint64_t *t, const uint64_t *max)
{
	struct policy_msg	*p = pbegin();

	if ((t != NULL && secs(&p->timeout, *t, "timeout") == -1) ||
	    (max != NULL && secs(&p->timeout_max, *max, "timeout max") == -1)) {
		curpol->m = psaved;
		return;
	}
	pcommit(t == NULL || max == NULL);
}

/* Addresses are numeric; a prefix length is only taken where asked. */
static int
parse_prefix(const char *s, struct conf_prefix *p, int host)
{
	char		 addr[INET6_ADDRSTRLEN];
	const char	*slash, *errstr = NULL;
	size_t		 n;

	memset(p, 0, sizeof(*p));
	slash = strchr(s, '/');
	n = slash != NULL ? (size_t)(slash - s) : strlen(s);
	if (host && slash != NULL) {
		yyerror("\"%s\": an address without /length is required", s);
		return (-1);
	}
	if (n >= sizeof(addr))
		goto bad;
	memcpy(addr, s, n);
	addr[n] = '\0';
	if (inet_pton(AF_INET, addr, &p->addr.v4) == 1)
		p->af = AF_INET;
	else if (inet_pton(AF_INET6, addr, &p->addr.v6) == 1)
		p->af = AF_INET6;
	else
		goto bad;
	p->len = p->af == AF_INET ? 32 : 128;
	if (slash != NULL)
		p->len = strtonum(slash + 1, 0, p->len, &errstr);
	if (errstr == NULL)
		return (0);
 bad:
	yyerror("\"%s\": not an IPv4 or IPv6 address%s", s,
	    host ? "" : " or prefix");
	return (-1);
}

static void
set_prefix(struct conf_prefix *field, const char *s, int host)
{
	struct conf_prefix	 p;

	if (parse_prefix(s, &p, host) == 0) {
		gbegin();
		*field = p;
		gcommit();
	}
}

static void
add_upstream(const char *s, int64_t port)
{
	struct conf_upstream	*u;
	struct upstream_msg	 m;
	char			 buf[ERRBUF_SIZE];

	memset(&m, 0, sizeof(m));
	m.port = port;
	if (parse_prefix(s, &m.addr, 1) == -1)
		return;
	if (conf_check_upstream(&m, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		return;
	}
	TAILQ_FOREACH(u, &conf->upstreams, entry)
		if (memcmp(&u->m, &m, sizeof(m)) == 0) {
			yyerror("upstream %s port %u given twice", s, m.port);
			return;
		}
	if ((u = calloc(1, sizeof(*u))) == NULL)
		fatal("%s", __func__);
	memcpy(&u->m, &m, sizeof(m));
	TAILQ_INSERT_TAIL(&conf->upstreams, u, entry);
}

static int
policy_name(struct policy_msg *p, const char *name)
{
	char	 buf[ERRBUF_SIZE];

	if (copystr(p->name, sizeof(p->name), name, "policy name") == -1)
		return (-1);
	if (conf_check_policy(p, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		return (-1);
	}
	if (conf_policy_find(conf, p->name) != NULL) {
		yyerror("policy \"%s\" defined twice", name);
		return (-1);
	}
	return (0);
}

/* A policy that cannot be kept is still parsed for its errors. */
static void
policy_begin(const char *name)
{
	struct conf_policy	*p;

	if (curpol != NULL && curdetached)
		free(curpol);
	if ((p = calloc(1, sizeof(*p))) == NULL)
		fatal("%s", __func__);
	conf_policy_defaults(&p->m, NULL);
	curpol = p;
	curinbound = INB_NONE;
	curdetached = policy_name(&p->m, name) == -1;
	if (curdetached)
		strlcpy(p->m.name, "invalid", sizeof(p->m.name));
	else
		TAILQ_INSERT_TAIL(&conf->policies, p, entry);
}

static void
check_exposed(void)
{
	struct conf_secret_rule	*e, *r;

	TAILQ_FOREACH(e, &conf->secret_rules, entry) {
		if (e->m.type != SECRET_RULE_EXPOSE ||
		    strcmp(e->m.policy, curpol->m.name) != 0)
			continue;
		TAILQ_FOREACH(r, &conf->secret_rules, entry)
			if (r->m.type == SECRET_RULE_PERMIT &&
			    strcmp(r->m.policy, e->m.policy) == 0 &&
			    strcmp(r->m.name, e->m.name) == 0)
				break;
		if (r == NULL)
			yyerror("policy \"%s\": secret \"%s\" is exposed but "
			    "not permitted", e->m.policy, e->m.name);
	}
}

static void
policy_end(void)
{
	char	 buf[ERRBUF_SIZE];

	if (conf_check_policy(&curpol->m, buf, sizeof(buf)) == -1)
		yyerror("%s", buf);
	if (!curdetached)
		check_exposed();
	else
		free(curpol);
	curpol = NULL;
}

static void
set_restart(int mode, const int64_t *max, const uint64_t *window)
{
	struct policy_msg	*p = pbegin();

	p->restart = mode;
	if (max != NULL) {
		if (*max < 0 || *max > CONF_RESTART_MAX) {
			yyerror("restart max %lld out of range 0-%u",
			    (long long)*max, CONF_RESTART_MAX);
			curpol->m = psaved;
			return;
		}
		p->restart_max = *max;
		if (secs(&p->restart_window, *window, "restart per") == -1) {
			curpol->m = psaved;
			return;
		}
	}
	pcommit(1);
}

static void
set_watchdog(uint64_t ms)
{
	if (secs(&pbegin()->watchdog, ms, "watchdog") == -1)
		curpol->m = psaved;
	else
		pcommit(1);
}

/*
 * service "name" { policy "p"; command "a" "b" }.  A command of one
 * string is split at blanks; of several strings, each is one argument.
 * Neither goes through a shell.
 */
static struct conf_service	*cursvc;
static int			 cursvcstrings;

static void
service_begin(const char *name)
{
	/* A block the parser gave up on never reached service_end. */
	free(cursvc);
	if ((cursvc = calloc(1, sizeof(*cursvc))) == NULL)
		fatal("%s", __func__);
	cursvcstrings = 0;
	copystr(cursvc->m.name, sizeof(cursvc->m.name), name, "service name");
}

static void
service_policy(const char *name)
{
	copystr(cursvc->m.policy, sizeof(cursvc->m.policy), name,
	    "service policy");
}

static void
service_put(const char *a, size_t n)
{
	struct service_msg	*m = &cursvc->m;

	if (n + 1 > sizeof(m->args) - m->args_len) {
		yyerror("service \"%s\": command too long, %zu bytes at most",
		    m->name, sizeof(m->args));
		return;
	}
	memcpy(m->args + m->args_len, a, n);
	m->args[m->args_len + n] = '\0';
	m->args_len += n + 1;
	m->argc++;
}

static void
service_command(void)
{
	if (cursvc->m.argc != 0)
		yyerror("service \"%s\": command given twice",
		    cursvc->m.name);
	cursvc->m.argc = cursvc->m.args_len = 0;
	cursvcstrings = 0;
}

static void
service_arg(const char *a)
{
	cursvcstrings++;
	service_put(a, strlen(a));
}

/* One string with blanks: its words, now that we know it is alone. */
static void
service_split(struct service_msg *m)
{
	char	 one[CONF_SERVICE_ARGS], *w, *save;

	strlcpy(one, m->args, sizeof(one));
	m->argc = m->args_len = 0;
	memset(m->args, 0, sizeof(m->args));
	for (w = strtok_r(one, " \t", &save); w != NULL;
	    w = strtok_r(NULL, " \t", &save))
		service_put(w, strlen(w));
}

static void
service_end(void)
{
	struct conf_service	*s;
	char			 buf[ERRBUF_SIZE];
	int			 n = 0;

	if (cursvcstrings == 1)
		service_split(&cursvc->m);
	TAILQ_FOREACH(s, &conf->services, entry)
		if (n++, strcmp(s->m.name, cursvc->m.name) == 0) {
			yyerror("service \"%s\" defined twice",
			    cursvc->m.name);
			break;
		}
	if (s == NULL && conf_check_service(&cursvc->m, buf,
	    sizeof(buf)) == -1)
		yyerror("%s", buf);
	if (s == NULL && n >= CONF_SERVICES_MAX)
		yyerror("more than %d services", CONF_SERVICES_MAX);
	TAILQ_INSERT_TAIL(&conf->services, cursvc, entry);
	cursvc = NULL;
}

/* Policies may come after the services that name them. */
static void
services_check(struct sandboxd_conf *c, const char *topname)
{
	struct conf_service	*s;

	/* "" is "default", which is there by now or will be. */
	TAILQ_FOREACH(s, &c->services, entry)
		if (s->m.policy[0] != '\0' &&
		    conf_policy_find(c, s->m.policy) == NULL) {
			parse_warnx("%s: service \"%s\": no such policy \"%s\"",
			    topname, s->m.name, s->m.policy);
			errors++;
		}
}

static void
set_inbound(enum inbound_seen kind)
{
	if (curinbound != INB_NONE && curinbound != kind) {
		yyerror("conflicting inbound statements in policy \"%s\"",
		    curpol->m.name);
		return;
	}
	curinbound = kind;
	pbegin()->inbound = kind == INB_DENY ? INBOUND_DENY : INBOUND_ALLOW;
	pcommit(1);
}

static void
add_net(struct net_rule_msg *m)
{
	struct conf_net_rule	*r;
	char			 buf[ERRBUF_SIZE];

	strlcpy(m->policy, curpol->m.name, sizeof(m->policy));
	if (conf_check_net_rule(m, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		return;
	}
	TAILQ_FOREACH(r, &conf->net_rules, entry)
		if (!curdetached && memcmp(&r->m, m, sizeof(*m)) == 0) {
			yyerror("rule given twice in policy \"%s\"",
			    m->policy);
			return;
		}
	if ((r = calloc(1, sizeof(*r))) == NULL)
		fatal("%s", __func__);
	memcpy(&r->m, m, sizeof(*m));
	TAILQ_INSERT_TAIL(&conf->net_rules, r, entry);
}

static void
add_host(const char *s, int64_t port, int64_t proto)
{
	struct net_rule_msg	 m;

	memset(&m, 0, sizeof(m));
	m.type = NET_RULE_HOST;
	m.port = port;
	m.proto = proto;
	if (parse_prefix(s, &m.prefix, 1) == 0)
		add_net(&m);
}

static void
add_cidr(uint32_t type, const char *s)
{
	struct net_rule_msg	 m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	if (parse_prefix(s, &m.prefix, 0) == 0)
		add_net(&m);
}

/* Names are stored lowercase and without a trailing dot. */
static void
add_name(const char *s, int64_t port, int64_t proto)
{
	struct net_rule_msg	 m;
	char			 buf[ERRBUF_SIZE];
	size_t			 i, n = strlen(s);

	memset(&m, 0, sizeof(m));
	m.type = NET_RULE_NAME;
	m.port = port;
	m.proto = proto;
	if (n > 1 && s[n - 1] == '.')
		n--;
	if (n >= sizeof(m.name))
		yyerror("allow name \"%.32s...\": too long", s);
	else {
		for (i = 0; i < n; i++)
			m.name[i] = tolower((unsigned char)s[i]);
		if (conf_check_dnsname(m.name, buf, sizeof(buf)) == -1)
			yyerror("allow name \"%s\": %s", s, buf);
		else
			add_net(&m);
	}
}

static void
add_env_msg(struct env_rule_msg *m)
{
	struct conf_env_rule	*r;
	char			 buf[ERRBUF_SIZE];

	if (conf_check_env_rule(m, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		return;
	}
	TAILQ_FOREACH(r, &conf->env_rules, entry)
		if ((r->m.type == ENV_RULE_SYSTEM) ==
		    (m->type == ENV_RULE_SYSTEM) && !curdetached &&
		    strcmp(r->m.policy, m->policy) == 0 &&
		    strcmp(r->m.key, m->key) == 0) {
			yyerror("env \"%s\": given twice%s%s%s", m->key,
			    *m->policy ? " in policy \"" : "", m->policy,
			    *m->policy ? "\"" : "");
			return;
		}
	if ((r = calloc(1, sizeof(*r))) == NULL)
		fatal("%s", __func__);
	memcpy(&r->m, m, sizeof(*m));
	TAILQ_INSERT_TAIL(&conf->env_rules, r, entry);
}

static void
add_env(uint32_t type, const char *key, const char *val)
{
	struct env_rule_msg	 m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	if (type != ENV_RULE_SYSTEM)
		strlcpy(m.policy, curpol->m.name, sizeof(m.policy));
	if (copystr(m.key, sizeof(m.key), key, "env key") == 0 &&
	    (val == NULL ||
	    copystr(m.value, sizeof(m.value), val, "env value") == 0))
		add_env_msg(&m);
}

static void
add_secret(uint32_t type, const char *name)
{
	struct conf_secret_rule	*r;
	struct secret_rule_msg	 m;
	char			 buf[ERRBUF_SIZE];

	memset(&m, 0, sizeof(m));
	m.type = type;
	strlcpy(m.policy, curpol->m.name, sizeof(m.policy));
	if (copystr(m.name, sizeof(m.name), name, "secret") == -1)
		return;
	if (conf_check_secret_rule(&m, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		return;
	}
	TAILQ_FOREACH(r, &conf->secret_rules, entry)
		if (!curdetached && memcmp(&r->m, &m, sizeof(m)) == 0) {
			yyerror("secret \"%s\": given twice", name);
			return;
		}
	if ((r = calloc(1, sizeof(*r))) == NULL)
		fatal("%s", __func__);
	memcpy(&r->m, &m, sizeof(m));
	TAILQ_INSERT_TAIL(&conf->secret_rules, r, entry);
}

static void
add_fs(uint32_t type, const char *path)
{
	struct conf_fs_rule	*r;
	struct fs_rule_msg	 m;
	char			 buf[ERRBUF_SIZE];

	memset(&m, 0, sizeof(m));
	m.type = type;
	strlcpy(m.policy, curpol->m.name, sizeof(m.policy));
	if (copystr(m.path, sizeof(m.path), path, "filesystem path") == -1)
		return;
	if (conf_check_fs_rule(&m, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		return;
	}
	TAILQ_FOREACH(r, &conf->fs_rules, entry)
		if (!curdetached && memcmp(&r->m, &m, sizeof(m)) == 0) {
			yyerror("path \"%s\": given twice", path);
			return;
		}
	if ((r = calloc(1, sizeof(*r))) == NULL)
		fatal("%s", __func__);
	memcpy(&r->m, &m, sizeof(m));
	TAILQ_INSERT_TAIL(&conf->fs_rules, r, entry);
}

static void
add_listitem(const char *s)
{
	switch (listctx) {
	case L_SYSENV:
		add_env(ENV_RULE_SYSTEM, s, NULL);
		break;
	case L_PASS:
		add_env(ENV_RULE_PASS, s, NULL);
		break;
	case L_UNSET:
		add_env(ENV_RULE_UNSET, s, NULL);
		break;
	case L_PERMIT:
		add_secret(SECRET_RULE_PERMIT, s);
		break;
	case L_EXPOSE:
		add_secret(SECRET_RULE_EXPOSE, s);
		break;
	case L_READ:
		add_fs(FS_RULE_READ, s);
		break;
	case L_WRITE:
		add_fs(FS_RULE_WRITE, s);
		break;
	case L_EXEC:
		add_fs(FS_RULE_EXEC, s);
		break;
	}
}

static void
parse_reset(void)
{
	errors = 0;
	firsterror[0] = '\0';
	curpol = NULL;
	curdetached = 0;
	lastkind = TK_NEWLINE;
	stmtpos = 0;
}

/* After a NULL from parse_config: its first error, and how many more. */
void
parse_config_error(char *buf, size_t len)
{
	if (firsterror[0] == '\0')
		strlcpy(buf, "the configuration has errors", len);
	else if (errors > 1)
		snprintf(buf, len, "%s (and %d more error%s)", firsterror,
		    errors - 1, errors > 2 ? "s" : "");
	else
		strlcpy(buf, firsterror, len);
}

/* NULL after reporting every error, else a complete config. */
struct sandboxd_conf *
parse_config(const char *filename, int flags)
{
	struct sandboxd_conf	*c;
	char			 err[256];

	parse_reset();
	if ((conf = conf_new()) == NULL) {
		log_warn("%s", __func__);
		return (NULL);
	}
	if ((file = pushfile(filename, err, sizeof(err))) == NULL) {
		parse_warnx("%s: %s", filename, err);
		conf_free(conf);
		conf = NULL;
		return (NULL);
	}
	topfile = file;
	if (yyparse() != 0 && errors == 0)
		errors++;
	while (file != NULL)
		popfile();
	topfile = NULL;
	if (curpol != NULL && curdetached)
		free(curpol);
	curpol = NULL;
	free(cursvc);
	cursvc = NULL;
	symclear();
	strpool_free();
	c = conf;
	if (errors == 0 && conf_ensure_default_policy(c) == -1) {
		log_warn("%s", __func__);
		errors++;
	}
	services_check(c, filename);
	if (errors == 0 && c->global.pin_floor > c->global.pin_ceiling)
		log_warnx("%s: pin-floor %us is above pin-ceiling %us: pins "
		    "last %us at most", filename, c->global.pin_floor,
		    c->global.pin_ceiling, c->global.pin_ceiling);
	conf = NULL;
	if (errors != 0) {
		conf_free(c);
		return (NULL);
	}
	return (c);
}
