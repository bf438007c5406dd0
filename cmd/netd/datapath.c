/*
 * The nftables datapath: one table, inet sandboxd, whose chains are
 * shared by all sandboxes.  A sandbox is nothing but elements in the
 * sets below, keyed by its interface name, so adding or removing one is
 * a small batch of element commands whose cost does not depend on how
 * many others are live.
 *
 * The semantics are those of one chain per sandbox (see dp_show.c,
 * which renders a sandbox in that form): dispatch on the interface,
 * the sandbox's own source address required first (so every accept
 * after it is pinned to that address), established and related flows
 * pass, then its rules, then a terminal drop.  A chain "returns" where
 * the per-sandbox chain would accept, so that a packet between two
 * sandboxes must pass the sender's egress and the receiver's ingress.
 * An interface of ours without address elements (block-all, a
 * sandbox gone but not yet reaped, an orphan) has every packet dropped.
 *
 *	forward:  the node subnet only behind our interfaces;
 *		  iifname "sbx*" jump egress; oifname "sbx*" jump ingress;
 *		  iifname "sbx*" counter name iifname map @counters
 *	input:	  iifname "sbx*" (neighbour discovery accept); jump host;
 *		  counter as above
 *	output:	  the node subnet only behind our interfaces;
 *		  oifname "sbx*" (neighbour discovery accept); jump ingress
 *	egress:	  anti-spoof, @blocked, ct state, v4/v6: @host, @pin,
 *		  @cidr (one lookup per prefix length of the masked
 *		  address: hash sets, no interval set to rebuild),
 *		  @egress_allow minus the private ranges, drop
 *	ingress:  own address as destination, @blocked, ct state,
 *		  @inbound_any, @from (as cidr, on the source), drop
 *	host:	  anti-spoof, @blocked, ct state, DNS to the resolver, drop
 *	postrouting (nat, only with an uplink): masquerade the subnet
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <net/if.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_conntrack_common.h>
#include <linux/netfilter/nf_tables.h>
#include <netinet/icmp6.h>

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
#include <libnftnl/expr.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "addrclass.h"
#include "log.h"
#include "dp.h"

/* nft(8)'s datatype numbers, so that nft list shows the sets. */
#define T_IPV4		7
#define T_IPV6		8
#define T_PROTO		12
#define T_SERVICE	13
#define T_MARK		19
#define T_IFNAME	41
#define CAT2(a, b)	(((a) << 6) | (b))
#define CAT3(a, b, c)	((CAT2(a, b) << 6) | (c))
#define CAT4(a, b, c, d) ((CAT3(a, b, c) << 6) | (d))

#define R00	NFT_REG32_00
#define R04	NFT_REG32_04
#define R05	NFT_REG32_05
#define R08	NFT_REG32_08
#define CT_ESTREL	(NF_CT_STATE_BIT(IP_CT_ESTABLISHED) | \
		    NF_CT_STATE_BIT(IP_CT_RELATED))

#define DP_ELEMS_PER_MSG	32

const struct dp_setdef dp_sets[DS_MAX] = {
	[DS_COUNTERS] =	{ "counters", 16, T_IFNAME, NFT_SET_OBJECT },
	[DS_SRC4] =	{ "src4", 20, CAT2(T_IFNAME, T_IPV4), 0 },
	[DS_SRC6] =	{ "src6", 32, CAT2(T_IFNAME, T_IPV6), 0 },
	[DS_BLOCKED] =	{ "blocked", 16, T_IFNAME, 0 },
	[DS_EGRESS] =	{ "egress_allow", 16, T_IFNAME, 0 },
	[DS_INBOUND] =	{ "inbound_any", 16, T_IFNAME, 0 },
	[DS_HOST4] =	{ "host4", 28,
			    CAT4(T_IFNAME, T_IPV4, T_PROTO, T_SERVICE), 0 },
	[DS_HOST6] =	{ "host6", 40,
			    CAT4(T_IFNAME, T_IPV6, T_PROTO, T_SERVICE), 0 },
	[DS_PIN4] =	{ "pin4", 28,
			    CAT4(T_IFNAME, T_IPV4, T_PROTO, T_SERVICE),
			    NFT_SET_TIMEOUT },
	[DS_PIN6] =	{ "pin6", 40,
			    CAT4(T_IFNAME, T_IPV6, T_PROTO, T_SERVICE),
			    NFT_SET_TIMEOUT },
	[DS_CIDR4] =	{ "cidr4", 24, CAT3(T_IFNAME, T_IPV4, T_MARK), 0 },
	[DS_CIDR6] =	{ "cidr6", 36, CAT3(T_IFNAME, T_IPV6, T_MARK), 0 },
	[DS_CIDR4U] =	{ "cidr4_users", 16, T_IFNAME, 0 },
	[DS_CIDR6U] =	{ "cidr6_users", 16, T_IFNAME, 0 },
	[DS_FROM4] =	{ "from4", 24, CAT3(T_IFNAME, T_IPV4, T_MARK), 0 },
	[DS_FROM6] =	{ "from6", 36, CAT3(T_IFNAME, T_IPV6, T_MARK), 0 },
	[DS_FROM4U] =	{ "from4_users", 16, T_IFNAME, 0 },
	[DS_FROM6U] =	{ "from6_users", 16, T_IFNAME, 0 },
};

struct dp_chain {
	const char	*name;
	const char	*type;		/* base chains */
	int		 hook;
	int		 prio;
};

static const struct dp_chain dp_chains[] = {
	{ "forward", "filter", NF_INET_FORWARD, 0 },
	{ "input", "filter", NF_INET_LOCAL_IN, 0 },
	{ "output", "filter", NF_INET_LOCAL_OUT, 0 },
	{ "egress", NULL, 0, 0 },
	{ "egress4", NULL, 0, 0 },
	{ "egress4_cidr", NULL, 0, 0 },
	{ "egress4_allow", NULL, 0, 0 },
	{ "egress4_internet", NULL, 0, 0 },
	{ "egress6", NULL, 0, 0 },
	{ "egress6_cidr", NULL, 0, 0 },
	{ "egress6_allow", NULL, 0, 0 },
	{ "egress6_internet", NULL, 0, 0 },
	{ "ingress", NULL, 0, 0 },
	{ "ingress4_from", NULL, 0, 0 },
	{ "ingress6_from", NULL, 0, 0 },
	{ "host", NULL, 0, 0 },
};
static const struct dp_chain dp_nat = {
	"postrouting", "nat", NF_INET_POST_ROUTING, 100
};

