/*
 * Links through rtnetlink: the veth pair of a process sandbox, whose
 * guest end is created straight inside the sandbox's netns (given as
 * an fd) and then configured through a NETLINK_ROUTE socket that was
 * opened inside it; the tap of a VM sandbox.  netd never enters a
 * namespace.
 */
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>
#include <linux/netlink.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include <libmnl/libmnl.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "netd.h"

#define RT_BUFSIZE	8192
#define LOOPBACK_INDEX	1	/* lo in every netns */

struct rtnl {
	int		 fd;
	int		 owned;
	uint32_t	 seq;
};

/* A buffer of requests sent with one send(2). */
struct rt_req {
	char		 buf[RT_BUFSIZE];
	size_t		 off;
	uint32_t	 last;
	struct nlmsghdr	*nlh;		/* the open one */
};

struct rtnl *
rtnl_open(void)
{
	struct rtnl	*rt;

	if ((rt = calloc(1, sizeof(*rt))) == NULL) {
		log_warn("%s", __func__);
		return (NULL);
	}
	if ((rt->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_ROUTE)) == -1) {
		log_warn("%s: socket", __func__);
		free(rt);
		return (NULL);
	}
	nl_sockopts(rt->fd);
	rt->owned = 1;
	rt->seq = arc4random();
	return (rt);
}

struct rtnl *
rtnl_fdopen(int fd)
{
	struct rtnl	*rt;

	if ((rt = calloc(1, sizeof(*rt))) == NULL) {
		log_warn("%s", __func__);
		return (NULL);
	}
	rt->fd = fd;
	rt->seq = arc4random();
	nl_sockopts(fd);
	return (rt);
}

void
rtnl_close(struct rtnl *rt)
{
	if (rt == NULL)
		return;
	if (rt->owned)
		close(rt->fd);
	free(rt);
}

/* log_warn() with the kernel's explanation of the failure, if any. */
static void __attribute__((format(printf, 1, 2)))
rt_warn(const char *fmt, ...)
{
	char		 msg[256];
	const char	*why = nl_lastwhy();
	va_list		 ap;
	int		 saved = errno;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_warnx("%s: %s%s%s", msg, strerror(saved), *why ? ": " : "", why);
	errno = saved;
}

static void
rt_req_init(struct rt_req *q)
{
	q->off = 0;
	q->nlh = NULL;
}

/*
 * The next request of q and its fixed header of hlen bytes (ifinfomsg,
 * ifaddrmsg, rtmsg, ndmsg: each starts with the family), zeroed but
 * for the family.
 */
static void *
rt_msg(struct rtnl *rt, struct rt_req *q, uint16_t type, uint16_t flags,
    size_t hlen, int af)
{
	struct nlmsghdr	*nlh;
	uint8_t		*family;

	if (q->nlh != NULL)
		q->off += NLMSG_ALIGN(q->nlh->nlmsg_len);
	nlh = mnl_nlmsg_put_header(q->buf + q->off);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = q->last = ++rt->seq;
	q->nlh = nlh;
	family = mnl_nlmsg_put_extra_header(nlh, hlen);
	*family = af;
	return (family);
}

static int
rt_send(struct rtnl *rt, struct rt_req *q, nft_msg_fn cb, void *arg,
    const char *who)
{
	size_t	 len = q->off + NLMSG_ALIGN(q->nlh->nlmsg_len);

	return (nl_talk(rt->fd, q->buf, len, q->last, cb, arg, who));
}

static struct ifinfomsg *
rt_link(struct rtnl *rt, struct rt_req *q, uint16_t type, uint16_t flags,
    int index)
{
	struct ifinfomsg	*ifm;

	ifm = rt_msg(rt, q, type, flags, sizeof(*ifm), AF_UNSPEC);
	ifm->ifi_index = index;
	return (ifm);
}

/* A request on the link named ifname, as the first of q. */
static void
rt_link_named(struct rtnl *rt, struct rt_req *q, uint16_t type,
    uint16_t flags, const char *ifname)
{
	rt_req_init(q);
	rt_link(rt, q, type, flags, 0);
	mnl_attr_put_strz(q->nlh, IFLA_IFNAME, ifname);
}

/* Send q, about the link ifname; that it is gone already is no error. */
static int
rt_send_gone(struct rtnl *rt, struct rt_req *q, const char *ifname,
    const char *who)
{
	if (rt_send(rt, q, NULL, NULL, ifname) == -1) {
		if (errno == ENODEV)
			return (0);
		rt_warn("%s: %s", who, ifname);
		return (-1);
	}
	return (0);
}

