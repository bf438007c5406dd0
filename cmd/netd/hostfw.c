/*
 * The host's other filters.  Our accept does not end a packet's way
 * through a hook: a base chain of another table on the same hook (the
 * FORWARD chain of iptables-nft with policy DROP that Docker sets, a
 * firewalld zone, ufw) still drops what our policy allows.  netd looks
 * for such chains at start and after every nf_tables change (the
 * NFNLGRP_NFTABLES events), logs what it finds and tells the master,
 * which shows it in sandboxctl status.  Only chain policies are read:
 * a drop rule inside an accepting chain is not seen.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>

#include <errno.h>
#include <event.h>
#include <stdio.h>
#include <string.h>

#include "child.h"
#include "log.h"
#include "netd.h"
#include "sandboxd_imsg.h"

#define HOSTFW_SETTLE_MS	100	/* a ruleset reload is many events */

struct hostfw_scan {
	char	 first[CTL_MSG_SIZE - 32];	/* room for "and N more" */
	int	 n;
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

/* A base chain that drops by policy on a hook sandbox packets take. */
static int
hostfw_chain_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct hostfw_scan	*sc = arg;
	struct nftnl_chain	*c;
	uint32_t		 fam, hook;
	const char		*table, *what;

	if ((c = nftnl_chain_alloc()) == NULL)
		return (-1);
	if (nftnl_chain_nlmsg_parse(nlh, c) < 0) {
		nftnl_chain_free(c);
		return (-1);
	}
	fam = nftnl_chain_get_u32(c, NFTNL_CHAIN_FAMILY);
	table = nftnl_chain_get_str(c, NFTNL_CHAIN_TABLE);
	if (!nftnl_chain_is_set(c, NFTNL_CHAIN_HOOKNUM) ||
	    !nftnl_chain_is_set(c, NFTNL_CHAIN_POLICY) ||
	    nftnl_chain_get_u32(c, NFTNL_CHAIN_POLICY) != NF_DROP ||
	    (fam != NFPROTO_INET && fam != NFPROTO_IPV4 &&
	    fam != NFPROTO_IPV6) ||
	    (fam == NFPROTO_INET && table != NULL &&
	    strcmp(table, NETD_TABLE) == 0)) {
		nftnl_chain_free(c);
		return (0);
	}
	hook = nftnl_chain_get_u32(c, NFTNL_CHAIN_HOOKNUM);
	if (hook == NF_INET_FORWARD)
		what = "may drop sandbox traffic that the policy allows";
	else if (hook == NF_INET_LOCAL_IN)
		what = "may drop the sandboxes' DNS queries to the resolver";
	else {
		nftnl_chain_free(c);
		return (0);
	}
	if (sc->n++ == 0)
		snprintf(sc->first, sizeof(sc->first), "table %s %s chain %s "
		    "(hook %s, policy drop) %s", hostfw_family(fam),
		    table ? table : "?",
		    nftnl_chain_get_str(c, NFTNL_CHAIN_NAME),
		    hook == NF_INET_FORWARD ? "forward" : "input", what);
	nftnl_chain_free(c);
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
		log_info("host firewall: no other chain drops by policy");
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

/* A table or chain came or went (our pins' element events do not). */
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