/* One rule being built; a failed allocation spoils the whole batch. */
struct dp_rule {
	struct dp		*dp;
	struct nftnl_rule	*r;
	int			 err;
};

static void
dpr_add(struct dp_rule *rb, struct nftnl_expr *e)
{
	if (e == NULL || rb->r == NULL) {
		rb->err = 1;
		if (e != NULL)
			nftnl_expr_free(e);
		return;
	}
	nftnl_rule_add_expr(rb->r, e);
}

/* A rule of chain in our table, with no expressions yet. */
static struct nftnl_rule *
dp_rule_new(const char *chain)
{
	struct nftnl_rule	*r;

	if ((r = nftnl_rule_alloc()) == NULL)
		return (NULL);
	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, NETD_TABLE);
	nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, chain);
	nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY, NFPROTO_INET);
	return (r);
}

static void
dpr_begin(struct dp_rule *rb, const char *chain)
{
	if ((rb->r = dp_rule_new(chain)) == NULL)
		rb->err = 1;
}

static void
dpr_end(struct dp_rule *rb)
{
	if (rb->r == NULL)
		return;
	if (rb->err)
		nftnl_rule_free(rb->r);
	else if (nft_batch_put(rb->dp->b, NFT_MSG_NEWRULE,
	    NLM_F_CREATE | NLM_F_APPEND, NK_RULE, rb->r) == -1)
		rb->err = 1;
	rb->r = NULL;
}

static void
x_meta(struct dp_rule *rb, uint32_t key, uint32_t dreg)
{
	struct nftnl_expr	*e = nftnl_expr_alloc("meta");

	if (e != NULL) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, key);
		nftnl_expr_set_u32(e, NFTNL_EXPR_META_DREG, dreg);
	}
	dpr_add(rb, e);
}

static void
x_payload(struct dp_rule *rb, uint32_t base, uint32_t off, uint32_t len,
    uint32_t dreg)
{
	struct nftnl_expr	*e = nftnl_expr_alloc("payload");

	if (e != NULL) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, base);
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, off);
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, len);
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, dreg);
	}
	dpr_add(rb, e);
}

static void
x_cmp(struct dp_rule *rb, uint32_t reg, uint32_t op, const void *data,
    uint32_t len)
{
	struct nftnl_expr	*e = nftnl_expr_alloc("cmp");

	if (e != NULL) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_SREG, reg);
		nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_OP, op);
		nftnl_expr_set(e, NFTNL_EXPR_CMP_DATA, data, len);
	}
	dpr_add(rb, e);
}

static void
x_bitwise(struct dp_rule *rb, uint32_t reg, const void *mask, uint32_t len)
{
	struct nftnl_expr	*e = nftnl_expr_alloc("bitwise");
	static const uint8_t	 zero[16];

	if (e != NULL) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_SREG, reg);
		nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_DREG, reg);
		nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_LEN, len);
		nftnl_expr_set(e, NFTNL_EXPR_BITWISE_MASK, mask, len);
		nftnl_expr_set(e, NFTNL_EXPR_BITWISE_XOR, zero, len);
	}
	dpr_add(rb, e);
}

static void
x_lookup(struct dp_rule *rb, uint32_t sreg, int set, int inv)
{
	struct nftnl_expr	*e = nftnl_expr_alloc("lookup");

	if (e != NULL) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SREG, sreg);
		nftnl_expr_set_str(e, NFTNL_EXPR_LOOKUP_SET,
		    dp_sets[set].name);
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SET_ID, set + 1);
		if (inv)
			nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_FLAGS,
			    NFT_LOOKUP_F_INV);
	}
	dpr_add(rb, e);
}

static void
x_imm(struct dp_rule *rb, uint32_t dreg, const void *data, uint32_t len)
{
	struct nftnl_expr	*e = nftnl_expr_alloc("immediate");

	if (e != NULL) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, dreg);
		nftnl_expr_set(e, NFTNL_EXPR_IMM_DATA, data, len);
	}
	dpr_add(rb, e);
}

static void
x_verdict(struct dp_rule *rb, int verdict, const char *chain)
{
	struct nftnl_expr	*e = nftnl_expr_alloc("immediate");

	if (e != NULL) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, NFT_REG_VERDICT);
		nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_VERDICT, verdict);
		if (chain != NULL)
			nftnl_expr_set_str(e, NFTNL_EXPR_IMM_CHAIN, chain);
	}
	dpr_add(rb, e);
}

static void
x_simple(struct dp_rule *rb, const char *name)
{
	dpr_add(rb, nftnl_expr_alloc(name));
}

static void
x_ct(struct dp_rule *rb, uint32_t key, uint32_t dreg)
{
	struct nftnl_expr	*e = nftnl_expr_alloc("ct");

	if (e != NULL) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_CT_KEY, key);
		nftnl_expr_set_u32(e, NFTNL_EXPR_CT_DREG, dreg);
	}
	dpr_add(rb, e);
}

static void
x_objref_map(struct dp_rule *rb, uint32_t sreg, int set)
{
	struct nftnl_expr	*e = nftnl_expr_alloc("objref");

	if (e != NULL) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_SET_SREG, sreg);
		nftnl_expr_set_str(e, NFTNL_EXPR_OBJREF_SET_NAME,
		    dp_sets[set].name);
		nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_SET_ID, set + 1);
	}
	dpr_add(rb, e);
}

