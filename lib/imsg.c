/*
 * imsg: framed messages with optional fd passing over a stream socket.
 *
 * Wire format: a struct imsg_hdr in host byte order followed by
 * hdr.len - IMSG_HEADER_SIZE bytes of payload.  An fd travels as
 * SCM_RIGHTS on the sendmsg(2) that carries the first byte of its
 * message, one fd per sendmsg(2); the receiver queues fds in arrival
 * order and hands each to the next message flagged IMSGF_HASFD.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdguard.h"
#include "imsg.h"
#include "log.h"

#define IMSG_MAXSIZE_LIMIT	65535	/* hdr.len is 16 bits */
#define IMSG_FDS_MAX		64	/* received fds not yet claimed */
#define IMSG_IOV_MAX		128	/* ibufs per sendmsg(2) */

union imsg_cmsgbuf {
	struct cmsghdr	hdr;
	unsigned char	buf[CMSG_SPACE(sizeof(int))];
};

/* Room for all a peer can send at once: what does not fit, the kernel
 * closes in our task, where a lingering socket would block us. */
union imsg_cmsgbuf_recv {
	struct cmsghdr	hdr;
	unsigned char	buf[FDGUARD_CMSG_SPACE];
};

static void		 closefd(int);
static struct ibuf	*ibuf_open(size_t, size_t);
static int		 ibuf_grow(struct ibuf *, size_t);
static int		 imsg_enqueue_fd(struct imsgbuf *, int);
static int		 imsg_dequeue_fd(struct imsgbuf *);
static int		 imsg_recv_fds(struct imsgbuf *, struct msghdr *);
static void		 imsg_consume(struct imsgbuf *, size_t);
static void		 imsg_trace(const char *, int, const struct imsg_hdr *);

/* close(2) without disturbing errno, for error paths. */
static void
closefd(int fd)
{
	int	 saved_errno = errno;

	if (fd != -1)
		close(fd);
	errno = saved_errno;
}

/*
 * At verbose level IMSG_TRACE_VERBOSE (sandboxd -vv) every process logs
 * each message it queues on a channel (">") and each it takes from one
 * ("<"), with the channel's fd: lib/README walks a run with it.  Off,
 * it costs one comparison per message.
 */
static void
imsg_trace(const char *dir, int fd, const struct imsg_hdr *hdr)
{
	log_debug("imsg %s fd %d type %u len %u peerid %u%s", dir, fd,
	    hdr->type, hdr->len, hdr->peerid,
	    (hdr->flags & IMSGF_HASFD) ? " fd-passed" : "");
}

void
imsg_init(struct imsgbuf *ibuf, int fd)
{
	TAILQ_INIT(&ibuf->fds);
	TAILQ_INIT(&ibuf->w.bufs);
	ibuf->w.queued = 0;
	ibuf->w.qbytes = 0;
	ibuf->w.written = 0;
	ibuf->r.wpos = 0;
	ibuf->fd = fd;
	ibuf->pid = getpid();
	ibuf->allow_fdpass = 0;
	ibuf->fds_refused = 0;
	ibuf->maxsize = MAX_IMSGSIZE;
}

void
imsg_allow_fdpass(struct imsgbuf *ibuf)
{
	ibuf->allow_fdpass = 1;
}

int
imsg_set_maxsize(struct imsgbuf *ibuf, size_t max)
{
	if (max < IMSG_HEADER_SIZE || max > IMSG_MAXSIZE_LIMIT) {
		errno = EINVAL;
		return (-1);
	}
	ibuf->maxsize = max;
	return (0);
}

void
imsg_clear(struct imsgbuf *ibuf)
{
	struct ibuf	*b;
	int		 fd;

	while ((b = TAILQ_FIRST(&ibuf->w.bufs)) != NULL) {
		TAILQ_REMOVE(&ibuf->w.bufs, b, entry);
		ibuf_free(b);
	}
	ibuf->w.queued = 0;
	ibuf->w.qbytes = 0;
	ibuf->w.written = 0;
	while ((fd = imsg_dequeue_fd(ibuf)) != -1)
		fdguard_discard(fd);
	ibuf->r.wpos = 0;
}

/*
 * Reading.
 */

static int
imsg_enqueue_fd(struct imsgbuf *ibuf, int fd)
{
	struct imsg_fd	*ifd;
	int		 n = 0;

	TAILQ_FOREACH(ifd, &ibuf->fds, entry)
		n++;
	if (n >= IMSG_FDS_MAX) {
		errno = EBADMSG;
		return (-1);
	}
	if ((ifd = malloc(sizeof(*ifd))) == NULL)
		return (-1);
	ifd->fd = fd;
	TAILQ_INSERT_TAIL(&ibuf->fds, ifd, entry);
	return (0);
}

