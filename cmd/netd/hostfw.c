/*
 * The host's other filters.  Our accept does not end a packet's way
 * through a hook: a base chain of another table on the same hook (the
 * FORWARD chain of iptables-nft with policy DROP that Docker sets, a
 * firewalld zone, ufw) still drops what our policy allows.  netd looks
 * for such chains at start and after every nf_tables change (the
 * NFNLGRP_NFTABLES events), logs what it finds and tells the master,
 * which shows it in sandboxctl status.  Besides chain policies, the
 * last rule of each accepting base chain on those hooks is read: one
 * that drops or rejects whatever reaches it (firewalld's and ufw's
 * final reject) is found as well.  A conditional drop is not.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>

#include <errno.h>
#include <event.h>
#include <stdio.h>
#include <string.h>

#include "child.h"
#include "log.h"
#include "netd.h"
#include "sandboxd_imsg.h"

#define HOSTFW_SETTLE_MS	100	/* a ruleset reload is many events */
#define HOSTFW_CHAINS		64	/* accepting base chains looked into */

/* An accepting base chain on a hook sandbox packets take. */
struct hostfw_chain {
	uint32_t	 fam, hook;
	char		 table[NFT_TABLE_MAXNAMELEN];
	char		 name[NFT_CHAIN_MAXNAMELEN];
	int		 lastdrops;	/* its last rule drops all it sees */
};

struct hostfw_scan {
	char			 first[CTL_MSG_SIZE - 32];	/* "and N more" */
	int			 n;
	struct hostfw_chain	 accepting[HOSTFW_CHAINS];
	size_t			 naccepting;
};

static struct mnl_socket	*hostfw_nl;
static struct event		 hostfw_ev, hostfw_timer;
static struct net_hostfw	 hostfw_last;
static int			 hostfw_sent;

static const char *
hostfw_family(uint32_t f)
{
	switch (f) {
	case NFPROTO_INET:
		return ("inet");
	case NFPROTO_IPV4:
		return ("ip");
	case NFPROTO_IPV6:
		return ("ip6");
	case NFPROTO_BRIDGE:
		return ("bridge");
	default:
		return ("?");
	}
}

static const char *
hostfw_hook(uint32_t hook)
{
	switch (hook) {
	case NF_INET_FORWARD:
		return ("forward");
	case NF_INET_LOCAL_IN:
		return ("input");
	default:
		return ("output");
	}
}

static const char *
hostfw_harm(uint32_t hook)
{
	switch (hook) {
	case NF_INET_FORWARD:
		return ("may drop sandbox traffic that the policy allows");
	case NF_INET_LOCAL_IN:
		return ("may drop the sandboxes' DNS queries to the resolver");
	default:
		return ("may drop the resolver's answers to the sandboxes");
	}
}

/* One more finding: the first is named, the rest counted. */
static void
hostfw_found(struct hostfw_scan *sc, uint32_t fam, const char *table,
    const char *chain, uint32_t hook, const char *how)
{
	if (sc->n++ == 0)
		snprintf(sc->first, sizeof(sc->first), "table %s %s chain %s "
		    "(hook %s, %s) %s", hostfw_family(fam), table, chain,
		    hostfw_hook(hook), how, hostfw_harm(hook));
}

/*
 * A base chain of another table on a hook sandbox packets take: found
 * if it drops by policy, else kept to look at its last rule.
 */
static int
hostfw_chain_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct hostfw_scan	*sc = arg;
	struct hostfw_chain	*hc;
	struct nftnl_chain	*c;
	uint32_t		 fam, hook;
	const char		*table, *name;

	if ((c = nftnl_chain_alloc()) == NULL)
		return (-1);
	if (nftnl_chain_nlmsg_parse(nlh, c) < 0) {
		nftnl_chain_free(c);
		return (-1);
	}
	fam = nftnl_chain_get_u32(c, NFTNL_CHAIN_FAMILY);
	table = nftnl_chain_get_str(c, NFTNL_CHAIN_TABLE);
	name = nftnl_chain_get_str(c, NFTNL_CHAIN_NAME);
	hook = nftnl_chain_get_u32(c, NFTNL_CHAIN_HOOKNUM);
	if (table == NULL || name == NULL ||
	    !nftnl_chain_is_set(c, NFTNL_CHAIN_HOOKNUM) ||
	    !nftnl_chain_is_set(c, NFTNL_CHAIN_POLICY) ||
	    (fam != NFPROTO_INET && fam != NFPROTO_IPV4 &&
	    fam != NFPROTO_IPV6) ||
	    (fam == NFPROTO_INET && strcmp(table, NETD_TABLE) == 0) ||
	    (hook != NF_INET_FORWARD && hook != NF_INET_LOCAL_IN &&
	    hook != NF_INET_LOCAL_OUT)) {
		nftnl_chain_free(c);
		return (0);
	}
	if (nftnl_chain_get_u32(c, NFTNL_CHAIN_POLICY) == NF_DROP)
		hostfw_found(sc, fam, table, name, hook, "policy drop");
	else if (sc->naccepting < HOSTFW_CHAINS) {
		hc = &sc->accepting[sc->naccepting++];
		hc->fam = fam;
		hc->hook = hook;
		strlcpy(hc->table, table, sizeof(hc->table));
		strlcpy(hc->name, name, sizeof(hc->name));
		hc->lastdrops = 0;
	}
	nftnl_chain_free(c);
	return (0);
}

