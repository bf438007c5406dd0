/*
 * Drives netd's datapath library (cmd/netd) for the tests in this
 * directory, as netd itself will: one long-lived process that holds
 * the identities and the registry of what it programmed.
 *
 * usage:
 *	netd_test selftest			identity unit tests, TAP
 *	netd_test serve SOCK [key=value...]	the library behind SOCK
 *	    subnet=A/N prefix=P resolver=A uplink=IF
 *	    without=nft-destroy,nft-owner (as netd -x: the pre-6.3 deletions,
 *	    a table not owned)
 *	netd_test -s SOCK command [args...]	one command to the server
 *	netd_test bench [dp|link] [iters=K] [without=F] N...
 *						add+del time at N live
 *
 * Commands: init; add ID NETNS|-|tap:UID [policy...]; del ID (down and
 * reap); down ID; reap;
 * pin ID ADDR PORT tcp|udp TTL; pins ID ADDR,PORT,PROTO,TTL...;
 * show ID; counter ID; ident ID; reconcile [ID...]; elements;
 * ctcount ADDR; churn-add N [policy...]; churn-del; quit.
 * A policy is egress=allow|deny block-all inbound=allow|deny
 * from=CIDR host=ADDR:PORT[/udp] host=[ADDR6]:PORT cidr=CIDR
 * name=NAME:PORT[/udp].
 *
 * Only this driver enters namespaces (to open a NETLINK_ROUTE socket
 * inside a sandbox's netns, as runnerd would); the library takes fds.
 */
#include "../../cmd/netd/params.c"
#include "../../cmd/netd/nl.c"
#include "../../cmd/netd/nft.c"
#include "../../cmd/netd/ident.c"
#include "../../cmd/netd/datapath.c"
#include "../../cmd/netd/dp_rule.c"
#include "../../cmd/netd/dp_elem.c"
#include "../../cmd/netd/dp_sandbox.c"
#include "../../cmd/netd/dp_policy.c"
#include "../../cmd/netd/dp_pin.c"
#include "../../cmd/netd/dp_held.c"
#include "../../cmd/netd/dp_scan.c"
#include "../../cmd/netd/dp_del.c"
#include "../../cmd/netd/dp_show.c"
#include "../../cmd/netd/link.c"
#include "../../cmd/netd/ct.c"
#include "../../cmd/netd/sandbox.c"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <err.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <syslog.h>
#include "../lib/tap.h"

#define MAX_RULES	64
#define MAX_ARGS	512
#define REQ_MAX		(64 * 1024)
#define SHOW_MAX	(64 * 1024)

struct policy {
	struct policy_msg	 pol;
	struct net_rule_msg	 rules[MAX_RULES];
	size_t			 nrules;
};

struct churned {
	char	 id[NETD_ID_LEN + 1];
	int	 nsfd;		/* holds the netns, as a sandbox would */
};

static struct netd	*nd;
static struct netd_params params;
static struct churned	*churn;
static size_t		 nchurn;
static unsigned int	 churn_seq;


static int
parse_prefix(const char *s, struct conf_prefix *p, int host)
{
	char		 buf[INET6_ADDRSTRLEN + 8], *slash;
	const char	*err;
	long long	 len;

	memset(p, 0, sizeof(*p));
	strlcpy(buf, s, sizeof(buf));
	if ((slash = strchr(buf, '/')) != NULL)
		*slash++ = '\0';
	if (inet_pton(AF_INET, buf, &p->addr.v4) == 1)
		p->af = AF_INET;
	else if (inet_pton(AF_INET6, buf, &p->addr.v6) == 1)
		p->af = AF_INET6;
	else
		return (-1);
	p->len = p->af == AF_INET ? 32 : 128;
	if (slash != NULL) {
		if (host)
			return (-1);
		len = strtonum(slash, 0, p->len, &err);
		if (err != NULL)
			return (-1);
		p->len = len;
	}
	return (0);
}

/* ADDR:PORT[/proto] or [ADDR6]:PORT[/proto] */
static int
parse_hostport(const char *s, struct net_rule_msg *r, int name)
{
	char		 buf[CONF_DNSNAME_SIZE + 32], *port, *proto, *a;
	const char	*err;

	strlcpy(buf, s, sizeof(buf));
	r->proto = IPPROTO_TCP;
	if ((proto = strchr(buf, '/')) != NULL) {
		*proto++ = '\0';
		if (strcmp(proto, "udp") == 0)
			r->proto = IPPROTO_UDP;
		else if (strcmp(proto, "tcp") != 0)
			return (-1);
	}
	if ((port = strrchr(buf, ':')) == NULL)
		return (-1);
	*port++ = '\0';
	r->port = strtonum(port, 1, 65535, &err);
	if (err != NULL)
		return (-1);
	a = buf;
	if (*a == '[' && a[strlen(a) - 1] == ']') {
		a[strlen(a) - 1] = '\0';
		a++;
	}
	if (name) {
		strlcpy(r->name, a, sizeof(r->name));
		return (0);
	}
	return (parse_prefix(a, &r->prefix, 1));
}

