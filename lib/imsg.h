/*
 * imsg: framed messages with optional fd passing over a stream socket.
 * The interface follows OpenBSD's imsg(3); the code is our own.
 */
#ifndef SANDBOXD_IMSG_H
#define SANDBOXD_IMSG_H

#include <sys/types.h>
#include <sys/queue.h>
#include <stddef.h>
#include <stdint.h>

#define IBUF_READ_SIZE		65535
#define MAX_IMSGSIZE		16384	/* header included */
#define IMSG_HEADER_SIZE	sizeof(struct imsg_hdr)

#define IMSGF_HASFD		0x0001

/* The log level (-vv) at which every message is logged (imsg.c). */
#define IMSG_TRACE_VERBOSE	2

struct imsg_hdr {
	uint32_t	type;
	uint16_t	len;		/* header + payload */
	uint16_t	flags;
	uint32_t	peerid;
	uint32_t	pid;
};

struct ibuf {
	TAILQ_ENTRY(ibuf)	 entry;
	unsigned char		*buf;
	size_t			 size;	/* allocated */
	size_t			 max;	/* may grow up to */
	size_t			 wpos;
	size_t			 rpos;
	int			 fd;	/* passed along with the first byte */
};

struct msgbuf {
	TAILQ_HEAD(, ibuf)	 bufs;
	uint32_t		 queued;
	size_t			 qbytes;	/* not yet written */
	uint64_t		 written;	/* ever written */
};

struct ibuf_read {
	unsigned char		 buf[IBUF_READ_SIZE];
	size_t			 wpos;	/* bytes held */
};

struct imsg_fd {
	TAILQ_ENTRY(imsg_fd)	 entry;
	int			 fd;
};

struct imsgbuf {
	TAILQ_HEAD(, imsg_fd)	 fds;		/* received, not yet claimed */
	struct ibuf_read	 r;
	struct msgbuf		 w;
	int			 fd;
	pid_t			 pid;
	int			 allow_fdpass;
	int			 fds_refused;	/* fds came while not allowed */
	size_t			 maxsize;	/* header included */
};

struct imsg {
	struct imsg_hdr		 hdr;
	int			 fd;		/* -1 if none */
	void			*data;		/* NULL if no payload */
	size_t			 datalen;
};

/* Setup and teardown. */
void	 imsg_init(struct imsgbuf *, int);
void	 imsg_allow_fdpass(struct imsgbuf *);
int	 imsg_set_maxsize(struct imsgbuf *, size_t);
void	 imsg_clear(struct imsgbuf *);	/* frees queues, closes held fds */

/*
 * imsg_read: one recvmsg(2).  Returns bytes read, 0 on EOF, -1 on error
 * (errno; EAGAIN/EINTR mean "try again").  An fd that arrives while fd
 * passing is not allowed is closed and the read fails with EBADMSG.
 */
ssize_t	 imsg_read(struct imsgbuf *);
/* Bytes of an incomplete message held after the last imsg_get(). */
size_t	 imsg_pending(const struct imsgbuf *);
/* fds received and not yet claimed by a message flagged IMSGF_HASFD. */
size_t	 imsg_fds_held(const struct imsgbuf *);
/* Bytes composed and not yet written. */
size_t	 imsg_queued_bytes(const struct imsgbuf *);
uint64_t imsg_written_bytes(const struct imsgbuf *);
/* Drop the messages not begun on the wire; returns the bytes dropped. */
size_t	 imsg_discard_unsent(struct imsgbuf *);

/*
 * imsg_get: 1 if a whole message was taken into imsg (free it with
 * imsg_free), 0 if none is complete yet, -1 on a malformed stream:
 * ERANGE for a length above maxsize, EBADMSG for a length below the
 * header size or an fd that was announced but never arrived.
 */
int	 imsg_get(struct imsgbuf *, struct imsg *);
void	 imsg_free(struct imsg *);

/* Exact-length payload access: -1 with EBADMSG unless len matches. */
int	 imsg_get_data(const struct imsg *, void *, size_t);
size_t	 imsg_get_len(const struct imsg *);
uint32_t imsg_get_type(const struct imsg *);
uint32_t imsg_get_peerid(const struct imsg *);
pid_t	 imsg_get_pid(const struct imsg *);
int	 imsg_get_fd(struct imsg *);	/* caller owns the fd; -1 if none */

/*
 * Queue a message.  fd (-1 for none) is sent with it and closed once
 * written.  Returns 0, or -1 with ERANGE when it would exceed maxsize
 * (the fd is closed then too) or ENOMEM.
 */
int	 imsg_compose(struct imsgbuf *, uint32_t, uint32_t, pid_t, int,
	    const void *, size_t);
/* Build a message piecewise: create, add..., close. */
struct ibuf *imsg_create(struct imsgbuf *, uint32_t, uint32_t, pid_t,
	    size_t);
int	 imsg_add(struct ibuf *, const void *, size_t);
void	 imsg_close(struct imsgbuf *, struct ibuf *);
void	 ibuf_free(struct ibuf *);

/*
 * imsg_write: write what the socket takes now.  0 when all or part was
 * written or the socket would block, -1 on error (EPIPE if the peer is
 * gone).  imsg_flush writes until the queue is empty (blocking fds).
 */
int	 imsg_write(struct imsgbuf *);
int	 imsg_flush(struct imsgbuf *);
uint32_t imsg_queued(const struct imsgbuf *);

#endif
