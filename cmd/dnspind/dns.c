/*
 * Queries from sandboxes and the answers dnspind makes itself.
 *
 * A query is held to what a stub resolver sends: one question of class
 * IN, no answer or authority records, at most an EDNS0 OPT record, no
 * compression (there is nothing before the question to point at, and
 * so the question can be echoed byte for byte, with the client's case),
 * and nothing after the last record.
 */
#include <string.h>

#include "dns.h"

static const char *const dns_errstr[DNS_E_NERR] = {
	[DNS_OK] = "ok",
	[DNS_E_SHORT] = "shorter than a header",
	[DNS_E_SIZE] = "message too long",
	[DNS_E_QR] = "QR bit wrong for the direction",
	[DNS_E_OPCODE] = "opcode is not QUERY",
	[DNS_E_QDCOUNT] = "not exactly one question",
	[DNS_E_COUNT] = "answer or authority records in a query",
	[DNS_E_ARCOUNT] = "additional records other than one OPT",
	[DNS_E_TRUNC] = "question or record truncated",
	[DNS_E_NAME_TRUNC] = "name truncated",
	[DNS_E_LABEL] = "label longer than 63 or of a reserved type",
	[DNS_E_NAME_LEN] = "name longer than 253",
	[DNS_E_NAME_CHAR] = "unsupported character in a label",
	[DNS_E_PTR_QUERY] = "compression pointer in a query",
	[DNS_E_PTR] = "compression pointer not strictly backward",
	[DNS_E_PTR_HOPS] = "too many compression pointers",
	[DNS_E_QTYPE] = "meta type as the question type",
	[DNS_E_QCLASS] = "class is not IN",
	[DNS_E_OPT] = "malformed OPT record",
	[DNS_E_TRAILING] = "trailing bytes",
	[DNS_E_MISMATCH] = "question does not match the query",
	[DNS_E_RDLEN] = "rdata length wrong for the type",
	[DNS_E_CHAIN] = "too many CNAMEs",
	[DNS_E_BADVERS] = "EDNS version not 0",
};

const char *
dns_strerror(int e)
{
	if (e < 0 || e >= DNS_E_NERR)
		return ("unknown error");
	return (dns_errstr[e]);
}

/*
 * The rcode to answer a query that failed with e, or -1 for none: a
 * response (QR set) is never answered, lest two resolvers ping-pong,
 * nor is less than a header.
 */
int
dns_error_rcode(int e)
{
	switch (e) {
	case DNS_OK:
		return (DNS_R_NOERROR);
	case DNS_E_SHORT:
	case DNS_E_QR:
		return (-1);
	case DNS_E_OPCODE:
	case DNS_E_QCLASS:
		return (DNS_R_NOTIMP);
	case DNS_E_BADVERS:
		return (DNS_R_BADVERS);
	default:
		return (DNS_R_FORMERR);
	}
}

/* The OPT record at *off: owner the root, options well formed. */
static int
query_opt(const uint8_t *pkt, size_t len, size_t *off, struct dns_query *q)
{
	const uint8_t	*p = pkt + *off;
	size_t		 rdlen, olen;

	if (len - *off < DNS_OPT_LEN)
		return (DNS_E_TRUNC);
	if (p[0] != 0 || dns_get16(p + 1) != DNS_T_OPT)
		return (DNS_E_ARCOUNT);
	q->edns = 1;
	q->edns_size = dns_get16(p + 3);
	q->edns_version = p[6];
	q->edns_do = (dns_get16(p + 7) & DNS_EDNS_DO) != 0;
	rdlen = dns_get16(p + 9);
	*off += DNS_OPT_LEN;
	if (rdlen > len - *off)
		return (DNS_E_TRUNC);
	for (p = pkt + *off; rdlen > 0; p += 4 + olen, rdlen -= 4 + olen) {
		if (rdlen < 4 || (olen = dns_get16(p + 2)) > rdlen - 4)
			return (DNS_E_OPT);
		*off += 4 + olen;
	}
	return (DNS_OK);
}

