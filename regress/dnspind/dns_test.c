/*
 * The DNS message core of dnspind (cmd/dnspind/dns*.c): name matching,
 * query and answer parsing, the answers dnspind makes itself.  Packets
 * are built here byte by byte.  Prints TAP; exits non-zero on failure.
 */
#include "../../cmd/dnspind/dns.c"
#include "../../cmd/dnspind/dns_wire.c"
#include "../../cmd/dnspind/dns_answer.c"
#include "../../cmd/dnspind/dns_name.c"
#include "../../cmd/dnspind/audit.c"
#include "../../cmd/dnspind/turnend.c"

#include <arpa/inet.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "../lib/tap.h"

#define PKT_MAX		(DNS_MSG_MAX + 1024)
#define MUTATIONS	200000

struct pkt {
	uint8_t		 b[PKT_MAX];
	size_t		 n;
};

static struct pkt	 P, R;		/* a query, an answer */

/* is(got, want, what): an error code compared, both named if they differ. */
static void
is(int got, int want, const char *what)
{
	if (want == DNS_OK)
		ok(got == want, "%s: accepted", what);
	else
		ok(got == want, "%s: refused, %s", what, dns_strerror(want));
	if (got != want)
		printf("# got %d (%s)\n", got, dns_strerror(got));
}

/* Packet building. */

static void
put8(struct pkt *p, unsigned int v)
{
	if (p->n >= sizeof(p->b))
		abort();
	p->b[p->n++] = v;
}

static void
put16(struct pkt *p, unsigned int v)
{
	put8(p, v >> 8);
	put8(p, v & 0xff);
}

static void
put32(struct pkt *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p, v & 0xffff);
}

static void
putmem(struct pkt *p, const void *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		put8(p, ((const uint8_t *)v)[i]);
}

/* A name, uncompressed, labels as given ("" is the root). */
static void
putname(struct pkt *p, const char *name)
{
	const char	*l = name;
	size_t		 n;

	while (*l != '\0') {
		n = strcspn(l, ".");
		put8(p, n);
		putmem(p, l, n);
		l += n;
		if (*l == '.')
			l++;
	}
	put8(p, 0);
}

static void
putptr(struct pkt *p, size_t off)
{
	put16(p, 0xc000 | off);
}

static void
hdr(struct pkt *p, uint16_t id, uint16_t flags, int qd, int an, int ns,
    int ar)
{
	p->n = 0;
	put16(p, id);
	put16(p, flags);
	put16(p, qd);
	put16(p, an);
	put16(p, ns);
	put16(p, ar);
}

static void
set16(struct pkt *p, size_t off, uint16_t v)
{
	p->b[off] = v >> 8;
	p->b[off + 1] = v & 0xff;
}

static void
opt(struct pkt *p, uint16_t size, int dnssec, const uint8_t *opts,
    size_t optlen)
{
	put8(p, 0);
	put16(p, DNS_T_OPT);
	put16(p, size);
	put32(p, dnssec ? DNS_EDNS_DO : 0);
	put16(p, optlen);
	putmem(p, opts, optlen);
}

/* A standard query: RD set, one question, an OPT if edns is non-zero. */
static void
mkquery(struct pkt *p, uint16_t id, const char *name, uint16_t type,
    uint16_t edns)
{
	hdr(p, id, DNS_F_RD, 1, 0, 0, edns != 0);
	putname(p, name);
	put16(p, type);
	put16(p, DNS_C_IN);
	if (edns != 0)
		opt(p, edns, 0, NULL, 0);
}

/* An answer's header and question; the records follow. */
static void
mkresp(struct pkt *p, uint16_t id, uint16_t flags, const char *name,
    uint16_t type, int an)
{
	hdr(p, id, DNS_F_QR | DNS_F_RD | DNS_F_RA | flags, 1, an, 0, 0);
	putname(p, name);
	put16(p, type);
	put16(p, DNS_C_IN);
}

/* A record's fixed part after its owner. */
static void
rrhdr(struct pkt *p, uint16_t type, uint32_t ttl, uint16_t rdlen)
{
	put16(p, type);
	put16(p, DNS_C_IN);
	put32(p, ttl);
	put16(p, rdlen);
}

static void
rr_a(struct pkt *p, const char *owner, uint32_t ttl, const char *addr)
{
	struct in_addr	 a;

	inet_pton(AF_INET, addr, &a);
	if (owner == NULL)
		putptr(p, DNS_HDR_LEN);
	else
		putname(p, owner);
	rrhdr(p, DNS_T_A, ttl, 4);
	putmem(p, &a, 4);
}

static void
rr_aaaa(struct pkt *p, const char *owner, uint32_t ttl, const char *addr)
{
	struct in6_addr	 a;

	inet_pton(AF_INET6, addr, &a);
	if (owner == NULL)
		putptr(p, DNS_HDR_LEN);
	else
		putname(p, owner);
	rrhdr(p, DNS_T_AAAA, ttl, 16);
	putmem(p, &a, 16);
}

static void
rr_cname(struct pkt *p, const char *owner, uint32_t ttl, const char *target)
{
	struct pkt	 t;

	t.n = 0;
	putname(&t, target);
	if (owner == NULL)
		putptr(p, DNS_HDR_LEN);
	else
		putname(p, owner);
	rrhdr(p, DNS_T_CNAME, ttl, t.n);
	putmem(p, t.b, t.n);
}

/* Parsing helpers. */

static int
query(const struct pkt *p, struct dns_query *q)
{
	return (dns_query_parse(p->b, p->n, q));
}

/* The query "www.example.com A", parsed, for the answer tests. */
static struct dns_query	 WQ;

static int
answer(const struct pkt *p, struct dns_answer *a)
{
	return (dns_answer_parse(p->b, p->n, &WQ, NULL, a));
}

static int
has_addr(const struct dns_answer *a, const char *s, uint32_t ttl)
{
	struct dns_addr	 d;
	size_t		 i;

	memset(&d, 0, sizeof(d));
	if (inet_pton(AF_INET, s, &d.a.v4) == 1)
		d.af = AF_INET;
	else if (inet_pton(AF_INET6, s, &d.a.v6) == 1)
		d.af = AF_INET6;
	for (i = 0; i < a->naddrs; i++)
		if (a->addrs[i].af == d.af &&
		    memcmp(&a->addrs[i].a, &d.a, sizeof(d.a)) == 0)
			return (a->addrs[i].ttl == ttl);
	return (0);
}

/* Name matching. */

static void
test_anchor(void)
{
	static const struct {
		const char	*name;
		int		 want;
	} t[] = {
		{ "a.example.com", 1 },
		{ "a.b.example.com", 1 },
		{ "example.com", 0 },
		{ "notexample.com", 0 },
		{ "xexample.com", 0 },
		{ "example.com.evil.com", 0 },
		{ ".example.com", 0 },
		{ "a..example.com", 0 },
		{ "A.Example.COM", 1 },
		{ "a.example.com.", 1 },
		{ "example.com.", 0 },
		{ "a.example.com..", 0 },
		{ "a.example.co", 0 },
		{ "a.example.comm", 0 },
		{ "", 0 },
	};
	size_t	 i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ok(dns_name_match("*.example.com", t[i].name) == t[i].want,
		    "*.example.com %s \"%s\"", t[i].want ? "matches" :
		    "does not match", t[i].name);
	ok(dns_name_match("*.example.com.", "a.example.com"),
	    "a trailing dot on the pattern is tolerated");
	ok(!dns_name_match("*.", "a") && !dns_name_match("*", "a"),
	    "a malformed wildcard matches nothing");
}

static void
test_exact(void)
{
	static const struct {
		const char	*name;
		int		 want;
	} t[] = {
		{ "api.example.com", 1 },
		{ "API.Example.Com", 1 },
		{ "api.example.com.", 1 },
		{ "API.EXAMPLE.COM.", 1 },
		{ "api.example.com..", 0 },
		{ "x.api.example.com", 0 },
		{ "pi.example.com", 0 },
		{ "api.example.co", 0 },
		{ "api.example.com.evil.com", 0 },
		{ "example.com", 0 },
	};
	size_t	 i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ok(dns_name_match("api.example.com", t[i].name) == t[i].want,
		    "api.example.com %s \"%s\"", t[i].want ? "matches" :
		    "does not match", t[i].name);
}

static void
rule(struct net_rule_msg *r, uint32_t type, const char *name, uint16_t port,
    uint8_t proto)
{
	memset(r, 0, sizeof(*r));
	strlcpy(r->policy, "p", sizeof(r->policy));
	r->type = type;
	strlcpy(r->name, name, sizeof(r->name));
	r->port = port;
	r->proto = proto;
}

