/*
 * A query's way: from a sandbox (its source address says which), past
 * the policy's name allowlist, to the upstreams in turn with an id and
 * a source port of its own, back through the answer parser, into the
 * sandbox's pin sets through netd, and only then to the sandbox.  An
 * unknown source or an unlisted name is REFUSED here and never leaves;
 * an answer whose pins netd did not take is not released (SERVFAIL).
 * Addresses of special-purpose ground (addrclass.c) that no allow cidr
 * of the policy holds are never pinned: they are cut from the answer,
 * and an answer left with none is REFUSED.  No pin, and no TTL the
 * sandbox is told, outlasts pin-ceiling.
 */
#include <sys/socket.h>
#include <sys/queue.h>
#include <sys/tree.h>
#include <netinet/in.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dnspind.h"
#include "log.h"

#define RESOLVE_PORTS_MAX	16
#define RESOLVE_UNKNOWN_MAX	256	/* queries held from unknown sources */
#define RESOLVE_UNKNOWN_WAIT_MS	500
#define RESOLVE_READS		32	/* queries read in one call */
#define RESOLVE_PKT		(DNS_QUERY_MAX + 1024)	/* > any query */

struct query {
	TAILQ_ENTRY(query)	 entry;
	RB_ENTRY(query)		 by_token;	/* netd's acks find it */
	uint64_t		 token;
	char			 sandbox[SBX_ID_SIZE];
	char			 policy[CONF_NAME_SIZE];
	struct dns_query	 q;
	uint8_t			*raw;		/* as the client sent it */
	size_t			 rawlen;
	struct sockaddr_storage	 from;		/* UDP: where to answer */
	socklen_t		 fromlen;
	query_reply_fn		 reply;		/* TCP: how to answer */
	void			*arg;
	struct dns_port		 ports[RESOLVE_PORTS_MAX];
	size_t			 nports;
	int			 upidx;		/* the upstream asked */
	int			 uptcp;		/* ask over TCP */
	uint16_t		 upid;
	struct upx		 up;
	struct event		 ev_timeout;
	uint8_t			*ans;		/* held while netd pins */
	size_t			 anslen;
	uint32_t		 npending;	/* pin requests not acked */
	int			 unsent;	/* a request had no way to netd */
	struct dns_addr		*pinned;	/* for the cache, once acked */
	size_t			 npinned;
	uint32_t		 ttl_told;
	int			 cached;	/* a repeat, from the cache */
	uint64_t		 pin_queued_ms;	/* its pins went in after */
	uint32_t		 pin_ttl_min;	/* the shortest of them */
};

static TAILQ_HEAD(, query)	 queries = TAILQ_HEAD_INITIALIZER(queries);

/*
 * A query from an address no sandbox has, held a moment: runnerd's word
 * that a sandbox is up may be a turn of the loop behind its first query.
 */
struct unknown {
	TAILQ_ENTRY(unknown)	 entry;
	struct sockaddr_storage	 from;
	int			 fromlen;
	uint8_t			*pkt;
	size_t			 len;
	query_reply_fn		 reply;
	void			*arg;
	struct event		 ev;
};
static TAILQ_HEAD(, unknown)	 unknowns = TAILQ_HEAD_INITIALIZER(unknowns);
static size_t			 nunknowns;
RB_HEAD(query_tokens, query);
static struct query_tokens	 tokens = RB_INITIALIZER(&tokens);
static size_t			 nqueries;
static uint64_t			 next_token;
static int			 udp_fd = -1;
static struct event		 ev_udp;
static uint8_t			 pktbufs[RESOLVE_READS][RESOLVE_PKT];
/* netd pins in well under a millisecond; this is for a netd gone. */
static struct timeval		 pin_wait = { 2, 0 };
/* The pins of the answers of this turn of the loop, not yet sent. */
static struct dns_pin_req	 batch;
static void			 pin_flush(void);
static struct turnend		 pinflush = TURNEND_INITIALIZER(pin_flush);
static size_t			 nunsent;	/* queries with unsent set */

static void	resolve_upstream(struct query *);
static void	query_release(struct query *, const struct dns_answer *);

static int
query_token_cmp(struct query *a, struct query *b)
{
	return (a->token < b->token ? -1 : a->token > b->token);
}
RB_PROTOTYPE(query_tokens, query, by_token, query_token_cmp)
RB_GENERATE(query_tokens, query, by_token, query_token_cmp)