static int
parse_rule(struct policy *p, const char *k, const char *v)
{
	struct net_rule_msg	*r;
	char			 err[256];

	if (p->nrules == MAX_RULES)
		return (-1);
	r = &p->rules[p->nrules];
	memset(r, 0, sizeof(*r));
	strlcpy(r->policy, p->pol.name, sizeof(r->policy));
	if (strcmp(k, "host") == 0) {
		r->type = NET_RULE_HOST;
		if (parse_hostport(v, r, 0) == -1)
			return (-1);
	} else if (strcmp(k, "name") == 0) {
		r->type = NET_RULE_NAME;
		if (parse_hostport(v, r, 1) == -1)
			return (-1);
	} else if (strcmp(k, "cidr") == 0 || strcmp(k, "from") == 0) {
		r->type = k[0] == 'c' ? NET_RULE_CIDR : NET_RULE_INBOUND_FROM;
		if (parse_prefix(v, &r->prefix, 0) == -1)
			return (-1);
		if (r->type == NET_RULE_INBOUND_FROM)
			p->pol.inbound = INBOUND_ALLOW;
	} else
		return (-1);
	/* The config parser's own check: fail closed on anything odd. */
	if (conf_check_net_rule(r, err, sizeof(err)) == -1) {
		log_warnx("%s: %s=%s: %s", __func__, k, v, err);
		return (-1);
	}
	p->nrules++;
	return (0);
}

static int
parse_policy(int argc, char **argv, struct policy *p)
{
	char	 kv[512], *v;
	int	 i;

	memset(p, 0, sizeof(*p));
	conf_policy_defaults(&p->pol, "test");
	p->pol.has_network = 1;
	for (i = 0; i < argc; i++) {
		strlcpy(kv, argv[i], sizeof(kv));
		if (strcmp(kv, "block-all") == 0) {
			p->pol.block_all = 1;
			continue;
		}
		if ((v = strchr(kv, '=')) == NULL)
			return (-1);
		*v++ = '\0';
		if (strcmp(kv, "egress") == 0)
			p->pol.egress = strcmp(v, "allow") == 0 ?
			    EGRESS_ALLOW : EGRESS_DENY;
		else if (strcmp(kv, "inbound") == 0)
			p->pol.inbound = strcmp(v, "allow") == 0 ?
			    INBOUND_ALLOW : INBOUND_DENY;
		else if (parse_rule(p, kv, v) == -1)
			return (-1);
	}
	return (0);
}