static void
test_ports(void)
{
	struct net_rule_msg	 r[7];
	struct dns_port		 out[7];
	ssize_t			 n;

	rule(&r[0], NET_RULE_NAME, "api.example.com", 443, IPPROTO_TCP);
	rule(&r[1], NET_RULE_NAME, "*.example.com", 443, IPPROTO_TCP);
	rule(&r[2], NET_RULE_NAME, "*.example.com", 53, IPPROTO_UDP);
	rule(&r[3], NET_RULE_NAME, "api.example.com", 8443, IPPROTO_TCP);
	rule(&r[4], NET_RULE_NAME, "other.com", 80, IPPROTO_TCP);
	rule(&r[5], NET_RULE_HOST, "", 22, IPPROTO_TCP);
	rule(&r[6], NET_RULE_NAME, "api.example.com", 443, IPPROTO_UDP);

	n = dns_name_ports(r, 7, "API.example.com.", out, 7);
	ok(n == 4 && out[0].port == 53 && out[0].proto == IPPROTO_UDP &&
	    out[1].port == 443 && out[1].proto == IPPROTO_TCP &&
	    out[2].port == 443 && out[2].proto == IPPROTO_UDP &&
	    out[3].port == 8443 && out[3].proto == IPPROTO_TCP,
	    "exact and wildcard together: the union of their ports, once "
	    "each, sorted (%zd)", n);
	n = dns_name_ports(r, 7, "x.example.com", out, 7);
	ok(n == 2 && out[0].port == 53 && out[1].port == 443,
	    "only the wildcard's ports for another name under it");
	ok(dns_name_ports(r, 7, "example.com", out, 7) == 0,
	    "the apex gets no ports");
	ok(dns_name_ports(r, 7, "other.com", out, 7) == 1 && out[0].port == 80,
	    "an unrelated exact name gets its own port");
	ok(dns_name_ports(r, 7, "api.example.com", out, 3) == -1,
	    "-1 when the union does not fit");
	ok(dns_name_ports(r, 6, "nothing.org", out, 0) == 0,
	    "no match, no ports, even with no room");
}

/* Queries. */

static void
test_query_ok(void)
{
	struct dns_query	 q;
	static const uint8_t	 cookie[] = { 0, 10, 0, 8,
					     1, 2, 3, 4, 5, 6, 7, 8 };

	mkquery(&P, 0x1234, "WWW.Example.COM", DNS_T_A, 0);
	is(query(&P, &q), DNS_OK, "a plain query");
	ok(q.id == 0x1234 && q.rd && q.qtype == DNS_T_A &&
	    q.qclass == DNS_C_IN && !q.edns, "id, RD, type, class");
	ok(strcmp(q.name, "www.example.com") == 0,
	    "the name lowercased and dotted: %s", q.name);
	ok(q.qlen == 17 + 4 && memcmp(q.question, P.b + DNS_HDR_LEN,
	    q.qlen) == 0, "the question kept as sent");
	ok(dns_query_udp_max(&q) == 512, "512 bytes without EDNS0");

	hdr(&P, 7, 0, 1, 0, 0, 1);
	putname(&P, "a.example.com");
	put16(&P, DNS_T_AAAA);
	put16(&P, DNS_C_IN);
	opt(&P, 4096, 1, cookie, sizeof(cookie));
	is(query(&P, &q), DNS_OK, "a query with EDNS0 and a cookie");
	ok(q.edns && q.edns_size == 4096 && q.edns_do && !q.rd &&
	    q.qtype == DNS_T_AAAA, "EDNS0 size 4096, DO, no RD, AAAA");
	ok(dns_query_udp_max(&q) == 4096, "udp max is the advertised size");
	set16(&P, P.n - sizeof(cookie) - 8, 100);
	query(&P, &q);
	ok(dns_query_udp_max(&q) == 512, "an advertised 100 counts as 512");

	mkquery(&P, 1, "", 2, 1232);
	is(query(&P, &q), DNS_OK, "a query for the root");
	ok(q.name[0] == '\0', "the root is \"\"");

	mkquery(&P, 1, "_sip._tcp.example.com", 33, 0);
	is(query(&P, &q), DNS_OK, "underscores are fine (SRV)");
}

static void
longname(char *buf, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		buf[i] = (i % 64 == 63) ? '.' : 'a';
	buf[len] = '\0';
}

static void
test_query_names(void)
{
	struct dns_query	 q;
	char			 name[300];

	hdr(&P, 1, 0, 1, 0, 0, 0);
	put8(&P, 3);
	putmem(&P, "ww", 2);
	is(query(&P, &q), DNS_E_NAME_TRUNC, "a label past the end");
	hdr(&P, 1, 0, 1, 0, 0, 0);
	put8(&P, 3);
	putmem(&P, "www", 3);
	is(query(&P, &q), DNS_E_NAME_TRUNC, "a name without its end");
	hdr(&P, 1, 0, 1, 0, 0, 0);
	is(query(&P, &q), DNS_E_NAME_TRUNC, "a header and no question");

	memset(name, 'a', 64);
	name[64] = '\0';
	mkquery(&P, 1, name, DNS_T_A, 0);
	is(query(&P, &q), DNS_E_LABEL, "a 64-byte label");
	name[63] = '\0';
	mkquery(&P, 1, name, DNS_T_A, 0);
	is(query(&P, &q), DNS_OK, "a 63-byte label");
	hdr(&P, 1, 0, 1, 0, 0, 0);
	put8(&P, 0x80);
	put8(&P, 0);
	put32(&P, 0x00010001);
	is(query(&P, &q), DNS_E_LABEL, "a reserved label type");

	longname(name, 253);
	mkquery(&P, 1, name, DNS_T_A, 0);
	is(query(&P, &q), DNS_OK, "a 253-character name");
	ok(strlen(q.name) == 253, "kept whole");
	longname(name, 255);
	name[253] = '.';
	mkquery(&P, 1, name, DNS_T_A, 0);
	is(query(&P, &q), DNS_E_NAME_LEN, "a 255-character name");
	longname(name, 254);
	mkquery(&P, 1, name, DNS_T_A, 0);
	is(query(&P, &q), DNS_E_NAME_LEN, "a 254-character name");

	hdr(&P, 1, 0, 1, 0, 0, 0);
	put8(&P, 3);
	putmem(&P, "a.b", 3);
	put8(&P, 0);
	put32(&P, 0x00010001);
	is(query(&P, &q), DNS_E_NAME_CHAR, "a '.' inside a label");
	hdr(&P, 1, 0, 1, 0, 0, 0);
	put8(&P, 2);
	putmem(&P, "a\x80", 2);
	put8(&P, 0);
	put32(&P, 0x00010001);
	is(query(&P, &q), DNS_E_NAME_CHAR, "a non-ASCII byte in a label");

	hdr(&P, 1, 0, 1, 0, 0, 0);
	put8(&P, 1);
	put8(&P, 'a');
	putptr(&P, 4);
	put32(&P, 0x00010001);
	is(query(&P, &q), DNS_E_PTR_QUERY, "a compression pointer");
}