/* meta nfproto ipv4|ipv6 */
static void
m_nfproto(struct dp_rule *rb, int af)
{
	uint8_t	 v = af == AF_INET ? NFPROTO_IPV4 : NFPROTO_IPV6;

	x_meta(rb, NFT_META_NFPROTO, R00);
	x_cmp(rb, R00, NFT_CMP_EQ, &v, sizeof(v));
}

/* iifname|oifname "<prefix>*": a compare of the first bytes only. */
static void
m_ours(struct dp_rule *rb, uint32_t key)
{
	const char	*prefix = rb->dp->p.ifprefix;

	x_meta(rb, key, R00);
	x_cmp(rb, R00, NFT_CMP_EQ, prefix, strlen(prefix));
}

/* ct state established,related */
static void
m_established(struct dp_rule *rb)
{
	uint32_t	 mask = CT_ESTREL, zero = 0;

	x_ct(rb, NFT_CT_STATE, R00);
	x_bitwise(rb, R00, &mask, sizeof(mask));
	x_cmp(rb, R00, NFT_CMP_NEQ, &zero, sizeof(zero));
}

static void
m_l4(struct dp_rule *rb, uint8_t proto)
{
	x_meta(rb, NFT_META_L4PROTO, R00);
	x_cmp(rb, R00, NFT_CMP_EQ, &proto, sizeof(proto));
}

static void
m_dport(struct dp_rule *rb, uint16_t port)
{
	uint16_t	 p = htons(port);

	x_payload(rb, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, R00);
	x_cmp(rb, R00, NFT_CMP_EQ, &p, sizeof(p));
}

/* ip|ip6 saddr|daddr into dreg */
static void
m_addr(struct dp_rule *rb, int af, int dst, uint32_t dreg)
{
	if (af == AF_INET)
		x_payload(rb, NFT_PAYLOAD_NETWORK_HEADER, dst ? 16 : 12, 4,
		    dreg);
	else
		x_payload(rb, NFT_PAYLOAD_NETWORK_HEADER, dst ? 24 : 8, 16,
		    dreg);
}

/* ifname @set: the interface name alone as the key */
static void
m_member(struct dp_rule *rb, uint32_t ifkey, int set)
{
	x_meta(rb, ifkey, R00);
	x_lookup(rb, R00, set, 0);
}

static void
dp_mask(int af, int len, uint8_t *mask)
{
	int	 i, n = af == AF_INET ? 4 : 16;

	for (i = 0; i < n; i++, len -= 8)
		mask[i] = len >= 8 ? 0xff : len <= 0 ? 0 :
		    (uint8_t)(0xff << (8 - len));
}

static void
r_verdict(struct dp_rule *rb, const char *chain, int verdict,
    const char *target)
{
	dpr_begin(rb, chain);
	x_verdict(rb, verdict, target);
	dpr_end(rb);
}

/* ifname @set verdict */
static void
r_member(struct dp_rule *rb, const char *chain, uint32_t ifkey, int set,
    int verdict, const char *target)
{
	dpr_begin(rb, chain);
	m_member(rb, ifkey, set);
	x_verdict(rb, verdict, target);
	dpr_end(rb);
}

/*
 * The head of egress, ingress and host: the sandbox's own address (as
 * source, or as destination for ingress) or drop, block-all, and
 * established or related traffic passes.
 */
static void
r_head(struct dp_rule *rb, const char *chain, uint32_t ifkey, int dst)
{
	int	 af;

	for (af = AF_INET; af <= AF_INET6; af += AF_INET6 - AF_INET) {
		dpr_begin(rb, chain);
		m_nfproto(rb, af);
		x_meta(rb, ifkey, R00);
		m_addr(rb, af, dst, R04);
		x_lookup(rb, R00, af == AF_INET ? DS_SRC4 : DS_SRC6, 1);
		x_verdict(rb, NF_DROP, NULL);
		dpr_end(rb);
	}
	r_member(rb, chain, ifkey, DS_BLOCKED, NF_DROP, NULL);
	dpr_begin(rb, chain);
	m_established(rb);
	x_verdict(rb, NFT_RETURN, NULL);
	dpr_end(rb);
}

/* icmpv6 type nd-neighbor-solicit|advert ip6 hoplimit 255 accept */
static void
r_nd(struct dp_rule *rb, const char *chain, uint32_t ifkey)
{
	static const uint8_t	 types[] = { ND_NEIGHBOR_SOLICIT,
				    ND_NEIGHBOR_ADVERT };
	uint8_t			 hl = 255;
	size_t			 i;

	for (i = 0; i < sizeof(types); i++) {
		dpr_begin(rb, chain);
		m_ours(rb, ifkey);
		m_nfproto(rb, AF_INET6);
		m_l4(rb, IPPROTO_ICMPV6);
		x_payload(rb, NFT_PAYLOAD_TRANSPORT_HEADER, 0, 1, R00);
		x_cmp(rb, R00, NFT_CMP_EQ, &types[i], 1);
		x_payload(rb, NFT_PAYLOAD_NETWORK_HEADER, 7, 1, R00);
		x_cmp(rb, R00, NFT_CMP_EQ, &hl, 1);
		x_verdict(rb, NF_ACCEPT, NULL);
		dpr_end(rb);
	}
}

static void
r_count(struct dp_rule *rb, const char *chain)
{
	dpr_begin(rb, chain);
	m_ours(rb, NFT_META_IIFNAME);
	x_meta(rb, NFT_META_IIFNAME, R00);
	x_objref_map(rb, R00, DS_COUNTERS);
	dpr_end(rb);
}

static void
r_dispatch(struct dp_rule *rb, const char *chain, uint32_t ifkey,
    const char *target)
{
	dpr_begin(rb, chain);
	m_ours(rb, ifkey);
	x_verdict(rb, NFT_JUMP, target);
	dpr_end(rb);
}

/* The node subnet's addresses, v4 or v6, as net and mask. */
static void
dp_subnet(const struct netd_params *p, int af, uint8_t *net, uint8_t *mask)
{
	static const uint8_t	 prefix6[] = NETD_V6_PREFIX;

	memset(net, 0, 16);
	if (af == AF_INET) {
		memcpy(net, &p->subnet, 4);
		dp_mask(af, p->subnet_len, mask);
	} else {
		memcpy(net, prefix6, sizeof(prefix6));
		dp_mask(af, NETD_V6_PREFIX_LEN, mask);
	}
}