static int
rt_index_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct ifinfomsg	*ifm = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type == RTM_NEWLINK)
		*(int *)arg = ifm->ifi_index;
	return (0);
}

static int
rt_ifindex(struct rtnl *rt, const char *ifname)
{
	struct rt_req	 q;
	int		 index = 0;

	rt_link_named(rt, &q, RTM_GETLINK, 0, ifname);
	if (rt_send(rt, &q, rt_index_cb, &index, ifname) == -1)
		return (-1);
	if (index == 0) {
		errno = ENODEV;
		return (-1);
	}
	return (index);
}

static void
rt_addr(struct rtnl *rt, struct rt_req *q, int index, int af,
    const void *addr, int plen, uint32_t flags)
{
	struct ifaddrmsg	*ifa;
	size_t			 alen = af == AF_INET ? 4 : 16;

	ifa = rt_msg(rt, q, RTM_NEWADDR, NLM_F_CREATE | NLM_F_REPLACE,
	    sizeof(*ifa), af);
	ifa->ifa_prefixlen = plen;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = index;
	/* No duplicate detection: the link is ours alone, use it now. */
	if (af == AF_INET6)
		flags |= IFA_F_NODAD;
	ifa->ifa_flags = flags;
	mnl_attr_put(q->nlh, IFA_LOCAL, alen, addr);
	mnl_attr_put(q->nlh, IFA_ADDRESS, alen, addr);
	if (flags > 0xff)
		mnl_attr_put_u32(q->nlh, IFA_FLAGS, flags);
}

/*
 * A route out of the link: the default one via gw, or with gw NULL
 * dst/plen on the link itself.
 */
static void
rt_route(struct rtnl *rt, struct rt_req *q, int index, int af,
    const void *dst, int plen, const void *gw)
{
	struct rtmsg	*rtm;
	size_t		 alen = af == AF_INET ? 4 : 16;

	rtm = rt_msg(rt, q, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE,
	    sizeof(*rtm), af);
	rtm->rtm_dst_len = plen;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_STATIC;
	rtm->rtm_scope = gw != NULL ? RT_SCOPE_UNIVERSE : RT_SCOPE_LINK;
	rtm->rtm_type = RTN_UNICAST;
	if (dst != NULL)
		mnl_attr_put(q->nlh, RTA_DST, alen, dst);
	if (gw != NULL)
		mnl_attr_put(q->nlh, RTA_GATEWAY, alen, gw);
	mnl_attr_put_u32(q->nlh, RTA_OIF, index);
}

/* A permanent neighbour: nothing to discover on a link of two. */
static void
rt_neigh(struct rtnl *rt, struct rt_req *q, int index, int af,
    const void *addr, const uint8_t *mac)
{
	struct ndmsg	*ndm;

	ndm = rt_msg(rt, q, RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE,
	    sizeof(*ndm), af);
	ndm->ndm_ifindex = index;
	ndm->ndm_state = NUD_PERMANENT;
	mnl_attr_put(q->nlh, NDA_DST, af == AF_INET ? 4 : 16, addr);
	mnl_attr_put(q->nlh, NDA_LLADDR, 6, mac);
}

/* fe80::1 on the host side, fe80::2 on the guest's. */
static void
link_v6_ll(struct in6_addr *ll, int guest)
{
	memset(ll, 0, sizeof(*ll));
	ll->s6_addr[0] = 0xfe;
	ll->s6_addr[1] = 0x80;
	ll->s6_addr[15] = guest ? 2 : 1;
}

static void
rt_up(struct rtnl *rt, struct rt_req *q, int index)
{
	struct ifinfomsg	*ifm;

	ifm = rt_link(rt, q, RTM_NEWLINK, 0, index);
	ifm->ifi_flags = ifm->ifi_change = IFF_UP;
}

/*
 * No generated IPv6 link-local address: it would sit in duplicate
 * address detection for a second, stalling the first IPv6 packets.
 * The link is point to point, so fixed ones do (see link_v6_addrs).
 * Only while the link is down does this keep the kernel from making one.
 * Best effort, in a request of its own.
 */
