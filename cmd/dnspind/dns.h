/*
 * The DNS message core of dnspind: parsing what a sandbox asks and what
 * the upstream answers, the few answers dnspind makes itself, and the
 * name allowlist.  No I/O and no allocation; every buffer is bounded.
 */
#ifndef SANDBOXD_DNS_H
#define SANDBOXD_DNS_H

#include <sys/types.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include "addrclass.h"
#include "conf.h"

#define DNS_HDR_LEN		12
#define DNS_QUERY_MAX		512	/* one question and an OPT fit */
#define DNS_MSG_MAX		65535	/* a TCP message */
#define DNS_NAME_MAX		253	/* dotted, no trailing dot */
#define DNS_LABEL_MAX		63
#define DNS_QUESTION_MAX	(255 + 4)	/* wire name, type, class */
#define DNS_PTR_HOPS		32	/* compression pointers in a name */
#define DNS_CHAIN_MAX		16	/* CNAME hops from the question */
#define DNS_CNAMES_MAX		32	/* CNAME records in an answer */
#define DNS_ADDRS_MAX		64	/* addresses kept from an answer */
#define DNS_EDNS_UDP		1232	/* what our own answers advertise */
#define DNS_OPT_LEN		11	/* an OPT record without options */
#define DNS_EDE_TEXT_MAX	64	/* EXTRA-TEXT of our own EDE */
#define DNS_EDE_LEN(t)		(4 + 2 + (t))	/* the option, text t long */
#define DNS_TTL_MAX		0x7fffffff	/* RFC 2181 8 */

#define DNS_T_A			1
#define DNS_T_CNAME		5
#define DNS_T_AAAA		28
#define DNS_T_OPT		41
#define DNS_C_IN		1

#define DNS_R_NOERROR		0
#define DNS_R_FORMERR		1
#define DNS_R_SERVFAIL		2
#define DNS_R_NXDOMAIN		3
#define DNS_R_NOTIMP		4
#define DNS_R_REFUSED		5
#define DNS_R_BADVERS		16	/* needs an OPT record to carry it */

#define DNS_F_QR		0x8000
#define DNS_F_OPCODE		0x7800
#define DNS_F_AA		0x0400
#define DNS_F_TC		0x0200
#define DNS_F_RD		0x0100
#define DNS_F_RA		0x0080
#define DNS_F_RCODE		0x000f
#define DNS_EDNS_DO		0x8000
#define DNS_EDNS_EDE		15	/* RFC 8914 option code */
#define DNS_EDE_BLOCKED		15	/* RFC 8914 info-code "Blocked" */

/* Why a message was rejected; dns_strerror() says it in words. */
enum dns_err {
	DNS_OK = 0,
	DNS_E_SHORT,		/* shorter than a header */
	DNS_E_SIZE,		/* longer than such a message may be */
	DNS_E_QR,		/* QR wrong for the direction */
	DNS_E_OPCODE,		/* not a standard query */
	DNS_E_QDCOUNT,		/* not exactly one question */
	DNS_E_COUNT,		/* answer or authority records in a query */
	DNS_E_ARCOUNT,		/* additional records other than one OPT */
	DNS_E_TRUNC,		/* a question or record runs past the end */
	DNS_E_NAME_TRUNC,	/* a name runs past the end */
	DNS_E_LABEL,		/* a label over 63 or of a reserved type */
	DNS_E_NAME_LEN,		/* a name longer than 253 */
	DNS_E_NAME_CHAR,	/* a label with a dot, space, control, 8-bit */
	DNS_E_PTR_QUERY,	/* a compression pointer in a query */
	DNS_E_PTR,		/* a pointer not strictly backward */
	DNS_E_PTR_HOPS,		/* too many pointers in one name */
	DNS_E_QTYPE,		/* a meta type as the question */
	DNS_E_QCLASS,		/* a class other than IN */
	DNS_E_OPT,		/* a malformed OPT record */
	DNS_E_TRAILING,		/* bytes after the last record of a query */
	DNS_E_MISMATCH,		/* the answer's question is not ours */
	DNS_E_RDLEN,		/* rdata the wrong size for its type */
	DNS_E_CHAIN,		/* too many CNAMEs */
	DNS_E_BADVERS,		/* an EDNS version other than 0 */
	DNS_E_NERR
};