static void
query_free(struct query *qr)
{
	if (qr->unsent)
		nunsent--;
	TAILQ_REMOVE(&queries, qr, entry);
	RB_REMOVE(query_tokens, &tokens, qr);
	nqueries--;
	sandboxes_release(qr->sandbox);
	upx_stop(&qr->up);
	if (evtimer_initialized(&qr->ev_timeout))
		evtimer_del(&qr->ev_timeout);
	free(qr->raw);
	free(qr->ans);
	free(qr->pinned);
	free(qr);
}

/* The answer out; its audit lines, and all before, logged first. */
static void
query_send(struct query *qr, const uint8_t *buf, size_t len)
{
	if (qr->reply != NULL) {
		audit_flush();
		qr->reply(qr->arg, buf, len);
	} else
		udpout_send(udp_fd, &qr->from, qr->fromlen, buf, len);
}

/* Answer with an rcode of our own and forget the query. */
static void
query_fail(struct query *qr, unsigned int rcode)
{
	uint8_t	 buf[DNS_QUERY_MAX + DNS_OPT_LEN];
	ssize_t	 n;

	if ((n = dns_build_rcode(&qr->q, rcode, buf, sizeof(buf))) > 0)
		query_send(qr, buf, n);
	query_free(qr);
}

/*
 * REFUSED with an Extended DNS Error saying why, to a query with EDNS;
 * a plain REFUSED to one without.
 */
static void
query_refuse_ede(struct query *qr, uint16_t info, const char *text)
{
	uint8_t	 buf[DNS_QUERY_MAX + DNS_OPT_LEN +
		    DNS_EDE_LEN(DNS_EDE_TEXT_MAX)];
	ssize_t	 n;

	if ((n = dns_build_ede(&qr->q, DNS_R_REFUSED, info, text, buf,
	    sizeof(buf))) > 0)
		query_send(qr, buf, n);
	query_free(qr);
}

/*
 * The answer, with the client's id back.  Over UDP, one the client
 * cannot take goes as an empty truncated one: it asks again over TCP.
 */
static void
query_answer(struct query *qr, uint8_t *ans, size_t len)
{
	uint8_t	 buf[DNS_QUERY_MAX + DNS_OPT_LEN];
	ssize_t	 n;

	dns_set_id(ans, len, qr->q.id);
	if (qr->reply == NULL && len > dns_query_udp_max(&qr->q)) {
		if ((n = dns_build_tc(&qr->q, buf, sizeof(buf))) > 0)
			query_send(qr, buf, n);
	} else
		query_send(qr, ans, len);
	query_free(qr);
}

static struct conf_upstream *
upstream_nth(int n)
{
	struct conf_upstream	*u;

	TAILQ_FOREACH(u, &dnspind_conf->upstreams, entry)
		if (n-- == 0)
			return (u);
	return (NULL);
}

static struct query	*query_by_token(uint64_t);

/*
 * The batch to netd, as one request: one netlink batch there.  With no
 * channel to netd, its answers are marked to fail at the end of the
 * turn (not here: pin_queue may be in the middle of one of them).
 */
static void
pin_send(void)
{
	struct query	*qr;
	uint32_t	 i;

	if (batch.nanswers == 0)
		return;
	log_debug("%s: %u answers, %u pins in one batch", __func__,
	    batch.nanswers, batch.count);
	audit_flush();	/* what is pinned is written down first */
	if (netdch_send(&batch) == -1)
		for (i = 0; i < batch.nanswers; i++) {
			qr = query_by_token(batch.answers[i].token);
			if (qr != NULL && !qr->unsent) {
				qr->unsent = 1;
				nunsent++;
			}
		}
	memset(&batch, 0, sizeof(batch));
}

static void	query_fail(struct query *, unsigned int);

/* Answers whose pins found no way to netd: SERVFAIL. */
static void
pin_unsent(void)
{
	struct query	*qr, *next;

	if (nunsent == 0)
		return;
	log_warnx("%s: no channel to netd: %zu answers fail", __func__,
	    nunsent);
	TAILQ_FOREACH_SAFE(qr, &queries, entry, next)
		if (qr->unsent)
			query_fail(qr, DNS_R_SERVFAIL);
}

/*
 * At the end of the turn: every answer that came in it has queued its
 * pins by then, and none waits for a timer.
 */
static void
pin_flush(void)
{
	pin_send();
	pin_unsent();
}

/*
 * The channel to netd is gone, and with it every ack of what went on
 * it: the answers waiting for one fail now, not after pin_wait.  What
 * this turn has not sent yet goes on the next channel, if one comes.
 */