static void
test_query_header(void)
{
	struct dns_query	 q;
	uint8_t			 big[DNS_QUERY_MAX + 100];
	size_t			 i;

	mkquery(&P, 1, "a.example.com", DNS_T_A, 0);
	is(dns_query_parse(P.b, DNS_HDR_LEN - 1, &q), DNS_E_SHORT,
	    "11 bytes");
	is(dns_query_parse(P.b, 0, &q), DNS_E_SHORT, "no bytes");
	is(dns_query_parse(P.b, P.n - 1, &q), DNS_E_TRUNC,
	    "a question without all of its class");
	set16(&P, 4, 2);
	is(query(&P, &q), DNS_E_QDCOUNT, "QDCOUNT 2");
	set16(&P, 4, 0);
	is(query(&P, &q), DNS_E_QDCOUNT, "QDCOUNT 0");
	set16(&P, 4, 1);
	set16(&P, 2, DNS_F_QR | DNS_F_RD);
	is(query(&P, &q), DNS_E_QR, "QR set");
	ok(dns_error_rcode(DNS_E_QR) == -1, "which is never answered");
	set16(&P, 2, 2 << 11);
	is(query(&P, &q), DNS_E_OPCODE, "opcode STATUS");
	ok(dns_error_rcode(DNS_E_OPCODE) == DNS_R_NOTIMP, "NOTIMP for it");
	set16(&P, 2, 0);
	set16(&P, 6, 1);
	is(query(&P, &q), DNS_E_COUNT, "ANCOUNT 1");
	set16(&P, 6, 0);
	set16(&P, 8, 1);
	is(query(&P, &q), DNS_E_COUNT, "NSCOUNT 1");
	set16(&P, 8, 0);
	set16(&P, 10, 2);
	is(query(&P, &q), DNS_E_ARCOUNT, "ARCOUNT 2");
	set16(&P, 10, 0);
	put8(&P, 0);
	is(query(&P, &q), DNS_E_TRAILING, "a byte after the question");
	ok(dns_error_rcode(DNS_E_TRAILING) == DNS_R_FORMERR, "FORMERR for it");

	mkquery(&P, 1, "a.example.com", DNS_T_A, 0);
	P.b[P.n - 1] = 3;
	is(query(&P, &q), DNS_E_QCLASS, "class CH");
	mkquery(&P, 1, "a.example.com", 0, 0);
	is(query(&P, &q), DNS_E_QTYPE, "type 0");
	mkquery(&P, 1, "a.example.com", DNS_T_OPT, 0);
	is(query(&P, &q), DNS_E_QTYPE, "type OPT");

	memset(big, 0, sizeof(big));
	mkquery(&P, 1, "a.example.com", DNS_T_A, 0);
	memcpy(big, P.b, P.n);
	is(dns_query_parse(big, sizeof(big), &q), DNS_E_SIZE,
	    "a query longer than 512 bytes");
	srandom(6);
	for (i = 0; i < sizeof(big); i++)
		big[i] = random();
	big[2] = 0x01;		/* garbage that at least claims to be a query */
	ok(dns_query_parse(big, 300, &q) != DNS_OK, "300 bytes of garbage");
}

/* RFC 6891 6.1.3: EDNS version 1 gets BADVERS, in an OPT of version 0. */
static void
test_query_badvers(void)
{
	struct dns_query	 q;
	uint8_t			 out[DNS_QUERY_MAX + DNS_OPT_LEN];
	ssize_t			 n;
	int			 e;

	mkquery(&P, 9, "a.example.com", DNS_T_A, 1232);
	P.b[P.n - 5] = 1;	/* the OPT's version */
	is((e = query(&P, &q)), DNS_E_BADVERS, "EDNS version 1");
	ok(dns_error_rcode(e) == DNS_R_BADVERS && q.qlen != 0 && q.edns &&
	    q.edns_version == 1, "answered BADVERS, the question whole");
	n = dns_build_rcode(&q, dns_error_rcode(e), out, sizeof(out));
	ok(n == (ssize_t)(DNS_HDR_LEN + q.qlen + DNS_OPT_LEN) &&
	    (out[3] & DNS_F_RCODE) == (DNS_R_BADVERS & DNS_F_RCODE) &&
	    out[n - 6] == DNS_R_BADVERS >> 4 && out[n - 5] == 0 &&
	    dns_get16(out) == 9, "BADVERS: low bits in the header, high "
	    "bits and version 0 in the OPT, the id echoed");
	mkquery(&P, 9, "a.example.com", DNS_T_A, 1232);
	is(query(&P, &q), DNS_OK, "EDNS version 0 is fine");
}

static void
test_query_opt(void)
{
	struct dns_query	 q;
	static const uint8_t	 badopt[] = { 0, 10, 0, 9, 1, 2, 3, 4 };

	mkquery(&P, 1, "a.example.com", DNS_T_A, 0);
	set16(&P, 10, 1);
	is(query(&P, &q), DNS_E_TRUNC, "ARCOUNT 1 with nothing there");
	mkquery(&P, 1, "a.example.com", DNS_T_A, 0);
	set16(&P, 10, 1);
	putname(&P, "key");
	put16(&P, 250);		/* TSIG */
	put16(&P, 255);
	put32(&P, 0);
	put16(&P, 0);
	is(query(&P, &q), DNS_E_ARCOUNT, "a TSIG in place of the OPT");
	mkquery(&P, 1, "a.example.com", DNS_T_A, 0);
	set16(&P, 10, 1);
	opt(&P, 1232, 0, badopt, sizeof(badopt));
	is(query(&P, &q), DNS_E_OPT, "an EDNS option longer than the OPT");
	mkquery(&P, 1, "a.example.com", DNS_T_A, 1232);
	set16(&P, P.n - 2, 4);
	is(query(&P, &q), DNS_E_TRUNC, "an OPT rdata past the end");
	mkquery(&P, 1, "a.example.com", DNS_T_A, 1232);
	P.n--;
	is(query(&P, &q), DNS_E_TRUNC, "an OPT cut short");
	test_query_badvers();
}

/* Answers. */

static void
test_answer_basic(void)
{
	struct dns_answer	 a;

	mkresp(&R, 0x4242, 0, "www.example.com", DNS_T_A, 2);
	rr_a(&R, NULL, 300, "192.0.2.1");
	rr_a(&R, "www.example.com", 60, "192.0.2.2");
	is(answer(&R, &a), DNS_OK, "two A records, one owner compressed");
	ok(a.id == 0x4242 && a.rcode == 0 && !a.tc && a.naddrs == 2 &&
	    a.ncname == 0, "id, rcode, no TC, two addresses");
	ok(has_addr(&a, "192.0.2.1", 300) && has_addr(&a, "192.0.2.2", 60),
	    "each with its own TTL");

	mkresp(&R, 1, 0, "WWW.EXAMPLE.com", DNS_T_A, 1);
	rr_a(&R, "Www.Example.Com", 30, "192.0.2.3");
	is(answer(&R, &a), DNS_OK, "the question in another case");
	ok(a.naddrs == 1 && has_addr(&a, "192.0.2.3", 30),
	    "and an owner in another case still counts");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 2);
	rr_aaaa(&R, NULL, 120, "2001:db8::1");
	rr_a(&R, NULL, 0x80000001, "192.0.2.4");
	is(answer(&R, &a), DNS_OK, "AAAA and an A with a huge TTL");
	ok(a.naddrs == 2 && a.addrs[0].af == AF_INET6 &&
	    has_addr(&a, "2001:db8::1", 120), "the AAAA, as AF_INET6");
	ok(has_addr(&a, "192.0.2.4", 0), "a TTL with the top bit set is 0");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 3);
	rr_a(&R, NULL, 10, "192.0.2.5");
	rr_a(&R, NULL, 90, "192.0.2.5");
	rr_a(&R, NULL, 20, "192.0.2.5");
	answer(&R, &a);
	ok(a.naddrs == 1 && has_addr(&a, "192.0.2.5", 90),
	    "an address twice is kept once, with the longest TTL");

	mkresp(&R, 1, DNS_R_NXDOMAIN, "www.example.com", DNS_T_A, 1);
	rr_a(&R, NULL, 10, "192.0.2.6");
	is(answer(&R, &a), DNS_OK, "NXDOMAIN");
	ok(a.rcode == DNS_R_NXDOMAIN && a.naddrs == 0,
	    "its rcode, and no addresses taken from it");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 0);
	is(answer(&R, &a), DNS_OK, "an empty answer (NODATA)");
	ok(a.naddrs == 0, "no addresses");
}

static void
test_answer_cname(void)
{
	struct dns_answer	 a;
	char			 n[32], t[32];
	int			 i;

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 4);
	rr_cname(&R, NULL, 300, "a.cdn.net");
	rr_cname(&R, "a.cdn.net", 300, "b.cdn.net");
	rr_a(&R, "b.cdn.net", 20, "198.51.100.1");
	rr_aaaa(&R, "b.cdn.net", 25, "2001:db8::b");
	is(answer(&R, &a), DNS_OK, "a chain of two CNAMEs");
	ok(a.ncname == 2 && a.naddrs == 2 &&
	    has_addr(&a, "198.51.100.1", 20) && has_addr(&a, "2001:db8::b", 25),
	    "followed to the A and AAAA at its end");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 3);
	rr_a(&R, "b.cdn.net", 20, "198.51.100.2");
	rr_cname(&R, "a.cdn.net", 300, "b.cdn.net");
	rr_cname(&R, NULL, 300, "A.CDN.NET");
	is(answer(&R, &a), DNS_OK, "the chain backwards, in another case");
	ok(a.naddrs == 1 && has_addr(&a, "198.51.100.2", 20),
	    "followed all the same");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 2);
	/* the CNAME's target compressed onto the question's suffix */
	putptr(&R, DNS_HDR_LEN);
	rrhdr(&R, DNS_T_CNAME, 300, 4);
	put8(&R, 1);
	put8(&R, 'x');
	putptr(&R, DNS_HDR_LEN + 4);
	rr_a(&R, "x.example.com", 20, "198.51.100.3");
	is(answer(&R, &a), DNS_OK, "a compressed CNAME target");
	ok(a.naddrs == 1 && has_addr(&a, "198.51.100.3", 20),
	    "x.example.com reached through it");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 2);
	rr_cname(&R, NULL, 300, "loop.example.com");
	rr_cname(&R, "loop.example.com", 300, "www.example.com");
	is(answer(&R, &a), DNS_OK, "a CNAME loop");
	ok(a.naddrs == 0, "ends, with nothing");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, DNS_CHAIN_MAX + 1);
	rr_cname(&R, NULL, 300, "c0.example.com");
	for (i = 0; i < DNS_CHAIN_MAX; i++) {
		snprintf(n, sizeof(n), "c%d.example.com", i);
		snprintf(t, sizeof(t), "c%d.example.com", i + 1);
		rr_cname(&R, n, 300, t);
	}
	is(answer(&R, &a), DNS_E_CHAIN, "a chain of 17 CNAMEs");
	R.b[7]--;
	is(answer(&R, &a), DNS_OK, "a chain of 16 is fine");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, DNS_CNAMES_MAX + 1);
	for (i = 0; i <= DNS_CNAMES_MAX; i++) {
		snprintf(n, sizeof(n), "u%d.example.org", i);
		rr_cname(&R, n, 300, "x.example.org");
	}
	is(answer(&R, &a), DNS_E_CHAIN, "33 CNAME records");
}

