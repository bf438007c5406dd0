/*
 * Answers from the upstream.  Only the addresses that belong to the
 * name the sandbox asked for are taken: A and AAAA records owned by the
 * question's name or by a name that a CNAME in the same answer section
 * leads to from it.  Records for any other owner are ignored, whatever
 * the upstream put there: pinning them would open addresses for names
 * the policy never listed.  Of those, an address in a special-purpose
 * range (lib/addrclass.c) that no allow cidr of the policy holds is
 * kept apart as blocked: never pinned, cut from what the sandbox gets.
 *
 * The answer section is read twice: once to check every record and
 * learn the CNAMEs, once to take the addresses.  The authority and
 * additional sections are not read.  A truncated (TC) answer may end
 * inside the answer section; what came whole is used.
 */
#include <sys/socket.h>

#include <string.h>

#include "dns.h"

struct rr {
	char		 owner[DNS_NAME_MAX + 1];
	int		 owner_ok;	/* a name a chain can hold */
	uint16_t	 type;
	uint16_t	 class;
	uint32_t	 ttl;
	size_t		 rdoff;
	size_t		 rdlen;
};

struct cname {
	char		 owner[DNS_NAME_MAX + 1];
	char		 target[DNS_NAME_MAX + 1];
};

struct chain {
	size_t		 n;
	char		 names[DNS_CHAIN_MAX + 1][DNS_NAME_MAX + 1];
};

/* One record at *off, its rdata checked for the types we read. */
static int
rr_get(const uint8_t *pkt, size_t len, size_t *off, struct rr *rr)
{
	int	 rc;

	rc = dns_name_get(pkt, len, off, 0, rr->owner);
	if (rc != DNS_OK && rc != DNS_E_NAME_CHAR)
		return (rc);
	rr->owner_ok = rc == DNS_OK;
	if (len - *off < 10)
		return (DNS_E_TRUNC);
	rr->type = dns_get16(pkt + *off);
	rr->class = dns_get16(pkt + *off + 2);
	/* RFC 2181 8: a TTL with the top bit set is zero. */
	if ((rr->ttl = dns_get32(pkt + *off + 4)) > 0x7fffffff)
		rr->ttl = 0;
	rr->rdlen = dns_get16(pkt + *off + 8);
	rr->rdoff = *off + 10;
	if (rr->rdlen > len - rr->rdoff)
		return (DNS_E_TRUNC);
	*off = rr->rdoff + rr->rdlen;
	if (rr->class != DNS_C_IN)
		return (DNS_OK);
	if ((rr->type == DNS_T_A && rr->rdlen != 4) ||
	    (rr->type == DNS_T_AAAA && rr->rdlen != 16))
		return (DNS_E_RDLEN);
	return (DNS_OK);
}

/* A CNAME's target, which must fill its rdata exactly. */
static int
cname_target(const uint8_t *pkt, const struct rr *rr, char *target)
{
	size_t	 end = rr->rdoff + rr->rdlen, off = rr->rdoff;
	int	 rc;

	rc = dns_name_get(pkt, end, &off, 0, target);
	if (rc != DNS_OK && rc != DNS_E_NAME_CHAR)
		return (rc);
	if (off != end)
		return (DNS_E_RDLEN);
	return (rc);
}

static int
answer_question(const uint8_t *pkt, size_t len, size_t *off,
    const struct dns_query *q)
{
	char	 name[DNS_NAME_MAX + 1];
	int	 rc;

	if (dns_get16(pkt + 4) != 1)
		return (DNS_E_QDCOUNT);
	rc = dns_name_get(pkt, len, off, 0, name);
	if (rc == DNS_E_NAME_CHAR)
		return (DNS_E_MISMATCH);
	if (rc != DNS_OK)
		return (rc);
	if (len - *off < 4)
		return (DNS_E_TRUNC);
	if (strcmp(name, q->name) != 0 ||
	    dns_get16(pkt + *off) != q->qtype ||
	    dns_get16(pkt + *off + 2) != q->qclass)
		return (DNS_E_MISMATCH);
	*off += 4;
	return (DNS_OK);
}

/*
 * First pass: check the nrr records from *off and keep the CNAMEs.
 * With TC set, the section ends at the first record cut short and
 * *nrr becomes the number that came whole.
 */