static int
imsg_dequeue_fd(struct imsgbuf *ibuf)
{
	struct imsg_fd	*ifd;
	int		 fd;

	if ((ifd = TAILQ_FIRST(&ibuf->fds)) == NULL)
		return (-1);
	fd = ifd->fd;
	TAILQ_REMOVE(&ibuf->fds, ifd, entry);
	free(ifd);
	return (fd);
}

/*
 * Queue the fds recvmsg(2) delivered, or close them all if fd passing
 * is off, the control data was truncated or the queue is full.
 */
static int
imsg_recv_fds(struct imsgbuf *ibuf, struct msghdr *msg)
{
	struct cmsghdr	*cm;
	size_t		 i, nfds;
	int		 fd, error = 0;

	if (msg->msg_flags & MSG_CTRUNC)
		error = EBADMSG;
	for (cm = CMSG_FIRSTHDR(msg); cm != NULL; cm = CMSG_NXTHDR(msg, cm)) {
		if (cm->cmsg_level != SOL_SOCKET ||
		    cm->cmsg_type != SCM_RIGHTS ||
		    cm->cmsg_len < CMSG_LEN(0))
			continue;
		nfds = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < nfds; i++) {
			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int),
			    sizeof(fd));
			if (error == 0 && !ibuf->allow_fdpass) {
				ibuf->fds_refused = 1;
				error = EBADMSG;
			}
			if (error == 0 && imsg_enqueue_fd(ibuf, fd) == 0)
				continue;
			if (error == 0)
				error = errno;
			fdguard_discard(fd);
		}
	}
	if (error != 0) {
		errno = error;
		return (-1);
	}
	return (0);
}

ssize_t
imsg_read(struct imsgbuf *ibuf)
{
	union imsg_cmsgbuf_recv	 cmsgbuf;
	struct msghdr		 msg;
	struct iovec		 iov;
	ssize_t			 n;

	if (ibuf->r.wpos >= sizeof(ibuf->r.buf)) {
		errno = ENOBUFS;
		return (-1);
	}
	memset(&msg, 0, sizeof(msg));
	memset(&cmsgbuf, 0, sizeof(cmsgbuf));
	iov.iov_base = ibuf->r.buf + ibuf->r.wpos;
	iov.iov_len = sizeof(ibuf->r.buf) - ibuf->r.wpos;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cmsgbuf.buf;
	msg.msg_controllen = sizeof(cmsgbuf.buf);

	if ((n = recvmsg(ibuf->fd, &msg, MSG_CMSG_CLOEXEC)) == -1)
		return (-1);
	ibuf->r.wpos += n;
	if (imsg_recv_fds(ibuf, &msg) == -1)
		return (-1);
	return (n);
}

size_t
imsg_pending(const struct imsgbuf *ibuf)
{
	return (ibuf->r.wpos);
}

size_t
imsg_queued_bytes(const struct imsgbuf *ibuf)
{
	return (ibuf->w.qbytes);
}

uint64_t
imsg_written_bytes(const struct imsgbuf *ibuf)
{
	return (ibuf->w.written);
}

size_t
imsg_fds_held(const struct imsgbuf *ibuf)
{
	struct imsg_fd	*ifd;
	size_t		 n = 0;

	TAILQ_FOREACH(ifd, &ibuf->fds, entry)
		n++;
	return (n);
}

int
imsg_get(struct imsgbuf *ibuf, struct imsg *imsg)
{
	struct imsg_hdr	 hdr;
	void		*data = NULL;
	size_t		 datalen;
	int		 fd = -1;

	if (ibuf->r.wpos < IMSG_HEADER_SIZE)
		return (0);
	memcpy(&hdr, ibuf->r.buf, sizeof(hdr));
	if (hdr.len < IMSG_HEADER_SIZE) {
		errno = EBADMSG;
		return (-1);
	}
	if (hdr.len > ibuf->maxsize) {
		errno = ERANGE;
		return (-1);
	}
	if (hdr.len > ibuf->r.wpos)
		return (0);

	datalen = hdr.len - IMSG_HEADER_SIZE;
	if (datalen > 0 && (data = malloc(datalen)) == NULL)
		return (-1);
	if ((hdr.flags & IMSGF_HASFD) &&
	    (fd = imsg_dequeue_fd(ibuf)) == -1) {
		free(data);
		errno = EBADMSG;
		return (-1);
	}
	if (datalen > 0)
		memcpy(data, ibuf->r.buf + IMSG_HEADER_SIZE, datalen);

	if (log_getverbose() >= IMSG_TRACE_VERBOSE)
		imsg_trace("<", ibuf->fd, &hdr);
	imsg->hdr = hdr;
	imsg->fd = fd;
	imsg->data = data;
	imsg->datalen = datalen;

	ibuf->r.wpos -= hdr.len;
	memmove(ibuf->r.buf, ibuf->r.buf + hdr.len, ibuf->r.wpos);
	return (1);
}

