/*
 * The special-purpose address ranges: ground a sandbox never reaches
 * through "egress allow" or through a DNS answer, unless an "allow
 * cidr" of its policy holds the address.  One table, for every part of
 * the suite that judges an address (sandboxd.conf(5) lists it).
 */
#ifndef SANDBOXD_ADDRCLASS_H
#define SANDBOXD_ADDRCLASS_H

#include <stddef.h>
#include <stdint.h>

#include "conf.h"

struct addrclass_range {
	uint8_t		 af;		/* AF_INET, AF_INET6 */
	uint8_t		 len;		/* prefix length */
	/*
	 * Non-zero: an IPv6 form of an IPv4 address (NAT64, 6to4), whose
	 * IPv4 address at this byte offset is judged in its place.  A
	 * filter that cannot look inside (an nftables prefix match) drops
	 * the whole range instead.
	 */
	uint8_t		 embed4;
	uint8_t		 net[16];	/* network order, host bits zero */
	const char	*name;		/* "link-local", for logs and audit */
};

extern const struct addrclass_range	addrclass_ranges[];
extern const size_t			addrclass_nranges;

/* The special range addr (4 or 16 bytes) is in, or NULL if none. */
const struct addrclass_range *addrclass_find(int, const void *);
/* 1 if addr is in prefix p (same family), else 0. */
int	addrclass_in_prefix(int, const void *, const struct conf_prefix *);
/*
 * The range that keeps addr from being reached by a policy whose
 * allow cidr prefixes are the n at allow, or NULL if it may be.
 */
const struct addrclass_range *addrclass_blocked(int, const void *,
	    const struct conf_prefix *, size_t);

#endif