static int
answer_check(const uint8_t *pkt, size_t len, size_t off, size_t *nrr,
    int tc, struct cname *cn, size_t *ncn)
{
	struct rr	 rr;
	size_t		 i;
	int		 rc;

	*ncn = 0;
	for (i = 0; i < *nrr; i++) {
		if ((rc = rr_get(pkt, len, &off, &rr)) != DNS_OK) {
			if (tc && (rc == DNS_E_TRUNC ||
			    rc == DNS_E_NAME_TRUNC)) {
				*nrr = i;
				return (DNS_OK);
			}
			return (rc);
		}
		if (rr.type != DNS_T_CNAME || rr.class != DNS_C_IN)
			continue;
		if (*ncn == DNS_CNAMES_MAX)
			return (DNS_E_CHAIN);
		rc = cname_target(pkt, &rr, cn[*ncn].target);
		if (rc != DNS_OK && rc != DNS_E_NAME_CHAR)
			return (rc);
		if (rc == DNS_E_NAME_CHAR || !rr.owner_ok)
			continue;
		memcpy(cn[*ncn].owner, rr.owner, sizeof(rr.owner));
		(*ncn)++;
	}
	return (DNS_OK);
}

static int
chain_has(const struct chain *c, const char *name)
{
	size_t	 i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->names[i], name) == 0)
			return (1);
	return (0);
}

/* Every name the CNAMEs lead to from the question's, in any order. */
static int
chain_build(const char *qname, const struct cname *cn, size_t ncn,
    struct chain *c)
{
	size_t	 i;
	int	 grew;

	c->n = 1;
	memcpy(c->names[0], qname, sizeof(c->names[0]));
	do {
		grew = 0;
		for (i = 0; i < ncn; i++) {
			if (!chain_has(c, cn[i].owner) ||
			    chain_has(c, cn[i].target))
				continue;
			if (c->n == DNS_CHAIN_MAX + 1)
				return (DNS_E_CHAIN);
			memcpy(c->names[c->n++], cn[i].target,
			    sizeof(c->names[0]));
			grew = 1;
		}
	} while (grew);
	return (DNS_OK);
}

/* addr in list (n of them) already?  Then it keeps the longer TTL. */
static int
answer_seen(struct dns_addr *list, size_t n, const struct dns_addr *d)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (list[i].af == d->af &&
		    memcmp(&list[i].a, &d->a, sizeof(d->a)) == 0) {
			if (d->ttl > list[i].ttl)
				list[i].ttl = d->ttl;
			return (1);
		}
	return (0);
}

/*
 * Keep an address once, with the longest TTL it came with: among those
 * to pin, or among the blocked if it is special-purpose ground that no
 * allow cidr of the policy holds.
 */
static void
answer_add(struct dns_answer *a, const uint8_t *pkt, const struct rr *rr,
    const struct dns_allow *allow)
{
	struct dns_addr	 d;

	memset(&d, 0, sizeof(d));
	d.af = rr->type == DNS_T_A ? AF_INET : AF_INET6;
	memcpy(&d.a, pkt + rr->rdoff, rr->rdlen);
	d.ttl = rr->ttl;
	d.blocked = addrclass_blocked(d.af, &d.a, allow ? allow->cidrs : NULL,
	    allow ? allow->n : 0);
	if (d.blocked != NULL) {
		if (answer_seen(a->blocked, a->nblocked, &d))
			return;
		if (a->nblocked == DNS_ADDRS_MAX)
			a->nblocked_past++;
		else
			a->blocked[a->nblocked++] = d;
		return;
	}
	if (answer_seen(a->addrs, a->naddrs, &d))
		return;
	if (a->naddrs == DNS_ADDRS_MAX)
		a->ndropped++;
	else
		a->addrs[a->naddrs++] = d;
}

/* Second pass: the addresses of the chain's names. */
static void
answer_collect(const uint8_t *pkt, size_t len, size_t off, size_t nrr,
    const struct chain *c, const struct dns_allow *allow,
    struct dns_answer *a)
{
	struct rr	 rr;
	size_t		 i;

	for (i = 0; i < nrr; i++) {
		if (rr_get(pkt, len, &off, &rr) != DNS_OK)
			return;		/* cannot be: the first pass read it */
		if (rr.class != DNS_C_IN ||
		    (rr.type != DNS_T_A && rr.type != DNS_T_AAAA))
			continue;
		if (rr.owner_ok && chain_has(c, rr.owner))
			answer_add(a, pkt, &rr, allow);
		else
			a->nother++;
	}
}