/*
 * Whether a rule drops everything that reaches it: no expression but
 * counter, log, a drop verdict or reject.  Any match makes it a rule
 * for some packets only.
 */
static int
hostfw_drops_all(struct nftnl_rule *r)
{
	struct nftnl_expr_iter	*it;
	struct nftnl_expr	*e;
	const char		*name;
	int			 drops = 0, other = 0;

	if ((it = nftnl_expr_iter_create(r)) == NULL)
		return (0);
	while ((e = nftnl_expr_iter_next(it)) != NULL) {
		name = nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
		if (name == NULL)
			other = 1;
		else if (strcmp(name, "reject") == 0)
			drops = 1;
		else if (strcmp(name, "immediate") == 0 &&
		    nftnl_expr_is_set(e, NFTNL_EXPR_IMM_VERDICT) &&
		    nftnl_expr_get_u32(e, NFTNL_EXPR_IMM_VERDICT) == NF_DROP)
			drops = 1;
		else if (strcmp(name, "counter") != 0 &&
		    strcmp(name, "log") != 0)
			other = 1;
	}
	nftnl_expr_iter_destroy(it);
	return (drops && !other);
}

/* Rules come chain by chain, in order: the last one seen is the last. */
static int
hostfw_rule_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct hostfw_scan	*sc = arg;
	struct nftnl_rule	*r;
	const char		*table, *chain;
	uint32_t		 fam;
	size_t			 i;

	if ((r = nftnl_rule_alloc()) == NULL)
		return (-1);
	if (nftnl_rule_nlmsg_parse(nlh, r) < 0) {
		nftnl_rule_free(r);
		return (-1);
	}
	fam = nftnl_rule_get_u32(r, NFTNL_RULE_FAMILY);
	table = nftnl_rule_get_str(r, NFTNL_RULE_TABLE);
	chain = nftnl_rule_get_str(r, NFTNL_RULE_CHAIN);
	for (i = 0; table != NULL && chain != NULL && i < sc->naccepting;
	    i++)
		if (sc->accepting[i].fam == fam &&
		    strcmp(sc->accepting[i].table, table) == 0 &&
		    strcmp(sc->accepting[i].name, chain) == 0) {
			sc->accepting[i].lastdrops = hostfw_drops_all(r);
			break;
		}
	nftnl_rule_free(r);
	return (0);
}

/* The accepting chains' last rules, dumped only if there are any. */
static int
hostfw_scan_rules(struct hostfw_scan *sc)
{
	char			 buf[MNL_SOCKET_BUFFER_SIZE];
	struct hostfw_chain	*hc;
	struct nlmsghdr		*nlh;
	size_t			 i;

	if (sc->naccepting == 0)
		return (0);
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETRULE, NFPROTO_UNSPEC,
	    NLM_F_DUMP, nft_sock_seq(nft_sock_default()));
	if (nft_query(nft_sock_default(), nlh, hostfw_rule_cb, sc) == -1)
		return (-1);
	for (i = 0; i < sc->naccepting; i++) {
		hc = &sc->accepting[i];
		if (hc->lastdrops)
			hostfw_found(sc, hc->fam, hc->table, hc->name,
			    hc->hook, "its last rule drops all");
	}
	return (0);
}