/*
 * ip daddr SUBNET oifname != "sbx*" drop (and saddr with iifname): the
 * node subnet lives behind our interfaces only.  A /30 between two
 * sandboxes is then unreachable, so no conntrack entry can be made for
 * it that the next sandbox to get it would inherit.
 */
static void
r_subnet(struct dp_rule *rb, const char *chain, int dst)
{
	const char	*prefix = rb->dp->p.ifprefix;
	uint8_t		 net[16], mask[16];
	int		 af;

	for (af = AF_INET; af <= AF_INET6; af += AF_INET6 - AF_INET) {
		dp_subnet(&rb->dp->p, af, net, mask);
		dpr_begin(rb, chain);
		m_nfproto(rb, af);
		m_addr(rb, af, dst, R04);
		x_bitwise(rb, R04, mask, af == AF_INET ? 4 : 16);
		x_cmp(rb, R04, NFT_CMP_EQ, net, af == AF_INET ? 4 : 16);
		x_meta(rb, dst ? NFT_META_OIFNAME : NFT_META_IIFNAME, R00);
		x_cmp(rb, R00, NFT_CMP_NEQ, prefix, strlen(prefix));
		/* The host's own gateway addresses, in output. */
		if (dst)
			x_cmp(rb, R00, NFT_CMP_NEQ, "lo", 3);
		x_verdict(rb, NF_DROP, NULL);
		dpr_end(rb);
	}
}

static void
r_base(struct dp_rule *rb)
{
	r_subnet(rb, "forward", 1);
	r_subnet(rb, "forward", 0);
	r_subnet(rb, "output", 1);
	r_dispatch(rb, "forward", NFT_META_IIFNAME, "egress");
	r_dispatch(rb, "forward", NFT_META_OIFNAME, "ingress");
	r_count(rb, "forward");
	r_nd(rb, "input", NFT_META_IIFNAME);
	r_dispatch(rb, "input", NFT_META_IIFNAME, "host");
	r_count(rb, "input");
	r_nd(rb, "output", NFT_META_OIFNAME);
	r_dispatch(rb, "output", NFT_META_OIFNAME, "ingress");
}

/* ifname . addr . l4proto . th dport @set return */
static void
r_port_lookup(struct dp_rule *rb, const char *chain, int af, int set)
{
	uint32_t	 next = af == AF_INET ? R05 : R08;

	dpr_begin(rb, chain);
	x_meta(rb, NFT_META_IIFNAME, R00);
	m_addr(rb, af, 1, R04);
	x_meta(rb, NFT_META_L4PROTO, next);
	x_payload(rb, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, next + 1);
	x_lookup(rb, R00, set, 0);
	x_verdict(rb, NFT_RETURN, NULL);
	dpr_end(rb);
}

/*
 * ifname . (addr & mask) . len @set return, for every prefix length:
 * a CIDR is one hash element (its network and length), found by the
 * rule of its length.  Longest first, so /32 hosts go fastest.
 */
static void
r_prefixes(struct dp_rule *rb, const char *chain, uint32_t ifkey,
    int af, int dst, int set)
{
	uint8_t		 mask[16];
	uint32_t	 len, max = af == AF_INET ? 32 : 128;
	uint32_t	 alen = af == AF_INET ? 4 : 16;
	int		 l;

	for (l = max; l >= 0; l--) {
		len = l;
		dp_mask(af, l, mask);
		dpr_begin(rb, chain);
		x_meta(rb, ifkey, R00);
		m_addr(rb, af, dst, R04);
		if (l < (int)max)
			x_bitwise(rb, R04, mask, alen);
		x_imm(rb, af == AF_INET ? R05 : R08, &len, sizeof(len));
		x_lookup(rb, R00, set, 0);
		x_verdict(rb, NFT_RETURN, NULL);
		dpr_end(rb);
	}
}

/*
 * addr & mask == net drop, for the special-purpose ranges of a family
 * (lib/addrclass.c, the table dnspind judges answers by), which egress
 * allow still refuses.  A range that carries an IPv4 address (NAT64,
 * 6to4) is dropped whole: a prefix match cannot judge what it embeds.
 */
static void
r_private(struct dp_rule *rb, const char *chain, int af)
{
	const struct addrclass_range	*ar;
	uint8_t				 mask[16];
	size_t				 i;

	for (i = 0; i < addrclass_nranges; i++) {
		ar = &addrclass_ranges[i];
		if (ar->af != af)
			continue;
		dp_mask(af, ar->len, mask);
		dpr_begin(rb, chain);
		m_addr(rb, af, 1, R04);
		x_bitwise(rb, R04, mask, af == AF_INET ? 4 : 16);
		x_cmp(rb, R04, NFT_CMP_EQ, ar->net, af == AF_INET ? 4 : 16);
		x_verdict(rb, NF_DROP, NULL);
		dpr_end(rb);
	}
	r_verdict(rb, chain, NFT_RETURN, NULL);
}

static void
r_egress_family(struct dp_rule *rb, int af)
{
	const char	*c = af == AF_INET ? "egress4" : "egress6";
	const char	*cidr = af == AF_INET ? "egress4_cidr" : "egress6_cidr";
	const char	*allow = af == AF_INET ? "egress4_allow" :
			    "egress6_allow";
	const char	*inet = af == AF_INET ? "egress4_internet" :
			    "egress6_internet";
	int		 v4 = af == AF_INET;

	r_port_lookup(rb, c, af, v4 ? DS_HOST4 : DS_HOST6);
	r_port_lookup(rb, c, af, v4 ? DS_PIN4 : DS_PIN6);
	r_member(rb, c, NFT_META_IIFNAME, v4 ? DS_CIDR4U : DS_CIDR6U,
	    NFT_GOTO, cidr);
	r_verdict(rb, c, NFT_GOTO, allow);

	r_prefixes(rb, cidr, NFT_META_IIFNAME, af, 1,
	    v4 ? DS_CIDR4 : DS_CIDR6);
	r_verdict(rb, cidr, NFT_GOTO, allow);

	r_member(rb, allow, NFT_META_IIFNAME, DS_EGRESS, NFT_GOTO, inet);
	r_verdict(rb, allow, NF_DROP, NULL);

	r_private(rb, inet, af);
}