void
resolve_netd_gone(void)
{
	struct query	*qr, *next;
	size_t		 n = 0;
	uint32_t	 i;

	TAILQ_FOREACH_SAFE(qr, &queries, entry, next) {
		if (qr->ans == NULL || qr->npending == 0)
			continue;
		for (i = 0; i < batch.nanswers; i++)
			if (batch.answers[i].token == qr->token)
				break;
		if (i < batch.nanswers && qr->npending == 1)
			continue;	/* all its pins still here */
		query_fail(qr, DNS_R_SERVFAIL);
		n++;
	}
	if (n > 0)
		log_warnx("%s: %zu answers waited for netd's acks: SERVFAIL",
		    __func__, n);
}

/*
 * One pin of an answer into the batch, which goes at once when full
 * and else at the end of this turn.  An answer's pins are queued
 * together, so it has one slot in each request it spans.
 */
static void
pin_queue(struct query *qr, const struct dns_pin *p)
{
	uint32_t	 a;

	if (batch.count == DNS_PIN_MAX)
		pin_send();
	a = batch.nanswers;
	if (a == 0 || batch.answers[a - 1].token != qr->token) {
		if (a == DNS_PIN_ANSWERS) {
			pin_send();
			a = 0;
		}
		batch.answers[a].token = qr->token;
		strlcpy(batch.answers[a].id, qr->sandbox,
		    sizeof(batch.answers[a].id));
		batch.nanswers++;
		qr->npending++;
	} else
		a--;
	batch.pins[batch.count] = *p;
	batch.pins[batch.count++].answer = a;
	turnend_arm(&pinflush);
}

static void
query_audit_pin(struct query *qr, const struct dns_pin *p)
{
	char	 a[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN + 48];

	inet_ntop(p->af, p->addr, a, sizeof(a));
	snprintf(d, sizeof(d), "%s %s %u ttl %u", a, p->proto == IPPROTO_UDP ?
	    "udp" : "tcp", p->port, p->ttl);
	audit_log("dns.pin", qr->sandbox, qr->q.name, d);
}

/*
 * How long a pin of an address the answer gave ttl seconds lasts: at
 * least pin-floor, so that a connect made at once finds it; never past
 * pin-ceiling, which bounds how long a name's old address stays open
 * (the ceiling wins over a floor set above it).
 */
static uint32_t
pin_ttl(uint32_t ttl)
{
	const struct conf_global_msg	*g = &dnspind_conf->global;

	if (ttl < g->pin_floor)
		ttl = g->pin_floor;
	if (ttl > g->pin_ceiling)
		ttl = g->pin_ceiling;
	return (ttl);
}

/*
 * The longest TTL the sandbox may be told in an answer: the shortest of
 * its pins, so that no record, a CNAME neither, is cached past a pin
 * of the answer; pin-ceiling for an answer with none.
 */
static uint32_t
answer_ttl_max(const struct query *qr, const struct dns_answer *a)
{
	uint32_t	 max = dnspind_conf->global.pin_ceiling, t;
	size_t		 i;

	if (qr->q.qtype != DNS_T_A && qr->q.qtype != DNS_T_AAAA)
		return (max);
	for (i = 0; i < a->naddrs; i++)
		if ((t = pin_ttl(a->addrs[i].ttl)) < max)
			max = t;
	return (max);
}

/* The pins one answer asks for, queued: every address, every port. */
static size_t
query_pins(struct query *qr, const struct dns_answer *a)
{
	struct dns_pin	 p;
	size_t		 i, j, n = 0;

	qr->pin_queued_ms = cache_now_ms();
	qr->pin_ttl_min = 0;
	for (i = 0; i < a->naddrs; i++)
		for (j = 0; j < qr->nports; j++) {
			memset(&p, 0, sizeof(p));
			p.af = a->addrs[i].af;
			p.proto = qr->ports[j].proto;
			p.port = qr->ports[j].port;
			p.ttl = pin_ttl(a->addrs[i].ttl);
			if (n == 0 || p.ttl < qr->pin_ttl_min)
				qr->pin_ttl_min = p.ttl;
			memcpy(p.addr, &a->addrs[i].a, p.af == AF_INET ? 4 :
			    16);
			query_audit_pin(qr, &p);
			pin_queue(qr, &p);
			n++;
		}
	return (n);
}