/* The current finding, told to the master when it changed. */
static void
hostfw_scan(int fd, short event, void *arg)
{
	char			 buf[MNL_SOCKET_BUFFER_SIZE];
	struct hostfw_scan	 sc;
	struct net_hostfw	 hf;
	struct nlmsghdr		*nlh;

	memset(&sc, 0, sizeof(sc));
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETCHAIN, NFPROTO_UNSPEC,
	    NLM_F_DUMP, nft_sock_seq(nft_sock_default()));
	if (nft_query(nft_sock_default(), nlh, hostfw_chain_cb, &sc) == -1) {
		log_warn("%s: chains", __func__);
		return;
	}
	if (hostfw_scan_rules(&sc) == -1) {
		log_warn("%s: rules", __func__);
		return;
	}
	memset(&hf, 0, sizeof(hf));
	if (sc.n > 1)
		snprintf(hf.text, sizeof(hf.text), "%s; and %d more chains",
		    sc.first, sc.n - 1);
	else
		strlcpy(hf.text, sc.first, sizeof(hf.text));
	if (hostfw_sent && strcmp(hf.text, hostfw_last.text) == 0)
		return;
	if (hf.text[0] != '\0')
		log_warnx("host firewall: %s", hf.text);
	else if (hostfw_sent)
		log_info("host firewall: no other chain drops by policy "
		    "or by its last rule");
	hostfw_last = hf;
	hostfw_sent = 1;
	imsgev_compose(child_iev_main(), IMSG_NET_HOSTFW, 0, 0, -1, &hf,
	    sizeof(hf));
}

/* Not pushed back by more events: a busy ruleset is still looked at. */
static void
hostfw_settle(void)
{
	struct timeval	 tv = { 0, HOSTFW_SETTLE_MS * 1000 };

	if (!evtimer_pending(&hostfw_timer, NULL))
		evtimer_add(&hostfw_timer, &tv);
}

/* A rule of another table than ours (NFT_MSG_DESTROYRULE: 28). */
static int
hostfw_rule_theirs(const struct nlmsghdr *nlh)
{
	struct nftnl_rule	*r;
	const char		*table;
	int			 theirs = 1;

	if ((r = nftnl_rule_alloc()) == NULL)
		return (1);
	if (nftnl_rule_nlmsg_parse(nlh, r) == 0 &&
	    (table = nftnl_rule_get_str(r, NFTNL_RULE_TABLE)) != NULL &&
	    nftnl_rule_get_u32(r, NFTNL_RULE_FAMILY) == NFPROTO_INET &&
	    strcmp(table, NETD_TABLE) == 0)
		theirs = 0;
	nftnl_rule_free(r);
	return (theirs);
}

/*
 * A table, a chain or another table's rule came or went (our pins'
 * element events, our own rules, do not count).
 */
static int
hostfw_chains_changed(const char *buf, ssize_t r)
{
	const struct nlmsghdr	*nlh;
	int			 n = r;
	uint16_t		 t;

	for (nlh = (const struct nlmsghdr *)buf; mnl_nlmsg_ok(nlh, n);
	    nlh = mnl_nlmsg_next(nlh, &n)) {
		t = NFNL_MSG_TYPE(nlh->nlmsg_type);
		/* NFT_MSG_DESTROYTABLE, _DESTROYCHAIN: 26, 27 (Linux 6.3) */
		if (t == NFT_MSG_NEWTABLE || t == NFT_MSG_DELTABLE ||
		    t == NFT_MSG_NEWCHAIN || t == NFT_MSG_DELCHAIN ||
		    t == 26 || t == 27)
			return (1);
		if ((t == NFT_MSG_NEWRULE || t == NFT_MSG_DELRULE ||
		    t == 28) && hostfw_rule_theirs(nlh))
			return (1);
	}
	return (0);
}

/* nf_tables changes: read them all, look again once they settle. */
static void
hostfw_event(int fd, short event, void *arg)
{
	char	 buf[16384];
	ssize_t	 r;
	int	 changed = 0;

	for (;;) {
		r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (r > 0)
			changed |= hostfw_chains_changed(buf, r);
		else if (r == -1 && errno == ENOBUFS)
			changed = 1;	/* events lost: any could be one */
		else if (r == 0 || errno != EINTR)
			break;
	}
	if (changed)
		hostfw_settle();
}

void
hostfw_start(void)
{
	int	 grp = NFNLGRP_NFTABLES, fd;

	evtimer_set(&hostfw_timer, hostfw_scan, NULL);
	if ((hostfw_nl = mnl_socket_open2(NETLINK_NETFILTER, SOCK_CLOEXEC |
	    SOCK_NONBLOCK)) == NULL ||
	    mnl_socket_bind(hostfw_nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    setsockopt((fd = mnl_socket_get_fd(hostfw_nl)), SOL_NETLINK,
	    NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)) == -1) {
		log_warn("%s: nf_tables events: the host's filters are "
		    "checked at start only", __func__);
		if (hostfw_nl != NULL)
			mnl_socket_close(hostfw_nl);
		hostfw_nl = NULL;
	} else {
		event_set(&hostfw_ev, fd, EV_READ | EV_PERSIST, hostfw_event,
		    NULL);
		event_add(&hostfw_ev, NULL);
	}
	hostfw_scan(-1, 0, NULL);
}