static void
test_answer_unrelated(void)
{
	struct dns_answer	 a;

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 9);
	rr_a(&R, "evil.com", 300, "203.0.113.1");
	rr_a(&R, "example.com", 300, "203.0.113.2");
	rr_a(&R, "notwww.example.com", 300, "203.0.113.3");
	rr_a(&R, "www.example.com.evil.com", 300, "203.0.113.4");
	rr_a(&R, "x.www.example.com", 300, "203.0.113.5");
	rr_cname(&R, "other.example.com", 300, "cdn.evil.com");
	rr_a(&R, "cdn.evil.com", 300, "203.0.113.6");
	rr_aaaa(&R, "evil.com", 300, "2001:db8::666");
	rr_a(&R, NULL, 40, "192.0.2.10");
	is(answer(&R, &a), DNS_OK, "records for other names beside ours");
	ok(a.naddrs == 1 && has_addr(&a, "192.0.2.10", 40) && a.ncname == 0,
	    "only the queried name's address is taken");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 3);
	rr_cname(&R, NULL, 300, "a.cdn.net");
	rr_a(&R, "b.cdn.net", 300, "203.0.113.7");
	rr_a(&R, "a.cdn.net", 300, "192.0.2.11");
	is(answer(&R, &a), DNS_OK, "a CNAME beside an unrelated name");
	ok(a.naddrs == 1 && has_addr(&a, "192.0.2.11", 300),
	    "only the CNAME's target counts");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 2);
	put8(&R, 3);
	putmem(&R, "w.w", 3);
	putname(&R, "example.com");
	rrhdr(&R, DNS_T_A, 300, 4);
	put32(&R, 0xcb007108);
	rr_a(&R, NULL, 300, "192.0.2.12");
	is(answer(&R, &a), DNS_OK, "an owner with a '.' inside a label");
	ok(a.naddrs == 1 && has_addr(&a, "192.0.2.12", 300),
	    "is skipped, not mistaken for w.w.example.com");
}

static void
test_answer_skip(void)
{
	struct dns_answer	 a;

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 4);
	putptr(&R, DNS_HDR_LEN);
	rrhdr(&R, 46, 300, 7);		/* RRSIG, cut down */
	putmem(&R, "abcdefg", 7);
	putptr(&R, DNS_HDR_LEN);
	put16(&R, DNS_T_A);
	put16(&R, 3);			/* class CH, any rdata */
	put32(&R, 300);
	put16(&R, 5);
	putmem(&R, "hello", 5);
	putptr(&R, DNS_HDR_LEN);
	rrhdr(&R, 99, 300, 0);
	rr_a(&R, NULL, 300, "192.0.2.13");
	is(answer(&R, &a), DNS_OK, "unknown types and classes skipped");
	ok(a.naddrs == 1 && has_addr(&a, "192.0.2.13", 300),
	    "past them to the address");
}

static void
test_answer_malformed(void)
{
	struct dns_answer	 a;
	size_t			 p, r;
	int			 i;

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 1);
	p = R.n;
	putptr(&R, p);
	rrhdr(&R, DNS_T_A, 300, 4);
	put32(&R, 0);
	is(answer(&R, &a), DNS_E_PTR, "an owner pointing at itself (loop)");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 1);
	p = R.n;
	put8(&R, 1);
	put8(&R, 'a');
	putptr(&R, p);
	rrhdr(&R, DNS_T_A, 300, 4);
	put32(&R, 0);
	is(answer(&R, &a), DNS_E_PTR, "a label then a pointer back to it "
	    "(loop)");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 2);
	putptr(&R, DNS_HDR_LEN);
	rrhdr(&R, 99, 300, 4);
	p = R.n;
	putptr(&R, p + 2);	/* forward, into the next two bytes */
	putptr(&R, p);		/* back to the first: a loop */
	putptr(&R, p + 2);
	rrhdr(&R, DNS_T_A, 300, 4);
	put32(&R, 0);
	is(answer(&R, &a), DNS_E_PTR, "two pointers pointing at each other "
	    "(loop)");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 1);
	putptr(&R, R.n + 2);
	putname(&R, "www.example.com");
	rrhdr(&R, DNS_T_A, 300, 4);
	put32(&R, 0);
	is(answer(&R, &a), DNS_E_PTR, "a pointer forward");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 1);
	putptr(&R, 4);
	rrhdr(&R, DNS_T_A, 300, 4);
	put32(&R, 0);
	is(answer(&R, &a), DNS_E_PTR, "a pointer into the header");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 2);
	putptr(&R, DNS_HDR_LEN);
	rrhdr(&R, 99, 300, 2 * (DNS_PTR_HOPS + 1));
	r = R.n;
	putptr(&R, DNS_HDR_LEN);
	for (i = 1; i <= DNS_PTR_HOPS; i++)
		putptr(&R, r + 2 * (i - 1));
	putptr(&R, r + 2 * DNS_PTR_HOPS);
	rrhdr(&R, DNS_T_A, 300, 4);
	put32(&R, 0);
	is(answer(&R, &a), DNS_E_PTR_HOPS, "33 pointers in one name");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 1);
	putptr(&R, DNS_HDR_LEN);
	rrhdr(&R, DNS_T_A, 300, 5);
	putmem(&R, "12345", 5);
	is(answer(&R, &a), DNS_E_RDLEN, "an A of 5 bytes");
	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 1);
	putptr(&R, DNS_HDR_LEN);
	rrhdr(&R, DNS_T_AAAA, 300, 4);
	put32(&R, 0);
	is(answer(&R, &a), DNS_E_RDLEN, "an AAAA of 4 bytes");
	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 1);
	putptr(&R, DNS_HDR_LEN);
	rrhdr(&R, DNS_T_A, 300, 40);
	put32(&R, 0);
	is(answer(&R, &a), DNS_E_TRUNC, "an rdlength past the end");
	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 1);
	putptr(&R, DNS_HDR_LEN);
	rrhdr(&R, DNS_T_CNAME, 300, 6);
	putname(&R, "ab");
	put16(&R, 0);
	is(answer(&R, &a), DNS_E_RDLEN, "a CNAME whose name ends early");
	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 1);
	putptr(&R, DNS_HDR_LEN);
	rrhdr(&R, DNS_T_CNAME, 300, 3);
	putname(&R, "abcd");
	is(answer(&R, &a), DNS_E_NAME_TRUNC, "a CNAME whose name runs past "
	    "its rdata");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 2);
	rr_a(&R, NULL, 300, "192.0.2.1");
	putptr(&R, DNS_HDR_LEN);
	put16(&R, DNS_T_A);
	is(answer(&R, &a), DNS_E_TRUNC, "a record cut short");
	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 3);
	rr_a(&R, NULL, 300, "192.0.2.1");
	is(answer(&R, &a), DNS_E_NAME_TRUNC, "ANCOUNT 3 with one record");
	is(dns_answer_parse(R.b, DNS_MSG_MAX + 1, &WQ, NULL, &a), DNS_E_SIZE,
	    "65536 bytes");
	is(dns_answer_parse(R.b, 5, &WQ, NULL, &a), DNS_E_SHORT, "5 bytes");
}

