/*
 * libFuzzer target for dnspind's DNS message core (cmd/dnspind/dns*.c).
 * The input is taken as a sandbox's query and as the upstream's answer
 * to a fixed query ("www.example.com A" with EDNS0).  A query that
 * parses must make answers that parse back to it; whatever parses must
 * keep the bounds the structures promise: no blocked address is kept,
 * none kept is blocked, and a capped answer has no TTL over the cap.
 */
#include <sys/socket.h>

#include <arpa/inet.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dns.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const uint8_t fixed_query[] = {
	0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 1,
	3, 'w', 'w', 'w', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e',
	3, 'c', 'o', 'm', 0, 0, DNS_T_A, 0, DNS_C_IN,
	0, 0, DNS_T_OPT, 0x10, 0x00, 0, 0, 0, 0, 0, 0,
};

static struct net_rule_msg	 rules[3];
static struct conf_prefix	 cidrs[1];	/* allow cidr 10.0.0.0/8 */
static const struct dns_allow	 allow = { cidrs, 1 };

static void
setup(struct dns_query *fq)
{
	if (dns_query_parse(fixed_query, sizeof(fixed_query), fq) != DNS_OK)
		abort();
	rules[0].type = NET_RULE_NAME;
	strlcpy(rules[0].name, "www.example.com", sizeof(rules[0].name));
	rules[0].port = 443;
	rules[0].proto = IPPROTO_TCP;
	rules[1].type = NET_RULE_NAME;
	strlcpy(rules[1].name, "*.example.com", sizeof(rules[1].name));
	rules[1].port = 80;
	rules[1].proto = IPPROTO_TCP;
	rules[2] = rules[1];
	rules[2].port = 443;
	cidrs[0].af = AF_INET;
	cidrs[0].len = 8;
	cidrs[0].addr.v4.s_addr = htonl(0x0a000000);
}

/* Lowercase, dotted, no empty label, short enough. */
static void
check_name(const char *name)
{
	size_t	 i, n = strlen(name);

	if (n > DNS_NAME_MAX)
		abort();
	if (n > 0 && (name[0] == '.' || name[n - 1] == '.'))
		abort();
	for (i = 0; i < n; i++)
		if ((name[i] >= 'A' && name[i] <= 'Z') ||
		    (i > 0 && name[i] == '.' && name[i - 1] == '.'))
			abort();
}

static void
check_answer(const struct dns_answer *a)
{
	size_t	 i;

	if (a->naddrs > DNS_ADDRS_MAX || a->ncname > DNS_CHAIN_MAX ||
	    (a->ndropped > 0 && a->naddrs != DNS_ADDRS_MAX))
		abort();
	if (a->rcode != DNS_R_NOERROR && a->naddrs != 0)
		abort();
	for (i = 0; i < a->naddrs; i++)
		if ((a->addrs[i].af != AF_INET &&
		    a->addrs[i].af != AF_INET6) ||
		    a->addrs[i].ttl > 0x7fffffff ||
		    a->addrs[i].blocked != NULL ||
		    addrclass_blocked(a->addrs[i].af, &a->addrs[i].a,
		    cidrs, 1) != NULL)
			abort();
	if (a->nblocked > DNS_ADDRS_MAX ||
	    (a->nblocked_past > 0 && a->nblocked != DNS_ADDRS_MAX))
		abort();
	for (i = 0; i < a->nblocked; i++)
		if (a->blocked[i].blocked == NULL ||
		    addrclass_blocked(a->blocked[i].af, &a->blocked[i].a,
		    cidrs, 1) != a->blocked[i].blocked)
			abort();
}

/* Every answer built to q parses back as its answer. */
static void
check_builders(const struct dns_query *q)
{
	static const unsigned int rcodes[] = { DNS_R_REFUSED,
	    DNS_R_SERVFAIL, DNS_R_FORMERR, DNS_R_BADVERS };
	struct dns_answer	 a;
	struct dns_port		 ports[3];
	uint8_t			 out[DNS_QUERY_MAX];
	uint8_t			 ede[DNS_QUERY_MAX + DNS_OPT_LEN +
				    DNS_EDE_LEN(DNS_EDE_TEXT_MAX)];
	ssize_t			 n;
	size_t			 i;

	for (i = 0; i < sizeof(rcodes) / sizeof(rcodes[0]); i++) {
		n = dns_build_rcode(q, rcodes[i], out, sizeof(out));
		if (rcodes[i] > 15 && !q->edns) {
			if (n != -1)
				abort();
			continue;
		}
		if (n <= 0 || dns_answer_parse(out, n, q, NULL, &a) != DNS_OK ||
		    a.id != q->id || a.rcode != (rcodes[i] & 15) ||
		    a.naddrs != 0)
			abort();
	}
	n = dns_build_tc(q, out, sizeof(out));
	if (n <= 0 || dns_answer_parse(out, n, q, NULL, &a) != DNS_OK || !a.tc)
		abort();
	n = dns_build_ede(q, DNS_R_REFUSED, DNS_EDE_BLOCKED, "private", ede,
	    sizeof(ede));
	if (n <= 0 || dns_answer_parse(ede, n, q, NULL, &a) != DNS_OK ||
	    a.rcode != DNS_R_REFUSED || a.naddrs != 0 ||
	    (q->edns && (size_t)n != DNS_HDR_LEN + q->qlen + DNS_OPT_LEN +
	    DNS_EDE_LEN(7)) || (!q->edns && (size_t)n != DNS_HDR_LEN + q->qlen))
		abort();
	n = dns_name_ports(rules, 3, q->name, ports, 3);
	if (n < 0 || n > 2 ||
	    (n > 0) != (dns_name_match("www.example.com", q->name) ||
	    dns_name_match("*.example.com", q->name)))
		abort();
}