static int
query_header(const uint8_t *pkt, struct dns_query *q)
{
	uint16_t	 flags = dns_get16(pkt + 2);

	q->id = dns_get16(pkt);
	q->rd = (flags & DNS_F_RD) != 0;
	if (flags & DNS_F_QR)
		return (DNS_E_QR);
	if (flags & DNS_F_OPCODE)
		return (DNS_E_OPCODE);
	if (dns_get16(pkt + 4) != 1)
		return (DNS_E_QDCOUNT);
	if (dns_get16(pkt + 6) != 0 || dns_get16(pkt + 8) != 0)
		return (DNS_E_COUNT);
	if (dns_get16(pkt + 10) > 1)
		return (DNS_E_ARCOUNT);
	return (DNS_OK);
}

/*
 * A query from a sandbox.  On failure q still has the fields read so
 * far: the id and RD once the header was there, and a non-zero qlen
 * once the question was whole, which dns_build_rcode() can then echo.
 */
int
dns_query_parse(const uint8_t *pkt, size_t len, struct dns_query *q)
{
	size_t	 off = DNS_HDR_LEN;
	int	 rc;

	memset(q, 0, sizeof(*q));
	if (len < DNS_HDR_LEN)
		return (DNS_E_SHORT);
	if ((rc = query_header(pkt, q)) != DNS_OK)
		return (rc);
	if (len > DNS_QUERY_MAX)
		return (DNS_E_SIZE);
	if ((rc = dns_name_get(pkt, len, &off, DNS_NAME_NOPTR,
	    q->name)) != DNS_OK)
		return (rc);
	if (len - off < 4)
		return (DNS_E_TRUNC);
	q->qtype = dns_get16(pkt + off);
	q->qclass = dns_get16(pkt + off + 2);
	off += 4;
	q->qlen = off - DNS_HDR_LEN;
	memcpy(q->question, pkt + DNS_HDR_LEN, q->qlen);
	if (q->qclass != DNS_C_IN)
		return (DNS_E_QCLASS);
	if (q->qtype == 0 || q->qtype == DNS_T_OPT)
		return (DNS_E_QTYPE);
	if (dns_get16(pkt + 10) == 1 &&
	    (rc = query_opt(pkt, len, &off, q)) != DNS_OK)
		return (rc);
	if (off != len)
		return (DNS_E_TRAILING);
	/* RFC 6891 6.1.3: only version 0 is ours; the answer says 0. */
	if (q->edns && q->edns_version != 0)
		return (DNS_E_BADVERS);
	return (DNS_OK);
}

/* The largest UDP answer the client takes (RFC 6891 6.2.5: >= 512). */
size_t
dns_query_udp_max(const struct dns_query *q)
{
	if (!q->edns || q->edns_size < 512)
		return (512);
	return (q->edns_size);
}

/* Header, the question and an OPT if the query had one; no records. */
static ssize_t
build(const struct dns_query *q, uint16_t flags, unsigned int rcode,
    uint8_t *buf, size_t bufsz)
{
	size_t	 n = DNS_HDR_LEN + q->qlen;
	uint8_t	*o;

	if (q->qlen == 0 || q->qlen > sizeof(q->question) ||
	    rcode > 0xfff || (rcode > DNS_F_RCODE && !q->edns))
		return (-1);
	if (bufsz < n + (q->edns ? DNS_OPT_LEN : 0))
		return (-1);
	memset(buf, 0, DNS_HDR_LEN);
	dns_put16(buf, q->id);
	dns_put16(buf + 2, flags | DNS_F_QR | DNS_F_RA |
	    (q->rd ? DNS_F_RD : 0) | (rcode & DNS_F_RCODE));
	dns_put16(buf + 4, 1);
	memcpy(buf + DNS_HDR_LEN, q->question, q->qlen);
	if (!q->edns)
		return (n);
	buf[11] = 1;
	o = buf + n;
	o[0] = 0;
	dns_put16(o + 1, DNS_T_OPT);
	dns_put16(o + 3, DNS_EDNS_UDP);
	o[5] = rcode >> 4;
	o[6] = 0;
	dns_put16(o + 7, q->edns_do ? DNS_EDNS_DO : 0);
	dns_put16(o + 9, 0);
	return (n + DNS_OPT_LEN);
}

