/*
 * Answers to sandboxes over UDP: kept and sent together with one
 * sendmmsg(2) at the end of the turn of the event loop (or when
 * UDPOUT_MAX wait), rather than a sendto(2) each: a turn under load
 * answers dozens.  The audit lines of the turn are logged first
 * (audit_flush), so that no answer leaves before what it made is
 * written down.
 */
#include <sys/socket.h>

#include <errno.h>
#include <event.h>
#include <string.h>

#include "dnspind.h"
#include "log.h"

#define UDPOUT_MAX	64	/* answers in one sendmmsg */
#define UDPOUT_LEN	4096	/* longer ones go alone, at once */

static struct mmsghdr		 msgs[UDPOUT_MAX];
static struct iovec		 iovs[UDPOUT_MAX];
static struct sockaddr_storage	 tos[UDPOUT_MAX];
static uint8_t			 bufs[UDPOUT_MAX][UDPOUT_LEN];
static size_t			 nout;
static int			 outfd = -1;
static struct turnend		 oflush = TURNEND_INITIALIZER(udpout_flush);

void
udpout_flush(void)
{
	size_t	 sent = 0;
	int	 r;

	if (nout == 0)
		return;
	audit_flush();
	while (sent < nout) {
		if ((r = sendmmsg(outfd, msgs + sent, nout - sent, 0)) == -1) {
			if (errno == EINTR)
				continue;
			/* This one cannot go (its client's problem): skip it. */
			log_debug("%s: sendmmsg: %s", __func__,
			    strerror(errno));
			sent++;
			continue;
		}
		sent += r;
	}
	nout = 0;
}

void
udpout_send(int fd, const struct sockaddr_storage *to, socklen_t tolen,
    const uint8_t *buf, size_t len)
{
	struct mmsghdr	*m;

	if (fd != outfd || nout == UDPOUT_MAX || len > UDPOUT_LEN)
		udpout_flush();
	if (len > UDPOUT_LEN) {
		audit_flush();
		if (sendto(fd, buf, len, 0, (const struct sockaddr *)to,
		    tolen) == -1)
			log_debug("%s: sendto: %s", __func__, strerror(errno));
		return;
	}
	outfd = fd;
	memcpy(bufs[nout], buf, len);
	memcpy(&tos[nout], to, tolen);
	iovs[nout].iov_base = bufs[nout];
	iovs[nout].iov_len = len;
	m = &msgs[nout++];
	memset(m, 0, sizeof(*m));
	m->msg_hdr.msg_name = &tos[nout - 1];
	m->msg_hdr.msg_namelen = tolen;
	m->msg_hdr.msg_iov = &iovs[nout - 1];
	m->msg_hdr.msg_iovlen = 1;
	turnend_arm(&oflush);
}