/* A NETLINK_ROUTE socket opened inside the netns of nsfd. */
static int
guest_socket(int nsfd)
{
	int	 self, fd = -1;

	if ((self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	if (setns(nsfd, CLONE_NEWNET) == 0) {
		fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
		    NETLINK_ROUTE);
		if (setns(self, CLONE_NEWNET) == -1)
			fatal("%s: setns back", __func__);
	}
	close(self);
	return (fd);
}

/* A fresh netns: its fd, and a route socket inside it. */
static int
fresh_netns(int *guestfd)
{
	int	 self, nsfd = -1;

	if ((self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	if (unshare(CLONE_NEWNET) == 0) {
		nsfd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		*guestfd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
		    NETLINK_ROUTE);
		if (setns(self, CLONE_NEWNET) == -1)
			fatal("%s: setns back", __func__);
	}
	close(self);
	return (nsfd);
}

static void
print_ident(FILE *out, const struct netd_ident *ni)
{
	char		 a[INET6_ADDRSTRLEN];
	const uint8_t	*m = ni->guest_mac;

	fprintf(out, "id=%s\nifname=%s\nslot=%u\n", ni->id, ni->ifname,
	    ni->slot);
	fprintf(out, "guest=%s\n", inet_ntop(AF_INET, &ni->guest, a,
	    sizeof(a)));
	fprintf(out, "gw=%s\n", inet_ntop(AF_INET, &ni->gw, a, sizeof(a)));
	fprintf(out, "guest6=%s\n", inet_ntop(AF_INET6, &ni->guest6, a,
	    sizeof(a)));
	fprintf(out, "gw6=%s\n", inet_ntop(AF_INET6, &ni->gw6, a, sizeof(a)));
	fprintf(out, "mac=%02x:%02x:%02x:%02x:%02x:%02x\n", m[0], m[1], m[2],
	    m[3], m[4], m[5]);
	m = ni->host_mac;
	fprintf(out, "hostmac=%02x:%02x:%02x:%02x:%02x:%02x\n", m[0], m[1],
	    m[2], m[3], m[4], m[5]);
}

static int
cmd_add(FILE *out, int argc, char **argv)
{
	struct policy		 p;
	struct netd_ident	 ni;
	const char		*err;
	uid_t			 uid;
	int			 nsfd = -1, gfd = -1, tunfd = -1, rc;

	if (argc < 2 || parse_policy(argc - 2, argv + 2, &p) == -1) {
		fprintf(out, "add: bad arguments\n");
		return (-1);
	}
	if (strncmp(argv[1], "tap:", 4) == 0) {
		uid = strtonum(argv[1] + 4, 0, UINT_MAX, &err);
		if (err != NULL || (tunfd = open("/dev/net/tun",
		    O_RDWR | O_CLOEXEC)) == -1) {
			fprintf(out, "add: tap: %s\n", err ? err :
			    strerror(errno));
			return (-1);
		}
		rc = netd_sandbox_tap(nd, argv[0], &p.pol, p.rules, p.nrules,
		    tunfd, uid, &ni);
		close(tunfd);
	} else {
		if (strcmp(argv[1], "-") != 0) {
			if ((nsfd = open(argv[1], O_RDONLY | O_CLOEXEC)) ==
			    -1 || (gfd = guest_socket(nsfd)) == -1) {
				fprintf(out, "add: %s: %s\n", argv[1],
				    strerror(errno));
				if (nsfd != -1)
					close(nsfd);
				return (-1);
			}
		}
		rc = netd_sandbox_up(nd, argv[0], &p.pol, p.rules, p.nrules,
		    nsfd, gfd, &ni);
		if (nsfd != -1)
			close(nsfd);
		if (gfd != -1)
			close(gfd);
	}
	if (rc == -1) {
		fprintf(out, "add: %s\n", strerror(errno));
		return (-1);
	}
	print_ident(out, &ni);
	return (0);
}

static const struct netd_ident *
find_ident(FILE *out, const char *id)
{
	const struct netd_ident	*ni;

	if ((ni = ident_find(netd_pool(nd), id)) == NULL)
		fprintf(out, "%s: no such sandbox\n", id);
	return (ni);
}

static int
parse_pin(const char *addr, const char *port, const char *proto,
    const char *ttl, struct netd_pin *pin)
{
	const char	*err, *err2;

	memset(pin, 0, sizeof(*pin));
	if (inet_pton(AF_INET, addr, &pin->addr.v4) == 1)
		pin->af = AF_INET;
	else if (inet_pton(AF_INET6, addr, &pin->addr.v6) == 1)
		pin->af = AF_INET6;
	else
		return (-1);
	pin->proto = strcmp(proto, "udp") == 0 ? IPPROTO_UDP : IPPROTO_TCP;
	pin->port = strtonum(port, 1, 65535, &err);
	pin->ttl = strtonum(ttl, 1, 86400, &err2);
	return (err == NULL && err2 == NULL ? 0 : -1);
}

static int
cmd_pins(FILE *out, int argc, char **argv, int one)
{
	const struct netd_ident	*ni;
	struct netd_pin		 pins[MAX_ARGS];
	char			 buf[256], *f[4];
	int			 i, n = 0, j;

	if (argc < 2 || (ni = find_ident(out, argv[0])) == NULL)
		return (-1);
	if (one) {
		if (argc != 5 || parse_pin(argv[1], argv[2], argv[3], argv[4],
		    &pins[0]) == -1)
			return (-1);
		return (dp_pin_add(netd_dp(nd), ni->ifname, &pins[0]));
	}
	for (i = 1; i < argc && n < MAX_ARGS; i++) {
		strlcpy(buf, argv[i], sizeof(buf));
		f[0] = buf;
		for (j = 1; j < 4; j++)
			if (f[j - 1] == NULL || (f[j] = strchr(f[j - 1],
			    ',')) == NULL)
				return (-1);
			else
				*f[j]++ = '\0';
		if (parse_pin(f[0], f[1], f[2], f[3], &pins[n++]) == -1)
			return (-1);
	}
	return (dp_pin_batch(netd_dp(nd), ni->ifname, pins, n));
}

static int
cmd_show(FILE *out, const char *id)
{
	const struct netd_ident	*ni;
	static char		 buf[SHOW_MAX];

	if ((ni = find_ident(out, id)) == NULL)
		return (-1);
	if (dp_show(netd_dp(nd), ni->ifname, buf, sizeof(buf)) == -1) {
		fprintf(out, "show: %s\n", strerror(errno));
		return (-1);
	}
	fputs(buf, out);
	return (0);
}

static int
cmd_counter(FILE *out, const char *id)
{
	const struct netd_ident	*ni;
	uint64_t		 pkts, bytes;

	if ((ni = find_ident(out, id)) == NULL ||
	    dp_counter_read(netd_dp(nd), ni->ifname, &pkts, &bytes) == -1)
		return (-1);
	fprintf(out, "packets %llu bytes %llu\n", (unsigned long long)pkts,
	    (unsigned long long)bytes);
	return (0);
}

struct owned_ids {
	int	 argc;
	char	**argv;
};

/* Owned: the name an id on the command line would get, or holds now. */
static int
owned_cb(const char *ifname, void *arg)
{
	struct owned_ids	*o = arg;
	const struct netd_ident	*ni;
	char			 want[IFNAMSIZ];
	int			 i;

	for (i = 0; i < o->argc; i++) {
		if ((ni = ident_find(netd_pool(nd), o->argv[i])) != NULL &&
		    strcmp(ni->ifname, ifname) == 0)
			return (1);
		snprintf(want, sizeof(want), "%s%.8s", params.ifprefix,
		    o->argv[i]);
		if (strcmp(want, ifname) == 0)
			return (1);
	}
	return (0);
}

static int
elements_cb(struct dp *dp, const struct dp_elem *e, void *arg)
{
	FILE	*out = arg;
	char	 ifname[IFNAMSIZ];
	int	 i;

	dp_elem_ifname(e, ifname);
	fprintf(out, "element %s %s ", dp_sets[e->set].name, ifname);
	for (i = DP_IFLEN; i < e->klen; i++)
		fprintf(out, "%02x", e->key[i]);
	fprintf(out, "\n");
	return (0);
}

static int
counters_cb(struct dp *dp, const char *name, uint64_t pkts, uint64_t bytes,
    void *arg)
{
	fprintf(arg, "counter %s %llu %llu\n", name,
	    (unsigned long long)pkts, (unsigned long long)bytes);
	return (0);
}

/* Everything of ours in the kernel, one line each. */
static int
cmd_elements(FILE *out)
{
	int	 set;

	for (set = 0; set < DS_MAX; set++)
		if (dp_dump_set(netd_dp(nd), set, elements_cb, out) == -1)
			return (-1);
	return (dp_dump_counters(netd_dp(nd), counters_cb, out));
}

static int
cmd_ctcount(FILE *out, const char *addr)
{
	uint8_t	 a[16];
	int	 n, af = strchr(addr, ':') ? AF_INET6 : AF_INET;

	if (inet_pton(af, addr, a) != 1 || (n = ct_count_addr(af, a)) == -1)
		return (-1);
	fprintf(out, "%d\n", n);
	return (0);
}

/* n sandboxes, each with a netns of its own, a veth and a policy. */
static int
cmd_churn_add(FILE *out, int argc, char **argv)
{
	struct policy	 p;
	struct churned	*v;
	const char	*err;
	int		 n, i, nsfd, gfd, rc;

	n = argc > 0 ? strtonum(argv[0], 1, 100000, &err) : 0;
	if (n == 0 || parse_policy(argc - 1, argv + 1, &p) == -1)
		return (-1);
	if ((v = reallocarray(churn, nchurn + n, sizeof(*v))) == NULL)
		return (-1);
	churn = v;
	for (i = 0; i < n; i++) {
		snprintf(churn[nchurn].id, sizeof(churn[nchurn].id),
		    "c%07x%08x", ++churn_seq, arc4random());
		if ((nsfd = fresh_netns(&gfd)) == -1) {
			fprintf(out, "netns: %s\n", strerror(errno));
			return (-1);
		}
		rc = netd_sandbox_up(nd, churn[nchurn].id, &p.pol, p.rules,
		    p.nrules, nsfd, gfd, NULL);
		close(gfd);
		if (rc == -1) {
			close(nsfd);
			fprintf(out, "up %d: %s\n", i, strerror(errno));
			return (-1);
		}
		churn[nchurn++].nsfd = nsfd;
	}
	fprintf(out, "%zu live\n", nchurn);
	return (0);
}

static int
cmd_churn_del(FILE *out)
{
	int	 rc = 0;

	while (nchurn > 0) {
		nchurn--;
		if (netd_sandbox_down(nd, churn[nchurn].id) == -1)
			rc = -1;
		close(churn[nchurn].nsfd);
	}
	if (netd_reap(nd) == -1)
		rc = -1;
	fprintf(out, "%zu live\n", nchurn);
	return (rc);
}

static int
run_command(FILE *out, int argc, char **argv)
{
	const struct netd_ident	*ni;
	struct owned_ids	 o;
	const char		*c = argv[0];

	argc--;
	argv++;
	if (strcmp(c, "init") == 0)
		return (netd_table_init(nd));
	if (strcmp(c, "add") == 0)
		return (cmd_add(out, argc, argv));
	if (strcmp(c, "del") == 0 && argc == 1)
		return (netd_sandbox_down(nd, argv[0]) == -1 ? -1 :
		    netd_reap(nd));
	if (strcmp(c, "down") == 0 && argc == 1)
		return (netd_sandbox_down(nd, argv[0]));
	if (strcmp(c, "reap") == 0)
		return (netd_reap(nd));
	if (strcmp(c, "pin") == 0 || strcmp(c, "pins") == 0)
		return (cmd_pins(out, argc, argv, c[3] == '\0'));
	if (strcmp(c, "show") == 0 && argc == 1)
		return (cmd_show(out, argv[0]));
	if (strcmp(c, "counter") == 0 && argc == 1)
		return (cmd_counter(out, argv[0]));
	if (strcmp(c, "ident") == 0 && argc == 1) {
		if ((ni = find_ident(out, argv[0])) == NULL)
			return (-1);
		print_ident(out, ni);
		return (0);
	}
	if (strcmp(c, "reconcile") == 0) {
		o.argc = argc;
		o.argv = argv;
		return (netd_reconcile(nd, owned_cb, &o));
	}
	if (strcmp(c, "elements") == 0)
		return (cmd_elements(out));
	if (strcmp(c, "ctcount") == 0 && argc == 1)
		return (cmd_ctcount(out, argv[0]));
	if (strcmp(c, "churn-add") == 0)
		return (cmd_churn_add(out, argc, argv));
	if (strcmp(c, "churn-del") == 0)
		return (cmd_churn_del(out));
	fprintf(out, "%s: unknown command or arguments\n", c);
	return (-1);
}

static int
read_all(int fd, char *buf, size_t size)
{
	size_t	 off = 0;
	ssize_t	 n;

	while (off < size && (n = read(fd, buf + off, size - off)) != 0) {
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		off += n;
	}
	return (off);
}

static int
write_all(int fd, const char *buf, size_t len)
{
	ssize_t	 n;

	while (len > 0) {
		if ((n = write(fd, buf, len)) == -1) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		buf += n;
		len -= n;
	}
	return (0);
}

/* A request is the arguments, each NUL-terminated; the reply a status
 * byte and the output. */
static int
serve_one(int c)
{
	static char	 req[REQ_MAX];
	char		*argv[MAX_ARGS], *p, *out = NULL;
	size_t		 outlen = 0;
	FILE		*f;
	int		 n, argc = 0, rc, quit = 0;
	char		 status;

	if ((n = read_all(c, req, sizeof(req) - 1)) <= 0)
		return (0);
	req[n] = '\0';
	for (p = req; p < req + n && argc < MAX_ARGS - 1; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	if ((f = open_memstream(&out, &outlen)) == NULL)
		fatal("open_memstream");
	if (argc == 0)
		rc = -1;
	else if (strcmp(argv[0], "quit") == 0) {
		rc = 0;
		quit = 1;
	} else {
		errno = 0;
		rc = run_command(f, argc, argv);
		if (rc == -1 && errno != 0)
			fprintf(f, "%s: %s\n", argv[0], strerror(errno));
	}
	fclose(f);
	status = rc == 0 ? 0 : 1;
	(void)write_all(c, &status, 1);
	(void)write_all(c, out, outlen);
	free(out);
	return (quit);
}

static int
unix_addr(const char *path, struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (strlcpy(sun->sun_path, path, sizeof(sun->sun_path)) >=
	    sizeof(sun->sun_path)) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	return (0);
}

static int
parse_params(int argc, char **argv, struct netd_params *p)
{
	struct conf_prefix	 pf;
	char			 kv[256], *v;
	int			 i;

	memset(p, 0, sizeof(*p));
	inet_pton(AF_INET, "10.200.0.0", &p->subnet);
	p->subnet_len = 16;
	inet_pton(AF_INET, "169.254.1.1", &p->resolver);
	strlcpy(p->ifprefix, "sbx", sizeof(p->ifprefix));
	for (i = 0; i < argc; i++) {
		strlcpy(kv, argv[i], sizeof(kv));
		if ((v = strchr(kv, '=')) == NULL)
			return (-1);
		*v++ = '\0';
		if (strcmp(kv, "subnet") == 0) {
			if (parse_prefix(v, &pf, 0) == -1 || pf.af != AF_INET)
				return (-1);
			p->subnet = pf.addr.v4;
			p->subnet_len = pf.len;
		} else if (strcmp(kv, "resolver") == 0) {
			if (inet_pton(AF_INET, v, &p->resolver) != 1)
				return (-1);
		} else if (strcmp(kv, "prefix") == 0)
			strlcpy(p->ifprefix, v, sizeof(p->ifprefix));
		else if (strcmp(kv, "uplink") == 0)
			strlcpy(p->uplink, v, sizeof(p->uplink));
		else if (strcmp(kv, "without") == 0) {
			if (nft_without(v) == -1)
				return (-1);
		} else
			return (-1);
	}
	return (0);
}

static int
serve(const char *path, int argc, char **argv)
{
	struct sockaddr_un	 sun;
	int			 s, c, quit = 0;

	if (parse_params(argc, argv, &params) == -1)
		fatalx("bad parameters");
	if ((nd = netd_new(&params)) == NULL)
		fatalx("netd_new failed");
	if (unix_addr(path, &sun) == -1 ||
	    (s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		fatal("%s", path);
	unlink(path);
	if (bind(s, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    listen(s, 16) == -1)
		fatal("%s", path);
	signal(SIGPIPE, SIG_IGN);
	log_info("serving on %s", path);
	while (!quit) {
		if ((c = accept4(s, NULL, NULL, SOCK_CLOEXEC)) == -1) {
			if (errno == EINTR)
				continue;
			fatal("accept");
		}
		quit = serve_one(c);
		close(c);
	}
	netd_free(nd);
	unlink(path);
	return (0);
}

static int
client(const char *path, int argc, char **argv)
{
	struct sockaddr_un	 sun;
	static char		 buf[1024 * 1024];
	int			 s, i, n;

	if (unix_addr(path, &sun) == -1 ||
	    (s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1 ||
	    connect(s, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		err(2, "%s", path);
	for (i = 0; i < argc; i++)
		if (write_all(s, argv[i], strlen(argv[i]) + 1) == -1)
			err(2, "write");
	shutdown(s, SHUT_WR);
	if ((n = read_all(s, buf, sizeof(buf))) <= 0)
		errx(2, "no reply");
	fwrite(buf + 1, 1, n - 1, stdout);
	return (buf[0]);
}

static void
selftest_small(struct netd_params p)
{
	struct ident_pool	*pool;
	struct netd_ident	 a, b, c;
	int			 rc;

	inet_pton(AF_INET, "10.201.0.0", &p.subnet);
	p.subnet_len = 29;
	pool = ident_pool_new(&p);
	ok(pool != NULL && ident_nslots(pool) == 2, "a /29 has two /30s");
	ident_acquire(pool, "00000000000000a1", &a);
	ident_acquire(pool, "00000000000000b2", &b);
	ok(a.slot != b.slot, "two ids, two slots, even when they hash alike");
	errno = 0;
	rc = ident_acquire(pool, "00000000000000c3", &c);
	ok(rc == -1 && errno == ENOSPC, "a full subnet says ENOSPC");
	ident_release(pool, a.id);
	rc = ident_acquire(pool, "00000000000000c3", &c);
	ok(rc == 0 && c.slot == a.slot && c.guest.s_addr == a.guest.s_addr,
	    "a released /30 is reused");
	ident_pool_free(pool);

	strlcpy(p.ifprefix, "abcdefg", sizeof(p.ifprefix));
	p.subnet_len = 16;
	pool = ident_pool_new(&p);
	ident_acquire(pool, "0123456789abcdef", &a);
	ok(strcmp(a.ifname, "abcdefg01234567") == 0 && strlen(a.ifname) == 15,
	    "a 7-character prefix still fits IFNAMSIZ: %s", a.ifname);
	ident_pool_free(pool);
}

static void
selftest_adopt(struct netd_params p)
{
	struct ident_pool	*pool;
	struct netd_ident	 a, b;
	int			 rc;

	pool = ident_pool_new(&p);
	rc = ident_adopt(pool, "1111111111111111", 77, "sbx11111111", &a);
	ok(rc == 0 && a.slot == 77 && strcmp(a.ifname, "sbx11111111") == 0,
	    "adopt takes the slot and name found in the kernel");
	ok(ident_adopt(pool, "1111111111111111", 77, "sbx11111111", &b) == 0,
	    "adopting the same again is fine");
	errno = 0;
	rc = ident_adopt(pool, "2222222222222222", 77, "sbx22222222", &b);
	ok(rc == -1 && errno == EEXIST, "adopting a taken slot is refused");
	ident_acquire(pool, "1111111111111111", &b);
	ok(b.slot == 77, "acquire after adopt returns the adopted identity");
	ident_pool_free(pool);
}

static int
selftest(void)
{
	struct netd_params	 p;
	struct ident_pool	*a, *b;
	struct netd_ident	 x, y, z, w;
	struct in6_addr		 v6;
	uint32_t		 net, sub;
	int			 rc;

	parse_params(0, NULL, &p);
	a = ident_pool_new(&p);
	b = ident_pool_new(&p);
	ok(ident_valid_id("0123456789abcdef"), "16 lowercase hex digits");
	ok(!ident_valid_id("0123456789ABCDEF"), "uppercase refused");
	ok(!ident_valid_id("0123456789abcde"), "15 digits refused");
	ok(!ident_valid_id("0123456789abcdef0"), "17 digits refused");
	ok(!ident_valid_id("0123456789abcdeg"), "non-hex refused");
	ok(ident_acquire(a, "0123456789ABCDEF", &x) == -1 && errno == EINVAL,
	    "acquire refuses a bad id");

	ident_acquire(a, "3f9a0c1200112233", &x);
	ident_acquire(b, "3f9a0c1200112233", &y);
	ok(memcmp(&x, &y, sizeof(x)) == 0,
	    "the same id gets the same identity in another pool");
	ok(strcmp(x.ifname, "sbx3f9a0c12") == 0, "interface %s", x.ifname);
	ident_acquire(a, "3f9a0c1200112233", &y);
	ok(memcmp(&x, &y, sizeof(x)) == 0 && ident_count(a) == 1,
	    "acquire is idempotent");
	net = ntohl(x.net.s_addr);
	sub = ntohl(p.subnet.s_addr);
	ok((net & 3) == 0 && (net & 0xffff0000) == sub,
	    "a /30 of the subnet");
	ok(ntohl(x.gw.s_addr) == net + 1 && ntohl(x.guest.s_addr) == net + 2,
	    "gateway first usable, guest second");
	ok((x.guest_mac[0] & 3) == 2 && (x.host_mac[0] & 3) == 2 &&
	    memcmp(x.guest_mac, x.host_mac, 6) != 0,
	    "locally administered unicast MACs, host and guest differ");
	netd_v6_addr(&v6, x.guest);
	ok(memcmp(&v6, &x.guest6, 16) == 0 && x.guest6.s6_addr[0] == 0xfd,
	    "IPv6 guest is the ULA /96 plus the IPv4 address");

	ident_acquire(a, "3f9a0c12ffeeddcc", &z);
	ok(strcmp(z.ifname, x.ifname) != 0 && strlen(z.ifname) == 11 &&
	    netd_ifname_ours("sbx", z.ifname),
	    "a second id with the same 8 digits gets another name (%s)",
	    z.ifname);
	ok(z.slot != x.slot, "and another slot");
	ok(ident_find_ifname(a, z.ifname) != NULL &&
	    strcmp(ident_find_ifname(a, z.ifname)->id, z.id) == 0,
	    "found by interface name");
	ok(ident_release(a, x.id) == 0, "release");
	errno = 0;
	rc = ident_release(a, x.id);
	ok(rc == -1 && errno == ENOENT, "a second release says ENOENT");
	ident_acquire(a, "3f9a0c1200112233", &w);
	ok(w.slot == x.slot && strcmp(w.ifname, x.ifname) == 0,
	    "acquired again, the same identity");
	ok(!netd_ifname_ours("sbx", "sbx3f9a0c1") &&
	    !netd_ifname_ours("sbx", "sbx3f9a0c12x") &&
	    !netd_ifname_ours("sbx", "sbz3f9a0c12") &&
	    netd_ifname_ours("sbx", "sbx3f9a0c12"),
	    "our interface names are recognised exactly");
	ident_pool_free(a);
	ident_pool_free(b);
	selftest_small(p);
	selftest_adopt(p);
	printf("1..%d\n", tap_n);
	return (tap_failed != 0);
}

static double
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6);
}

static int
dbl_cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

static double
median(double *v, int n)
{
	qsort(v, n, sizeof(*v), dbl_cmp);
	return (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

/* What a sandbox with a typical network block turns into. */
static void
bench_policy(struct policy *p)
{
	char	*argv[] = { "host=203.0.113.10:443", "host=[2001:db8::10]:443",
	    "host=203.0.113.53:53/udp", "cidr=198.51.100.0/24",
	    "cidr=2001:db8:1::/48", "name=example.com:443",
	    "from=192.0.2.0/24" };

	if (parse_policy(sizeof(argv) / sizeof(argv[0]), argv, p) == -1)
		fatalx("bench policy");
}

/*
 * A live sandbox for the background; with a link its netns stays open
 * (a netns that goes takes the veth with it).
 */
static int
bench_live(int link, unsigned int i, const struct policy *p)
{
	char	 id[NETD_ID_LEN + 1];
	int	 nsfd = -1, gfd = -1, rc;

	/* Distinct first digits, so distinct interface names. */
	snprintf(id, sizeof(id), "%08x%08x", i * 2654435761U, i);
	if (link && (nsfd = fresh_netns(&gfd)) == -1)
		fatal("netns");
	rc = netd_sandbox_up(nd, id, &p->pol, p->rules, p->nrules, nsfd, gfd,
	    NULL);
	if (gfd != -1)
		close(gfd);
	return (rc);
}

/*
 * One add+del of a sandbox: the datapath batches alone, or with its
 * link (up, down; the reap that deletes the link is timed apart).
 */
static double
bench_once(int link, unsigned int i, const struct policy *p, int nsfd,
    int gfd, double *add, double *reap)
{
	struct netd_ident	 ni;
	char			 id[NETD_ID_LEN + 1];
	double			 t0, t1, t2;

	snprintf(id, sizeof(id), "%08xa%07x", ~i * 2654435761U, i);
	if (link) {
		t0 = now_ms();
		if (netd_sandbox_up(nd, id, &p->pol, p->rules, p->nrules,
		    nsfd, gfd, NULL) == -1)
			fatalx("bench up");
		t1 = now_ms();
		if (netd_sandbox_down(nd, id) == -1)
			fatalx("bench down");
		t2 = now_ms();
		if (netd_reap(nd) == -1)
			fatalx("bench reap");
		*reap = now_ms() - t2;
	} else {
		if (ident_acquire(netd_pool(nd), id, &ni) == -1)
			fatalx("bench ident");
		t0 = now_ms();
		if (dp_sandbox_add(netd_dp(nd), &ni, &p->pol, p->rules,
		    p->nrules) == -1)
			fatalx("bench add");
		t1 = now_ms();
		if (dp_sandbox_del(netd_dp(nd), ni.ifname) == -1)
			fatalx("bench del");
		t2 = now_ms();
		ident_release(netd_pool(nd), id);
	}
	*add = t1 - t0;
	return (t2 - t0);
}

/*
 * With a link, a create as runnerd makes it with a spare ready: the
 * spare (its own netns, veth, guest end; untimed here as in runnerd,
 * but returned in *spare) was made ahead, and the create's wait is
 * its claim: netd_sandbox_up with the link there, the rules alone.
 * The claim's time in ms.
 */
static double
bench_claim(unsigned int i, const struct policy *p, double *spare)
{
	char	 id[NETD_ID_LEN + 1];
	double	 t0, t1, t2;
	int	 nsfd, gfd;

	snprintf(id, sizeof(id), "%08xb%07x", ~i * 2654435761U, i);
	if ((nsfd = fresh_netns(&gfd)) == -1)
		fatal("netns");
	t0 = now_ms();
	if (netd_sandbox_prepare(nd, id, nsfd, gfd, NULL) == -1)
		fatalx("bench prepare");
	t1 = now_ms();
	if (netd_sandbox_up(nd, id, &p->pol, p->rules, p->nrules, -1, -1,
	    NULL) == -1)
		fatalx("bench claim");
	t2 = now_ms();
	if (netd_sandbox_down(nd, id) == -1 || netd_reap(nd) == -1)
		fatalx("bench claim down");
	close(gfd);
	close(nsfd);
	*spare = t1 - t0;
	return (t2 - t1);
}

/*
 * bench [dp|link] [iters=K] [without=F] N...: the median add+del time
 * with N live
 * sandboxes (the measured one included), N ascending.
 */
static int
bench(int argc, char **argv)
{
	struct policy	 p;
	struct rlimit	 rl;
	const char	*errstr;
	double		*dt, *da, *dr, *dc, *ds, med, base = 0, t0;
	unsigned int	 live = 0, seq = 0;
	int		 i, j, n, link = 0, iters = 200, first = 1;
	int		 nsfd = -1, gfd = -1;

	if (argc > 0 && (strcmp(argv[0], "dp") == 0 ||
	    strcmp(argv[0], "link") == 0)) {
		link = argv[0][0] == 'l';
		iters = link ? 30 : 200;
		argc--;
		argv++;
	}
	if (argc > 0 && strncmp(argv[0], "iters=", 6) == 0) {
		iters = strtonum(argv[0] + 6, 1, 100000, &errstr);
		if (errstr != NULL)
			errx(1, "iters: %s", errstr);
		argc--;
		argv++;
	}
	if (argc > 0 && strncmp(argv[0], "without=", 8) == 0) {
		if (nft_without(argv[0] + 8) == -1)
			errx(1, "%s: unknown kernel feature", argv[0]);
		argc--;
		argv++;
	}
	parse_params(0, NULL, &params);
	if ((nd = netd_new(&params)) == NULL || netd_table_init(nd) == -1)
		errx(1, "cannot set up the datapath");
	bench_policy(&p);
	if (link && (nsfd = fresh_netns(&gfd)) == -1)
		err(1, "netns");
	/* Live sandboxes with links hold a netns fd each. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
	if ((dt = calloc(iters, sizeof(*dt))) == NULL ||
	    (da = calloc(iters, sizeof(*da))) == NULL ||
	    (dr = calloc(iters, sizeof(*dr))) == NULL ||
	    (dc = calloc(iters, sizeof(*dc))) == NULL ||
	    (ds = calloc(iters, sizeof(*ds))) == NULL)
		err(1, NULL);
	for (i = 0; i < argc; i++) {
		n = strtonum(argv[i], 1, 100000, &errstr);
		if (errstr != NULL)
			errx(1, "N: %s", errstr);
		t0 = now_ms();
		for (; live + 1 < (unsigned int)n; live++)
			if (bench_live(link, live, &p) == -1)
				errx(1, "live sandbox %u", live);
		printf("# N=%d: %u live sandboxes set up in %.0f ms\n", n,
		    live, now_ms() - t0);
		for (j = 0; j < iters; j++)
			dt[j] = bench_once(link, seq++, &p, nsfd, gfd, &da[j],
			    &dr[j]);
		med = median(dt, iters);
		if (first)
			base = med;
		printf("netd add+del%s N=%d: %.3f ms (ratio to N=%s: %.2f)\n",
		    link ? " with veth" : "", n, med, argv[0], med / base);
		printf("# N=%d: add %.3f ms, %d runs, fastest %.3f ms", n,
		    median(da, iters), iters, dt[0]);
		if (link)
			printf(", reap (link deletion, conntrack) %.3f ms",
			    median(dr, iters));
		printf("\n");
		if (link) {
			for (j = 0; j < iters; j++)
				dc[j] = bench_claim(seq++, &p, &ds[j]);
			printf("# N=%d: claim of a spare %.3f ms, the spare "
			    "made ahead %.3f ms\n", n, median(dc, iters),
			    median(ds, iters));
		}
		fflush(stdout);
		first = 0;
	}
	return (0);
}

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: netd_test selftest | serve SOCK [k=v...] | "
	    "-s SOCK command [args...] | bench [dp|link] [iters=K] "
	    "[without=F] N...\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	log_procinit("netd_test");
	log_init(1, LOG_DAEMON);
	if (getenv("NETD_TEST_VERBOSE") != NULL)
		log_setverbose(1);
	if (argc >= 4 && strcmp(argv[1], "-s") == 0)
		return (client(argv[2], argc - 3, argv + 3));
	if (argc == 2 && strcmp(argv[1], "selftest") == 0)
		return (selftest());
	if (argc >= 3 && strcmp(argv[1], "serve") == 0)
		return (serve(argv[2], argc - 3, argv + 3));
	if (argc >= 2 && strcmp(argv[1], "bench") == 0)
		return (bench(argc - 2, argv + 2));
	usage();
}