static void
r_egress(struct dp_rule *rb)
{
	r_head(rb, "egress", NFT_META_IIFNAME, 0);
	dpr_begin(rb, "egress");
	m_nfproto(rb, AF_INET);
	x_verdict(rb, NFT_GOTO, "egress4");
	dpr_end(rb);
	dpr_begin(rb, "egress");
	m_nfproto(rb, AF_INET6);
	x_verdict(rb, NFT_GOTO, "egress6");
	dpr_end(rb);
	r_verdict(rb, "egress", NF_DROP, NULL);
	r_egress_family(rb, AF_INET);
	r_egress_family(rb, AF_INET6);
}

static void
r_ingress(struct dp_rule *rb)
{
	int	 af;

	r_head(rb, "ingress", NFT_META_OIFNAME, 1);
	r_member(rb, "ingress", NFT_META_OIFNAME, DS_INBOUND, NFT_RETURN,
	    NULL);
	for (af = AF_INET; af <= AF_INET6; af += AF_INET6 - AF_INET) {
		dpr_begin(rb, "ingress");
		m_nfproto(rb, af);
		m_member(rb, NFT_META_OIFNAME,
		    af == AF_INET ? DS_FROM4U : DS_FROM6U);
		x_verdict(rb, NFT_GOTO,
		    af == AF_INET ? "ingress4_from" : "ingress6_from");
		dpr_end(rb);
	}
	r_verdict(rb, "ingress", NF_DROP, NULL);
	r_prefixes(rb, "ingress4_from", NFT_META_OIFNAME, AF_INET, 0,
	    DS_FROM4);
	r_verdict(rb, "ingress4_from", NF_DROP, NULL);
	r_prefixes(rb, "ingress6_from", NFT_META_OIFNAME, AF_INET6, 0,
	    DS_FROM6);
	r_verdict(rb, "ingress6_from", NF_DROP, NULL);
}

/* Of the host, a sandbox may only ask the resolver, udp and tcp 53. */
static void
r_host(struct dp_rule *rb)
{
	uint8_t	 protos[] = { IPPROTO_UDP, IPPROTO_TCP };
	size_t	 i;

	r_head(rb, "host", NFT_META_IIFNAME, 0);
	for (i = 0; i < sizeof(protos); i++) {
		dpr_begin(rb, "host");
		m_nfproto(rb, AF_INET);
		m_addr(rb, AF_INET, 1, R04);
		x_cmp(rb, R04, NFT_CMP_EQ, &rb->dp->p.resolver, 4);
		m_l4(rb, protos[i]);
		m_dport(rb, 53);
		x_verdict(rb, NFT_RETURN, NULL);
		dpr_end(rb);
	}
	r_verdict(rb, "host", NF_DROP, NULL);
}

/* oifname UPLINK ip saddr SUBNET masquerade, and the IPv6 twin */
static void
r_masquerade(struct dp_rule *rb)
{
	const struct netd_params *p = &rb->dp->p;
	char			 ifname[IFNAMSIZ];
	uint8_t			 mask[16], net[16];
	int			 af;

	memset(ifname, 0, sizeof(ifname));
	strlcpy(ifname, p->uplink, sizeof(ifname));
	for (af = AF_INET; af <= AF_INET6; af += AF_INET6 - AF_INET) {
		dp_subnet(p, af, net, mask);
		dpr_begin(rb, dp_nat.name);
		x_meta(rb, NFT_META_OIFNAME, R00);
		x_cmp(rb, R00, NFT_CMP_EQ, ifname, strlen(ifname) + 1);
		m_nfproto(rb, af);
		m_addr(rb, af, 0, R04);
		x_bitwise(rb, R04, mask, af == AF_INET ? 4 : 16);
		x_cmp(rb, R04, NFT_CMP_EQ, net, af == AF_INET ? 4 : 16);
		x_simple(rb, "masq");
		dpr_end(rb);
	}
}

static struct nftnl_table *
dp_table_new(void)
{
	struct nftnl_table	*t;

	if ((t = nftnl_table_alloc()) == NULL)
		return (NULL);
	nftnl_table_set_str(t, NFTNL_TABLE_NAME, NETD_TABLE);
	nftnl_table_set_u32(t, NFTNL_TABLE_FAMILY, NFPROTO_INET);
	return (t);
}

/* NEWTABLE (owned, see nft_table_flags) or a deletion of the table. */
static int
dp_put_table(struct dp *dp, uint16_t type, uint16_t flags)
{
	struct nftnl_table	*t;

	if ((t = dp_table_new()) == NULL)
		return (-1);
	if (type == NFT_MSG_NEWTABLE)
		nftnl_table_set_u32(t, NFTNL_TABLE_FLAGS, nft_table_flags());
	return (nft_batch_put(dp->b, type, flags, NK_TABLE, t));
}

static int
dp_any_cb(const struct nlmsghdr *nlh, void *arg)
{
	return (0);
}

/* Whether the kernel has o (of kind k, which a get of type asks for). */
static int
dp_exists(struct dp *dp, uint16_t type, enum nft_kind k, void *o)
{
	if (nft_get(dp->ns, type, 0, k, o, dp_any_cb, NULL) == 0)
		return (1);
	if (errno == ENOENT)
		return (0);
	log_warn("%s: nf_tables get %u", __func__, type);
	return (-1);
}

