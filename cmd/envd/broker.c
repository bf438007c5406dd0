/*
 * The broker channels: a listening socket per sandbox and one socket
 * per exec, each client a non-blocking connection with bounded input
 * and output.  A request is a frame, "Content-Length: N" headers, a
 * blank line and N bytes of JSON.  A client that breaks the framing is
 * told why and dropped; one that sends too much waits (its reads stop
 * while its answers are unread); none can hold up another: each gets a
 * few frames a turn, and a frame must arrive within a time limit.  One
 * that does not read its answers at all is dropped: BROKER_OUT_MAX
 * queued, or BROKER_OUT_HIGH without a byte taken for
 * BROKER_STALL_SECONDS.
 * No fd a tenant sends is ever taken: the kernel refuses them
 * (SO_PASSRIGHTS) or, before Linux 6.16, they are discarded without
 * waiting on a lingering socket and the sender dropped.
 */
#include <sys/socket.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>

#include "envd.h"
#include "fdguard.h"
#include "log.h"

static void	broker_read(int, short, void *);
static void	broker_write(int, short, void *);
static void	broker_more(int, short, void *);
static void	broker_frame_timeout(int, short, void *);
static void	broker_stalled(int, short, void *);

static void
broker_conn_free(struct bconn *c)
{
	event_del(&c->ev_read);
	event_del(&c->ev_write);
	event_del(&c->ev_more);
	event_del(&c->ev_frame);
	event_del(&c->ev_stall);
	close(c->fd);
	evbuffer_free(c->in);
	evbuffer_free(c->out);
	TAILQ_REMOVE(&c->sb->conns, c, entry);
	c->sb->nconns--;
	free(c);
}

static void
broker_refuse_fds(struct esandbox *sb, int fd)
{
	if (fdguard_refuse(fd) == -1 && errno != ENOPROTOOPT)
		log_warn("%s: sandbox %s: SO_PASSRIGHTS", __func__, sb->id);
}

struct bconn *
broker_conn_new(struct esandbox *sb, int fd, uint32_t exec_id)
{
	struct bconn	*c;

	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->in = evbuffer_new()) == NULL ||
	    (c->out = evbuffer_new()) == NULL)
		fatal("%s", __func__);
	c->sb = sb;
	c->fd = fd;
	c->exec_id = exec_id;
	if (fcntl(fd, F_SETFL, O_NONBLOCK) == -1)
		log_warn("%s: sandbox %s", __func__, sb->id);
	broker_refuse_fds(sb, fd);
	event_set(&c->ev_read, fd, EV_READ | EV_PERSIST, broker_read, c);
	event_set(&c->ev_write, fd, EV_WRITE | EV_PERSIST, broker_write, c);
	evtimer_set(&c->ev_more, broker_more, c);
	evtimer_set(&c->ev_frame, broker_frame_timeout, c);
	evtimer_set(&c->ev_stall, broker_stalled, c);
	event_add(&c->ev_read, NULL);
	c->reading = 1;
	TAILQ_INSERT_TAIL(&sb->conns, c, entry);
	sb->nconns++;
	return (c);
}

/*
 * Stop reading while its answers pile up unread, and start the stall
 * clock; go on once they go.
 */
static void
broker_pace(struct bconn *c)
{
	struct timeval	 tv = { BROKER_STALL_SECONDS, 0 };
	int		 full = evbuffer_get_length(c->out) >= BROKER_OUT_HIGH;

	/* Closing, the clock runs from the drop: see broker_drop. */
	if (c->closing)
		;
	else if (full && !evtimer_pending(&c->ev_stall, NULL))
		evtimer_add(&c->ev_stall, &tv);
	else if (!full)
		evtimer_del(&c->ev_stall);
	if (full && c->reading) {
		event_del(&c->ev_read);
		c->reading = 0;
	} else if (!full && !c->reading && !c->closing) {
		event_add(&c->ev_read, NULL);
		c->reading = 1;
	}
}

