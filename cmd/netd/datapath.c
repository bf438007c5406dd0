/*
 * The nftables datapath: one table, inet sandboxd, whose chains are
 * shared by all sandboxes.  A sandbox is nothing but elements in the
 * sets below, keyed by its interface name, so adding or removing one is
 * a small batch of element commands whose cost does not depend on how
 * many others are live.
 *
 * The rules of its chains, and what they mean, are in dp_rule.c; what
 * a sandbox's policy turns into in dp_policy.c, the registry of the
 * sandboxes and their batches in dp_sandbox.c, pins in dp_pin.c and
 * dp_held.c, the scan at a restart in dp_scan.c, element commands and
 * dumps in dp_elem.c, deletions and commits in dp_del.c, and the
 * rendering for sandboxctl show in dp_show.c.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <net/if.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
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
	/* Before conntrack (-200): the resolver's UDP is not tracked. */
	{ "raw_prerouting", "filter", NF_INET_PRE_ROUTING, -300 },
	{ "raw_output", "filter", NF_INET_LOCAL_OUT, -300 },
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
	{ "resolver_answer", NULL, 0, 0 },
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
int
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
