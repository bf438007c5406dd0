/*
 * libFuzzer target for the imsg reader.  The first two input bytes pick
 * the reader's maxsize and the next one the chunk size; the rest is
 * written into a socketpair in chunks, with imsg_read/imsg_get/imsg_free
 * run after each chunk and after EOF until the stream is exhausted.
 * Every message read is checked against the message table as each
 * program would take it from each other (lib/msgtab.c).
 */

#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "imsg.h"
#include "msgtab.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct imsgbuf	 ibuf;

/* As every program would take it from every other. */
static void
check(const struct imsg *imsg)
{
	const struct msg_row	*r;
	unsigned int		 self, peer;
	volatile unsigned char	 sum = 0;
	const unsigned char	*p;
	char			 err[160];
	size_t			 i;

	for (self = MSG_CTL; self <= MSG_DNSPIND; self <<= 1)
		for (peer = MSG_CTL; peer <= MSG_DNSPIND; peer <<= 1) {
			if (imsg_check(self, peer, imsg, err,
			    sizeof(err)) == -1) {
				if (err[0] == '\0')
					abort();	/* a reason, always */
				continue;
			}
			r = msg_row(imsg->hdr.type);
			if (r == NULL || imsg->datalen < r->min ||
			    imsg->datalen > r->max)
				abort();
			p = imsg_payload(imsg, r->min, __func__);
			for (i = 0; i < imsg->datalen; i++)
				sum += p[i];
		}
	(void)sum;
}

/* Take every complete message; -1 once the stream is malformed. */
static int
drain(void)
{
	struct imsg	 imsg;
	unsigned char	 buf[8];
	int		 fd, r;

	while ((r = imsg_get(&ibuf, &imsg)) == 1) {
		(void)imsg_get_type(&imsg);
		(void)imsg_get_peerid(&imsg);
		(void)imsg_get_pid(&imsg);
		if (imsg_get_len(&imsg) <= sizeof(buf))
			(void)imsg_get_data(&imsg, buf, imsg_get_len(&imsg));
		(void)imsg_get_data(&imsg, buf, sizeof(buf));
		check(&imsg);
		if ((fd = imsg_get_fd(&imsg)) != -1)
			close(fd);
		imsg_free(&imsg);
	}
	return (r);
}

/* Read all there is now (nonblocking); -1 on a malformed stream. */
static int
pump(void)
{
	ssize_t	 n;

	for (;;) {
		if ((n = imsg_read(&ibuf)) == -1)
			return (errno == EAGAIN || errno == EINTR ? 0 : -1);
		if (drain() == -1)
			return (-1);
		if (n == 0)
			return (0);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t	 chunk, off, len;
	int	 sv[2];

	if (size < 3)
		return (0);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) == -1)
		abort();
	imsg_init(&ibuf, sv[1]);
	imsg_allow_fdpass(&ibuf);
	(void)imsg_set_maxsize(&ibuf, (size_t)data[0] << 8 | data[1]);
	chunk = data[2] + 1;
	data += 3;
	size -= 3;

	for (off = 0; off < size; off += len) {
		len = size - off < chunk ? size - off : chunk;
		if (write(sv[0], data + off, len) != (ssize_t)len)
			abort();
		if (pump() == -1)
			goto done;
	}
	close(sv[0]);
	sv[0] = -1;
	(void)pump();
	if (imsg_pending(&ibuf) > sizeof(ibuf.r.buf))
		abort();
 done:
	imsg_clear(&ibuf);
	if (sv[0] != -1)
		close(sv[0]);
	close(sv[1]);
	return (0);
}
