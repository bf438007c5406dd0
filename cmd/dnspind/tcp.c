/*
 * DNS over TCP from sandboxes (RFC 7766 framing: a two-byte length,
 * then the message): one query per connection, read whole within
 * DNSPIND_TCP_WAIT_MS, answered through resolve.c like a UDP one, and
 * closed once the answer is written.  At most DNSPIND_TCP_MAX clients,
 * DNSPIND_TCP_SOURCE of them from one address; when all are taken, a
 * new one takes the place of the oldest that has not sent its query
 * yet, so that idle connections cannot shut others out.
 */
#include <sys/socket.h>
#include <sys/queue.h>
#include <netinet/in.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dnspind.h"
#include "log.h"

struct tconn {
	TAILQ_ENTRY(tconn)	 entry;		/* oldest first */
	int			 fd;
	int			 asked;		/* the query is whole */
	struct sockaddr_storage	 from;
	socklen_t		 fromlen;
	struct event		 ev;
	struct event		 ev_timeout;
	size_t			 have;		/* bytes read into buf */
	size_t			 want;		/* 2, then 2 + length */
	uint8_t			*out;		/* the answer, framed */
	size_t			 outlen, outoff;
	uint8_t			 buf[2 + DNS_MSG_MAX];
};

static TAILQ_HEAD(, tconn) conns = TAILQ_HEAD_INITIALIZER(conns);
static int		 tcp_fd = -1;
static struct event	 ev_accept;
static size_t		 nconns;

static void
tcp_close(struct tconn *c)
{
	resolve_cancel(c);
	event_del(&c->ev);
	evtimer_del(&c->ev_timeout);
	close(c->fd);
	TAILQ_REMOVE(&conns, c, entry);
	nconns--;
	free(c->out);
	free(c);
}

static void
tcp_write(int fd, short event, void *arg)
{
	struct tconn	*c = arg;
	ssize_t		 n;

	if ((n = write(c->fd, c->out + c->outoff, c->outlen - c->outoff)) ==
	    -1) {
		if (errno != EAGAIN && errno != EINTR)
			tcp_close(c);
		return;
	}
	if ((c->outoff += n) == c->outlen)
		tcp_close(c);
}

static void
tcp_reply(void *arg, const uint8_t *msg, size_t len)
{
	struct tconn	*c = arg;

	if ((c->out = malloc(2 + len)) == NULL)
		fatal("%s", __func__);
	c->out[0] = len >> 8;
	c->out[1] = len & 0xff;
	memcpy(c->out + 2, msg, len);
	c->outlen = 2 + len;
	event_del(&c->ev);
	event_set(&c->ev, c->fd, EV_WRITE | EV_PERSIST, tcp_write, c);
	event_add(&c->ev, NULL);
}

static void
tcp_read(int fd, short event, void *arg)
{
	struct tconn	*c = arg;
	ssize_t		 n;

	if ((n = read(c->fd, c->buf + c->have, c->want - c->have)) <= 0) {
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			return;
		tcp_close(c);
		return;
	}
	if ((c->have += n) < c->want)
		return;
	if (c->want == 2) {
		c->want = 2 + ((size_t)c->buf[0] << 8 | c->buf[1]);
		if (c->want == 2)
			tcp_close(c);
		return;
	}
	/* The whole query: no more reading, the answer comes. */
	event_del(&c->ev);
	c->asked = 1;
	resolve_query(&c->from, c->buf + 2, c->want - 2, c->fromlen,
	    tcp_reply, c);
}

static void
tcp_timeout(int fd, short event, void *arg)
{
	tcp_close(arg);
}

static int
tcp_same_source(const struct sockaddr_storage *a,
    const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return (0);
	if (a->ss_family == AF_INET)
		return (memcmp(&((const struct sockaddr_in *)a)->sin_addr,
		    &((const struct sockaddr_in *)b)->sin_addr,
		    sizeof(struct in_addr)) == 0);
	return (memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
	    &((const struct sockaddr_in6 *)b)->sin6_addr,
	    sizeof(struct in6_addr)) == 0);
}

/* Room for c: 0, or -1 if its source has its share or all are asking. */
static int
tcp_make_room(const struct tconn *c)
{
	struct tconn	*o;
	size_t		 n = 0;

	TAILQ_FOREACH(o, &conns, entry)
		if (tcp_same_source(&o->from, &c->from) &&
		    ++n == DNSPIND_TCP_SOURCE)
			return (-1);
	if (nconns < DNSPIND_TCP_MAX)
		return (0);
	TAILQ_FOREACH(o, &conns, entry)
		if (!o->asked) {
			log_debug("%s: %zu connections: the oldest idle one "
			    "closed", __func__, nconns);
			tcp_close(o);
			return (0);
		}
	return (-1);
}

static void
tcp_accept(int fd, short event, void *arg)
{
	struct tconn	*c;
	struct timeval	 tv = { DNSPIND_TCP_WAIT_MS / 1000,
			    (DNSPIND_TCP_WAIT_MS % 1000) * 1000 };
	int		 s;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		fatal("%s", __func__);
	c->fromlen = sizeof(c->from);
	if ((s = accept4(fd, (struct sockaddr *)&c->from, &c->fromlen,
	    SOCK_NONBLOCK | SOCK_CLOEXEC)) == -1) {
		if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED)
			log_warn("%s", __func__);
		free(c);
		return;
	}
	if (tcp_make_room(c) == -1) {
		log_debug("%s: connection refused: no room", __func__);
		close(s);
		free(c);
		return;
	}
	c->fd = s;
	c->want = 2;
	event_set(&c->ev, s, EV_READ | EV_PERSIST, tcp_read, c);
	event_add(&c->ev, NULL);
	evtimer_set(&c->ev_timeout, tcp_timeout, c);
	evtimer_add(&c->ev_timeout, &tv);
	TAILQ_INSERT_TAIL(&conns, c, entry);
	nconns++;
}

void
tcp_socket(int fd)
{
	if (tcp_fd != -1) {
		event_del(&ev_accept);
		close(tcp_fd);
	}
	tcp_fd = fd;
	event_set(&ev_accept, fd, EV_READ | EV_PERSIST, tcp_accept, NULL);
	event_add(&ev_accept, NULL);
}
