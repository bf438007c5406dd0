/* The parts of the global config netd uses, and naming helpers. */
#include <string.h>

#include "netd.h"

void
netd_params_conf(struct netd_params *p, const struct conf_global_msg *g)
{
	memset(p, 0, sizeof(*p));
	p->subnet = g->subnet.addr.v4;
	p->subnet_len = g->subnet.len;
	p->resolver = g->resolver.addr.v4;
	strlcpy(p->ifprefix, g->ifprefix, sizeof(p->ifprefix));
	strlcpy(p->uplink, g->uplink, sizeof(p->uplink));
}

/* The guest's IPv6 address that goes with an IPv4 one of the subnet. */
void
netd_v6_addr(struct in6_addr *a6, struct in_addr a4)
{
	static const uint8_t	 prefix[] = NETD_V6_PREFIX;

	memcpy(a6->s6_addr, prefix, sizeof(prefix));
	memcpy(a6->s6_addr + sizeof(prefix), &a4, sizeof(a4));
}

/* <prefix> and exactly 8 lowercase hex digits: a name netd gives. */
int
netd_ifname_ours(const char *prefix, const char *ifname)
{
	size_t	 n = strlen(prefix), i;

	if (strncmp(ifname, prefix, n) != 0 || strlen(ifname) != n + 8)
		return (0);
	for (i = n; i < n + 8; i++)
		if (!((ifname[i] >= '0' && ifname[i] <= '9') ||
		    (ifname[i] >= 'a' && ifname[i] <= 'f')))
			return (0);
	return (1);
}
