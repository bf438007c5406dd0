/*
 * Answers from the upstream.  Only the addresses that belong to the
 * name the sandbox asked for are taken: A and AAAA records owned by the
 * question's name or by a name that a CNAME in the same answer section
 * leads to from it.  Records for any other owner are ignored, whatever
 * the upstream put there: pinning them would open addresses for names
 * the policy never listed.
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

/* Keep an address once, with the longest TTL it came with. */
static void
answer_add(struct dns_answer *a, const uint8_t *pkt, const struct rr *rr)
{
	struct dns_addr	 d;
	size_t		 i;

	memset(&d, 0, sizeof(d));
	d.af = rr->type == DNS_T_A ? AF_INET : AF_INET6;
	memcpy(&d.a, pkt + rr->rdoff, rr->rdlen);
	d.ttl = rr->ttl;
	for (i = 0; i < a->naddrs; i++)
		if (a->addrs[i].af == d.af &&
		    memcmp(&a->addrs[i].a, &d.a, sizeof(d.a)) == 0) {
			if (d.ttl > a->addrs[i].ttl)
				a->addrs[i].ttl = d.ttl;
			return;
		}
	if (a->naddrs == DNS_ADDRS_MAX)
		a->ndropped++;
	else
		a->addrs[a->naddrs++] = d;
}

/* Second pass: the addresses of the chain's names. */
static void
answer_collect(const uint8_t *pkt, size_t len, size_t off, size_t nrr,
    const struct chain *c, struct dns_answer *a)
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
			answer_add(a, pkt, &rr);
	}
}

/*
 * The upstream's answer to q (the id is not compared: the caller finds
 * the query by it).  Addresses are taken only with rcode NOERROR.
 */
int
dns_answer_parse(const uint8_t *pkt, size_t len, const struct dns_query *q,
    struct dns_answer *a)
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
		answer_collect(pkt, len, off, nrr, &c, a);
	return (DNS_OK);
}