/*
 * Keep the answer while its pins go in.  One with addresses that are
 * not pinned (past DNS_ADDRS_MAX, blocked, or of a name off the chain)
 * is cut down to those that are: a sandbox is told only addresses it
 * can reach, and one answer's pins stay bounded.  Every TTL in it is
 * held to ttl_max, in place: should a hostile upstream's pointer make a
 * name of the bytes of a TTL, the name may change, but never an
 * address, and each address in the answer section is pinned.
 */
static int
query_keep(struct query *qr, const uint8_t *pkt, size_t n,
    const struct dns_answer *a, uint32_t ttl_max)
{
	static uint8_t	 cut[DNS_MSG_MAX];
	ssize_t		 t;

	if ((a->ndropped == 0 && a->nblocked == 0 && a->nother == 0) ||
	    (qr->q.qtype != DNS_T_A && qr->q.qtype != DNS_T_AAAA)) {
		memcpy(cut, pkt, n);
		t = n;
	} else if ((t = dns_answer_trim(pkt, n, &qr->q, a, cut,
	    sizeof(cut))) == -1) {
		log_warnx("%s: sandbox %s: %s: cannot cut the answer down "
		    "to the %zu addresses pinned", __func__, qr->sandbox,
		    qr->q.name, a->naddrs);
		return (-1);
	} else if (a->ndropped > 0)
		log_info("%s: sandbox %s: %s: %zu addresses past the first "
		    "%d left out of the answer", __func__, qr->sandbox,
		    qr->q.name, a->ndropped, DNS_ADDRS_MAX);
	if (dns_answer_ttl_cap(cut, t, ttl_max) == -1) {
		log_warnx("%s: sandbox %s: %s: cannot cap the answer's TTLs",
		    __func__, qr->sandbox, qr->q.name);
		return (-1);
	}
	if ((qr->ans = malloc(t)) == NULL)
		fatal("%s", __func__);
	memcpy(qr->ans, cut, t);
	qr->anslen = t;
	return (0);
}

/* The policy's allow cidr prefixes, for the answer parser's filter. */
static void
query_allow(const struct query *qr, struct dns_allow *allow)
{
	static struct conf_prefix	*cidrs;
	static size_t			 cap;
	struct conf_net_rule		*r;
	size_t				 n = 0;

	TAILQ_FOREACH(r, &dnspind_conf->net_rules, entry) {
		if (r->m.type != NET_RULE_CIDR ||
		    strcmp(r->m.policy, qr->policy) != 0)
			continue;
		if (n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			if ((cidrs = reallocarray(cidrs, cap,
			    sizeof(*cidrs))) == NULL)
				fatal("%s", __func__);
		}
		cidrs[n++] = r->m.prefix;
	}
	allow->cidrs = cidrs;
	allow->n = n;
}

/* One audit line for each address of the answer that was not pinned. */
static void
query_audit_blocked(struct query *qr, const struct dns_answer *a)
{
	char	 s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN + 64];
	size_t	 i;

	for (i = 0; i < a->nblocked; i++) {
		inet_ntop(a->blocked[i].af, &a->blocked[i].a, s, sizeof(s));
		snprintf(d, sizeof(d), "%s %s", s, a->blocked[i].blocked->name);
		audit_log("dns.blocked-answer", qr->sandbox, qr->q.name, d);
	}
	if (a->nblocked_past > 0) {
		snprintf(d, sizeof(d), "%zu more", a->nblocked_past);
		audit_log("dns.blocked-answer", qr->sandbox, qr->q.name, d);
	}
}

/*
 * The upstream answered; ours if id and question match, else ignored.
 * A truncated answer over UDP is asked again over TCP, of the same
 * upstream; a TCP exchange that failed moves on to the next.
 */
