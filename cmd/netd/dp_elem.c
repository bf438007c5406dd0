/*
 * Elements of the datapath's sets and counters of its table: their
 * commands in the open batch (at most DP_ELEMS_PER_MSG elements to a
 * netlink message), and what the kernel holds, read back by get and
 * dump.  Which elements a sandbox has is dp_sandbox.c's business.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <net/if.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include <libmnl/libmnl.h>
#include <libnftnl/object.h>
#include <libnftnl/set.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "dp.h"

#define DP_ELEMS_PER_MSG	32

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