/*
 * The upstream's answer to q (the id is not compared: the caller finds
 * the query by it).  Addresses are taken only with rcode NOERROR; those
 * in a special-purpose range (addrclass.c) go to the blocked, unless
 * one of allow's prefixes (NULL: none) holds them.
 */
int
dns_answer_parse(const uint8_t *pkt, size_t len, const struct dns_query *q,
    const struct dns_allow *allow, struct dns_answer *a)
{
	struct cname	 cn[DNS_CNAMES_MAX];
	struct chain	 c;
	size_t		 off = DNS_HDR_LEN, nrr, ncn;
	uint16_t	 flags;
	int		 rc;

	memset(a, 0, sizeof(*a));
	if (len < DNS_HDR_LEN)
		return (DNS_E_SHORT);
	if (len > DNS_MSG_MAX)
		return (DNS_E_SIZE);
	flags = dns_get16(pkt + 2);
	a->id = dns_get16(pkt);
	a->rcode = flags & DNS_F_RCODE;
	a->tc = (flags & DNS_F_TC) != 0;
	if (!(flags & DNS_F_QR))
		return (DNS_E_QR);
	if (flags & DNS_F_OPCODE)
		return (DNS_E_OPCODE);
	if ((rc = answer_question(pkt, len, &off, q)) != DNS_OK)
		return (rc);
	nrr = dns_get16(pkt + 6);
	if ((rc = answer_check(pkt, len, off, &nrr, a->tc, cn, &ncn)) !=
	    DNS_OK)
		return (rc);
	if ((rc = chain_build(q->name, cn, ncn, &c)) != DNS_OK)
		return (rc);
	a->ncname = c.n - 1;
	if (a->rcode == DNS_R_NOERROR)
		answer_collect(pkt, len, off, nrr, &c, allow, a);
	return (DNS_OK);
}

/* One of the addresses the parse kept (and so pinned)? */
static int
trim_kept(const struct dns_answer *a, const uint8_t *pkt, const struct rr *rr)
{
	size_t	 i;
	int	 af = rr->type == DNS_T_A ? AF_INET : AF_INET6;

	for (i = 0; i < a->naddrs; i++)
		if (a->addrs[i].af == af &&
		    memcmp(&a->addrs[i].a, pkt + rr->rdoff, rr->rdlen) == 0)
			return (1);
	return (0);
}

/*
 * Whether a record of the answer section stays in a trimmed answer: an
 * address only if it was kept; none of the types whose rdata may hold
 * compressed names (RFC 3597 4), which cannot be moved as they are,
 * except CNAME, whose target is written out whole.
 */
static int
trim_keep(const struct dns_answer *a, const uint8_t *pkt, const struct rr *rr)
{
	if (rr->class != DNS_C_IN)
		return (1);
	switch (rr->type) {
	case DNS_T_A:
	case DNS_T_AAAA:
		return (trim_kept(a, pkt, rr));
	case DNS_T_CNAME:
		return (1);
	case 2: case 3: case 4: case 6: case 7: case 8: case 9: case 12:
	case 14: case 15:
		return (0);
	}
	return (1);
}

/* One record, its names written out whole; -1 if out is too small. */
static int
trim_put(const uint8_t *pkt, size_t len, size_t off, const struct rr *rr,
    uint8_t *out, size_t outsz, size_t *n)
{
	size_t	 rdstart, rdoff = rr->rdoff;

	if (dns_name_copy(pkt, len, &off, out, outsz, n) != DNS_OK ||
	    outsz - *n < 10)
		return (-1);
	memcpy(out + *n, pkt + off, 8);		/* type, class, TTL */
	*n += 10;
	rdstart = *n;
	if (rr->type == DNS_T_CNAME && rr->class == DNS_C_IN) {
		if (dns_name_copy(pkt, rr->rdoff + rr->rdlen, &rdoff, out,
		    outsz, n) != DNS_OK)
			return (-1);
	} else {
		if (outsz - *n < rr->rdlen)
			return (-1);
		memcpy(out + *n, pkt + rr->rdoff, rr->rdlen);
		*n += rr->rdlen;
	}
	dns_put16(out + rdstart - 2, *n - rdstart);
	return (0);
}

/*
 * The upstream's answer to q cut down to the addresses dns_answer_parse()
 * kept in a, for when it had more than DNS_ADDRS_MAX or blocked some:
 * what the sandbox is told is what was pinned.  The header's flags, the client's
 * question, the answer section less the addresses past those and the
 * records that cannot be moved, no authority or additional records, and
 * an OPT if the query had one.  The length, or -1 if it does not fit.
 */