static void
query_upstream_read(void *arg, const uint8_t *pkt, size_t n)
{
	struct query		*qr = arg;
	struct dns_answer	 a;
	struct dns_allow	 allow;
	uint32_t		 ttl_max;
	int			 e;

	if (pkt == NULL)
		e = -1;
	else if (dns_get_id(pkt, n) != qr->upid)
		e = DNS_E_MISMATCH;
	else {
		query_allow(qr, &allow);
		e = dns_answer_parse(pkt, n, &qr->q, &allow, &a);
	}
	if (e != DNS_OK) {
		if (pkt != NULL)
			log_debug("%s: %s: %s", __func__, qr->q.name,
			    dns_strerror(e));
		/* Over UDP the right answer may still come; not over TCP. */
		if (qr->uptcp) {
			evtimer_del(&qr->ev_timeout);
			qr->upidx++;
			resolve_upstream(qr);
		}
		return;
	}
	upx_stop(&qr->up);
	evtimer_del(&qr->ev_timeout);
	if (a.tc && !qr->uptcp) {
		log_debug("%s: %s: truncated, again over TCP", __func__,
		    qr->q.name);
		qr->uptcp = 1;
		resolve_upstream(qr);
		return;
	}
	if (qr->q.qtype == DNS_T_A || qr->q.qtype == DNS_T_AAAA) {
		if (a.nblocked > 0)
			query_audit_blocked(qr, &a);
		if (a.naddrs == 0 && a.nblocked > 0) {
			query_refuse_ede(qr, DNS_EDE_BLOCKED,
			    a.blocked[0].blocked->name);
			return;
		}
	}
	ttl_max = answer_ttl_max(qr, &a);
	if (query_keep(qr, pkt, n, &a, ttl_max) == -1) {
		query_fail(qr, DNS_R_SERVFAIL);
		return;
	}
	if ((qr->q.qtype == DNS_T_A || qr->q.qtype == DNS_T_AAAA) &&
	    a.naddrs > 0) {
		/* Kept for the cache, should netd take the pins. */
		if ((qr->pinned = calloc(a.naddrs, sizeof(*qr->pinned))) ==
		    NULL)
			fatal("%s", __func__);
		memcpy(qr->pinned, a.addrs, a.naddrs * sizeof(*qr->pinned));
		qr->npinned = a.naddrs;
		qr->ttl_told = ttl_max;
	}
	query_release(qr, &a);
}

/*
 * The answer kept goes once netd has its pins.  Too big for the
 * client's UDP, it goes at once: the client gets TC and asks over TCP.
 */
static void
query_release(struct query *qr, const struct dns_answer *a)
{
	if ((qr->q.qtype != DNS_T_A && qr->q.qtype != DNS_T_AAAA) ||
	    (qr->reply == NULL && qr->anslen > dns_query_udp_max(&qr->q)) ||
	    query_pins(qr, a) == 0) {
		query_answer(qr, qr->ans, qr->anslen);
		return;
	}
	evtimer_add(&qr->ev_timeout, &pin_wait);
}

/*
 * The answer released to this sandbox for the same question less than
 * its TTL ago, if there is one: no upstream.  Its pins are refreshed
 * through netd first, unless netd acknowledged them so recently that
 * they are known to be in place for the whole TTL told (cache_get).
 * 0 if there is none.
 */
static int
query_cached(struct query *qr)
{
	struct cache_hit	 h;
	struct dns_answer	 a;

	if (!cache_get(qr->sandbox, qr->policy, &qr->q, qr->reply != NULL,
	    netdch_epoch(), &h))
		return (0);
	qr->ans = h.ans;
	qr->anslen = h.anslen;
	qr->ttl_told = h.ttl;
	qr->cached = 1;
	if (h.pinned) {
		query_answer(qr, qr->ans, qr->anslen);
		return (1);
	}
	a.naddrs = h.naddrs;
	memcpy(a.addrs, h.addrs, h.naddrs * sizeof(a.addrs[0]));
	query_release(qr, &a);
	return (1);
}

static void
query_timeout(int fd, short event, void *arg)
{
	struct query	*qr = arg;

	if (qr->ans != NULL) {
		log_warnx("%s: %s: netd did not pin in time", __func__,
		    qr->q.name);
		query_fail(qr, DNS_R_SERVFAIL);
		return;
	}
	log_debug("%s: %s: upstream %d timed out", __func__, qr->q.name,
	    qr->upidx);
	upx_stop(&qr->up);
	qr->upidx++;
	resolve_upstream(qr);
}

/*
 * Ask the next upstream, from a random source port (a socket of the
 * pool, or a TCP connection of the query's own) with a random id, over
 * TCP if the client came that way or UDP came back truncated.
 */