/* Frees the payload and closes an fd not taken with imsg_get_fd(). */
void
imsg_free(struct imsg *imsg)
{
	free(imsg->data);
	imsg->data = NULL;
	imsg->datalen = 0;
	closefd(imsg->fd);
	imsg->fd = -1;
}

int
imsg_get_data(const struct imsg *imsg, void *buf, size_t len)
{
	if (len != imsg->datalen) {
		errno = EBADMSG;
		return (-1);
	}
	if (len > 0)
		memcpy(buf, imsg->data, len);
	return (0);
}

size_t
imsg_get_len(const struct imsg *imsg)
{
	return (imsg->datalen);
}

uint32_t
imsg_get_type(const struct imsg *imsg)
{
	return (imsg->hdr.type);
}

uint32_t
imsg_get_peerid(const struct imsg *imsg)
{
	return (imsg->hdr.peerid);
}

pid_t
imsg_get_pid(const struct imsg *imsg)
{
	return ((pid_t)imsg->hdr.pid);
}

int
imsg_get_fd(struct imsg *imsg)
{
	int	 fd = imsg->fd;

	imsg->fd = -1;
	return (fd);
}

/*
 * Composing.
 */

static struct ibuf *
ibuf_open(size_t size, size_t max)
{
	struct ibuf	*b;

	if ((b = calloc(1, sizeof(*b))) == NULL)
		return (NULL);
	if ((b->buf = malloc(size)) == NULL) {
		free(b);
		return (NULL);
	}
	b->size = size;
	b->max = max;
	b->fd = -1;
	return (b);
}

static int
ibuf_grow(struct ibuf *b, size_t need)
{
	unsigned char	*p;
	size_t		 size = b->size;

	while (size < need)
		size = size * 2 < b->max ? size * 2 : b->max;
	if ((p = realloc(b->buf, size)) == NULL)
		return (-1);
	b->buf = p;
	b->size = size;
	return (0);
}

void
ibuf_free(struct ibuf *b)
{
	if (b == NULL)
		return;
	closefd(b->fd);
	free(b->buf);
	free(b);
}

struct ibuf *
imsg_create(struct imsgbuf *ibuf, uint32_t type, uint32_t peerid, pid_t pid,
    size_t datalen)
{
	struct imsg_hdr	 hdr;
	struct ibuf	*b;

	if (datalen > ibuf->maxsize - IMSG_HEADER_SIZE) {
		errno = ERANGE;
		return (NULL);
	}
	if ((b = ibuf_open(IMSG_HEADER_SIZE + datalen, ibuf->maxsize)) == NULL)
		return (NULL);
	memset(&hdr, 0, sizeof(hdr));
	hdr.type = type;
	hdr.peerid = peerid;
	hdr.pid = pid != 0 ? (uint32_t)pid : (uint32_t)ibuf->pid;
	memcpy(b->buf, &hdr, sizeof(hdr));
	b->wpos = sizeof(hdr);
	return (b);
}

/* On failure the ibuf is freed, as it is unusable. */
int
imsg_add(struct ibuf *b, const void *data, size_t len)
{
	if (b == NULL)
		return (-1);
	if (len > b->max - b->wpos) {
		ibuf_free(b);
		errno = ERANGE;
		return (-1);
	}
	if (b->wpos + len > b->size && ibuf_grow(b, b->wpos + len) == -1) {
		ibuf_free(b);
		return (-1);
	}
	if (len > 0)
		memcpy(b->buf + b->wpos, data, len);
	b->wpos += len;
	return ((int)len);
}

void
imsg_close(struct imsgbuf *ibuf, struct ibuf *b)
{
	struct imsg_hdr	 hdr;

	if (b == NULL)
		return;
	memcpy(&hdr, b->buf, sizeof(hdr));
	hdr.len = (uint16_t)b->wpos;
	hdr.flags = b->fd != -1 ? IMSGF_HASFD : 0;
	memcpy(b->buf, &hdr, sizeof(hdr));
	if (log_getverbose() >= IMSG_TRACE_VERBOSE)
		imsg_trace(">", ibuf->fd, &hdr);
	b->rpos = 0;
	TAILQ_INSERT_TAIL(&ibuf->w.bufs, b, entry);
	ibuf->w.queued++;
	ibuf->w.qbytes += b->wpos;
}

