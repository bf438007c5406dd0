/*
 * The nftables datapath: one table, inet sandboxd, whose chains are
 * shared by all sandboxes.  A sandbox is nothing but elements in the
 * sets below, keyed by its interface name, so adding or removing one is
 * a small batch of element commands whose cost does not depend on how
 * many others are live.
 *
 * The rules of its chains, and what they mean, are in dp_rule.c; the
 * elements of one sandbox in dp_sandbox.c.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <net/if.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	DP_NAT_CHAIN, "nat", NF_INET_POST_ROUTING, 100
};

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
	rc |= dp_put_rules(dp);
	if (rc != 0) {
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