/* One of our sets, by name only: enough to address its elements. */
struct nftnl_set *
dp_set_new(int set)
{
	struct nftnl_set	*s;

	if ((s = nftnl_set_alloc()) == NULL)
		return (NULL);
	nftnl_set_set_str(s, NFTNL_SET_TABLE, NETD_TABLE);
	nftnl_set_set_str(s, NFTNL_SET_NAME, dp_sets[set].name);
	return (s);
}

static int
dp_put_set(struct dp *dp, int i)
{
	const struct dp_setdef	*d = &dp_sets[i];
	struct nftnl_set	*s;

	if ((s = dp_set_new(i)) == NULL)
		return (-1);
	nftnl_set_set_u32(s, NFTNL_SET_FAMILY, NFPROTO_INET);
	nftnl_set_set_u32(s, NFTNL_SET_ID, i + 1);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN, d->klen);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE, d->ktype);
	nftnl_set_set_u32(s, NFTNL_SET_FLAGS, d->flags);
	if (d->flags & NFT_SET_OBJECT)
		nftnl_set_set_u32(s, NFTNL_SET_OBJ_TYPE, NFT_OBJECT_COUNTER);
	return (nft_batch_put(dp->b, NFT_MSG_NEWSET, NLM_F_CREATE, NK_SET, s));
}

static struct nftnl_chain *
dp_chain_new(const char *name)
{
	struct nftnl_chain	*ch;

	if ((ch = nftnl_chain_alloc()) == NULL)
		return (NULL);
	nftnl_chain_set_str(ch, NFTNL_CHAIN_TABLE, NETD_TABLE);
	nftnl_chain_set_str(ch, NFTNL_CHAIN_NAME, name);
	nftnl_chain_set_u32(ch, NFTNL_CHAIN_FAMILY, NFPROTO_INET);
	return (ch);
}

static int
dp_put_chain(struct dp *dp, const struct dp_chain *c, uint16_t type,
    uint16_t flags)
{
	struct nftnl_chain	*ch;

	if ((ch = dp_chain_new(c->name)) == NULL)
		return (-1);
	if (type == NFT_MSG_NEWCHAIN && c->type != NULL) {
		nftnl_chain_set_str(ch, NFTNL_CHAIN_TYPE, c->type);
		nftnl_chain_set_u32(ch, NFTNL_CHAIN_HOOKNUM, c->hook);
		nftnl_chain_set_s32(ch, NFTNL_CHAIN_PRIO, c->prio);
		nftnl_chain_set_u32(ch, NFTNL_CHAIN_POLICY, NF_ACCEPT);
	}
	return (nft_batch_put(dp->b, type, flags, NK_CHAIN, ch));
}

/* A rule command with only table and chain flushes the chain. */
static int
dp_put_flush(struct dp *dp, const char *chain, uint16_t type)
{
	struct nftnl_rule	*r;

	if ((r = dp_rule_new(chain)) == NULL)
		return (-1);
	return (nft_batch_put(dp->b, type, 0, NK_RULE, r));
}

/*
 * The old table, in a fresh start's batch: with DESTROY whether or not
 * it exists, else deleted if a get finds it.
 */
static int
dp_put_table_gone(struct dp *dp)
{
	struct nftnl_table	*t;
	int			 e;

	if (!dp->destroy) {
		if ((t = dp_table_new()) == NULL)
			return (-1);
		if ((e = dp_exists(dp, NFT_MSG_GETTABLE, NK_TABLE, t)) != 1)
			return (e);
	}
	return (dp_put_table(dp, dp_del_op(dp, DD_TABLE), 0));
}

/* Without an uplink the nat chain goes, rules first, if it is there. */
static int
dp_put_nat_gone(struct dp *dp)
{
	struct nftnl_chain	*ch;
	int			 e;

	if (!dp->destroy) {
		if ((ch = dp_chain_new(dp_nat.name)) == NULL)
			return (-1);
		if ((e = dp_exists(dp, NFT_MSG_GETCHAIN, NK_CHAIN, ch)) != 1)
			return (e);
	}
	if (dp_put_flush(dp, dp_nat.name, dp_del_op(dp, DD_RULE)) == -1)
		return (-1);
	return (dp_put_chain(dp, &dp_nat, dp_del_op(dp, DD_CHAIN), 0));
}

/*
 * The whole table in one batch: sets and chains are created if new
 * (elements, and so every live sandbox, are kept), chains flushed and
 * refilled.  With fresh, the table is deleted first in the same
 * batch: sandboxes then have no elements and all their packets drop.
 */
static int
dp_build_all(struct dp *dp, void *arg)
{
	struct dp_rule	 rb = { dp, NULL, 0 };
	size_t		 i;
	int		 fresh = *(int *)arg, rc = 0;
	int		 nat = dp->p.uplink[0] != '\0';

	if (fresh && dp_put_table_gone(dp) == -1)
		return (-1);
	rc |= dp_put_table(dp, NFT_MSG_NEWTABLE, NLM_F_CREATE);
	for (i = 0; i < DS_MAX; i++)
		rc |= dp_put_set(dp, i);
	for (i = 0; i < sizeof(dp_chains) / sizeof(dp_chains[0]); i++) {
		rc |= dp_put_chain(dp, &dp_chains[i], NFT_MSG_NEWCHAIN,
		    NLM_F_CREATE);
		rc |= dp_put_flush(dp, dp_chains[i].name, NFT_MSG_DELRULE);
	}
	if (nat) {
		rc |= dp_put_chain(dp, &dp_nat, NFT_MSG_NEWCHAIN,
		    NLM_F_CREATE);
		rc |= dp_put_flush(dp, dp_nat.name, NFT_MSG_DELRULE);
	} else if (!fresh && dp_put_nat_gone(dp) == -1)
		return (-1);	/* a fresh table has no nat chain */
	r_base(&rb);
	r_egress(&rb);
	r_ingress(&rb);
	r_host(&rb);
	if (nat)
		r_masquerade(&rb);
	if (rc != 0 || rb.err) {
		errno = ENOMEM;
		return (-1);
	}
	return (0);
}

static int
dp_put_all(struct dp *dp, int fresh)
{
	return (dp_commit(dp, __func__, dp_build_all, &fresh));
}

