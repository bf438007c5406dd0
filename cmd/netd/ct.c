/*
 * Conntrack through ctnetlink: when a /30 is released, no entry of its
 * guest address may survive to carry traffic for the next sandbox that
 * gets it.  One dump of the table finds the entries of any number of
 * addresses (in either direction, original or reply), which are then
 * deleted one by one.
 *
 * The kernel's filtered flush (CTA_FILTER) would avoid the dump, but
 * its IPv6 address match is inverted in nf_conntrack_netlink.c (it
 * flushes every entry except the address's; seen on 6.18), so it is
 * not used at all.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <net/if.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_conntrack.h>

#include <libmnl/libmnl.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "netd.h"

#define CT_BUFSIZE	8192

struct ct_doomed {
	uint8_t		 af;
	uint32_t	 id;
	struct nlattr	*orig;		/* a copy of CTA_TUPLE_ORIG */
};

struct ct_match {
	const struct ct_addr	*addrs;	/* sorted */
	size_t			 naddrs;
	int			 count;	/* entries matched */
	int			 hit;	/* the tuple being parsed matched */
	int			 collect;
	struct ct_doomed	*v;
	size_t			 n;
};

static int
ct_addr_cmp(const void *a, const void *b)
{
	const struct ct_addr	*x = a, *y = b;

	if (x->af != y->af)
		return (x->af < y->af ? -1 : 1);
	return (memcmp(x->addr, y->addr, sizeof(x->addr)));
}

static int
ct_socket(void)
{
	int	 fd;

	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_NETFILTER)) == -1) {
		log_warn("%s", __func__);
		return (-1);
	}
	nl_sockopts(fd);
	return (fd);
}

static struct nlmsghdr *
ct_msg(char *buf, uint16_t type, uint16_t flags, int af, uint32_t seq)
{
	struct nlmsghdr	*nlh = mnl_nlmsg_put_header(buf);
	struct nfgenmsg	*nfg;

	nlh->nlmsg_type = (NFNL_SUBSYS_CTNETLINK << 8) | type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = seq;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = af;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = 0;
	return (nlh);
}

static int
ct_ip_cb(const struct nlattr *attr, void *arg)
{
	struct ct_match	*m = arg;
	struct ct_addr	 key;
	int		 type = mnl_attr_get_type(attr);
	size_t		 len = mnl_attr_get_payload_len(attr);

	memset(&key, 0, sizeof(key));
	if ((type == CTA_IP_V4_SRC || type == CTA_IP_V4_DST) && len == 4)
		key.af = AF_INET;
	else if ((type == CTA_IP_V6_SRC || type == CTA_IP_V6_DST) &&
	    len == 16)
		key.af = AF_INET6;
	else
		return (MNL_CB_OK);
	memcpy(key.addr, mnl_attr_get_payload(attr), len);
	if (bsearch(&key, m->addrs, m->naddrs, sizeof(key), ct_addr_cmp))
		m->hit = 1;
	return (MNL_CB_OK);
}

static int
ct_tuple_cb(const struct nlattr *attr, void *arg)
{
	if (mnl_attr_get_type(attr) == CTA_TUPLE_IP &&
	    mnl_attr_validate(attr, MNL_TYPE_NESTED) == 0)
		mnl_attr_parse_nested(attr, ct_ip_cb, arg);
	return (MNL_CB_OK);
}

struct ct_entry {
	struct ct_match		*m;
	const struct nlattr	*orig;
	uint32_t		 id;
	int			 match;
};

static int
ct_attr_cb(const struct nlattr *attr, void *arg)
{
	struct ct_entry	*ce = arg;

	switch (mnl_attr_get_type(attr)) {
	case CTA_TUPLE_ORIG:
		ce->orig = attr;
		/* FALLTHROUGH */
	case CTA_TUPLE_REPLY:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) != 0)
			break;
		ce->m->hit = 0;
		mnl_attr_parse_nested(attr, ct_tuple_cb, ce->m);
		if (ce->m->hit)
			ce->match = 1;
		break;
	case CTA_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			ce->id = mnl_attr_get_u32(attr);
		break;
	}
	return (MNL_CB_OK);
}