static void
test_answer_tc(void)
{
	struct dns_answer	 a;

	mkresp(&R, 1, DNS_F_TC, "www.example.com", DNS_T_A, 0);
	is(answer(&R, &a), DNS_OK, "TC with no answers");
	ok(a.tc && a.naddrs == 0, "TC reported");

	mkresp(&R, 1, DNS_F_TC, "www.example.com", DNS_T_A, 3);
	rr_a(&R, NULL, 300, "192.0.2.1");
	rr_a(&R, NULL, 300, "192.0.2.2");
	R.n -= 3;
	is(answer(&R, &a), DNS_OK, "TC, cut inside the second record");
	ok(a.tc && a.naddrs == 1 && has_addr(&a, "192.0.2.1", 300),
	    "what came whole is read");
}

static void
test_answer_question(void)
{
	struct dns_answer	 a;

	mkresp(&R, 1, 0, "www.example.org", DNS_T_A, 1);
	rr_a(&R, NULL, 300, "192.0.2.1");
	is(answer(&R, &a), DNS_E_MISMATCH, "the answer to another name");
	mkresp(&R, 1, 0, "www.example.com", DNS_T_AAAA, 1);
	rr_a(&R, NULL, 300, "192.0.2.1");
	is(answer(&R, &a), DNS_E_MISMATCH, "the answer to another type");
	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 0);
	set16(&R, R.n - 2, 3);
	is(answer(&R, &a), DNS_E_MISMATCH, "the answer in another class");
	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 0);
	set16(&R, 4, 0);
	is(answer(&R, &a), DNS_E_QDCOUNT, "no question");
	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 0);
	set16(&R, 2, DNS_F_RD);
	is(answer(&R, &a), DNS_E_QR, "QR clear");
	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 0);
	set16(&R, 2, DNS_F_QR | (4 << 11));
	is(answer(&R, &a), DNS_E_OPCODE, "opcode NOTIFY");
	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 0);
	R.n -= 2;
	is(answer(&R, &a), DNS_E_TRUNC, "a question cut short");
}

static void
test_answer_many(void)
{
	struct dns_answer	 a;
	char			 s[INET6_ADDRSTRLEN];
	int			 i;

	mkresp(&R, 1, 0, "www.example.com", DNS_T_AAAA, 70);
	for (i = 0; i < 70; i++) {
		snprintf(s, sizeof(s), "2001:db8::%x", i + 1);
		rr_aaaa(&R, NULL, 60, s);
	}
	WQ.qtype = DNS_T_AAAA;
	is(answer(&R, &a), DNS_OK, "70 AAAA, more than 512 bytes");
	WQ.qtype = DNS_T_A;
	ok(R.n > 512 && a.naddrs == DNS_ADDRS_MAX && a.ndropped == 6,
	    "64 kept, 6 counted as dropped");
}

/* Builders. */

static void
test_build(void)
{
	struct dns_query	 q;
	struct dns_answer	 a;
	uint8_t			 out[600];
	ssize_t			 n;
	static const int	 rcodes[] = { DNS_R_REFUSED, DNS_R_SERVFAIL,
				    DNS_R_FORMERR };
	size_t			 i;

	mkquery(&P, 0xbeef, "Api.Example.COM", DNS_T_A, 0);
	query(&P, &q);
	for (i = 0; i < 3; i++) {
		n = dns_build_rcode(&q, rcodes[i], out, sizeof(out));
		ok(n == (ssize_t)P.n &&
		    dns_answer_parse(out, n, &q, NULL, &a) == DNS_OK &&
		    a.id == 0xbeef && a.rcode == rcodes[i] && a.naddrs == 0,
		    "rcode %d built and parsed back", rcodes[i]);
	}
	ok(dns_get16(out + 2) == (DNS_F_QR | DNS_F_RD | DNS_F_RA |
	    DNS_R_FORMERR) && dns_get16(out + 10) == 0,
	    "QR, RD echoed, RA, no OPT");
	ok(memcmp(out + DNS_HDR_LEN, P.b + DNS_HDR_LEN, q.qlen) == 0,
	    "the question echoed in the client's case");
	ok(dns_query_parse(out, n, &q) == DNS_E_QR,
	    "our answer is never taken for a query");

	hdr(&P, 9, 0, 1, 0, 0, 1);
	putname(&P, "x.example.com");
	put16(&P, DNS_T_AAAA);
	put16(&P, DNS_C_IN);
	opt(&P, 4096, 1, (const uint8_t *)"\0\12\0\0", 4);
	is(query(&P, &q), DNS_OK, "a query with EDNS0, DO and an option");
	n = dns_build_rcode(&q, DNS_R_REFUSED, out, sizeof(out));
	ok(n == DNS_HDR_LEN + q.qlen + DNS_OPT_LEN &&
	    dns_answer_parse(out, n, &q, NULL, &a) == DNS_OK &&
	    a.rcode == DNS_R_REFUSED && a.id == 9,
	    "REFUSED with an OPT, parsed back");
	ok(dns_get16(out + 10) == 1 && out[n - 11] == 0 &&
	    dns_get16(out + n - 10) == DNS_T_OPT &&
	    dns_get16(out + n - 8) == DNS_EDNS_UDP &&
	    dns_get16(out + n - 4) == DNS_EDNS_DO &&
	    dns_get16(out + n - 2) == 0,
	    "the OPT: ours, %d bytes, DO echoed, no options", DNS_EDNS_UDP);
	n = dns_build_rcode(&q, DNS_R_BADVERS, out, sizeof(out));
	ok(n > 0 && (dns_get16(out + 2) & DNS_F_RCODE) == 0 &&
	    out[n - 6] == 1, "BADVERS in the OPT's extended rcode");
	ok(dns_build_rcode(&q, DNS_R_REFUSED, out, n - 1) == -1,
	    "-1 when it does not fit");
	n = dns_build_tc(&q, out, sizeof(out));
	ok(n == DNS_HDR_LEN + q.qlen + DNS_OPT_LEN &&
	    dns_answer_parse(out, n, &q, NULL, &a) == DNS_OK && a.tc &&
	    a.rcode == DNS_R_NOERROR && dns_get16(out + 6) == 0,
	    "an empty TC answer, parsed back");
	mkquery(&P, 9, "x.example.com", DNS_T_A, 0);
	query(&P, &q);
	ok(dns_build_rcode(&q, DNS_R_BADVERS, out, sizeof(out)) == -1,
	    "no BADVERS without an OPT");
	hdr(&P, 3, 0, 1, 0, 0, 0);
	put8(&P, 70);
	ok(query(&P, &q) == DNS_E_LABEL && q.qlen == 0 &&
	    dns_build_rcode(&q, DNS_R_FORMERR, out, sizeof(out)) == -1,
	    "nothing built without a whole question");

	mkquery(&P, 3, "x.example.com", DNS_T_A, 0);
	P.b[P.n - 1] = 3;
	ok(query(&P, &q) == DNS_E_QCLASS && q.qlen != 0 &&
	    (n = dns_build_rcode(&q, DNS_R_NOTIMP, out, sizeof(out))) > 0 &&
	    memcmp(out + DNS_HDR_LEN, P.b + DNS_HDR_LEN, q.qlen) == 0,
	    "a query refused after its question still gets it echoed");

	hdr(&P, 0x5151, DNS_F_RD | (5 << 11), 3, 0, 0, 0);
	put32(&P, 0xdeadbeef);
	n = dns_build_error(P.b, P.n, DNS_R_NOTIMP, out, sizeof(out));
	ok(n == DNS_HDR_LEN && dns_get16(out) == 0x5151 &&
	    dns_get16(out + 2) == (DNS_F_QR | DNS_F_RA | DNS_F_RD |
	    (5 << 11) | DNS_R_NOTIMP) && dns_get16(out + 4) == 0,
	    "a bare header for what did not parse: id, opcode, RD echoed");
	set16(&P, 2, DNS_F_QR);
	ok(dns_build_error(P.b, P.n, DNS_R_FORMERR, out, sizeof(out)) == -1,
	    "but never to a response");
	ok(dns_build_error(P.b, 11, DNS_R_FORMERR, out, sizeof(out)) == -1,
	    "nor to less than a header");

	mkquery(&P, 0x0102, "a.example.com", DNS_T_A, 0);
	ok(dns_set_id(P.b, P.n, 0xa1b2) == 0 &&
	    dns_get_id(P.b, P.n) == 0xa1b2 && query(&P, &q) == DNS_OK &&
	    q.id == 0xa1b2, "an id rewritten in place");
	ok(dns_set_id(P.b, 1, 1) == -1 && dns_get_id(P.b, 1) == -1,
	    "not in a 1-byte message");
}