int
dp_init(struct dp *dp)
{
	if (dp_put_all(dp, 0) == 0)
		return (0);
	/*
	 * A table of another layout (an older netd: a set or chain of our
	 * name defined otherwise, or a table not owned, EOPNOTSUPP: the
	 * owner flag cannot be added later) is replaced whole, in one batch; live
	 * sandboxes lose their elements, so their packets drop until they
	 * are added again.  Any other error leaves the table alone.
	 */
	if (errno == EPERM) {
		log_warnx("%s: table inet %s is owned by another socket: "
		    "another sandboxd in this network namespace?", __func__,
		    NETD_TABLE);
		return (-1);
	}
	if (errno != EEXIST && errno != EBUSY && errno != EOPNOTSUPP &&
	    errno != EINVAL) {
		log_warn("%s: table inet %s", __func__, NETD_TABLE);
		return (-1);
	}
	log_warnx("%s: recreating table inet %s", __func__, NETD_TABLE);
	if (dp_put_all(dp, 1) == -1) {
		log_warnx("%s: cannot program table inet %s", __func__,
		    NETD_TABLE);
		return (-1);
	}
	log_debug("%s: table inet %s ready", __func__, NETD_TABLE);
	return (0);
}

static int
dp_build_drop(struct dp *dp, void *arg)
{
	return (dp_put_table_gone(dp));
}

/* The whole table, for good: an orderly stop, after every link went. */
int
dp_drop(struct dp *dp)
{
	return (dp_commit(dp, __func__, dp_build_drop, NULL));
}

struct dp *
dp_open(const struct netd_params *p)
{
	struct dp	*dp;

	if ((dp = calloc(1, sizeof(*dp))) == NULL) {
		log_warn("%s", __func__);
		return (NULL);
	}
	dp->p = *p;
	dp->destroy = nft_has_destroy();
	log_debug("%s: deletions by %s", __func__, dp->destroy ?
	    "NFT_MSG_DESTROY" : "NFT_MSG_DEL of what exists");
	RB_INIT(&dp->sbxs);
	TAILQ_INIT(&dp->held);
	if ((dp->ns = nft_sock_owner()) == NULL ||
	    (dp->b = nft_batch_new(dp->ns)) == NULL) {
		log_warnx("%s: cannot open nf_tables", __func__);
		nft_sock_close(dp->ns);
		free(dp);
		return (NULL);
	}
	return (dp);
}

void
dp_close(struct dp *dp)
{
	if (dp == NULL)
		return;
	dp_sbx_free_all(dp);
	dp_held_free_all(dp);
	dp_del_free(dp);
	nft_batch_free(dp->b);
	nft_sock_close(dp->ns);
	free(dp);
}

void
dp_elem_ifname(const struct dp_elem *e, char *ifname)
{
	memcpy(ifname, e->key, DP_IFLEN);
	ifname[DP_IFLEN - 1] = '\0';
}

/* Whether the kernel holds the element (or counter, DP_OBJ_COUNTER). */
int
dp_elem_present(struct dp *dp, const struct dp_elem *e)
{
	struct nftnl_set	*s;
	struct nftnl_set_elem	*se;
	char			 ifname[IFNAMSIZ];
	uint64_t		 pkts, bytes;

	if (e->set == DP_OBJ_COUNTER) {
		dp_elem_ifname(e, ifname);
		if (dp_counter_read(dp, ifname, &pkts, &bytes) == 0)
			return (1);
		return (errno == ENOENT ? 0 : -1);
	}
	if ((s = dp_set_new(e->set)) == NULL)
		return (-1);
	if ((se = nftnl_set_elem_alloc()) == NULL) {
		nftnl_set_free(s);
		return (-1);
	}
	nftnl_set_elem_set(se, NFTNL_SET_ELEM_KEY, e->key, e->klen);
	nftnl_set_elem_add(s, se);
	return (dp_exists(dp, NFT_MSG_GETSETELEM, NK_ELEMS, s));
}

/*
 * Element commands of one type (NEW or a deletion) for a run of elements,
 * one command per set and at most DP_ELEMS_PER_MSG elements each.
 */
static int
dp_put_elem_msg(struct dp *dp, uint16_t type, uint16_t flags,
    const struct dp_elem *elems, size_t n)
{
	struct nftnl_set	*s;
	struct nftnl_set_elem	*e;
	char			 ifname[IFNAMSIZ];
	size_t			 i;

	if ((s = dp_set_new(elems[0].set)) == NULL)
		return (-1);
	for (i = 0; i < n; i++) {
		if ((e = nftnl_set_elem_alloc()) == NULL) {
			nftnl_set_free(s);
			return (-1);
		}
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, elems[i].key,
		    elems[i].klen);
		if (type == NFT_MSG_NEWSETELEM && elems[i].set == DS_COUNTERS) {
			dp_elem_ifname(&elems[i], ifname);
			nftnl_set_elem_set_str(e, NFTNL_SET_ELEM_OBJREF,
			    ifname);
		}
		if (type == NFT_MSG_NEWSETELEM && elems[i].timeout_ms != 0)
			nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_TIMEOUT,
			    elems[i].timeout_ms);
		else if (type == NFT_MSG_NEWSETELEM && elems[i].ttl != 0)
			nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_TIMEOUT,
			    (uint64_t)elems[i].ttl * 1000);
		nftnl_set_elem_add(s, e);
	}
	return (nft_batch_put(dp->b, type, flags, NK_ELEMS, s));
}

int
dp_put_elems(struct dp *dp, uint16_t type, uint16_t flags,
    const struct dp_elem *elems, size_t n)
{
	size_t	 i, j;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && j - i < DP_ELEMS_PER_MSG &&
		    elems[j].set == elems[i].set; j++)
			;
		if (dp_put_elem_msg(dp, type, flags, elems + i, j - i) == -1)
			return (-1);
	}
	return (0);
}

