/*
 * The UDP sockets queries go to the upstreams from.  A socket of each
 * query's own cost a socket, a connect, an epoll registration and a
 * close per query; these stay open instead, UPSOCK_POOL of each family,
 * each on a source port the kernel picks at random when it first sends.
 * A query takes one of them at random, with a random id that no other
 * query in flight on that socket has.  A socket is retired after
 * UPSOCK_USES queries or UPSOCK_SECS seconds, whichever comes first: a
 * fresh one, on a fresh port, takes its place, and it is closed once
 * its last query is done.  A datagram is a query's answer only if it
 * comes from the address and port that query went to, with its id;
 * anything else is dropped.
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dnspind.h"
#include "log.h"

#define UPSOCK_POOL	8	/* open sockets of one family */
#define UPSOCK_USES	64	/* queries from one socket */
#define UPSOCK_SECS	10	/* seconds one socket is used for */
#define UPSOCK_READS	64	/* datagrams read in one turn */

struct upsock {
	int		 fd;
	struct event	 ev;
	time_t		 born;
	size_t		 used;		/* queries sent from it */
	size_t		 live;		/* of them still waiting */
	int		 retired;	/* no more queries: close when idle */
	int		 reading;	/* in upsock_read: do not free yet */
	struct upx	*xs[UPSOCK_USES];
};

static struct upsock	*pool[2][UPSOCK_POOL];	/* AF_INET, AF_INET6 */
static uint8_t		 rnd[512];	/* arc4random's, not yet used */
static size_t		 rndoff = sizeof(rnd);

_Static_assert((UPSOCK_POOL & (UPSOCK_POOL - 1)) == 0,
    "UPSOCK_POOL divides 65536: a slot of upsock_rand16() is uniform");
static uint8_t		 upsock_buf[65535];

/*
 * 16 random bits: arc4random's, drawn 512 bytes at a time.  libbsd's
 * arc4random makes a getpid(2) call each time (it looks for a fork),
 * and a query asked upstream needs two draws; dnspind does not fork.
 * Bytes used are cleared.
 */
static uint16_t
upsock_rand16(void)
{
	uint16_t	 v;

	if (rndoff + 2 > sizeof(rnd)) {
		arc4random_buf(rnd, sizeof(rnd));
		rndoff = 0;
	}
	v = rnd[rndoff] | rnd[rndoff + 1] << 8;
	rnd[rndoff] = rnd[rndoff + 1] = 0;
	rndoff += 2;
	return (v);
}

static time_t
upsock_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (ts.tv_sec);
}

static void
upsock_free(struct upsock *s)
{
	event_del(&s->ev);
	close(s->fd);
	free(s);
}

/* Out of the pool; closed now if no query waits on it, else later. */
static void
upsock_retire(struct upsock *s)
{
	s->retired = 1;
	if (s->live == 0 && !s->reading)
		upsock_free(s);
}

static int
upsock_same(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	const struct sockaddr_in	*a4 = (const struct sockaddr_in *)a;
	const struct sockaddr_in	*b4 = (const struct sockaddr_in *)b;
	const struct sockaddr_in6	*a6 = (const struct sockaddr_in6 *)a;
	const struct sockaddr_in6	*b6 = (const struct sockaddr_in6 *)b;

	if (a->ss_family != b->ss_family)
		return (0);
	if (a->ss_family == AF_INET)
		return (a4->sin_port == b4->sin_port &&
		    a4->sin_addr.s_addr == b4->sin_addr.s_addr);
	return (a6->sin6_port == b6->sin6_port &&
	    memcmp(&a6->sin6_addr, &b6->sin6_addr, 16) == 0);
}

/* The query in flight on s that this datagram answers, if any. */
static struct upx *
upsock_match(struct upsock *s, const struct sockaddr_storage *from,
    const uint8_t *pkt, size_t len)
{
	uint16_t	 id;
	size_t		 i;

	if (len < DNS_HDR_LEN)
		return (NULL);
	id = dns_get_id(pkt, len);
	for (i = 0; i < s->used; i++)
		if (s->xs[i] != NULL && s->xs[i]->id == id &&
		    upsock_same(&s->xs[i]->to, from))
			return (s->xs[i]);
	return (NULL);
}

static void
upsock_read(int fd, short event, void *arg)
{
	struct upsock		*s = arg;
	struct sockaddr_storage	 from;
	socklen_t		 fromlen;
	struct upx		*x;
	ssize_t			 n;
	int			 i;

	s->reading = 1;
	for (i = 0; i < UPSOCK_READS; i++) {
		fromlen = sizeof(from);
		memset(&from, 0, sizeof(from));
		if ((n = recvfrom(fd, upsock_buf, sizeof(upsock_buf), 0,
		    (struct sockaddr *)&from, &fromlen)) == -1) {
			if (errno != EAGAIN && errno != EINTR)
				log_debug("%s: %s", __func__, strerror(errno));
			break;
		}
		if ((x = upsock_match(s, &from, upsock_buf, n)) == NULL) {
			log_debug("%s: a datagram that answers no query in "
			    "flight: dropped", __func__);
			continue;
		}
		x->done(x->arg, upsock_buf, n);	/* may stop x */
	}
	s->reading = 0;
	if (s->retired && s->live == 0)
		upsock_free(s);
}

static struct upsock *
upsock_new(int af)
{
	struct upsock	*s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		fatal("%s", __func__);
	if ((s->fd = socket(af, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) == -1) {
		log_warn("%s: socket", __func__);
		free(s);
		return (NULL);
	}
	s->born = upsock_now();
	event_set(&s->ev, s->fd, EV_READ | EV_PERSIST, upsock_read, s);
	event_add(&s->ev, NULL);
	return (s);
}

/* An id no query in flight on s has. */
static uint16_t
upsock_id(const struct upsock *s)
{
	uint16_t	 id;
	size_t		 i;

	for (;;) {
		id = upsock_rand16();
		for (i = 0; i < s->used; i++)
			if (s->xs[i] != NULL && s->xs[i]->id == id)
				break;
		if (i == s->used)
			return (id);
	}
}

/*
 * Send msg to ss from a socket of the pool, with an id of its own
 * (written into msg, and kept in x); -1 if it could not go.
 */
int
upsock_send(struct upx *x, const struct sockaddr_storage *ss,
    socklen_t sslen, uint8_t *msg, size_t len)
{
	struct upsock	**slot, *s;

	slot = &pool[ss->ss_family == AF_INET6][upsock_rand16() %
	    UPSOCK_POOL];
	if ((s = *slot) != NULL && (s->used == UPSOCK_USES ||
	    upsock_now() - s->born >= UPSOCK_SECS)) {
		upsock_retire(s);
		*slot = s = NULL;
	}
	if (s == NULL && (s = *slot = upsock_new(ss->ss_family)) == NULL)
		return (-1);
	x->id = upsock_id(s);
	dns_set_id(msg, len, x->id);
	if (sendto(s->fd, msg, len, 0, (const struct sockaddr *)ss,
	    sslen) == -1) {
		log_debug("%s: sendto: %s", __func__, strerror(errno));
		return (-1);
	}
	memcpy(&x->to, ss, sizeof(x->to));
	x->sock = s;
	x->slot = s->used;
	s->xs[s->used++] = x;
	s->live++;
	return (0);
}

/* x waits no more: what comes for it now is dropped. */
void
upsock_detach(struct upx *x)
{
	struct upsock	*s = x->sock;

	if (s == NULL)
		return;
	s->xs[x->slot] = NULL;
	s->live--;
	x->sock = NULL;
	if (s->retired && s->live == 0 && !s->reading)
		upsock_free(s);
}
