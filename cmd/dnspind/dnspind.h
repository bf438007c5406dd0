/* dnspind: shared state between its files. */
#ifndef DNSPIND_H
#define DNSPIND_H

#include <sys/socket.h>
#include <sys/tree.h>

#include <event.h>

#include "conf.h"
#include "dns.h"
#include "sandboxd_imsg.h"

#define DNSPIND_QUERIES_MAX	4096	/* in flight, shared by all sandboxes */
#define DNSPIND_QUERIES_SANDBOX	256	/* in flight, one sandbox */
#define DNSPIND_QUERIES_OWN	16	/* of them its own, past the shared cap */
#define DNSPIND_TCP_MAX		256	/* client connections */
#define DNSPIND_TCP_SOURCE	16	/* of them from one address */
#define DNSPIND_TCP_WAIT_MS	10000	/* for a whole query */

extern struct sandboxd_conf	*dnspind_conf;

/* A sandbox whose queries dnspind answers, by its addresses. */
struct dsandbox {
	RB_ENTRY(dsandbox)	 by_addr4;
	RB_ENTRY(dsandbox)	 by_addr6;
	RB_ENTRY(dsandbox)	 by_id;
	struct dns_sandbox	 m;
	size_t			 inflight;	/* its queries forwarded */
	int			 capped;	/* at the cap, said so once */
	int			 unconfirmed;	/* not yet re-announced */
};

/* sandboxes.c */
void		 sandboxes_add(const struct dns_sandbox *);
void		 sandboxes_del(const char *);
const struct dsandbox *sandboxes_from(const struct sockaddr_storage *);
const struct dsandbox *sandboxes_find(const char *);
int		 sandboxes_hold(const char *, int);
void		 sandboxes_release(const char *);
void		 sandboxes_resync(void);
void		 sandboxes_resync_end(void);

/* resolve.c: a query's way from a sandbox to the upstream and back */
struct query;
typedef void	(*query_reply_fn)(void *, const uint8_t *, size_t);
void		 resolve_udp_socket(int);
/* A query from a client; reply is called once, or never if dropped. */
void		 resolve_query(const struct sockaddr_storage *, const uint8_t *,
		    size_t, int, query_reply_fn, void *);
void		 resolve_cancel(void *);
void		 resolve_known(void);
void		 resolve_pinned(const struct dns_pin_ack *);
void		 resolve_netd_gone(void);

/* cache.c: answers released, for repeats within their TTL */
#define CACHE_ANSWER_MAX	4096	/* bytes; larger ones go upstream */
struct cache_hit {
	uint8_t		*ans;		/* the caller's to free */
	size_t		 anslen;
	uint32_t	 ttl;		/* told */
	int		 pinned;	/* its pins in place for all of it */
	size_t		 naddrs;
	struct dns_addr	 addrs[DNS_ADDRS_MAX];
};
uint64_t	 cache_now_ms(void);
int		 cache_get(const char *, const char *, const struct dns_query *,
		    int, uint64_t, struct cache_hit *);
void		 cache_put(const char *, const char *, const struct dns_query *,
		    int, const uint8_t *, size_t, uint32_t,
		    const struct dns_addr *, size_t, uint64_t, uint64_t, uint32_t);
size_t		 cache_get_pinned(const char *, const char *,
		    const struct dns_query *, int, uint64_t, uint8_t *, size_t);
void		 cache_repinned(const char *, const char *,
		    const struct dns_query *, int, uint64_t, uint64_t, uint32_t);
void		 cache_drop(const char *);
void		 cache_flush(void);
size_t		 cache_size(void);

/* turnend.c: a function run once at the end of this turn of the loop */
struct turnend {
	struct event	 ev;
	void		(*fn)(void);
	int		 set;
	int		 armed;
};
#define TURNEND_INITIALIZER(f)	{ .fn = (f) }
void		 turnend_arm(struct turnend *);

/* audit.c: one JSON audit line per refusal and per pin */
ssize_t		 audit_format(char *, size_t, const char *, const char *,
		    const char *, const char *);
void		 audit_log(const char *, const char *, const char *,
		    const char *);
void		 audit_flush(void);

/* udpout.c: answers over UDP, sent together at the end of the turn */
void		 udpout_send(int, const struct sockaddr_storage *, socklen_t,
		    const uint8_t *, size_t);
void		 udpout_flush(void);

/* upstream.c: one exchange with one upstream */
typedef void	(*upx_fn)(void *, const uint8_t *, size_t);
struct upsock;
struct upx {
	uint16_t	 id;		/* the query's, as sent */
	struct upsock	*sock;		/* UDP: the socket it waits on */
	size_t		 slot;		/* its place there */
	struct sockaddr_storage to;	/* UDP: whom the answer comes from */
	int		 fd;		/* TCP: -1 if none under way */
	struct event	 ev;
	uint8_t		*out;		/* TCP: the framed query */
	size_t		 outlen, outoff;
	uint8_t		*in;		/* TCP: the framed answer */
	size_t		 have, want;
	upx_fn		 done;
	void		*arg;
};
int		 upx_start(struct upx *, const struct sockaddr_storage *,
		    socklen_t, int, uint8_t *, size_t, upx_fn, void *);
void		 upx_stop(struct upx *);

/* upsock.c: the pool of UDP sockets to the upstreams */
int		 upsock_send(struct upx *, const struct sockaddr_storage *,
		    socklen_t, uint8_t *, size_t);
void		 upsock_detach(struct upx *);

/* netdch.c: the channel to netd, for pins */
void		 netdch_open(int);
int		 netdch_send(const struct dns_pin_req *);
uint64_t	 netdch_epoch(void);

/* tcp.c */
void		 tcp_socket(int);

#endif