/*
 * Gone without a word: it reads nothing, so nothing would reach it.
 * Freed from a timer, never under a caller that still holds c.
 */
static void
broker_cut(struct bconn *c, const char *why)
{
	struct timeval	 now = { 0, 0 };

	log_warnx("sandbox %s: broker client dropped: %s; %zu bytes of "
	    "answers unread", c->sb->id, why, evbuffer_get_length(c->out));
	c->closing = 1;
	if (c->reading) {
		event_del(&c->ev_read);
		c->reading = 0;
	}
	event_del(&c->ev_write);
	event_del(&c->ev_more);
	event_del(&c->ev_frame);
	evbuffer_drain(c->in, evbuffer_get_length(c->in));
	evbuffer_drain(c->out, evbuffer_get_length(c->out));
	evtimer_add(&c->ev_stall, &now);
}

static void
broker_stalled(int fd, short event, void *arg)
{
	struct bconn	*c = arg;

	if (c->closing) {
		broker_conn_free(c);
		return;
	}
	broker_cut(c, "it has not read its answers for "
	    BROKER_STALL_TEXT);
}

void
broker_send(struct bconn *c, const char *body, size_t len)
{
	if (c->closing)
		return;
	if (evbuffer_add_printf(c->out, "Content-Length: %zu\r\n\r\n",
	    len) == -1 || evbuffer_add(c->out, body, len) == -1)
		fatal("%s", __func__);
	if (evbuffer_get_length(c->out) > BROKER_OUT_MAX) {
		broker_cut(c, "its answers passed " BROKER_OUT_MAX_TEXT);
		return;
	}
	event_add(&c->ev_write, NULL);
	broker_pace(c);
}

/*
 * Say why, then drop it once that is written, or after
 * BROKER_STALL_SECONDS if it does not read that either.
 */
static void
broker_drop(struct bconn *c, int code, const char *why)
{
	struct timeval	 tv = { BROKER_STALL_SECONDS, 0 };

	log_info("sandbox %s: broker client dropped: %s", c->sb->id, why);
	rpc_error(c, code, why);
	if (c->closing)		/* cut while answering */
		return;
	c->closing = 1;
	evtimer_add(&c->ev_stall, &tv);
	if (c->reading) {
		event_del(&c->ev_read);
		c->reading = 0;
	}
	event_del(&c->ev_more);
	event_del(&c->ev_frame);
	evbuffer_drain(c->in, evbuffer_get_length(c->in));
	event_add(&c->ev_write, NULL);
}

/*
 * The header block of the frame at the start of c->in: 1 with *hlen
 * and *blen when it is whole, 0 while it is not, -1 if it is broken.
 */
static int
broker_header(struct bconn *c, size_t *hlen, size_t *blen, const char **why)
{
	struct evbuffer_ptr	 p;
	char			 hdr[BROKER_HEADER_MAX + 1], *line, *next, *v;
	size_t			 n;
	long long		 len = -1;

	p = evbuffer_search(c->in, "\r\n\r\n", 4, NULL);
	if (p.pos == -1 || p.pos > BROKER_HEADER_MAX) {
		*why = "frame header too long or not ended by a blank line";
		return (evbuffer_get_length(c->in) > BROKER_HEADER_MAX + 3 ||
		    p.pos > BROKER_HEADER_MAX ? -1 : 0);
	}
	n = p.pos;
	evbuffer_copyout(c->in, hdr, n);
	hdr[n] = '\0';
	*why = "malformed frame header";
	for (line = hdr; line != NULL; line = next) {
		if ((next = strstr(line, "\r\n")) != NULL) {
			*next = '\0';
			next += 2;
		}
		/* Name: value, the name a token as in HTTP. */
		if ((v = strchr(line, ':')) == NULL || v == line ||
		    strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
		    "qrstuvwxyz0123456789-") != (size_t)(v - line))
			return (-1);
		*v++ = '\0';
		v += strspn(v, " \t");
		if (strcasecmp(line, "Content-Length") != 0)
			continue;
		if (len != -1 || *v == '\0' || strspn(v, "0123456789") !=
		    strlen(v) || strlen(v) > 12)
			return (-1);
		len = strtoll(v, NULL, 10);
	}
	if (len == -1) {
		*why = "frame without a Content-Length";
		return (-1);
	}
	if (len > BROKER_FRAME_MAX) {
		*why = "frame larger than 65536 bytes";
		return (-1);
	}
	*hlen = n + 4;
	*blen = len;
	return (1);
}