/*
 * A cut-down answer parses, to the same addresses, nothing dropped or
 * blocked (a record off the chain stays only with an address pinned);
 * capped, to the same with TTLs under the cap (its names are written
 * out whole: no pointer into a TTL).
 */
static void
check_trim(const uint8_t *data, size_t size, const struct dns_query *q,
    const struct dns_answer *a)
{
	static uint8_t		 out[DNS_MSG_MAX];
	struct dns_answer	 t, c;
	ssize_t			 n;
	size_t			 i;

	if (a->rcode != DNS_R_NOERROR)
		return;
	if ((n = dns_answer_trim(data, size, q, a, out, sizeof(out))) == -1)
		return;		/* a name too long once written out whole */
	if (dns_answer_parse(out, n, q, &allow, &t) != DNS_OK ||
	    t.naddrs != a->naddrs || t.ndropped != 0 || t.nblocked != 0)
		abort();
	if (dns_answer_ttl_cap(out, n, 60) == -1 ||
	    dns_answer_parse(out, n, q, &allow, &c) != DNS_OK ||
	    c.naddrs != t.naddrs)
		abort();
	for (i = 0; i < c.naddrs; i++)
		if (c.addrs[i].ttl != (t.addrs[i].ttl > 60 ? 60 :
		    t.addrs[i].ttl) || memcmp(&c.addrs[i].a, &t.addrs[i].a,
		    sizeof(c.addrs[i].a)) != 0)
			abort();
}

static int
has(const struct dns_answer *a, const struct dns_addr *d)
{
	size_t	 i;

	for (i = 0; i < a->naddrs; i++)
		if (a->addrs[i].af == d->af &&
		    memcmp(&a->addrs[i].a, &d->a, sizeof(d->a)) == 0)
			return (1);
	return (0);
}

/*
 * Capped at 60s, no TTL is over 60.  A pointer into a TTL's bytes may
 * change a name (or spoil it), never an address, as records keep their
 * place: of an answer dnspind passes as it is (nothing blocked, dropped
 * or off the chain), each address found is one pinned.
 */
static void
check_ttl_cap(const uint8_t *data, size_t size, const struct dns_query *q,
    const struct dns_answer *a)
{
	static uint8_t		 out[DNS_MSG_MAX];
	struct dns_answer	 t;
	size_t			 i;
	int			 whole;

	memcpy(out, data, size);
	if (dns_answer_ttl_cap(out, size, 60) == -1)
		abort();		/* its answer section parsed */
	if (dns_answer_parse(out, size, q, &allow, &t) != DNS_OK)
		return;
	whole = a->ndropped == 0 && a->nblocked == 0 && a->nother == 0;
	for (i = 0; i < t.naddrs; i++)
		if (t.addrs[i].ttl > 60 || (whole && !has(a, &t.addrs[i])))
			abort();
	for (i = 0; i < t.nblocked; i++)
		if (t.blocked[i].ttl > 60 || (whole && !has(a, &t.blocked[i])))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dns_query	 fq;
	static int		 ready;
	static uint8_t		 copy[DNS_MSG_MAX];
	struct dns_query	 q;
	struct dns_answer	 a;
	uint8_t			 out[DNS_HDR_LEN];

	if (!ready) {
		setup(&fq);
		ready = 1;
	}
	if (size > DNS_MSG_MAX)
		return (0);
	if (dns_query_parse(data, size, &q) == DNS_OK) {
		check_name(q.name);
		if (q.qlen > DNS_QUESTION_MAX)
			abort();
		check_builders(&q);
	}
	if (dns_answer_parse(data, size, &fq, &allow, &a) == DNS_OK) {
		check_answer(&a);
		check_trim(data, size, &fq, &a);
		check_ttl_cap(data, size, &fq, &a);
	}
	dns_build_error(data, size, DNS_R_FORMERR, out, sizeof(out));
	memcpy(copy, data, size);
	if (dns_set_id(copy, size, 0xabcd) == 0 &&
	    dns_get_id(copy, size) != 0xabcd)
		abort();
	return (0);
}
