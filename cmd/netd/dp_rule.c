/*
 * The rules of the chains of table inet sandboxd (datapath.c makes the
 * table, its sets and its chains).
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
 *		  oifname "sbx*" (neighbour discovery accept); the
 *		  resolver's untracked UDP answers: jump resolver_answer;
 *		  jump ingress
 *	egress:	  anti-spoof, @blocked, ct state, v4/v6: @host, @pin,
 *		  @cidr (one lookup per prefix length of the masked
 *		  address: hash sets, no interval set to rebuild),
 *		  @egress_allow minus the private ranges, drop
 *	ingress:  own address as destination, @blocked, ct state,
 *		  @inbound_any, @from (as cidr, on the source), drop
 *	host:	  anti-spoof, @blocked, ct state, DNS to the resolver, drop
 *	resolver_answer: own address as destination, @blocked, accept
 *	raw_prerouting, raw_output (before conntrack): UDP to the
 *		  resolver's port 53 from our interfaces, and from it back
 *		  to them, notrack (see r_notrack)
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
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>

#include <arpa/inet.h>
#include <string.h>

#include "addrclass.h"
#include "log.h"
#include "dp.h"

#define R00	NFT_REG32_00
#define R04	NFT_REG32_04
#define R05	NFT_REG32_05
#define R08	NFT_REG32_08
#define CT_ESTREL	(NF_CT_STATE_BIT(IP_CT_ESTABLISHED) | \
		    NF_CT_STATE_BIT(IP_CT_RELATED))

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
struct nftnl_rule *
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

/* th sport|dport == port */
static void
m_port(struct dp_rule *rb, int dst, uint16_t port)
{
	uint16_t	 p = htons(port);

	x_payload(rb, NFT_PAYLOAD_TRANSPORT_HEADER, dst ? 2 : 0, 2, R00);
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

/* ip|ip6 saddr|daddr & mask == net */
static void
m_prefix(struct dp_rule *rb, int af, int dst, const uint8_t *net,
    const uint8_t *mask)
{
	uint32_t	 alen = af == AF_INET ? 4 : 16;

	m_addr(rb, af, dst, R04);
	x_bitwise(rb, R04, mask, alen);
	x_cmp(rb, R04, NFT_CMP_EQ, net, alen);
}

/* ct state untracked */
static void
m_untracked(struct dp_rule *rb)
{
	uint32_t	 bit = NF_CT_STATE_UNTRACKED_BIT, zero = 0;

	x_ct(rb, NFT_CT_STATE, R00);
	x_bitwise(rb, R00, &bit, sizeof(bit));
	x_cmp(rb, R00, NFT_CMP_NEQ, &zero, sizeof(zero));
}

/* ip saddr|daddr RESOLVER udp sport|dport 53 */
static void
m_resolver_udp(struct dp_rule *rb, int dst)
{
	m_nfproto(rb, AF_INET);
	m_addr(rb, AF_INET, dst, R04);
	x_cmp(rb, R04, NFT_CMP_EQ, &rb->dp->p.resolver, 4);
	m_l4(rb, IPPROTO_UDP);
	m_port(rb, dst, 53);
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

/*
 * icmpv6 type nd-neighbor-solicit|advert ip6 hoplimit 255 accept, the
 * interface last: an IPv4 packet (a DNS query or answer, say) leaves
 * the rule at its first compare, with no interface name loaded.
 */
static void
r_nd(struct dp_rule *rb, const char *chain, uint32_t ifkey)
{
	static const uint8_t	 types[] = { ND_NEIGHBOR_SOLICIT,
				    ND_NEIGHBOR_ADVERT };
	uint8_t			 hl = 255;
	size_t			 i;

	for (i = 0; i < sizeof(types); i++) {
		dpr_begin(rb, chain);
		m_nfproto(rb, AF_INET6);
		m_l4(rb, IPPROTO_ICMPV6);
		m_ours(rb, ifkey);
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
		m_prefix(rb, af, dst, net, mask);
		x_meta(rb, dst ? NFT_META_OIFNAME : NFT_META_IIFNAME, R00);
		x_cmp(rb, R00, NFT_CMP_NEQ, prefix, strlen(prefix));
		/* The host's own gateway addresses, in output. */
		if (dst)
			x_cmp(rb, R00, NFT_CMP_NEQ, "lo", 3);
		x_verdict(rb, NF_DROP, NULL);
		dpr_end(rb);
	}
}

/*
 * A sandbox's UDP queries to the resolver and the answers back are not
 * tracked: each query of a stub resolver comes from a port of its own,
 * and as tracked flows a sandbox asking fast fills the host's whole
 * conntrack table (every new flow of the host, of every sandbox, then
 * drops), and each packet pays a lookup.  The policy stays what it
 * was: the host chain takes a query only from the sandbox's own
 * address, as a new one; an answer is taken only in output, from the
 * resolver's address and port (only dnspind's socket has them: port
 * 53 takes privilege), untracked there by our rule alone, and to the
 * sandbox's own address on its own interface (r_resolver_answer).
 * Addresses and ports first: every other packet of the host's leaves
 * the rules at a compare of a few bytes, no interface name loaded.
 */
static void
r_notrack(struct dp_rule *rb)
{
	dpr_begin(rb, "raw_prerouting");
	m_resolver_udp(rb, 1);
	m_ours(rb, NFT_META_IIFNAME);
	x_simple(rb, "notrack");
	dpr_end(rb);
	dpr_begin(rb, "raw_output");
	m_resolver_udp(rb, 0);
	m_ours(rb, NFT_META_OIFNAME);
	x_simple(rb, "notrack");
	dpr_end(rb);
}

/*
 * In output (a forwarded packet never gets here): the resolver's
 * untracked answer to a sandbox, to its own address, accepted
 * unless the sandbox is blocked; anything else goes on to ingress.
 */
static void
r_resolver_answer(struct dp_rule *rb)
{
	dpr_begin(rb, "output");
	m_resolver_udp(rb, 0);
	m_ours(rb, NFT_META_OIFNAME);
	m_untracked(rb);
	x_verdict(rb, NFT_JUMP, "resolver_answer");
	dpr_end(rb);
	dpr_begin(rb, "resolver_answer");
	x_meta(rb, NFT_META_OIFNAME, R00);
	m_addr(rb, AF_INET, 1, R04);
	x_lookup(rb, R00, DS_SRC4, 1);
	x_verdict(rb, NF_DROP, NULL);
	dpr_end(rb);
	r_member(rb, "resolver_answer", NFT_META_OIFNAME, DS_BLOCKED, NF_DROP,
	    NULL);
	r_verdict(rb, "resolver_answer", NF_ACCEPT, NULL);
	r_notrack(rb);
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
	r_resolver_answer(rb);
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
		m_prefix(rb, af, 1, ar->net, mask);
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
	int	 af;

	r_head(rb, "egress", NFT_META_IIFNAME, 0);
	for (af = AF_INET; af <= AF_INET6; af += AF_INET6 - AF_INET) {
		dpr_begin(rb, "egress");
		m_nfproto(rb, af);
		x_verdict(rb, NFT_GOTO, af == AF_INET ? "egress4" : "egress6");
		dpr_end(rb);
	}
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
		m_port(rb, 1, 53);
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
		dpr_begin(rb, DP_NAT_CHAIN);
		x_meta(rb, NFT_META_OIFNAME, R00);
		x_cmp(rb, R00, NFT_CMP_EQ, ifname, strlen(ifname) + 1);
		m_nfproto(rb, af);
		m_prefix(rb, af, 0, net, mask);
		x_simple(rb, "masq");
		dpr_end(rb);
	}
}

/* Every chain's rules, into the open batch; -1 if one could not be built. */
int
dp_put_rules(struct dp *dp)
{
	struct dp_rule	 rb = { dp, NULL, 0 };

	r_base(&rb);
	r_egress(&rb);
	r_ingress(&rb);
	r_host(&rb);
	if (dp->p.uplink[0] != '\0')
		r_masquerade(&rb);
	return (rb.err ? -1 : 0);
}