/* Answer up to a few whole frames; 1 if more may be waiting. */
static int
broker_frames(struct bconn *c)
{
	const char	*why;
	char		*body;
	size_t		 hlen, blen;
	int		 n, rc;

	for (n = 0; n < BROKER_FRAMES_PER_TURN && !c->closing; n++) {
		if ((rc = broker_header(c, &hlen, &blen, &why)) == -1) {
			broker_drop(c, -32700, why);
			return (0);
		}
		if (rc == 0 || evbuffer_get_length(c->in) < hlen + blen)
			break;
		evbuffer_drain(c->in, hlen);
		if ((body = malloc(blen + 1)) == NULL)
			fatal("%s", __func__);
		evbuffer_remove(c->in, body, blen);
		body[blen] = '\0';
		rpc_handle(c, body, blen);
		freezero(body, blen + 1);
		if (evbuffer_get_length(c->out) >= BROKER_OUT_HIGH)
			return (0);
	}
	return (n == BROKER_FRAMES_PER_TURN && !c->closing);
}

/* A frame begun must be whole within BROKER_FRAME_TIMEOUT. */
static void
broker_frame_clock(struct bconn *c)
{
	struct timeval	 tv = { BROKER_FRAME_TIMEOUT, 0 };

	if (c->closing)
		return;
	if (evbuffer_get_length(c->in) == 0)
		event_del(&c->ev_frame);
	else if (!evtimer_pending(&c->ev_frame, NULL))
		evtimer_add(&c->ev_frame, &tv);
}

static void
broker_process(struct bconn *c)
{
	struct timeval	 now = { 0, 0 };
	size_t		 before = evbuffer_get_length(c->in);

	if (broker_frames(c))
		evtimer_add(&c->ev_more, &now);
	/* Progress restarts the clock; the next frame gets its own. */
	if (evbuffer_get_length(c->in) != before)
		event_del(&c->ev_frame);
	broker_frame_clock(c);
	broker_pace(c);
}

/* evbuffer_read(3), but fds that come along are discarded. */
static int
broker_recv(struct bconn *c, int fd)
{
	struct evbuffer_iovec	 v;
	ssize_t			 n;
	size_t			 nfds;

	if (evbuffer_reserve_space(c->in, BROKER_FRAME_MAX, &v, 1) < 1)
		fatal("%s", __func__);
	n = fdguard_recv(fd, v.iov_base, BROKER_FRAME_MAX, &nfds);
	v.iov_len = n > 0 ? (size_t)n : 0;
	evbuffer_commit_space(c->in, &v, 1);
	if (nfds > 0) {
		log_warnx("sandbox %s: broker client sent %zu file "
		    "descriptors; discarded", c->sb->id, nfds);
		broker_drop(c, -32600, "file descriptors are not accepted");
		return (1);
	}
	return (n);
}

static void
broker_read(int fd, short event, void *arg)
{
	struct bconn	*c = arg;
	int		 n;

	n = broker_recv(c, fd);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		broker_conn_free(c);
		return;
	}
	if (c->closing)
		return;
	/* Never hold more than one frame and its header. */
	if (evbuffer_get_length(c->in) > BROKER_FRAME_MAX +
	    BROKER_HEADER_MAX + 4) {
		broker_process(c);
		if (!c->closing && evbuffer_get_length(c->in) >
		    BROKER_FRAME_MAX + BROKER_HEADER_MAX + 4) {
			/* Whole frames are waiting: stop until they are done. */
			event_del(&c->ev_read);
			c->reading = 0;
		}
		return;
	}
	broker_process(c);
}