/* A counter of our table: the one named, or with NULL all of them. */
static struct nftnl_obj *
dp_counter_new(const char *name)
{
	struct nftnl_obj	*o;

	if ((o = nftnl_obj_alloc()) == NULL)
		return (NULL);
	nftnl_obj_set_str(o, NFTNL_OBJ_TABLE, NETD_TABLE);
	if (name != NULL)
		nftnl_obj_set_str(o, NFTNL_OBJ_NAME, name);
	nftnl_obj_set_u32(o, NFTNL_OBJ_TYPE, NFT_OBJECT_COUNTER);
	return (o);
}

/* NEWOBJ or a deletion of the counter of an interface. */
int
dp_put_counter(struct dp *dp, uint16_t type, uint16_t flags,
    const char *ifname)
{
	struct nftnl_obj	*o;

	if ((o = dp_counter_new(ifname)) == NULL)
		return (-1);
	nftnl_obj_set_u32(o, NFTNL_OBJ_FAMILY, NFPROTO_INET);
	return (nft_batch_put(dp->b, type, flags, NK_OBJ, o));
}

struct dp_dump {
	struct dp	*dp;
	int		 set;
	dp_elem_fn	 cb;
	void		*arg;
};

static int
dp_dump_elem_cb(struct nftnl_set_elem *se, void *arg)
{
	struct dp_dump	*d = arg;
	struct dp_elem	 e;
	const void	*key;
	uint32_t	 len = 0;

	memset(&e, 0, sizeof(e));
	e.set = d->set;
	key = nftnl_set_elem_get(se, NFTNL_SET_ELEM_KEY, &len);
	if (key == NULL || len != dp_sets[d->set].klen)
		return (0);	/* not a key of ours: nothing to match */
	e.klen = len;
	memcpy(e.key, key, len);
	if (nftnl_set_elem_is_set(se, NFTNL_SET_ELEM_EXPIRATION))
		e.expires = nftnl_set_elem_get_u64(se,
		    NFTNL_SET_ELEM_EXPIRATION);
	return (d->cb(d->dp, &e, d->arg));
}

static int
dp_dump_msg_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nftnl_set	*s;
	int			 rc;

	if ((s = nftnl_set_alloc()) == NULL)
		return (-1);
	if (nftnl_set_elems_nlmsg_parse(nlh, s) < 0) {
		nftnl_set_free(s);
		errno = EBADMSG;
		return (-1);
	}
	rc = nftnl_set_elem_foreach(s, dp_dump_elem_cb, arg);
	nftnl_set_free(s);
	return (rc < 0 ? -1 : 0);
}

/* Every element of one set, to cb; O(elements), not for the hot path. */
int
dp_dump_set(struct dp *dp, int set, dp_elem_fn cb, void *arg)
{
	struct dp_dump	 d = { dp, set, cb, arg };
	struct nftnl_set *s;
	int		 rc;

	if ((s = dp_set_new(set)) == NULL)
		return (-1);
	rc = nft_get(dp->ns, NFT_MSG_GETSETELEM, NLM_F_DUMP, NK_ELEMS, s,
	    dp_dump_msg_cb, &d);
	if (rc == -1)
		log_warn("%s: set %s", __func__, dp_sets[set].name);
	return (rc);
}

struct dp_cdump {
	struct dp	*dp;
	int		(*cb)(struct dp *, const char *, uint64_t, uint64_t,
			    void *);
	void		*arg;
};

static int
dp_counter_msg_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct dp_cdump		*d = arg;
	struct nftnl_obj	*o;
	int			 rc;

	if ((o = nftnl_obj_alloc()) == NULL)
		return (-1);
	if (nftnl_obj_nlmsg_parse(nlh, o) < 0 ||
	    !nftnl_obj_is_set(o, NFTNL_OBJ_NAME)) {
		nftnl_obj_free(o);
		errno = EBADMSG;
		return (-1);
	}
	rc = d->cb(d->dp, nftnl_obj_get_str(o, NFTNL_OBJ_NAME),
	    nftnl_obj_get_u64(o, NFTNL_OBJ_CTR_PKTS),
	    nftnl_obj_get_u64(o, NFTNL_OBJ_CTR_BYTES), d->arg);
	nftnl_obj_free(o);
	return (rc);
}

/* The counters of the table (all of them, or the one named). */
static int
dp_query_counters(struct dp *dp, const char *name,
    int (*cb)(struct dp *, const char *, uint64_t, uint64_t, void *),
    void *arg)
{
	struct dp_cdump		 d = { dp, cb, arg };
	struct nftnl_obj	*o;

	if ((o = dp_counter_new(name)) == NULL)
		return (-1);
	return (nft_get(dp->ns, NFT_MSG_GETOBJ, name == NULL ? NLM_F_DUMP : 0,
	    NK_OBJ, o, dp_counter_msg_cb, &d));
}

int
dp_dump_counters(struct dp *dp,
    int (*cb)(struct dp *, const char *, uint64_t, uint64_t, void *),
    void *arg)
{
	if (dp_query_counters(dp, NULL, cb, arg) == -1) {
		log_warn("%s", __func__);
		return (-1);
	}
	return (0);
}

struct dp_ctr {
	uint64_t	 pkts, bytes;
	int		 found;
};

static int
dp_counter_one_cb(struct dp *dp, const char *name, uint64_t pkts,
    uint64_t bytes, void *arg)
{
	struct dp_ctr	*c = arg;

	c->pkts = pkts;
	c->bytes = bytes;
	c->found = 1;
	return (0);
}

/* The egress byte counter of a sandbox; ENOENT if it has none. */
int
dp_counter_read(struct dp *dp, const char *ifname, uint64_t *pkts,
    uint64_t *bytes)
{
	struct dp_ctr	 c = { 0, 0, 0 };

	if (dp_query_counters(dp, ifname, dp_counter_one_cb, &c) == -1) {
		if (errno != ENOENT)
			log_warn("%s: %s", __func__, ifname);
		return (-1);
	}
	if (!c.found) {
		errno = ENOENT;
		return (-1);
	}
	*pkts = c.pkts;
	*bytes = c.bytes;
	return (0);
}