static void
rt_no_lladdr(struct rtnl *rt, int index, const char *ifname,
    const char *who)
{
	struct rt_req	 q;
	struct nlattr	*spec, *in6;

	rt_req_init(&q);
	rt_link(rt, &q, RTM_NEWLINK, 0, index);
	spec = mnl_attr_nest_start(q.nlh, IFLA_AF_SPEC);
	in6 = mnl_attr_nest_start(q.nlh, AF_INET6);
	mnl_attr_put_u8(q.nlh, IFLA_INET6_ADDR_GEN_MODE,
	    IN6_ADDR_GEN_MODE_NONE);
	mnl_attr_nest_end(q.nlh, in6);
	mnl_attr_nest_end(q.nlh, spec);
	if (rt_send(rt, &q, NULL, NULL, ifname) == -1)
		log_debug("%s: %s: addrgenmode: %s", who, ifname,
		    strerror(errno));
}

/*
 * Into q: the /126 and link-local fe80::1 (host side) or fe80::2
 * (guest).  The host side's fe80::/64 route is not needed (neighbour discovery does
 * without) and would cost: every host side's hangs off the one FIB
 * node, so each insertion walks all the others.
 */
static void
link_v6_addrs(struct rtnl *rt, struct rt_req *q, int index,
    const struct in6_addr *a, int guest)
{
	struct in6_addr	 ll;

	link_v6_ll(&ll, guest);
	rt_addr(rt, q, index, AF_INET6, &ll, 64,
	    guest ? 0 : IFA_F_NOPREFIXROUTE);
	rt_addr(rt, q, index, AF_INET6, a, NETD_PLEN6, 0);
}

/*
 * The host side, down so far: no generated link-local, the gateway
 * addresses, up.  IPv6 is best effort, for hosts that disabled it.
 */
static int
link_host_addrs(struct rtnl *rt, const struct netd_ident *ni, int index,
    int ungrave, int v6addrs)
{
	struct rt_req	 q;
	int		 rc;

	rt_no_lladdr(rt, index, ni->ifname, __func__);
	rt_req_init(&q);
	rt_addr(rt, &q, index, AF_INET, &ni->gw, NETD_PLEN, 0);
	rt_up(rt, &q, index);
	/*
	 * Out of the graveyard group, for a tap reused before its reap;
	 * only then: any change to an up link walks the IPv6 routes.
	 */
	if (ungrave)
		mnl_attr_put_u32(q.nlh, IFLA_GROUP, 0);
	if (rt_send(rt, &q, NULL, NULL, ni->ifname) == -1)
		return (-1);
	rt_req_init(&q);
	if (v6addrs) {
		link_v6_addrs(rt, &q, index, &ni->gw6, 0);
		rc = rt_send(rt, &q, NULL, NULL, ni->ifname);
	} else {
		/*
		 * A veth's host side has no IPv6 address: each one added
		 * makes the kernel walk every address of the namespace
		 * (addrconf), so setup grew with the sandboxes (0.8 ms at
		 * 1, 13 ms at 4000).  A route and a permanent neighbour
		 * reach the guest; the guest reaches fe80::1 likewise.
		 */
		rt_route(rt, &q, index, AF_INET6, &ni->guest6, 128, NULL);
		rt_neigh(rt, &q, index, AF_INET6, &ni->guest6, ni->guest_mac);
		rc = rt_send(rt, &q, NULL, NULL, ni->ifname);
	}
	if (rc == -1)
		rt_warn("%s: %s: IPv6 (continuing without)", __func__,
		    ni->ifname);
	return (0);
}