static void
resolve_upstream(struct query *qr)
{
	struct conf_upstream	*u;
	struct sockaddr_storage	 ss;
	struct sockaddr_in	*sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&ss;
	struct timeval		 tv;
	socklen_t		 sslen;
	uint32_t		 ms = dnspind_conf->global.upstream_timeout_ms;

	for (; (u = upstream_nth(qr->upidx)) != NULL; qr->upidx++) {
		memset(&ss, 0, sizeof(ss));
		if (u->m.addr.af == AF_INET) {
			sin->sin_family = AF_INET;
			sin->sin_port = htons(u->m.port);
			sin->sin_addr = u->m.addr.addr.v4;
			sslen = sizeof(*sin);
		} else {
			sin6->sin6_family = AF_INET6;
			sin6->sin6_port = htons(u->m.port);
			sin6->sin6_addr = u->m.addr.addr.v6;
			sslen = sizeof(*sin6);
		}
		if (upx_start(&qr->up, &ss, sslen, qr->uptcp, qr->raw,
		    qr->rawlen, query_upstream_read, qr) == -1)
			continue;
		qr->upid = qr->up.id;
		tv.tv_sec = ms / 1000;
		tv.tv_usec = (ms % 1000) * 1000;
		evtimer_add(&qr->ev_timeout, &tv);
		return;
	}
	log_warnx("%s: %s: no upstream answered", __func__, qr->q.name);
	query_fail(qr, DNS_R_SERVFAIL);
}

static void
query_refuse(const struct sockaddr_storage *from, socklen_t fromlen,
    const uint8_t *pkt, size_t len, const struct dns_query *q,
    query_reply_fn reply, void *arg)
{
	uint8_t	 buf[DNS_QUERY_MAX + DNS_OPT_LEN];
	ssize_t	 n;

	if (q != NULL)
		n = dns_build_rcode(q, DNS_R_REFUSED, buf, sizeof(buf));
	else
		n = dns_build_error(pkt, len, DNS_R_REFUSED, buf, sizeof(buf));
	if (n <= 0)
		return;
	if (reply != NULL) {
		audit_flush();
		reply(arg, buf, n);
	} else
		udpout_send(udp_fd, from, fromlen, buf, n);
}

/* The policy's allow name rules, the ports of those that match. */
static size_t
resolve_ports(const char *policy, const char *name, struct dns_port *ports,
    size_t max)
{
	struct conf_net_rule	*r;
	struct net_rule_msg	 rules[64];
	size_t			 n = 0;
	ssize_t			 k;

	TAILQ_FOREACH(r, &dnspind_conf->net_rules, entry) {
		if (r->m.type != NET_RULE_NAME ||
		    strcmp(r->m.policy, policy) != 0)
			continue;
		if (n == sizeof(rules) / sizeof(rules[0]))
			break;
		rules[n++] = r->m;
	}
	k = dns_name_ports(rules, n, name, ports, max);
	return (k < 0 ? 0 : (size_t)k);
}

static void
unknown_free(struct unknown *u)
{
	TAILQ_REMOVE(&unknowns, u, entry);
	nunknowns--;
	evtimer_del(&u->ev);
	free(u->pkt);
	free(u);
}

/* Still nobody's: REFUSED, and nothing pinned. */
static void
unknown_refuse(const struct sockaddr_storage *from, int fromlen,
    const uint8_t *pkt, size_t len, query_reply_fn reply, void *arg)
{
	audit_log("dns.refused", "", "", "unknown source");
	query_refuse(from, fromlen, pkt, len, NULL, reply, arg);
}

static void
unknown_timeout(int fd, short event, void *arg)
{
	struct unknown	*u = arg;

	unknown_refuse(&u->from, u->fromlen, u->pkt, u->len, u->reply,
	    u->arg);
	unknown_free(u);
}

static void
unknown_hold(const struct sockaddr_storage *from, int fromlen,
    const uint8_t *pkt, size_t len, query_reply_fn reply, void *arg)
{
	struct timeval	 tv = { 0, RESOLVE_UNKNOWN_WAIT_MS * 1000 };
	struct unknown	*u;

	if (nunknowns >= RESOLVE_UNKNOWN_MAX) {
		unknown_refuse(from, fromlen, pkt, len, reply, arg);
		return;
	}
	if ((u = calloc(1, sizeof(*u))) == NULL ||
	    (u->pkt = malloc(len)) == NULL)
		fatal("%s", __func__);
	memcpy(&u->from, from, sizeof(u->from));
	u->fromlen = fromlen;
	memcpy(u->pkt, pkt, len);
	u->len = len;
	u->reply = reply;
	u->arg = arg;
	evtimer_set(&u->ev, unknown_timeout, u);
	evtimer_add(&u->ev, &tv);
	TAILQ_INSERT_TAIL(&unknowns, u, entry);
	nunknowns++;
}