static void
test_strerror(void)
{
	int	 i, j, good = 1;

	for (i = 0; i < DNS_E_NERR; i++) {
		if (dns_errstr[i] == NULL)
			good = 0;
		for (j = 0; j < i && good; j++)
			if (strcmp(dns_errstr[i], dns_errstr[j]) == 0)
				good = 0;
	}
	ok(good, "every error has its own string");
	ok(strcmp(dns_strerror(-1), "unknown error") == 0 &&
	    strcmp(dns_strerror(DNS_E_NERR), "unknown error") == 0,
	    "and an unknown one says so");
}

/* Mutated valid packets through every parser, for ASan's eyes. */
static void
test_mutate(void)
{
	struct dns_query	 q;
	struct dns_answer	 a;
	struct pkt		 seeds[3];
	static uint8_t		 m[PKT_MAX];
	uint8_t			 out[600];
	size_t			 i, k, n, bad = 0;

	mkquery(&seeds[0], 1, "www.example.com", DNS_T_A, 1232);
	mkresp(&seeds[1], 1, 0, "www.example.com", DNS_T_A, 3);
	rr_cname(&seeds[1], NULL, 300, "a.cdn.net");
	rr_cname(&seeds[1], "a.cdn.net", 300, "b.cdn.net");
	rr_a(&seeds[1], "b.cdn.net", 20, "198.51.100.1");
	mkresp(&seeds[2], 1, 0, "www.example.com", DNS_T_A, 2);
	rr_aaaa(&seeds[2], NULL, 120, "2001:db8::1");
	rr_a(&seeds[2], NULL, 120, "192.0.2.1");
	srandom(1);
	for (i = 0; i < MUTATIONS; i++) {
		const struct pkt *s = &seeds[i % 3];

		n = s->n;
		memcpy(m, s->b, n);
		for (k = random() % 4 + 1; k > 0; k--)
			m[random() % n] = random();
		if (random() % 4 == 0)
			n = random() % (n + 1);
		if (dns_query_parse(m, n, &q) == DNS_OK) {
			if (strlen(q.name) > DNS_NAME_MAX ||
			    dns_build_rcode(&q, DNS_R_REFUSED, out,
			    sizeof(out)) <= 0)
				bad++;
		}
		if (dns_answer_parse(m, n, &WQ, NULL, &a) == DNS_OK &&
		    a.naddrs > DNS_ADDRS_MAX)
			bad++;
		dns_build_error(m, n, DNS_R_FORMERR, out, sizeof(out));
	}
	ok(bad == 0, "%d mutated packets parsed, no invariant broken",
	    MUTATIONS);
}

/*
 * More than DNS_ADDRS_MAX addresses: the answer cut down to the kept
 * ones, names written out whole (the owners here point into a CNAME's
 * compressed target), records with names in their rdata dropped, the
 * rest kept, an OPT if the query had one.
 */
static void
test_answer_trim(void)
{
	struct dns_answer	 a, t;
	uint8_t			 out[DNS_MSG_MAX];
	char			 s[INET6_ADDRSTRLEN];
	size_t			 tgt, i, j, found = 0;
	ssize_t			 n;
	int			 k;

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 73);
	putptr(&R, DNS_HDR_LEN);		/* www.example.com CNAME */
	rrhdr(&R, DNS_T_CNAME, 300, 4);
	tgt = R.n;
	put8(&R, 1);
	put8(&R, 'x');
	putptr(&R, DNS_HDR_LEN + 4);		/* x.example.com */
	for (k = 0; k < 70; k++) {
		putptr(&R, tgt);
		snprintf(s, sizeof(s), "198.51.100.%d", k + 1);
		rrhdr(&R, DNS_T_A, 60, 4);
		if (inet_pton(AF_INET, s, &R.b[R.n]) != 1)
			abort();
		R.n += 4;
	}
	putptr(&R, DNS_HDR_LEN);		/* an NS: a name in rdata */
	rrhdr(&R, 2, 60, 2);
	putptr(&R, tgt);
	putptr(&R, DNS_HDR_LEN);		/* a TXT: kept as it is */
	rrhdr(&R, 16, 60, 3);
	put8(&R, 2);
	put8(&R, 'h');
	put8(&R, 'i');
	is(answer(&R, &a), DNS_OK, "70 A through a compressed CNAME");
	ok(a.naddrs == DNS_ADDRS_MAX && a.ndropped == 6 && a.ncname == 1,
	    "64 kept, 6 dropped");
	n = dns_answer_trim(R.b, R.n, &WQ, &a, out, sizeof(out));
	ok(n > 0 && n < (ssize_t)R.n + 73 * 14, "cut down: %zd bytes", n);
	ok(n > 0 && dns_answer_parse(out, n, &WQ, NULL, &t) == DNS_OK &&
	    t.naddrs == DNS_ADDRS_MAX && t.ndropped == 0 && t.ncname == 1,
	    "it parses, with the 64 and the CNAME and nothing dropped");
	for (i = 0; i < a.naddrs; i++)
		for (j = 0; j < t.naddrs; j++)
			if (memcmp(&a.addrs[i].a, &t.addrs[j].a, 4) == 0)
				found++;
	ok(found == DNS_ADDRS_MAX, "the same 64 addresses");
	ok(n > 0 && dns_get16(out + 6) == 66 && dns_get16(out + 8) == 0 &&
	    dns_get16(out + 10) == 0 && dns_get16(out) == 1,
	    "66 records (CNAME, 64 A, TXT; no NS), no others, the id kept");
	ok(n > 0 && out[n - 3] == 2 && out[n - 2] == 'h' &&
	    out[n - 1] == 'i', "the TXT last, whole");
	for (i = DNS_HDR_LEN; n > 0 && i < (size_t)n; i++)
		if (out[i] == 0xc0 && i + 1 < (size_t)n &&
		    out[i + 1] == DNS_HDR_LEN)
			break;
	ok(n > 0 && i == (size_t)n, "no pointer to the question left");
	WQ.edns = 1;
	n = dns_answer_trim(R.b, R.n, &WQ, &a, out, sizeof(out));
	ok(n > 0 && dns_get16(out + 10) == 1 &&
	    dns_get16(out + n - 10) == DNS_T_OPT &&
	    dns_answer_parse(out, n, &WQ, NULL, &t) == DNS_OK &&
	    t.naddrs == DNS_ADDRS_MAX, "with EDNS0 asked, an OPT at the end");
	WQ.edns = 0;
	ok(dns_answer_trim(R.b, R.n, &WQ, &a, out, 600) == -1,
	    "-1 if it does not fit");
	R.b[tgt + 2] = 0xc0;		/* the target's pointer to itself */
	R.b[tgt + 3] = tgt + 2;
	ok(dns_answer_trim(R.b, R.n, &WQ, &a, out, sizeof(out)) == -1,
	    "-1 for a message that does not parse");
}