static int
link_veth_create(struct rtnl *rt, const struct netd_ident *ni, int netnsfd)
{
	struct rt_req		 q;
	struct ifinfomsg	*ifm;
	struct nlattr		*info, *data, *peer;

	rt_link_named(rt, &q, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL,
	    ni->ifname);
	mnl_attr_put(q.nlh, IFLA_ADDRESS, sizeof(ni->host_mac), ni->host_mac);
	info = mnl_attr_nest_start(q.nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(q.nlh, IFLA_INFO_KIND, "veth");
	data = mnl_attr_nest_start(q.nlh, IFLA_INFO_DATA);
	peer = mnl_attr_nest_start(q.nlh, VETH_INFO_PEER);
	/*
	 * The peer's attributes follow its own ifinfomsg.  Both ends stay
	 * down until configured (and veth would refuse IFF_UP on the peer
	 * here with ENOTCONN: it opens it before the pair is joined).
	 */
	ifm = mnl_nlmsg_put_extra_header(q.nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(q.nlh, IFLA_IFNAME, NETD_GUEST_IFNAME);
	mnl_attr_put(q.nlh, IFLA_ADDRESS, sizeof(ni->guest_mac),
	    ni->guest_mac);
	mnl_attr_put_u32(q.nlh, IFLA_NET_NS_FD, netnsfd);
	mnl_attr_nest_end(q.nlh, peer);
	mnl_attr_nest_end(q.nlh, data);
	mnl_attr_nest_end(q.nlh, info);
	return (rt_send(rt, &q, NULL, NULL, ni->ifname));
}

/*
 * The veth pair, host side up with the gateway addresses; the host
 * side's index.  A link of that name is replaced: its peer may sit in
 * a netns long gone.
 */
int
link_veth_add(struct rtnl *rt, const struct netd_ident *ni, int netnsfd)
{
	int	 index;

	if (link_veth_create(rt, ni, netnsfd) == -1) {
		if (errno != EEXIST || link_del(rt, ni->ifname) == -1 ||
		    link_veth_create(rt, ni, netnsfd) == -1) {
			rt_warn("%s: %s", __func__, ni->ifname);
			return (-1);
		}
		log_info("%s: %s replaced", __func__, ni->ifname);
	}
	if ((index = rt_ifindex(rt, ni->ifname)) == -1 ||
	    link_host_addrs(rt, ni, index, 0, 0) == -1) {
		rt_warn("%s: %s: host side", __func__, ni->ifname);
		(void)link_del(rt, ni->ifname);
		return (-1);
	}
	return (index);
}

/*
 * The multicast route (ff00::/8 in table local) that the kernel gives
 * a link once it is ready for IPv6, some time after its carrier.  A
 * veth's host side sends no multicast (its neighbour is permanent, and
 * neighbour discovery and MLD do not route), and these routes cost
 * what grows with the sandboxes: they all hang off one FIB node, so
 * each insertion and every multicast lookup of the namespace walks all
 * the others, and they double the walk of every IPv6 route that each
 * carrier change makes.  ESRCH: not there (yet).
 */
int
link_mroute_del(struct rtnl *rt, int index, const char *ifname)
{
	struct rt_req	 q;
	struct rtmsg	*rtm;
	struct in6_addr	 mc;

	memset(&mc, 0, sizeof(mc));
	mc.s6_addr[0] = 0xff;
	rt_req_init(&q);
	rtm = rt_msg(rt, &q, RTM_DELROUTE, 0, sizeof(*rtm), AF_INET6);
	rtm->rtm_dst_len = 8;
	rtm->rtm_table = RT_TABLE_LOCAL;
	rtm->rtm_protocol = RTPROT_KERNEL;
	rtm->rtm_scope = RT_SCOPE_UNIVERSE;
	rtm->rtm_type = RTN_MULTICAST;
	mnl_attr_put(q.nlh, RTA_DST, sizeof(mc), &mc);
	mnl_attr_put_u32(q.nlh, RTA_OIF, index);
	return (rt_send(rt, &q, NULL, NULL, ifname));
}

/*
 * Inside the guest, through a socket opened there: lo up, the guest
 * addresses and neighbour, then eth0 up and the default routes via the
 * gateways.  eth0 comes up last but for the routes (which need it up):
 * with the host side up already, that brings the carrier, and the
 * kernel answers it (linkwatch) with a walk of every IPv6 route of
 * the host's namespace under RTNL, a cost that grows with the
 * sandboxes; each request after it may wait for that walk.  IPv6 is
 * best effort: a netns with it disabled still gets IPv4.
 */
int
link_guest_setup(struct rtnl *g, const struct netd_ident *ni)
{
	struct rt_req	 q;
	struct in6_addr	 ll;
	int		 index, v6;

	if ((index = rt_ifindex(g, NETD_GUEST_IFNAME)) == -1) {
		rt_warn("%s: %s: guest %s", __func__, ni->ifname,
		    NETD_GUEST_IFNAME);
		return (-1);
	}
	rt_no_lladdr(g, index, ni->ifname, __func__);
	rt_req_init(&q);
	rt_up(g, &q, LOOPBACK_INDEX);
	rt_addr(g, &q, index, AF_INET, &ni->guest, NETD_PLEN, 0);
	if (rt_send(g, &q, NULL, NULL, ni->ifname) == -1) {
		rt_warn("%s: %s: guest IPv4", __func__, ni->ifname);
		return (-1);
	}
	link_v6_ll(&ll, 0);
	rt_req_init(&q);
	link_v6_addrs(g, &q, index, &ni->guest6, 1);
	rt_neigh(g, &q, index, AF_INET6, &ll, ni->host_mac);
	v6 = rt_send(g, &q, NULL, NULL, ni->ifname);
	rt_req_init(&q);
	rt_up(g, &q, index);
	rt_route(g, &q, index, AF_INET, NULL, 0, &ni->gw);
	if (rt_send(g, &q, NULL, NULL, ni->ifname) == -1) {
		rt_warn("%s: %s: guest link, IPv4 route", __func__,
		    ni->ifname);
		return (-1);
	}
	if (v6 == 0) {
		rt_req_init(&q);
		rt_route(g, &q, index, AF_INET6, NULL, 0, &ll);
		v6 = rt_send(g, &q, NULL, NULL, ni->ifname);
	}
	if (v6 == -1)
		rt_warn("%s: %s: guest IPv6 (continuing without)", __func__,
		    ni->ifname);
	return (0);
}

static int
link_tap_attach(int tunfd, const char *ifname)
{
	struct ifreq	 ifr;

	memset(&ifr, 0, sizeof(ifr));
	strlcpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	return (ioctl(tunfd, TUNSETIFF, &ifr));
}

/*
 * A persistent tap for a VMM running as owner.  An existing tap of
 * that name is reused (EBUSY: the VMM has it open already); any other
 * link of that name is replaced.
 */
int
link_tap_add(struct rtnl *rt, const struct netd_ident *ni, int tunfd,
    uid_t owner)
{
	struct rt_req		 q;
	int			 index, attached = 1;

	if (link_tap_attach(tunfd, ni->ifname) == -1) {
		if (errno == EBUSY)
			attached = 0;
		else if (errno != EINVAL || link_del(rt, ni->ifname) == -1 ||
		    link_tap_attach(tunfd, ni->ifname) == -1) {
			log_warn("%s: %s: TUNSETIFF", __func__, ni->ifname);
			return (-1);
		}
	}
	if (attached && (ioctl(tunfd, TUNSETOWNER, (unsigned long)owner) ==
	    -1 || ioctl(tunfd, TUNSETPERSIST, 1UL) == -1)) {
		log_warn("%s: %s: owner, persist", __func__, ni->ifname);
		(void)link_del(rt, ni->ifname);
		return (-1);
	}
	if ((index = rt_ifindex(rt, ni->ifname)) == -1)
		goto fail;
	rt_req_init(&q);
	rt_link(rt, &q, RTM_NEWLINK, 0, index);
	mnl_attr_put(q.nlh, IFLA_ADDRESS, sizeof(ni->host_mac), ni->host_mac);
	if (rt_send(rt, &q, NULL, NULL, ni->ifname) == -1 ||
	    link_host_addrs(rt, ni, index, 1, 1) == -1)
		goto fail;
	return (0);
 fail:
	rt_warn("%s: %s", __func__, ni->ifname);
	(void)link_del(rt, ni->ifname);
	return (-1);
}

/*
 * Into netd's graveyard group, which link_reap() deletes in one
 * request: deleting a veth waits out the kernel's RCU grace periods,
 * tens of milliseconds each, so one wait for all.  The link stays up
 * (taking it down walks the routing tables, a cost that grows with the
 * sandboxes); this change walks the IPv6 routes once, so it is done at
 * reap time too, not when the sandbox goes.
 */
int
link_retire(struct rtnl *rt, const char *ifname)
{
	struct rt_req		 q;

	rt_link_named(rt, &q, RTM_NEWLINK, 0, ifname);
	mnl_attr_put_u32(q.nlh, IFLA_GROUP, NETD_LINK_GRAVE);
	return (rt_send_gone(rt, &q, ifname, __func__));
}

/* Delete every retired link, in one request. */
int
link_reap(struct rtnl *rt)
{
	struct rt_req	 q;

	rt_req_init(&q);
	rt_link(rt, &q, RTM_DELLINK, 0, 0);
	mnl_attr_put_u32(q.nlh, IFLA_GROUP, NETD_LINK_GRAVE);
	if (rt_send(rt, &q, NULL, NULL, __func__) == -1 && errno != ENODEV) {
		log_warn("%s", __func__);
		return (-1);
	}
	return (0);
}

/* Delete a link by name; its routes and addresses go with it. */
int
link_del(struct rtnl *rt, const char *ifname)
{
	struct rt_req	 q;

	rt_link_named(rt, &q, RTM_DELLINK, 0, ifname);
	return (rt_send_gone(rt, &q, ifname, __func__));
}

struct link_ent {
	char		 name[IFNAMSIZ];
	int		 index;
	struct in_addr	 addr;
	int		 has_addr;
};

struct link_list {
	const char	*prefix;
	struct link_ent	*v;
	size_t		 n;
};

static int
link_kind_cb(const struct nlattr *attr, void *arg)
{
	if (mnl_attr_get_type(attr) == IFLA_INFO_KIND &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		*(const char **)arg = mnl_attr_get_str(attr);
	return (MNL_CB_OK);
}

struct link_attrs {
	const char	*name;
	const char	*kind;
};

static int
link_attr_cb(const struct nlattr *attr, void *arg)
{
	struct link_attrs	*la = arg;

	switch (mnl_attr_get_type(attr)) {
	case IFLA_IFNAME:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			la->name = mnl_attr_get_str(attr);
		break;
	case IFLA_LINKINFO:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) == 0)
			mnl_attr_parse_nested(attr, link_kind_cb, &la->kind);
		break;
	}
	return (MNL_CB_OK);
}

static int
link_list_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct link_list	*ll = arg;
	const struct ifinfomsg	*ifm = mnl_nlmsg_get_payload(nlh);
	struct link_attrs	 la = { NULL, NULL };
	struct link_ent		*v;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return (0);
	mnl_attr_parse(nlh, sizeof(*ifm), link_attr_cb, &la);
	if (la.name == NULL || la.kind == NULL ||
	    !netd_ifname_ours(ll->prefix, la.name) ||
	    (strcmp(la.kind, "veth") != 0 && strcmp(la.kind, "tun") != 0))
		return (0);
	if ((v = reallocarray(ll->v, ll->n + 1, sizeof(*v))) == NULL)
		return (-1);
	ll->v = v;
	memset(&v[ll->n], 0, sizeof(v[ll->n]));
	strlcpy(v[ll->n].name, la.name, sizeof(v[ll->n].name));
	v[ll->n].index = ifm->ifi_index;
	ll->n++;
	return (0);
}