int
imsg_compose(struct imsgbuf *ibuf, uint32_t type, uint32_t peerid, pid_t pid,
    int fd, const void *data, size_t datalen)
{
	struct ibuf	*b;

	if (fd < 0)
		fd = -1;
	if ((b = imsg_create(ibuf, type, peerid, pid, datalen)) == NULL ||
	    imsg_add(b, data, datalen) == -1) {
		closefd(fd);
		return (-1);
	}
	b->fd = fd;
	imsg_close(ibuf, b);
	return (0);
}

/*
 * Drop every queued message that nothing of has been written; a message
 * written in part stays, so the stream stays framed.  Returns the bytes
 * dropped.
 */
size_t
imsg_discard_unsent(struct imsgbuf *ibuf)
{
	struct ibuf	*b, *next;
	size_t		 n = 0;

	for (b = TAILQ_FIRST(&ibuf->w.bufs); b != NULL; b = next) {
		next = TAILQ_NEXT(b, entry);
		if (b->rpos != 0)
			continue;
		TAILQ_REMOVE(&ibuf->w.bufs, b, entry);
		ibuf->w.queued--;
		ibuf->w.qbytes -= b->wpos;
		n += b->wpos;
		ibuf_free(b);
	}
	return (n);
}

/*
 * Writing.
 */

/* Drop len written bytes from the queue; an fd is gone with its 1st byte. */
static void
imsg_consume(struct imsgbuf *ibuf, size_t len)
{
	struct ibuf	*b;
	size_t		 left;

	while (len > 0 && (b = TAILQ_FIRST(&ibuf->w.bufs)) != NULL) {
		if (b->fd != -1) {
			close(b->fd);
			b->fd = -1;
		}
		left = b->wpos - b->rpos;
		if (len < left) {
			b->rpos += len;
			ibuf->w.qbytes -= len;
			ibuf->w.written += len;
			return;
		}
		len -= left;
		ibuf->w.qbytes -= left;
		ibuf->w.written += left;
		TAILQ_REMOVE(&ibuf->w.bufs, b, entry);
		ibuf->w.queued--;
		ibuf_free(b);
	}
}

/*
 * One sendmsg(2) of as many queued ibufs as fit, stopping before any
 * ibuf that carries an fd unless it is first: its fd then goes along.
 */
int
imsg_write(struct imsgbuf *ibuf)
{
	struct iovec		 iov[IMSG_IOV_MAX];
	union imsg_cmsgbuf	 cmsgbuf;
	struct msghdr		 msg;
	struct cmsghdr		*cm;
	struct ibuf		*b, *first;
	size_t			 n = 0;
	ssize_t			 len;

	if ((first = TAILQ_FIRST(&ibuf->w.bufs)) == NULL)
		return (0);
	TAILQ_FOREACH(b, &ibuf->w.bufs, entry) {
		if (n == IMSG_IOV_MAX || (n > 0 && b->fd != -1))
			break;
		iov[n].iov_base = b->buf + b->rpos;
		iov[n].iov_len = b->wpos - b->rpos;
		n++;
		if (b->fd != -1)
			break;
	}
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = iov;
	msg.msg_iovlen = n;
	if (first->fd != -1) {
		memset(&cmsgbuf, 0, sizeof(cmsgbuf));
		msg.msg_control = cmsgbuf.buf;
		msg.msg_controllen = sizeof(cmsgbuf.buf);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &first->fd, sizeof(int));
	}

	if ((len = sendmsg(ibuf->fd, &msg, MSG_NOSIGNAL)) == -1) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return (0);
		return (-1);
	}
	imsg_consume(ibuf, len);
	return (0);
}

int
imsg_flush(struct imsgbuf *ibuf)
{
	struct pollfd	 pfd;

	pfd.fd = ibuf->fd;
	pfd.events = POLLOUT;
	while (ibuf->w.queued > 0) {
		if (imsg_write(ibuf) == -1)
			return (-1);
		if (ibuf->w.queued == 0)
			break;
		if (poll(&pfd, 1, -1) == -1 && errno != EINTR)
			return (-1);
	}
	return (0);
}

uint32_t
imsg_queued(const struct imsgbuf *ibuf)
{
	return (ibuf->w.queued);
}