/* The special-purpose ranges (lib/addrclass.c), at and past their edges. */
static void
test_addrclass(void)
{
	static const struct { const char *addr, *range; } t[] = {
		{ "0.0.0.0", "this-network" }, { "0.255.255.255", "this-network" },
		{ "1.0.0.0", NULL }, { "8.8.8.8", NULL },
		{ "9.255.255.255", NULL }, { "10.0.0.0", "private" },
		{ "10.255.255.255", "private" }, { "11.0.0.0", NULL },
		{ "100.63.255.255", NULL }, { "100.64.0.0", "shared-cgnat" },
		{ "100.127.255.255", "shared-cgnat" }, { "100.128.0.0", NULL },
		{ "100.100.100.200", "cloud-metadata" },
		{ "126.255.255.255", NULL }, { "127.0.0.1", "loopback" },
		{ "127.255.255.255", "loopback" }, { "128.0.0.0", NULL },
		{ "168.63.129.16", "cloud-metadata" }, { "168.63.129.17", NULL },
		{ "169.253.255.255", NULL }, { "169.254.0.1", "link-local" },
		{ "169.254.169.254", "cloud-metadata" },
		{ "169.254.255.255", "link-local" }, { "169.255.0.0", NULL },
		{ "172.15.255.255", NULL }, { "172.16.0.0", "private" },
		{ "172.31.255.255", "private" }, { "172.32.0.0", NULL },
		{ "192.0.0.9", "ietf-protocol" }, { "192.0.1.0", NULL },
		{ "192.0.2.1", NULL }, { "192.88.99.1", "6to4-relay" },
		{ "192.167.255.255", NULL }, { "192.168.0.0", "private" },
		{ "192.168.255.255", "private" }, { "192.169.0.0", NULL },
		{ "198.17.255.255", NULL }, { "198.18.0.0", "benchmarking" },
		{ "198.19.255.255", "benchmarking" }, { "198.20.0.0", NULL },
		{ "198.51.100.1", NULL }, { "203.0.113.1", NULL },
		{ "223.255.255.255", NULL }, { "224.0.0.1", "multicast" },
		{ "239.255.255.255", "multicast" }, { "240.0.0.1", "reserved" },
		{ "255.255.255.255", "reserved" },
		{ "::", "unspecified" }, { "::1", "loopback" },
		{ "::2", "ipv4-compatible" }, { "::a00:5", "ipv4-compatible" },
		{ "::ffff:8.8.8.8", "ipv4-mapped" },
		{ "::ffff:10.0.0.5", "ipv4-mapped" },
		{ "64:ff9b::808:808", NULL }, { "64:ff9b::a00:5", "nat64" },
		{ "64:ff9b::7f00:1", "nat64" }, { "64:ff9b::a9fe:a9fe", "nat64" },
		{ "64:ff9b:1::808:808", "nat64-local" },
		{ "64:ff9b:2::1", NULL }, { "100::1", "discard-only" },
		{ "100:0:0:1::1", NULL }, { "2001::1", "teredo" },
		{ "2001:0:4136:e378:8000:63bf:3fff:fdd2", "teredo" },
		{ "2001:1::1", NULL }, { "2001:2::1", "benchmarking" },
		{ "2001:2:1::1", NULL }, { "2001:10::1", "orchid" },
		{ "2001:1f:ffff::1", "orchid" }, { "2001:20::1", NULL },
		{ "2001:db8::1", NULL }, { "2002:808:808::1", NULL },
		{ "2002:a00:5::1", "6to4" }, { "2002:a9fe:a9fe::1", "6to4" },
		{ "2002:c0a8:101::1", "6to4" }, { "2003::1", NULL },
		{ "2606:4700::1111", NULL }, { "5f00::1", "srv6-sid" },
		{ "fbff:ffff::1", NULL }, { "fc00::1", "unique-local" },
		{ "fd00:ec2::254", "cloud-metadata" },
		{ "fd00:ec2::255", "unique-local" },
		{ "fdff:ffff::1", "unique-local" }, { "fe7f::1", NULL },
		{ "fe80::1", "link-local" }, { "febf::1", "link-local" },
		{ "fec0::1", "site-local" }, { "feff::1", "site-local" },
		{ "ff02::1", "multicast" }, { "ffff::1", "multicast" },
	};
	const struct addrclass_range	*r;
	uint8_t				 a[16];
	size_t				 i;
	int				 af;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		af = strchr(t[i].addr, ':') != NULL ? AF_INET6 : AF_INET;
		if (inet_pton(af, t[i].addr, a) != 1)
			abort();
		r = addrclass_find(af, a);
		ok(t[i].range == NULL ? r == NULL :
		    r != NULL && strcmp(r->name, t[i].range) == 0,
		    "%s: %s", t[i].addr, t[i].range ? t[i].range : "public");
		if ((r == NULL) != (t[i].range == NULL) || (r != NULL &&
		    strcmp(r->name, t[i].range) != 0))
			printf("# got %s\n", r ? r->name : "public");
	}
}

static struct conf_prefix
mkprefix(const char *addr, int len)
{
	struct conf_prefix	 p;

	memset(&p, 0, sizeof(p));
	p.af = strchr(addr, ':') != NULL ? AF_INET6 : AF_INET;
	p.len = len;
	if (inet_pton(p.af, addr, &p.addr) != 1)
		abort();
	return (p);
}

static const char *
blocked_by(const char *addr, const struct conf_prefix *allow, size_t n)
{
	const struct addrclass_range	*r;
	uint8_t				 a[16];
	int				 af;

	af = strchr(addr, ':') != NULL ? AF_INET6 : AF_INET;
	if (inet_pton(af, addr, a) != 1)
		abort();
	r = addrclass_blocked(af, a, allow, n);
	return (r == NULL ? "open" : r->name);
}

/* An allow cidr opens the special ground it holds, and nothing else. */
static void
test_addrclass_allow(void)
{
	struct conf_prefix	 p[3];

	p[0] = mkprefix("10.0.0.0", 8);
	p[1] = mkprefix("fd00:9::", 64);
	p[2] = mkprefix("0.0.0.0", 0);
	ok(strcmp(blocked_by("10.0.0.5", p, 2), "open") == 0,
	    "10.0.0.5 under allow cidr 10.0.0.0/8: open");
	ok(strcmp(blocked_by("172.16.0.5", p, 2), "private") == 0,
	    "172.16.0.5 under it: still private");
	ok(strcmp(blocked_by("169.254.169.254", p, 2), "cloud-metadata") == 0,
	    "169.254.169.254 under it: still metadata");
	ok(strcmp(blocked_by("64:ff9b::a00:5", p, 2), "nat64") == 0,
	    "the NAT64 form of 10.0.0.5: not an IPv4 cidr's");
	ok(strcmp(blocked_by("::ffff:10.0.0.5", p, 2), "ipv4-mapped") == 0,
	    "nor its mapped form");
	ok(strcmp(blocked_by("fd00:9::5", p, 2), "open") == 0,
	    "fd00:9::5 under allow cidr fd00:9::/64: open");
	ok(strcmp(blocked_by("fd00:a::5", p, 2), "unique-local") == 0,
	    "fd00:a::5 outside it: unique-local");
	ok(strcmp(blocked_by("10.0.0.5", p + 1, 1), "private") == 0,
	    "10.0.0.5 with only an IPv6 cidr: private");
	ok(strcmp(blocked_by("169.254.169.254", p + 2, 1), "open") == 0,
	    "allow cidr 0.0.0.0/0 holds all of IPv4, metadata too");
	ok(strcmp(blocked_by("203.0.113.1", NULL, 0), "open") == 0,
	    "a public address with no cidr: open");
}

static int
has_blocked(const struct dns_answer *a, const char *s, const char *range)
{
	uint8_t	 b[16];
	size_t	 i;
	int	 af = strchr(s, ':') != NULL ? AF_INET6 : AF_INET;

	if (inet_pton(af, s, b) != 1)
		abort();
	for (i = 0; i < a->nblocked; i++)
		if (a->blocked[i].af == af &&
		    memcmp(&a->blocked[i].a, b, af == AF_INET ? 4 : 16) == 0)
			return (strcmp(a->blocked[i].blocked->name, range) == 0);
	return (0);
}

/* Special-purpose addresses of an answer: blocked, not kept, cut out. */
static void
test_answer_blocked(void)
{
	struct dns_answer	 a, t;
	struct conf_prefix	 p = mkprefix("10.0.0.0", 8);
	struct dns_allow	 allow = { &p, 1 };
	uint8_t			 out[DNS_MSG_MAX];
	ssize_t			 n;

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 6);
	rr_a(&R, NULL, 60, "10.0.0.5");
	rr_a(&R, NULL, 300, "192.0.2.1");
	rr_aaaa(&R, NULL, 30, "::1");
	rr_a(&R, NULL, 90, "10.0.0.5");
	rr_a(&R, NULL, 300, "169.254.169.254");
	rr_a(&R, "evil.com", 300, "172.16.0.1");
	is(answer(&R, &a), DNS_OK, "an answer of private ground");
	ok(a.naddrs == 1 && has_addr(&a, "192.0.2.1", 300),
	    "only the public address is kept");
	ok(a.nblocked == 3 && has_blocked(&a, "10.0.0.5", "private") &&
	    has_blocked(&a, "::1", "loopback") &&
	    has_blocked(&a, "169.254.169.254", "cloud-metadata"),
	    "10.0.0.5 (once), ::1 and 169.254.169.254 are blocked, named");
	ok(a.blocked[0].ttl == 90, "a blocked address once, its longest TTL");
	ok(a.nother == 1, "the A of a name off the chain is counted apart");
	n = dns_answer_trim(R.b, R.n, &WQ, &a, out, sizeof(out));
	ok(n > 0 && dns_answer_parse(out, n, &WQ, NULL, &t) == DNS_OK &&
	    t.naddrs == 1 && t.nblocked == 0 && t.nother == 0 &&
	    dns_get16(out + 6) == 1, "cut down: the public A alone");
	is(dns_answer_parse(R.b, R.n, &WQ, &allow, &a), DNS_OK,
	    "the same under allow cidr 10.0.0.0/8");
	ok(a.naddrs == 2 && has_addr(&a, "10.0.0.5", 90) && a.nblocked == 2,
	    "10.0.0.5 is kept, ::1 and 169.254.169.254 still blocked");

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 3);
	rr_cname(&R, NULL, 300, "a.cdn.net");
	rr_cname(&R, "a.cdn.net", 300, "b.cdn.net");
	rr_a(&R, "b.cdn.net", 20, "192.168.1.1");
	is(answer(&R, &a), DNS_OK, "a CNAME chain to a private address");
	ok(a.naddrs == 0 && a.nblocked == 1 && a.ncname == 2 &&
	    has_blocked(&a, "192.168.1.1", "private"),
	    "the chain is followed: its end is blocked, nothing kept");
	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 3);
	rr_cname(&R, NULL, 300, "a.cdn.net");
	rr_a(&R, "a.cdn.net", 20, "198.51.100.7");
	rr_aaaa(&R, "a.cdn.net", 20, "64:ff9b::a9fe:a9fe");
	is(answer(&R, &a), DNS_OK, "a CNAME to a public A and a NAT64 AAAA");
	n = dns_answer_trim(R.b, R.n, &WQ, &a, out, sizeof(out));
	ok(a.naddrs == 1 && a.nblocked == 1 && n > 0 &&
	    dns_get16(out + 6) == 2 && dns_answer_parse(out, n, &WQ, NULL,
	    &t) == DNS_OK && t.ncname == 1 && t.naddrs == 1 &&
	    has_addr(&t, "198.51.100.7", 20),
	    "cut down: the CNAME stays, the NAT64 of metadata goes");
}

