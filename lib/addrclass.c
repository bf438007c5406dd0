/*
 * The special-purpose address ranges, after IANA's IPv4 and IPv6
 * Special-Purpose Address Registries: every range there that is not
 * globally reachable, the cloud metadata addresses, and the IPv6 forms
 * that reach IPv4 ground (mapped, NAT64, 6to4, Teredo).  Left out on
 * purpose: the documentation ranges (192.0.2.0/24, 198.51.100.0/24,
 * 203.0.113.0/24, 2001:db8::/32, 3fff::/20), which no network routes
 * and which examples and the regression tests use as public hosts.
 * The more specific entries come first, so that a lookup names them.
 */
#include <sys/socket.h>

#include <string.h>

#include "addrclass.h"

#define V4(a, b, c, d)	{ a, b, c, d }

const struct addrclass_range addrclass_ranges[] = {
	{ AF_INET, 8, 0, V4(0, 0, 0, 0), "this-network" },
	{ AF_INET, 8, 0, V4(10, 0, 0, 0), "private" },
	{ AF_INET, 32, 0, V4(100, 100, 100, 200), "cloud-metadata" },
	{ AF_INET, 10, 0, V4(100, 64, 0, 0), "shared-cgnat" },
	{ AF_INET, 8, 0, V4(127, 0, 0, 0), "loopback" },
	{ AF_INET, 32, 0, V4(169, 254, 169, 254), "cloud-metadata" },
	{ AF_INET, 16, 0, V4(169, 254, 0, 0), "link-local" },
	{ AF_INET, 32, 0, V4(168, 63, 129, 16), "cloud-metadata" },
	{ AF_INET, 12, 0, V4(172, 16, 0, 0), "private" },
	{ AF_INET, 24, 0, V4(192, 0, 0, 0), "ietf-protocol" },
	{ AF_INET, 24, 0, V4(192, 88, 99, 0), "6to4-relay" },
	{ AF_INET, 16, 0, V4(192, 168, 0, 0), "private" },
	{ AF_INET, 15, 0, V4(198, 18, 0, 0), "benchmarking" },
	{ AF_INET, 4, 0, V4(224, 0, 0, 0), "multicast" },
	{ AF_INET, 4, 0, V4(240, 0, 0, 0), "reserved" },

	{ AF_INET6, 128, 0, { 0 }, "unspecified" },
	{ AF_INET6, 128, 0, { [15] = 1 }, "loopback" },
	{ AF_INET6, 96, 0, { [10] = 0xff, [11] = 0xff }, "ipv4-mapped" },
	{ AF_INET6, 96, 0, { 0 }, "ipv4-compatible" },
	{ AF_INET6, 96, 12, { 0, 0x64, 0xff, 0x9b }, "nat64" },
	{ AF_INET6, 48, 0, { 0, 0x64, 0xff, 0x9b, 0, 1 }, "nat64-local" },
	{ AF_INET6, 64, 0, { 0x01, 0 }, "discard-only" },
	{ AF_INET6, 32, 0, { 0x20, 0x01, 0, 0 }, "teredo" },
	{ AF_INET6, 48, 0, { 0x20, 0x01, 0, 0x02, 0, 0 }, "benchmarking" },
	{ AF_INET6, 28, 0, { 0x20, 0x01, 0, 0x10 }, "orchid" },
	{ AF_INET6, 16, 2, { 0x20, 0x02 }, "6to4" },
	{ AF_INET6, 16, 0, { 0x5f, 0 }, "srv6-sid" },
	{ AF_INET6, 128, 0, { 0xfd, 0, 0x0e, 0xc2, [14] = 0x02, [15] = 0x54 },
	    "cloud-metadata" },
	{ AF_INET6, 7, 0, { 0xfc }, "unique-local" },
	{ AF_INET6, 10, 0, { 0xfe, 0x80 }, "link-local" },
	{ AF_INET6, 10, 0, { 0xfe, 0xc0 }, "site-local" },
	{ AF_INET6, 8, 0, { 0xff }, "multicast" },
};
const size_t addrclass_nranges = sizeof(addrclass_ranges) /
    sizeof(addrclass_ranges[0]);

/* The first len bits of a and b are the same. */
static int
prefix_match(const uint8_t *a, const uint8_t *b, unsigned int len)
{
	unsigned int	 n = len / 8, rest = len % 8;

	if (memcmp(a, b, n) != 0)
		return (0);
	if (rest == 0)
		return (1);
	return (((a[n] ^ b[n]) & (0xff << (8 - rest)) & 0xff) == 0);
}

const struct addrclass_range *
addrclass_find(int af, const void *addr)
{
	const struct addrclass_range	*r;
	const uint8_t			*a = addr;
	size_t				 i;

	for (i = 0; i < addrclass_nranges; i++) {
		r = &addrclass_ranges[i];
		if (r->af != af || !prefix_match(a, r->net, r->len))
			continue;
		if (r->embed4 == 0 ||
		    addrclass_find(AF_INET, a + r->embed4) != NULL)
			return (r);
	}
	return (NULL);
}

int
addrclass_in_prefix(int af, const void *addr, const struct conf_prefix *p)
{
	if (p->af != af || p->len > (af == AF_INET ? 32 : 128))
		return (0);
	return (prefix_match(addr, (const uint8_t *)&p->addr, p->len));
}

const struct addrclass_range *
addrclass_blocked(int af, const void *addr, const struct conf_prefix *allow,
    size_t nallow)
{
	const struct addrclass_range	*r;
	size_t				 i;

	if ((r = addrclass_find(af, addr)) == NULL)
		return (NULL);
	for (i = 0; i < nallow; i++)
		if (addrclass_in_prefix(af, addr, &allow[i]))
			return (NULL);
	return (r);
}