static void
broker_more(int fd, short event, void *arg)
{
	struct bconn	*c = arg;

	broker_process(c);
	if (!c->closing && !c->reading && evbuffer_get_length(c->in) <=
	    BROKER_FRAME_MAX + BROKER_HEADER_MAX + 4 &&
	    evbuffer_get_length(c->out) < BROKER_OUT_HIGH) {
		event_add(&c->ev_read, NULL);
		c->reading = 1;
	}
}

static void
broker_frame_timeout(int fd, short event, void *arg)
{
	broker_drop(arg, -32600, "frame not complete within 60 seconds");
}

static void
broker_write(int fd, short event, void *arg)
{
	struct bconn	*c = arg;
	int		 n;

	n = evbuffer_write(c->out, fd);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n == -1) {
		broker_conn_free(c);
		return;
	}
	/* It reads: the stall clock starts over. */
	if (n > 0 && !c->closing)
		evtimer_del(&c->ev_stall);
	if (evbuffer_get_length(c->out) == 0) {
		event_del(&c->ev_write);
		if (c->closing) {
			broker_conn_free(c);
			return;
		}
	}
	broker_pace(c);
	/* Reading resumed: frames already held go first. */
	if (c->reading && evbuffer_get_length(c->in) > 0)
		broker_more(-1, 0, c);
}

static void
broker_accept(int fd, short event, void *arg)
{
	struct esandbox	*sb = arg;
	int		 s;

	if ((s = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) ==
	    -1) {
		if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED)
			log_warn("%s: sandbox %s", __func__, sb->id);
		return;
	}
	if (sb->nconns >= BROKER_CONNS_MAX) {
		log_warnx("sandbox %s: more than %d broker clients; refused",
		    sb->id, BROKER_CONNS_MAX);
		close(s);
		return;
	}
	broker_conn_new(sb, s, 0);
}

void
broker_listen(struct esandbox *sb, int fd)
{
	if (sb->listen_fd != -1) {
		event_del(&sb->ev_listen);
		close(sb->listen_fd);
	}
	sb->listen_fd = fd;
	if (fcntl(fd, F_SETFL, O_NONBLOCK) == -1)
		log_warn("%s: sandbox %s", __func__, sb->id);
	/* Inherited by every connection, those not yet accepted too. */
	broker_refuse_fds(sb, fd);
	event_set(&sb->ev_listen, fd, EV_READ | EV_PERSIST, broker_accept,
	    sb);
	event_add(&sb->ev_listen, NULL);
}

void
broker_sandbox_free(struct esandbox *sb)
{
	struct bconn	*c;
	struct exposed	*x;

	while ((c = TAILQ_FIRST(&sb->conns)) != NULL)
		broker_conn_free(c);
	while ((x = TAILQ_FIRST(&sb->exposed)) != NULL) {
		TAILQ_REMOVE(&sb->exposed, x, entry);
		free(x);
	}
	if (sb->listen_fd != -1) {
		event_del(&sb->ev_listen);
		close(sb->listen_fd);
	}
	free(sb);
}

/* The first step of the abort sequence, on every channel it has. */
void
broker_abort(struct esandbox *sb, const struct env_abort *m)
{
	struct bconn	*c;
	char		 body[256];
	int		 n;

	n = snprintf(body, sizeof(body), "{\"jsonrpc\":\"2.0\",\"method\":"
	    "\"abort\",\"params\":{\"reason\":\"%s\",\"grace_ms\":%u,"
	    "\"exec\":%u}}", m->reason == SBX_REASON_TIMEOUT ? "timeout" :
	    "killed", m->grace_ms, m->exec_id);
	TAILQ_FOREACH(c, &sb->conns, entry)
		broker_send(c, body, n);
	log_info("sandbox %s exec %u: abort sent on %d broker channel(s)",
	    sb->id, m->exec_id, sb->nconns);
}
