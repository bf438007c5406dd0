/*
 * What a sandbox's policy turns into in the datapath: the keys of its
 * elements (their layout is in dp.h), the sorted elements themselves,
 * and what its allow name and allow cidr rules admit for pins
 * (dp_pin.c).  Nothing here talks to the kernel.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <net/if.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dp.h"

/* Elements a policy can need beyond its rules: counter, src, flags. */
#define DP_FIXED_ELEMS		8

/* Key building: the interface name, then fields of whole registers. */
uint8_t *
dp_key_start(struct dp_elem *e, int set, const char *ifname)
{
	memset(e, 0, sizeof(*e));
	e->set = set;
	e->klen = dp_sets[set].klen;
	/* e is zeroed: the name ends padded with NULs as the kernel's. */
	memcpy(e->key, ifname, strnlen(ifname, DP_IFLEN - 1));
	return (e->key + DP_IFLEN);
}

uint8_t *
dp_key_addr(uint8_t *k, int af, const void *addr)
{
	size_t	 n = af == AF_INET ? 4 : 16;

	memcpy(k, addr, n);
	return (k + n);
}

void
dp_key_port(uint8_t *k, uint8_t proto, uint16_t port)
{
	uint16_t	 p = htons(port);

	k[0] = proto;
	memcpy(k + 4, &p, sizeof(p));
}

static void
dp_key_prefix(uint8_t *k, int af, const void *addr, uint32_t len)
{
	uint8_t		 net[16];
	size_t		 i, n = af == AF_INET ? 4 : 16;
	int		 bits = len;

	memcpy(net, addr, n);
	for (i = 0; i < n; i++, bits -= 8)
		net[i] &= bits >= 8 ? 0xff : bits <= 0 ? 0 :
		    (uint8_t)(0xff << (8 - bits));
	k = dp_key_addr(k, af, net);
	memcpy(k, &len, sizeof(len));
}

struct dp_elem *
dp_elems_add(struct dp_elems *es)
{
	struct dp_elem	*v;

	if (es->n == es->cap) {
		if ((v = reallocarray(es->v, es->cap * 2 + DP_FIXED_ELEMS,
		    sizeof(*v))) == NULL)
			return (NULL);
		es->v = v;
		es->cap = es->cap * 2 + DP_FIXED_ELEMS;
	}
	return (&es->v[es->n++]);
}

static int
dp_elems_flag(struct dp_elems *es, int set, const char *ifname)
{
	struct dp_elem	*e;

	if ((e = dp_elems_add(es)) == NULL)
		return (-1);
	dp_key_start(e, set, ifname);
	return (0);
}

/* One net rule; NAME rules have no element, they admit pins. */
static int
dp_elems_rule(struct dp_elems *es, const struct net_rule_msg *r,
    const char *ifname, int inbound)
{
	const struct conf_prefix	*p = &r->prefix;
	struct dp_elem			*e;
	uint8_t				*k;
	int				 v4 = p->af == AF_INET, set;

	switch (r->type) {
	case NET_RULE_HOST:
		set = v4 ? DS_HOST4 : DS_HOST6;
		break;
	case NET_RULE_CIDR:
		set = v4 ? DS_CIDR4 : DS_CIDR6;
		break;
	case NET_RULE_INBOUND_FROM:
		if (!inbound)
			return (0);
		set = v4 ? DS_FROM4 : DS_FROM6;
		break;
	default:
		return (0);
	}
	if (p->af != AF_INET && p->af != AF_INET6) {
		errno = EINVAL;
		return (-1);
	}
	if ((e = dp_elems_add(es)) == NULL)
		return (-1);
	k = dp_key_start(e, set, ifname);
	if (r->type == NET_RULE_HOST) {
		k = dp_key_addr(k, p->af, &p->addr);
		dp_key_port(k, r->proto, r->port);
		return (0);
	}
	dp_key_prefix(k, p->af, &p->addr, p->len);
	return (dp_elems_flag(es, set == DS_CIDR4 ? DS_CIDR4U :
	    set == DS_CIDR6 ? DS_CIDR6U : set == DS_FROM4 ? DS_FROM4U :
	    DS_FROM6U, ifname));
}

/* Sorted, without duplicates: what the kernel should hold. */
int
dp_policy_elems(const struct netd_ident *ni, const struct policy_msg *pol,
    const struct net_rule_msg *rules, size_t nrules, struct dp_elems *es)
{
	struct dp_elem	*e;
	size_t		 i, j;
	int		 froms = 0, inbound = pol->inbound == INBOUND_ALLOW;

	memset(es, 0, sizeof(*es));
	if (dp_elems_flag(es, DS_COUNTERS, ni->ifname) == -1)
		goto fail;
	if (pol->block_all)
		return (dp_elems_flag(es, DS_BLOCKED, ni->ifname));
	if ((e = dp_elems_add(es)) == NULL)
		goto fail;
	dp_key_addr(dp_key_start(e, DS_SRC4, ni->ifname), AF_INET,
	    &ni->guest);
	if ((e = dp_elems_add(es)) == NULL)
		goto fail;
	dp_key_addr(dp_key_start(e, DS_SRC6, ni->ifname), AF_INET6,
	    &ni->guest6);
	if (pol->egress == EGRESS_ALLOW &&
	    dp_elems_flag(es, DS_EGRESS, ni->ifname) == -1)
		goto fail;
	for (i = 0; i < nrules; i++) {
		if (rules[i].type == NET_RULE_INBOUND_FROM)
			froms++;
		if (dp_elems_rule(es, &rules[i], ni->ifname, inbound) == -1)
			goto fail;
	}
	if (inbound && froms == 0 &&
	    dp_elems_flag(es, DS_INBOUND, ni->ifname) == -1)
		goto fail;
	if (es->n > 0)
		qsort(es->v, es->n, sizeof(*es->v), dp_elem_qcmp);
	for (i = j = 0; i < es->n; i++)
		if (j == 0 || dp_elem_cmp(&es->v[j - 1], &es->v[i]) != 0)
			es->v[j++] = es->v[i];
	es->n = j;
	return (0);
 fail:
	free(es->v);
	es->v = NULL;
	return (-1);
}

int
dp_policy_names(const struct net_rule_msg *rules, size_t nrules,
    struct dp_name **names, size_t *n)
{
	size_t	 i;

	*n = 0;
	if ((*names = calloc(nrules + 1, sizeof(**names))) == NULL)
		return (-1);
	for (i = 0; i < nrules; i++)
		if (rules[i].type == NET_RULE_NAME) {
			(*names)[*n].proto = rules[i].proto;
			(*names)[*n].port = rules[i].port;
			(*n)++;
		}
	return (0);
}

/* The policy's allow cidr prefixes, which admit special ground to pins. */
int
dp_policy_cidrs(const struct net_rule_msg *rules, size_t nrules,
    struct conf_prefix **cidrs, size_t *n)
{
	size_t	 i;

	*n = 0;
	if ((*cidrs = calloc(nrules + 1, sizeof(**cidrs))) == NULL)
		return (-1);
	for (i = 0; i < nrules; i++)
		if (rules[i].type == NET_RULE_CIDR)
			(*cidrs)[(*n)++] = rules[i].prefix;
	return (0);
}