/*
 * An answer with no records and the given rcode to a parsed query:
 * id, RD and the question echoed, and an OPT record if the query had
 * one (which an rcode above 15 needs).  The length, or -1 if it does
 * not fit in bufsz or the rcode cannot be said.
 */
ssize_t
dns_build_rcode(const struct dns_query *q, unsigned int rcode, uint8_t *buf,
    size_t bufsz)
{
	return (build(q, 0, rcode, buf, bufsz));
}

/*
 * As dns_build_rcode(), with an Extended DNS Error (RFC 8914) of the
 * info-code and text (up to DNS_EDE_TEXT_MAX bytes of UTF-8, "" for
 * none) in the OPT record, if the query had one: RFC 6891 7 forbids an
 * OPT in the answer to a query without, and so the EDE goes too.
 */
ssize_t
dns_build_ede(const struct dns_query *q, unsigned int rcode, uint16_t info,
    const char *text, uint8_t *buf, size_t bufsz)
{
	size_t	 tlen = strlen(text);
	ssize_t	 n;
	uint8_t	*o;

	if (tlen > DNS_EDE_TEXT_MAX)
		return (-1);
	if ((n = build(q, 0, rcode, buf, bufsz)) == -1 || !q->edns)
		return (n);
	if (bufsz - n < DNS_EDE_LEN(tlen))
		return (-1);
	o = buf + n;
	dns_put16(o - 2, DNS_EDE_LEN(tlen));	/* the OPT's rdlen */
	dns_put16(o, DNS_EDNS_EDE);
	dns_put16(o + 2, 2 + tlen);
	dns_put16(o + 4, info);
	memcpy(o + 6, text, tlen);
	return (n + DNS_EDE_LEN(tlen));
}

/*
 * An empty answer with TC set, for when the real one is larger than
 * the client takes over UDP: a stub asks again over TCP.
 */
ssize_t
dns_build_tc(const struct dns_query *q, uint8_t *buf, size_t bufsz)
{
	return (build(q, DNS_F_TC, DNS_R_NOERROR, buf, bufsz));
}

/*
 * A bare header answering a message that did not parse as a query:
 * id, opcode and RD echoed, no records.  -1 for a response, for less
 * than a header, for an rcode above 15 or if bufsz is too small.
 */
ssize_t
dns_build_error(const uint8_t *pkt, size_t len, unsigned int rcode,
    uint8_t *buf, size_t bufsz)
{
	uint16_t	 flags;

	if (len < DNS_HDR_LEN || bufsz < DNS_HDR_LEN ||
	    rcode > DNS_F_RCODE)
		return (-1);
	flags = dns_get16(pkt + 2);
	if (flags & DNS_F_QR)
		return (-1);
	memset(buf, 0, DNS_HDR_LEN);
	dns_put16(buf, dns_get16(pkt));
	dns_put16(buf + 2, DNS_F_QR | DNS_F_RA |
	    (flags & (DNS_F_OPCODE | DNS_F_RD)) | rcode);
	return (DNS_HDR_LEN);
}

/* The id of a message, or -1 if it is too short to have one. */
int
dns_get_id(const uint8_t *pkt, size_t len)
{
	if (len < 2)
		return (-1);
	return (dns_get16(pkt));
}

/* Rewrite a message's id in place: upstream ids are dnspind's own. */
int
dns_set_id(uint8_t *pkt, size_t len, uint16_t id)
{
	if (len < 2)
		return (-1);
	dns_put16(pkt, id);
	return (0);
}