static int
ct_entry_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct ct_match		*m = arg;
	const struct nfgenmsg	*nfg = mnl_nlmsg_get_payload(nlh);
	struct ct_entry		 ce = { m, NULL, 0, 0 };
	struct ct_doomed	*v;

	mnl_attr_parse(nlh, sizeof(*nfg), ct_attr_cb, &ce);
	if (!ce.match)
		return (0);
	m->count++;
	if (!m->collect || ce.orig == NULL)
		return (0);
	if ((v = reallocarray(m->v, m->n + 1, sizeof(*v))) == NULL)
		return (-1);
	m->v = v;
	if ((v[m->n].orig = malloc(ce.orig->nla_len)) == NULL)
		return (-1);
	memcpy(v[m->n].orig, ce.orig, ce.orig->nla_len);
	v[m->n].af = nfg->nfgen_family;
	v[m->n].id = ce.id;
	m->n++;
	return (0);
}

/* Both families, the whole table: a walk of its hash in the kernel. */
static int
ct_dump(int fd, struct ct_match *m)
{
	char		 buf[CT_BUFSIZE];
	struct nlmsghdr	*nlh;
	uint32_t	 seq = arc4random();

	nlh = ct_msg(buf, IPCTNL_MSG_CT_GET, NLM_F_DUMP, AF_UNSPEC, seq);
	return (nl_talk(fd, buf, nlh->nlmsg_len, seq, ct_entry_cb, m,
	    __func__));
}

/* Delete what ct_dump() collected; already gone is fine. */
static int
ct_delete_collected(int fd, struct ct_match *m)
{
	char		 buf[CT_BUFSIZE];
	struct nlmsghdr	*nlh;
	size_t		 i;
	int		 rc = 0;

	for (i = 0; i < m->n; i++) {
		nlh = ct_msg(buf, IPCTNL_MSG_CT_DELETE, 0, m->v[i].af,
		    arc4random());
		mnl_attr_put(nlh, CTA_TUPLE_ORIG,
		    m->v[i].orig->nla_len - MNL_ATTR_HDRLEN,
		    (char *)m->v[i].orig + MNL_ATTR_HDRLEN);
		if (m->v[i].id != 0)
			mnl_attr_put_u32(nlh, CTA_ID, m->v[i].id);
		if (nl_talk(fd, buf, nlh->nlmsg_len, nlh->nlmsg_seq, NULL,
		    NULL, __func__) == -1 && errno != ENOENT)
			rc = -1;
	}
	return (rc);
}

static void
ct_match_free(struct ct_match *m)
{
	size_t	 i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].orig);
	free(m->v);
}

int
ct_flush(const struct ct_addr *addrs, size_t n)
{
	struct ct_match	 m;
	struct ct_addr	*sorted;
	int		 fd, rc;

	if (n == 0)
		return (0);
	if ((sorted = calloc(n, sizeof(*sorted))) == NULL) {
		log_warn("%s", __func__);
		return (-1);
	}
	memcpy(sorted, addrs, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), ct_addr_cmp);
	memset(&m, 0, sizeof(m));
	m.addrs = sorted;
	m.naddrs = n;
	m.collect = 1;
	if ((fd = ct_socket()) == -1) {
		free(sorted);
		return (-1);
	}
	rc = ct_dump(fd, &m);
	if (rc == 0)
		rc = ct_delete_collected(fd, &m);
	if (rc == -1)
		log_warn("%s", __func__);
	else
		log_debug("%s: %zu addresses, %zu entries", __func__, n, m.n);
	ct_match_free(&m);
	free(sorted);
	close(fd);
	return (rc);
}

/* How many entries have this address; -1 on error. */
int
ct_count_addr(int af, const void *addr)
{
	struct ct_match	 m;
	struct ct_addr	 a;
	int		 fd, rc;

	memset(&a, 0, sizeof(a));
	a.af = af;
	memcpy(a.addr, addr, af == AF_INET ? 4 : 16);
	memset(&m, 0, sizeof(m));
	m.addrs = &a;
	m.naddrs = 1;
	if ((fd = ct_socket()) == -1)
		return (-1);
	rc = ct_dump(fd, &m);
	close(fd);
	if (rc == -1) {
		log_warn("%s", __func__);
		return (-1);
	}
	return (m.count);
}