/* REFUSED with an Extended DNS Error, if the query had EDNS. */
static void
test_build_ede(void)
{
	struct dns_query	 q;
	uint8_t			 out[1024];
	char			 longtext[DNS_EDE_TEXT_MAX + 2];
	ssize_t			 n;
	size_t			 o;

	mkquery(&P, 0x4242, "www.example.com", DNS_T_A, 1232);
	if (query(&P, &q) != DNS_OK)
		abort();
	n = dns_build_ede(&q, DNS_R_REFUSED, DNS_EDE_BLOCKED, "private", out,
	    sizeof(out));
	o = DNS_HDR_LEN + q.qlen;
	ok(n == (ssize_t)(o + DNS_OPT_LEN + 4 + 2 + 7) &&
	    (out[3] & 15) == DNS_R_REFUSED && dns_get16(out + 10) == 1 &&
	    dns_get16(out + o + 1) == DNS_T_OPT &&
	    dns_get16(out + o + 9) == 4 + 2 + 7 &&
	    dns_get16(out + o + 11) == DNS_EDNS_EDE &&
	    dns_get16(out + o + 13) == 2 + 7 &&
	    dns_get16(out + o + 15) == 15 &&
	    memcmp(out + o + 17, "private", 7) == 0,
	    "REFUSED, an OPT with EDE option 15, info-code 15, \"private\"");
	memset(longtext, 'x', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	ok(dns_build_ede(&q, DNS_R_REFUSED, 15, longtext, out,
	    sizeof(out)) == -1, "a text over %d bytes: -1", DNS_EDE_TEXT_MAX);
	ok(dns_build_ede(&q, DNS_R_REFUSED, 15, "private", out, o +
	    DNS_OPT_LEN + 8) == -1, "-1 if it does not fit");
	mkquery(&P, 0x4242, "www.example.com", DNS_T_A, 0);
	if (query(&P, &q) != DNS_OK)
		abort();
	n = dns_build_ede(&q, DNS_R_REFUSED, 15, "private", out, sizeof(out));
	ok(n == (ssize_t)(DNS_HDR_LEN + q.qlen) && dns_get16(out + 10) == 0 &&
	    (out[3] & 15) == DNS_R_REFUSED,
	    "to a query without EDNS: REFUSED, no OPT (RFC 6891 7)");
}

/* TTLs held to a ceiling in place; an OPT's flags are not a TTL. */
static void
test_ttl_cap(void)
{
	struct dns_answer	 a;
	size_t			 optttl;

	mkresp(&R, 1, 0, "www.example.com", DNS_T_A, 4);
	set16(&R, 8, 1);
	set16(&R, 10, 1);
	rr_cname(&R, NULL, 86400, "a.cdn.net");
	rr_a(&R, "a.cdn.net", 2000000000, "198.51.100.1");
	rr_a(&R, "a.cdn.net", 0x80000001, "198.51.100.2");
	rr_a(&R, "a.cdn.net", 10, "198.51.100.3");
	putptr(&R, DNS_HDR_LEN);		/* authority: an NS */
	rrhdr(&R, 2, 99999, 2);
	putptr(&R, DNS_HDR_LEN);
	optttl = R.n + 5;
	opt(&R, 1232, 1, NULL, 0);
	ok(dns_answer_ttl_cap(R.b, R.n, 3600) == 0, "capped at 3600");
	is(answer(&R, &a), DNS_OK, "and it parses");
	ok(has_addr(&a, "198.51.100.1", 3600) &&
	    has_addr(&a, "198.51.100.2", 0) && has_addr(&a, "198.51.100.3", 10),
	    "2000000000 to 3600, the top bit set to 0, 10 stays");
	ok(dns_get32(R.b + DNS_HDR_LEN + WQ.qlen + 6) == 3600,
	    "the CNAME's 86400 to 3600");
	ok(dns_get32(R.b + optttl - 13) == 3600, "the authority NS's too");
	ok(dns_get32(R.b + optttl) == DNS_EDNS_DO,
	    "the OPT's TTL field (DO set) is left alone");
	set16(&R, 2, DNS_F_QR | DNS_F_RD | DNS_F_RA);
	set16(&R, 8, 0);
	set16(&R, 10, 0);
	R.n = DNS_HDR_LEN + WQ.qlen + 5;
	ok(dns_answer_ttl_cap(R.b, R.n, 3600) == -1,
	    "an answer section cut short: -1");
	set16(&R, 2, DNS_F_QR | DNS_F_RD | DNS_F_RA | DNS_F_TC);
	ok(dns_answer_ttl_cap(R.b, R.n, 3600) == 0,
	    "unless TC says so: capped as far as it goes");
}

/* The audit line, as jansson's compact, key-sorted dump would have it. */
static void
test_audit(void)
{
	static const char *const names[] = {
		"www.example.com", "", "a\"b.test", "back\\slash.test",
		"tab\tnl\ncr\rff\fbs\b.test", "\x01\x1f\x7f~.test",
		"*.junk.test", "{\"audit\":\"x\"}"
	};
	char		 got[AUDIT_LINE_MAX], *want, big[1200];
	json_t		*j;
	size_t		 i;
	ssize_t		 n;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		n = audit_format(got, sizeof(got), "dns.pin", "sbx0123",
		    names[i], "10.0.0.1 tcp 80 ttl 60");
		j = json_pack("{s:s, s:s, s:s, s:s}", "audit", "dns.pin",
		    "sandbox", "sbx0123", "name", names[i], "detail",
		    "10.0.0.1 tcp 80 ttl 60");
		want = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
		ok(n > 0 && strcmp(got, want) == 0 && (size_t)n == strlen(want),
		    "audit line %zu as jansson writes it", i);
		if (n < 0 || strcmp(got, want) != 0)
			printf("# got  %s\n# want %s\n", n < 0 ? "-1" : got,
			    want);
		free(want);
		json_decref(j);
	}
	memset(big, '"', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ok(audit_format(got, sizeof(got), "dns.pin", "sbx0123", big, "") ==
	    -1, "a line over its buffer (every quote escaped): -1");
	ok(audit_format(got, 20, "dns.pin", "sbx0123", "a.test", "") == -1,
	    "and one over a smaller buffer");
}

int
main(void)
{
	mkquery(&P, 1, "www.example.com", DNS_T_A, 0);
	if (query(&P, &WQ) != DNS_OK)
		abort();
	test_anchor();
	test_exact();
	test_ports();
	test_query_ok();
	test_query_names();
	test_query_header();
	test_query_opt();
	test_answer_basic();
	test_answer_cname();
	test_answer_unrelated();
	test_answer_skip();
	test_answer_malformed();
	test_answer_tc();
	test_answer_question();
	test_answer_many();
	test_answer_trim();
	test_addrclass();
	test_addrclass_allow();
	test_answer_blocked();
	test_build();
	test_build_ede();
	test_ttl_cap();
	test_strerror();
	test_audit();
	test_mutate();
	printf("1..%d\n", tap_n);
	return (tap_failed != 0);
}