static int
link_addr_attr_cb(const struct nlattr *attr, void *arg)
{
	if (mnl_attr_get_type(attr) == IFA_LOCAL &&
	    mnl_attr_get_payload_len(attr) == 4)
		memcpy(arg, mnl_attr_get_payload(attr), 4);
	return (MNL_CB_OK);
}

static int
link_addr_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct link_list	*ll = arg;
	const struct ifaddrmsg	*ifa = mnl_nlmsg_get_payload(nlh);
	struct in_addr		 a = { 0 };
	size_t			 i;

	if (nlh->nlmsg_type != RTM_NEWADDR || ifa->ifa_family != AF_INET)
		return (0);
	mnl_attr_parse(nlh, sizeof(*ifa), link_addr_attr_cb, &a);
	for (i = 0; i < ll->n; i++)
		if (ll->v[i].index == (int)ifa->ifa_index && a.s_addr != 0 &&
		    !ll->v[i].has_addr) {
			ll->v[i].addr = a;
			ll->v[i].has_addr = 1;
		}
	return (0);
}

static int
rt_dump(struct rtnl *rt, uint16_t type, int af, nft_msg_fn cb, void *arg)
{
	struct rt_req	 q;

	rt_req_init(&q);
	rt_msg(rt, &q, type, NLM_F_DUMP, type == RTM_GETLINK ?
	    sizeof(struct ifinfomsg) : sizeof(struct ifaddrmsg), af);
	return (rt_send(rt, &q, cb, arg, __func__));
}

/*
 * Every link netd could have made (veth or tun named <prefix><8 hex>),
 * with its IPv4 address if it has one; cb runs after the dumps, so it
 * may change links.
 */
int
link_foreach_ours(struct rtnl *rt, const char *prefix, link_fn cb,
    void *arg)
{
	struct link_list	 ll = { prefix, NULL, 0 };
	size_t			 i;
	int			 rc = 0;

	if (rt_dump(rt, RTM_GETLINK, AF_UNSPEC, link_list_cb, &ll) == -1 ||
	    rt_dump(rt, RTM_GETADDR, AF_INET, link_addr_cb, &ll) == -1) {
		log_warn("%s", __func__);
		free(ll.v);
		return (-1);
	}
	for (i = 0; i < ll.n; i++)
		if (cb(ll.v[i].name, ll.v[i].index,
		    ll.v[i].has_addr ? &ll.v[i].addr : NULL, arg) == -1)
			rc = -1;
	free(ll.v);
	return (rc);
}
