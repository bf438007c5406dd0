/*
 * One exchange with one upstream, with a random id: over UDP a datagram
 * out from a socket of the pool (upsock.c) and what comes back to it
 * from that upstream with that id (the caller checks the question),
 * over TCP a connection of its own, the query framed (RFC 7766) and one
 * framed answer read back.  The caller keeps the time; a TCP exchange
 * that fails reports so at once, with a NULL message.
 */
#include <sys/socket.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dnspind.h"
#include "log.h"

void
upx_stop(struct upx *x)
{
	upsock_detach(x);
	if (x->fd == -1)
		return;
	event_del(&x->ev);
	close(x->fd);
	x->fd = -1;
	free(x->out);
	x->out = NULL;
	free(x->in);
	x->in = NULL;
}

/* The exchange is over, badly: the caller moves on. */
static void
upx_fail(struct upx *x, const char *why)
{
	log_debug("%s: upstream over TCP: %s", __func__, why);
	upx_stop(x);
	x->done(x->arg, NULL, 0);
}

static void
upx_tcp_read(int fd, short event, void *arg)
{
	struct upx	*x = arg;
	uint8_t		*msg;
	size_t		 len;
	ssize_t		 n;

	if ((n = read(fd, x->in + x->have, x->want - x->have)) <= 0) {
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			return;
		upx_fail(x, n == 0 ? "closed early" : strerror(errno));
		return;
	}
	if ((x->have += n) < x->want)
		return;
	if (x->want == 2) {
		if ((len = (size_t)x->in[0] << 8 | x->in[1]) < DNS_HDR_LEN) {
			upx_fail(x, "answer shorter than a header");
			return;
		}
		if ((msg = realloc(x->in, 2 + len)) == NULL)
			fatal("%s", __func__);
		x->in = msg;
		x->want = 2 + len;
		return;
	}
	/* The answer whole: the connection is done with either way. */
	msg = x->in;
	len = x->want - 2;
	x->in = NULL;
	upx_stop(x);
	x->done(x->arg, msg + 2, len);	/* may free x */
	free(msg);
}

static void
upx_tcp_write(int fd, short event, void *arg)
{
	struct upx	*x = arg;
	ssize_t		 n;

	if ((n = send(fd, x->out + x->outoff, x->outlen - x->outoff,
	    MSG_NOSIGNAL)) == -1) {
		if (errno != EAGAIN && errno != EINTR)
			upx_fail(x, strerror(errno));
		return;
	}
	if ((x->outoff += n) < x->outlen)
		return;
	free(x->out);
	x->out = NULL;
	if ((x->in = malloc(2)) == NULL)
		fatal("%s", __func__);
	x->have = 0;
	x->want = 2;
	event_del(&x->ev);
	event_set(&x->ev, fd, EV_READ | EV_PERSIST, upx_tcp_read, x);
	event_add(&x->ev, NULL);
}

/*
 * Send msg to ss over UDP or TCP with a fresh random id (written into
 * msg, and kept in x->id); done(arg, answer, len) for each datagram
 * back from ss with that id, or once for the TCP answer (NULL if there
 * is none).  -1 if it could not even start.
 */
int
upx_start(struct upx *x, const struct sockaddr_storage *ss, socklen_t sslen,
    int tcp, uint8_t *msg, size_t len, upx_fn done, void *arg)
{
	upx_stop(x);
	memset(x, 0, sizeof(*x));
	x->fd = -1;
	x->done = done;
	x->arg = arg;
	if (!tcp)
		return (upsock_send(x, ss, sslen, msg, len));
	x->id = arc4random_uniform(65536);
	dns_set_id(msg, len, x->id);
	if ((x->fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0)) == -1) {
		log_warn("%s: socket", __func__);
		return (-1);
	}
	if (connect(x->fd, (const struct sockaddr *)ss, sslen) == -1 &&
	    errno != EINPROGRESS)
		goto fail;
	if ((x->out = malloc(2 + len)) == NULL)
		fatal("%s", __func__);
	x->out[0] = len >> 8;
	x->out[1] = len & 0xff;
	memcpy(x->out + 2, msg, len);
	x->outlen = 2 + len;
	/* Writable once connected; a failed connect shows in the send. */
	event_set(&x->ev, x->fd, EV_WRITE | EV_PERSIST, upx_tcp_write, x);
	event_add(&x->ev, NULL);
	return (0);
fail:
	log_debug("%s: %s", __func__, strerror(errno));
	close(x->fd);
	x->fd = -1;
	return (-1);
}