/* A sandbox was announced: the queries it sent before are its now. */
void
resolve_known(void)
{
	struct unknown	*u, *next;

	TAILQ_FOREACH_SAFE(u, &unknowns, entry, next) {
		if (sandboxes_from(&u->from) == NULL)
			continue;
		TAILQ_REMOVE(&unknowns, u, entry);
		nunknowns--;
		evtimer_del(&u->ev);
		resolve_query(&u->from, u->pkt, u->len, u->fromlen, u->reply,
		    u->arg);
		free(u->pkt);
		free(u);
	}
}

/*
 * A repeat of a listed name that the cache may release at once, its
 * pins known to be in place (cache_get_pinned): answered here, with no
 * query kept and no slot in flight taken.  0 if it must go the long
 * way (a TC answer, too, is made there).
 */
static int
resolve_fast(const struct dsandbox *sb, const struct dns_query *q,
    const struct sockaddr_storage *from, int fromlen, query_reply_fn reply,
    void *arg)
{
	static uint8_t	 ans[CACHE_ANSWER_MAX];
	struct dns_port	 ports[RESOLVE_PORTS_MAX];
	size_t		 len;

	if ((q->qtype != DNS_T_A && q->qtype != DNS_T_AAAA) ||
	    (len = cache_get_pinned(sb->m.id, sb->m.policy, q, reply != NULL,
	    netdch_epoch(), ans, sizeof(ans))) == 0)
		return (0);
	if (reply == NULL && len > dns_query_udp_max(q))
		return (0);
	/* Its allowlist, as for any query (a new config empties it all). */
	if (resolve_ports(sb->m.policy, q->name, ports,
	    RESOLVE_PORTS_MAX) == 0)
		return (0);
	dns_set_id(ans, len, q->id);
	if (reply != NULL) {
		audit_flush();
		reply(arg, ans, len);
	} else
		udpout_send(udp_fd, from, fromlen, ans, len);
	return (1);
}

void
resolve_query(const struct sockaddr_storage *from, const uint8_t *pkt,
    size_t len, int fromlen, query_reply_fn reply, void *arg)
{
	const struct dsandbox	*sb;
	struct dns_query	 q;
	struct query		*qr;
	uint8_t			 qbuf[DNS_QUERY_MAX + DNS_OPT_LEN];
	int			 e, rcode;
	ssize_t			 n;

	if ((sb = sandboxes_from(from)) == NULL) {
		unknown_hold(from, fromlen, pkt, len, reply, arg);
		return;
	}
	e = dns_query_parse(pkt, len, &q);
	if (e == DNS_OK && resolve_fast(sb, &q, from, fromlen, reply, arg))
		return;
	/* A flood's excess costs this much and no more: dropped here. */
	if (sandboxes_hold(sb->m.id, nqueries >= DNSPIND_QUERIES_MAX) == -1)
		return;
	if (e != DNS_OK) {
		sandboxes_release(sb->m.id);
		log_debug("%s: sandbox %s: %s", __func__, sb->m.id,
		    dns_strerror(e));
		/* With the question whole, the answer echoes it. */
		if ((rcode = dns_error_rcode(e)) < 0)
			n = -1;
		else if (q.qlen != 0)
			n = dns_build_rcode(&q, rcode, qbuf, sizeof(qbuf));
		else
			n = dns_build_error(pkt, len, rcode, qbuf, sizeof(qbuf));
		if (n > 0) {
			if (reply != NULL)
				reply(arg, qbuf, n);
			else
				udpout_send(udp_fd, from, fromlen, qbuf, n);
		}
		return;
	}
	if ((qr = calloc(1, sizeof(*qr))) == NULL ||
	    (qr->raw = malloc(len)) == NULL)
		fatal("%s", __func__);
	qr->nports = resolve_ports(sb->m.policy, q.name, qr->ports,
	    RESOLVE_PORTS_MAX);
	if (qr->nports == 0) {
		sandboxes_release(sb->m.id);
		free(qr->raw);
		free(qr);
		audit_log("dns.refused", sb->m.id, q.name, "not listed");
		query_refuse(from, fromlen, pkt, len, &q, reply, arg);
		return;
	}
	qr->token = ++next_token;
	strlcpy(qr->sandbox, sb->m.id, sizeof(qr->sandbox));
	strlcpy(qr->policy, sb->m.policy, sizeof(qr->policy));
	qr->q = q;
	memcpy(qr->raw, pkt, len);
	qr->rawlen = len;
	memcpy(&qr->from, from, sizeof(qr->from));
	qr->fromlen = fromlen;
	qr->reply = reply;
	qr->arg = arg;
	qr->uptcp = reply != NULL;
	qr->up.fd = -1;
	evtimer_set(&qr->ev_timeout, query_timeout, qr);
	TAILQ_INSERT_TAIL(&queries, qr, entry);
	RB_INSERT(query_tokens, &tokens, qr);
	nqueries++;
	if (!query_cached(qr))
		resolve_upstream(qr);
}