/* A query from a sandbox, as dns_query_parse() found it. */
struct dns_query {
	uint16_t	 id;
	uint16_t	 qtype;
	uint16_t	 qclass;
	uint8_t		 rd;		/* recursion desired */
	uint8_t		 edns;		/* an OPT record came with it */
	uint16_t	 edns_size;	/* its UDP payload size, as sent */
	uint8_t		 edns_version;
	uint8_t		 edns_do;	/* DNSSEC OK */
	uint16_t	 qlen;		/* bytes of question */
	uint8_t		 question[DNS_QUESTION_MAX];	/* as on the wire */
	char		 name[DNS_NAME_MAX + 1];	/* lowercase, dotted */
};

struct dns_addr {
	int		 af;		/* AF_INET or AF_INET6 */
	union {
		struct in_addr	 v4;
		struct in6_addr	 v6;
	}		 a;
	uint32_t	 ttl;		/* seconds, at most 2^31 - 1 */
	const struct addrclass_range *blocked;	/* why not pinned */
};

/* What the upstream answered to a query, as dns_answer_parse() found it. */
struct dns_answer {
	uint16_t	 id;
	uint8_t		 rcode;		/* of the header */
	uint8_t		 tc;		/* truncated: ask again over TCP */
	size_t		 ncname;	/* names reached through CNAMEs */
	size_t		 naddrs;
	size_t		 ndropped;	/* addresses past DNS_ADDRS_MAX */
	size_t		 nother;	/* A, AAAA of names off the chain */
	struct dns_addr	 addrs[DNS_ADDRS_MAX];
	/* Special-purpose addresses no allow cidr holds: never pinned. */
	size_t		 nblocked;
	size_t		 nblocked_past;	/* past DNS_ADDRS_MAX of them */
	struct dns_addr	 blocked[DNS_ADDRS_MAX];
};

/* The policy's allow cidr prefixes: what of special ground it opens. */
struct dns_allow {
	const struct conf_prefix *cidrs;
	size_t		 n;
};

struct dns_port {
	uint16_t	 port;
	uint8_t		 proto;		/* IPPROTO_TCP, IPPROTO_UDP */
};

/* dns.c */
const char	*dns_strerror(int);
int		 dns_error_rcode(int);
int		 dns_query_parse(const uint8_t *, size_t, struct dns_query *);
size_t		 dns_query_udp_max(const struct dns_query *);
ssize_t		 dns_build_rcode(const struct dns_query *, unsigned int,
		    uint8_t *, size_t);
ssize_t		 dns_build_tc(const struct dns_query *, uint8_t *, size_t);
ssize_t		 dns_build_ede(const struct dns_query *, unsigned int,
		    uint16_t, const char *, uint8_t *, size_t);
ssize_t		 dns_build_error(const uint8_t *, size_t, unsigned int,
		    uint8_t *, size_t);
int		 dns_get_id(const uint8_t *, size_t);
int		 dns_set_id(uint8_t *, size_t, uint16_t);

/* dns_answer.c */
int		 dns_answer_parse(const uint8_t *, size_t,
		    const struct dns_query *, const struct dns_allow *,
		    struct dns_answer *);
int		 dns_answer_ttl_cap(uint8_t *, size_t, uint32_t);
ssize_t		 dns_answer_trim(const uint8_t *, size_t,
		    const struct dns_query *, const struct dns_answer *,
		    uint8_t *, size_t);

/* dns_name.c */
int		 dns_name_match(const char *, const char *);
ssize_t		 dns_name_ports(const struct net_rule_msg *, size_t,
		    const char *, struct dns_port *, size_t);

/* dns_wire.c: shared by the parsers */
#define DNS_NAME_NOPTR		0x01	/* compression is an error */
int		 dns_name_get(const uint8_t *, size_t, size_t *, int,
		    char *);
int		 dns_name_copy(const uint8_t *, size_t, size_t *, uint8_t *,
		    size_t, size_t *);

static inline uint16_t
dns_get16(const uint8_t *p)
{
	return ((uint16_t)(p[0] << 8 | p[1]));
}

static inline uint32_t
dns_get32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3]);
}

static inline void
dns_put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static inline void
dns_put32(uint8_t *p, uint32_t v)
{
	dns_put16(p, v >> 16);
	dns_put16(p + 2, v & 0xffff);
}

#endif