ssize_t
dns_answer_trim(const uint8_t *pkt, size_t len, const struct dns_query *q,
    const struct dns_answer *a, uint8_t *out, size_t outsz)
{
	struct cname	 cn[DNS_CNAMES_MAX];
	struct rr	 rr;
	size_t		 off = DNS_HDR_LEN, nrr, ncn, i, n, at;
	uint16_t	 an = 0;

	if (len < DNS_HDR_LEN || answer_question(pkt, len, &off, q) != DNS_OK)
		return (-1);
	nrr = dns_get16(pkt + 6);
	if (answer_check(pkt, len, off, &nrr,
	    (dns_get16(pkt + 2) & DNS_F_TC) != 0, cn, &ncn) != DNS_OK)
		return (-1);
	n = DNS_HDR_LEN + q->qlen;
	if (outsz < n + DNS_OPT_LEN)
		return (-1);
	memset(out, 0, DNS_HDR_LEN);
	memcpy(out, pkt, 4);			/* id, flags */
	dns_put16(out + 4, 1);
	memcpy(out + DNS_HDR_LEN, q->question, q->qlen);
	for (i = 0; i < nrr; i++) {
		at = off;
		if (rr_get(pkt, len, &off, &rr) != DNS_OK)
			return (-1);
		if (!trim_keep(a, pkt, &rr))
			continue;
		if (trim_put(pkt, len, at, &rr, out, outsz - DNS_OPT_LEN,
		    &n) == -1)
			return (-1);
		an++;
	}
	dns_put16(out + 6, an);
	if (q->edns) {
		out[11] = 1;
		out[n] = 0;
		dns_put16(out + n + 1, DNS_T_OPT);
		dns_put16(out + n + 3, DNS_EDNS_UDP);
		out[n + 5] = 0;
		out[n + 6] = 0;
		dns_put16(out + n + 7, q->edns_do ? DNS_EDNS_DO : 0);
		dns_put16(out + n + 9, 0);
		n += DNS_OPT_LEN;
	}
	return (n);
}

/*
 * Every TTL of the answer's records held to max, in place: the sandbox
 * caches an address no longer than its pin lasts.  The answer section,
 * which dns_answer_parse() checked, must be whole (what came of it with
 * TC set); the authority and additional sections are capped as far as
 * they read, the OPT record's TTL (its flags) left alone.  -1 if the
 * answer section cannot be read.  The records are all found before any
 * TTL is written: a name may point into a TTL's bytes, and must read
 * the same as it did for dns_answer_parse().
 */
int
dns_answer_ttl_cap(uint8_t *pkt, size_t len, uint32_t max)
{
	/* A record takes at least 11 bytes. */
	uint16_t	 ttloff[DNS_MSG_MAX / 11 + 1];
	struct rr	 rr;
	size_t		 off = DNS_HDR_LEN, nrr, i, n = 0;
	uint32_t	 ttl;
	int		 sec, rc;

	if (len < DNS_HDR_LEN || len > DNS_MSG_MAX)
		return (-1);
	for (i = dns_get16(pkt + 4); i > 0; i--) {
		rc = dns_name_get(pkt, len, &off, 0, rr.owner);
		if ((rc != DNS_OK && rc != DNS_E_NAME_CHAR) || len - off < 4)
			return (-1);
		off += 4;
	}
	for (sec = 0; sec < 3; sec++) {
		nrr = dns_get16(pkt + 6 + 2 * sec);
		for (i = 0; i < nrr; i++) {
			rc = rr_get(pkt, len, &off, &rr);
			if (rc != DNS_OK && rc != DNS_E_RDLEN) {
				/* Cut short under TC, or past what was read. */
				if (sec == 0 &&
				    !(dns_get16(pkt + 2) & DNS_F_TC))
					return (-1);
				goto cap;
			}
			/* rr_get read the TTL 6 bytes before the rdata. */
			if (rr.type != DNS_T_OPT && n < sizeof(ttloff) / sizeof(ttloff[0]))
				ttloff[n++] = rr.rdoff - 6;
		}
	}
cap:
	for (i = 0; i < n; i++) {
		ttl = dns_get32(pkt + ttloff[i]);
		if (ttl > DNS_TTL_MAX)
			ttl = 0;
		if (ttl > max)
			ttl = max;
		dns_put32(pkt + ttloff[i], ttl);
	}
	return (0);
}