static struct query *
query_by_token(uint64_t token)
{
	struct query	 key;

	key.token = token;
	return (RB_FIND(query_tokens, &tokens, &key));
}

/* netd has (some of) the pins of these answers: those done may go. */
void
resolve_pinned(const struct dns_pin_ack *ack)
{
	const struct dns_pin_answer	*pa;
	struct query			*qr;
	uint32_t			 i;

	for (i = 0; i < ack->nanswers; i++) {
		pa = &ack->answers[i];
		if ((qr = query_by_token(pa->token)) == NULL ||
		    qr->ans == NULL || qr->npending == 0)
			continue;	/* gone, or failed already */
		if (pa->error != 0) {
			log_warnx("%s: sandbox %s: %s: netd refused the pins: "
			    "%s", __func__, qr->sandbox, qr->q.name,
			    strerror(pa->error));
			query_fail(qr, DNS_R_SERVFAIL);
		} else if (--qr->npending == 0) {
			if (qr->pinned != NULL)
				cache_put(qr->sandbox, qr->policy, &qr->q,
				    qr->reply != NULL, qr->ans, qr->anslen,
				    qr->ttl_told, qr->pinned, qr->npinned,
				    netdch_epoch(), qr->pin_queued_ms,
				    qr->pin_ttl_min);
			else if (qr->cached)
				cache_repinned(qr->sandbox, qr->policy, &qr->q,
				    qr->reply != NULL, netdch_epoch(),
				    qr->pin_queued_ms, qr->pin_ttl_min);
			query_answer(qr, qr->ans, qr->anslen);
		}
	}
}

/* A TCP client went away: its queries go unanswered. */
void
resolve_cancel(void *arg)
{
	struct query	*qr, *next;
	struct unknown	*u, *unext;

	TAILQ_FOREACH_SAFE(qr, &queries, entry, next)
		if (qr->reply != NULL && qr->arg == arg)
			query_free(qr);
	TAILQ_FOREACH_SAFE(u, &unknowns, entry, unext)
		if (u->reply != NULL && u->arg == arg)
			unknown_free(u);
}

/*
 * The queries waiting on the socket, RESOLVE_READS to a recvmmsg(2),
 * two calls at most: TCP clients and upstreams get their turn.  A
 * datagram longer than a buffer is cut (MSG_TRUNC): still longer than
 * any query, it is refused as too long all the same.
 */
static void
resolve_udp_read(int fd, short event, void *arg)
{
	static struct mmsghdr		 msgs[RESOLVE_READS];
	static struct iovec		 iovs[RESOLVE_READS];
	static struct sockaddr_storage	 froms[RESOLVE_READS];
	int				 i, n, round;

	for (round = 0; round < 2; round++) {
		for (i = 0; i < RESOLVE_READS; i++) {
			iovs[i].iov_base = pktbufs[i];
			iovs[i].iov_len = sizeof(pktbufs[i]);
			memset(&msgs[i], 0, sizeof(msgs[i]));
			msgs[i].msg_hdr.msg_name = &froms[i];
			msgs[i].msg_hdr.msg_namelen = sizeof(froms[i]);
			msgs[i].msg_hdr.msg_iov = &iovs[i];
			msgs[i].msg_hdr.msg_iovlen = 1;
		}
		if ((n = recvmmsg(fd, msgs, RESOLVE_READS, MSG_DONTWAIT,
		    NULL)) == -1) {
			if (errno != EAGAIN && errno != EINTR)
				log_warn("%s: recvmmsg", __func__);
			return;
		}
		for (i = 0; i < n; i++)
			resolve_query(&froms[i], pktbufs[i], msgs[i].msg_len,
			    msgs[i].msg_hdr.msg_namelen, NULL, NULL);
		if (n < RESOLVE_READS)
			return;
	}
}

void
resolve_udp_socket(int fd)
{
	if (udp_fd != -1) {
		udpout_flush();
		event_del(&ev_udp);
		close(udp_fd);
	}
	udp_fd = fd;
	event_set(&ev_udp, fd, EV_READ | EV_PERSIST, resolve_udp_read, NULL);
	event_add(&ev_udp, NULL);
}
