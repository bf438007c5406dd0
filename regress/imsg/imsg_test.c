/*
 * Regression tests for lib/imsg.c over socketpair(AF_UNIX, SOCK_STREAM).
 * Prints TAP; exits non-zero if any test failed.
 */

#include <sys/types.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "imsg.h"

#include "../lib/check.h"

#define HDRSZ		IMSG_HEADER_SIZE
#define MAXDATA		(MAX_IMSGSIZE - HDRSZ)

static struct imsgbuf	 wa, ra;	/* writer on sv[0], reader on sv[1] */
static int		 sv[2] = { -1, -1 };
static unsigned char	 buf[65536];

static unsigned char
pattern(size_t i, size_t j)
{
	return ((unsigned char)(i * 131 + j * 7 + (j >> 8)));
}

static void
fill(size_t i, size_t len)
{
	size_t	 j;

	for (j = 0; j < len; j++)
		buf[j] = pattern(i, j);
}

static int
check_pattern(const struct imsg *m, size_t i, size_t len)
{
	const unsigned char	*p = m->data;
	size_t			 j;

	if (m->datalen != len || (len == 0) != (p == NULL))
		return (0);
	for (j = 0; j < len; j++)
		if (p[j] != pattern(i, j))
			return (0);
	return (1);
}

static int
fdvalid(int fd)
{
	return (fcntl(fd, F_GETFD) != -1);
}

/* A pipe whose read end was closed everywhere gives EPIPE on write. */
static int
pipe_orphaned(int wfd)
{
	void	(*old)(int);
	int	 r;

	old = signal(SIGPIPE, SIG_IGN);
	r = write(wfd, "x", 1) == -1 && errno == EPIPE;
	signal(SIGPIPE, old);
	return (r);
}

static void
setnb(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static int
rawhdr(int fd, uint32_t len, uint16_t flags, size_t send)
{
	struct imsg_hdr	 hdr;

	memset(&hdr, 0, sizeof(hdr));
	hdr.type = 1;
	hdr.len = (uint16_t)len;
	hdr.flags = flags;
	memcpy(buf, &hdr, sizeof(hdr));
	memset(buf + sizeof(hdr), 'z', sizeof(buf) - sizeof(hdr));
	return (write(fd, buf, send) == (ssize_t)send);
}

/* Raw sendmsg of a bare header with nfds fds in one SCM_RIGHTS cmsg. */
static int
rawsendfds(int sock, const int *fds, int nfds)
{
	union {
		struct cmsghdr	hdr;
		unsigned char	buf[CMSG_SPACE(4 * sizeof(int))];
	} cmsgbuf;
	struct imsg_hdr	 hdr;
	struct msghdr	 msg;
	struct cmsghdr	*cm;
	struct iovec	 iov;

	memset(&hdr, 0, sizeof(hdr));
	hdr.type = 2;
	hdr.len = HDRSZ;
	iov.iov_base = &hdr;
	iov.iov_len = sizeof(hdr);
	memset(&msg, 0, sizeof(msg));
	memset(&cmsgbuf, 0, sizeof(cmsgbuf));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cmsgbuf.buf;
	msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(nfds * sizeof(int));
	memcpy(CMSG_DATA(cm), fds, nfds * sizeof(int));
	return (sendmsg(sock, &msg, 0) == (ssize_t)sizeof(hdr));
}

static int
t_maxsize(void)
{
	struct imsg	 m;

	CHECK(imsg_set_maxsize(&wa, HDRSZ - 1) == -1 && errno == EINVAL);
	CHECK(imsg_set_maxsize(&wa, 65536) == -1 && errno == EINVAL);
	CHECK(wa.maxsize == MAX_IMSGSIZE);
	CHECK(imsg_set_maxsize(&wa, HDRSZ) == 0);
	CHECK(imsg_compose(&wa, 1, 0, 0, -1, buf, 1) == -1 && errno == ERANGE);
	CHECK(imsg_compose(&wa, 1, 0, 0, -1, NULL, 0) == 0);
	CHECK(imsg_set_maxsize(&wa, 65535) == 0);
	CHECK(imsg_set_maxsize(&ra, 65535) == 0);
	fill(9, 65535 - HDRSZ);
	CHECK(imsg_compose(&wa, 9, 0, 0, -1, buf, 65535 - HDRSZ) == 0);
	CHECK(imsg_flush(&wa) == 0);
	CHECK(imsg_read(&ra) > 0);
	CHECK(imsg_get(&ra, &m) == 1 && m.datalen == 0);
	imsg_free(&m);
	while (imsg_get(&ra, &m) == 0)
		CHECK(imsg_read(&ra) > 0);
	CHECK(m.hdr.len == 65535 && check_pattern(&m, 9, 65535 - HDRSZ));
	imsg_free(&m);
	return (1);
}

static int
roundtrip_writer(void)
{
	size_t	 i;

	for (i = 0; i <= MAXDATA; i++) {
		fill(i, i);
		if (imsg_compose(&wa, i, i ^ 0xa5a5a5a5, i + 1, -1, buf,
		    i) == -1)
			return (1);
		if ((i % 7 == 0 || i == MAXDATA) && imsg_flush(&wa) == -1)
			return (1);
	}
	return (0);
}

static int
t_roundtrip(void)
{
	struct imsg	 m;
	size_t		 i = 0;
	ssize_t		 n;
	pid_t		 pid;
	int		 r, status;

	fflush(stdout);
	if ((pid = fork()) == 0) {
		close(sv[1]);
		_exit(roundtrip_writer());
	}
	CHECK(pid != -1);
	close(sv[0]);
	sv[0] = -1;
	while (i <= MAXDATA) {
		n = imsg_read(&ra);
		CHECK(n > 0 || (n == -1 && errno == EINTR));
		while ((r = imsg_get(&ra, &m)) == 1) {
			CHECK(m.hdr.type == i);
			CHECK(m.hdr.peerid == (i ^ 0xa5a5a5a5));
			CHECK(imsg_get_pid(&m) == (pid_t)i + 1);
			CHECK(m.hdr.len == HDRSZ + i && imsg_get_len(&m) == i);
			CHECK(m.fd == -1 && m.hdr.flags == 0);
			CHECK(check_pattern(&m, i, i));
			imsg_free(&m);
			i++;
		}
		CHECK(r == 0);
	}
	CHECK(imsg_read(&ra) == 0 && imsg_pending(&ra) == 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return (1);
}

static int
t_compose_oversize(void)
{
	struct ibuf	*b;
	int		 p[2];

	CHECK(imsg_compose(&wa, 1, 0, 0, -1, buf, MAXDATA + 1) == -1);
	CHECK(errno == ERANGE && imsg_queued(&wa) == 0);
	CHECK(pipe(p) == 0);
	CHECK(imsg_compose(&wa, 1, 0, 0, p[0], buf, MAXDATA + 1) == -1);
	CHECK(errno == ERANGE && !fdvalid(p[0]));
	CHECK(pipe_orphaned(p[1]));
	close(p[1]);
	CHECK(imsg_create(&wa, 1, 0, 0, MAXDATA + 1) == NULL);
	CHECK(errno == ERANGE);
	CHECK((b = imsg_create(&wa, 1, 0, 0, 10)) != NULL);
	CHECK(imsg_add(b, buf, MAXDATA) == MAXDATA);	/* grows */
	CHECK(imsg_add(b, buf, 1) == -1 && errno == ERANGE);	/* freed */
	CHECK(imsg_add(NULL, buf, 1) == -1);
	imsg_close(&wa, NULL);
	CHECK(imsg_queued(&wa) == 0);
	CHECK(imsg_compose(&wa, 1, 0, 0, -1, buf, MAXDATA) == 0);
	CHECK(imsg_queued(&wa) == 1);
	return (1);
}

static int
t_recv_oversize(void)
{
	struct imsg	 m;

	CHECK(rawhdr(sv[0], MAX_IMSGSIZE + 1, 0, HDRSZ));
	CHECK(imsg_read(&ra) == HDRSZ);
	CHECK(imsg_get(&ra, &m) == -1 && errno == ERANGE);
	/* A legal message for the writer, too large for this reader. */
	imsg_clear(&ra);
	CHECK(imsg_set_maxsize(&ra, 64) == 0);
	CHECK(imsg_compose(&wa, 1, 0, 0, -1, buf, 100) == 0);
	CHECK(imsg_flush(&wa) == 0);
	CHECK(imsg_read(&ra) == HDRSZ + 100);
	CHECK(imsg_get(&ra, &m) == -1 && errno == ERANGE);
	return (1);
}

static int
t_recv_short(void)
{
	struct imsg	 m;

	CHECK(rawhdr(sv[0], HDRSZ - 1, 0, HDRSZ));
	CHECK(imsg_read(&ra) == HDRSZ);
	CHECK(imsg_get(&ra, &m) == -1 && errno == EBADMSG);
	imsg_clear(&ra);
	CHECK(rawhdr(sv[0], 0, 0, HDRSZ));
	CHECK(imsg_read(&ra) == HDRSZ);
	CHECK(imsg_get(&ra, &m) == -1 && errno == EBADMSG);
	return (1);
}

static int
t_truncated(void)
{
	struct imsg	 m;

	CHECK(rawhdr(sv[0], HDRSZ + 100, 0, 10));
	CHECK(imsg_read(&ra) == 10);
	CHECK(imsg_get(&ra, &m) == 0 && imsg_pending(&ra) == 10);
	CHECK(write(sv[0], buf + 10, HDRSZ - 10 + 50) == HDRSZ - 10 + 50);
	CHECK(imsg_read(&ra) == HDRSZ - 10 + 50);
	CHECK(imsg_get(&ra, &m) == 0 && imsg_pending(&ra) == HDRSZ + 50);
	close(sv[0]);		/* the peer goes away mid-message */
	sv[0] = -1;
	CHECK(imsg_read(&ra) == 0);
	CHECK(imsg_get(&ra, &m) == 0 && imsg_pending(&ra) == HDRSZ + 50);
	return (1);
}

static int
t_fdpass(void)
{
	struct imsg	 m;
	char		 s[8];
	int		 p[2], fd;

	imsg_allow_fdpass(&ra);
	CHECK(pipe(p) == 0);
	CHECK(imsg_compose(&wa, 7, 0, 0, p[0], "x", 1) == 0);
	CHECK(fdvalid(p[0]) && imsg_flush(&wa) == 0);
	CHECK(!fdvalid(p[0]));		/* closed once sent */
	CHECK(imsg_read(&ra) == HDRSZ + 1);
	CHECK(imsg_get(&ra, &m) == 1 && (m.hdr.flags & IMSGF_HASFD));
	CHECK((fd = imsg_get_fd(&m)) >= 0 && imsg_get_fd(&m) == -1);
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	imsg_free(&m);
	CHECK(fdvalid(fd));
	CHECK(write(p[1], "hello", 5) == 5);
	CHECK(read(fd, s, sizeof(s)) == 5 && memcmp(s, "hello", 5) == 0);
	close(fd);
	CHECK(pipe_orphaned(p[1]));
	close(p[1]);
	/* An fd nobody claimed is closed by imsg_free(). */
	CHECK(pipe(p) == 0);
	CHECK(imsg_compose(&wa, 8, 0, 0, p[0], NULL, 0) == 0);
	CHECK(imsg_flush(&wa) == 0);
	CHECK(imsg_read(&ra) == HDRSZ && imsg_get(&ra, &m) == 1);
	CHECK(m.fd >= 0 && m.data == NULL);
	imsg_free(&m);
	CHECK(pipe_orphaned(p[1]));
	close(p[1]);
	return (1);
}

static int
t_fd_not_allowed(void)
{
	int	 p[2], n0;

	CHECK(pipe(p) == 0);
	CHECK(imsg_compose(&wa, 7, 0, 0, p[0], NULL, 0) == 0);
	CHECK(imsg_flush(&wa) == 0);
	n0 = open_fds();
	CHECK(imsg_read(&ra) == -1 && errno == EBADMSG);
	CHECK(open_fds() == n0);
	CHECK(pipe_orphaned(p[1]));
	close(p[1]);
	return (1);
}

static int
t_hasfd_without_fd(void)
{
	struct imsg	 m;

	imsg_allow_fdpass(&ra);
	CHECK(rawhdr(sv[0], HDRSZ + 4, IMSGF_HASFD, HDRSZ + 4));
	CHECK(imsg_read(&ra) == HDRSZ + 4);
	CHECK(imsg_get(&ra, &m) == -1 && errno == EBADMSG);
	return (1);
}

static int
t_extra_fd(void)
{
	struct imsg	 m;
	int		 p[2], n0;

	imsg_allow_fdpass(&ra);
	CHECK(pipe(p) == 0);
	CHECK(rawsendfds(sv[0], &p[0], 1));	/* no IMSGF_HASFD */
	close(p[0]);
	n0 = open_fds();
	CHECK(imsg_read(&ra) == HDRSZ);
	CHECK(open_fds() == n0 + 1);
	CHECK(imsg_get(&ra, &m) == 1 && m.fd == -1);
	imsg_free(&m);
	CHECK(open_fds() == n0 + 1);
	imsg_clear(&ra);
	CHECK(open_fds() == n0);
	CHECK(pipe_orphaned(p[1]));
	close(p[1]);
	return (1);
}

/*
 * Several fds in one message all arrive: what did not fit the control
 * buffer the kernel would close in our task, where a lingering socket
 * blocks.  imsg_clear closes them.
 */
static int
t_several_fds(void)
{
	int	 p[2], q[2], fds[2], n0;

	imsg_allow_fdpass(&ra);
	CHECK(pipe(p) == 0 && pipe(q) == 0);
	fds[0] = p[0];
	fds[1] = q[0];
	CHECK(rawsendfds(sv[0], fds, 2));
	close(p[0]);
	close(q[0]);
	n0 = open_fds();
	CHECK(imsg_read(&ra) == HDRSZ);
	CHECK(open_fds() == n0 + 2);
	CHECK(imsg_fds_held(&ra) == 2);
	imsg_clear(&ra);
	CHECK(open_fds() == n0);
	CHECK(pipe_orphaned(p[1]) && pipe_orphaned(q[1]));
	close(p[1]);
	close(q[1]);
	return (1);
}

static int
t_many(void)
{
	struct imsg	 m;
	uint32_t	 i, v;

	for (i = 0; i < 100; i++)
		CHECK(imsg_compose(&wa, 3, i, 0, -1, &i, sizeof(i)) == 0);
	CHECK(imsg_queued(&wa) == 100 && imsg_flush(&wa) == 0);
	CHECK(imsg_queued(&wa) == 0);
	CHECK(imsg_read(&ra) == 100 * (HDRSZ + sizeof(i)));
	for (i = 0; i < 100; i++) {
		CHECK(imsg_get(&ra, &m) == 1);
		CHECK(imsg_get_type(&m) == 3 && imsg_get_peerid(&m) == i);
		CHECK(imsg_get_pid(&m) == getpid());
		CHECK(imsg_get_data(&m, &v, sizeof(v)) == 0 && v == i);
		imsg_free(&m);
	}
	CHECK(imsg_get(&ra, &m) == 0 && imsg_pending(&ra) == 0);
	return (1);
}

static int
t_get_data(void)
{
	struct imsg	 m;
	uint64_t	 v = 0x0102030405060708ULL, w;
	unsigned char	 big[9];

	CHECK(imsg_compose(&wa, 4, 0, 0, -1, &v, sizeof(v)) == 0);
	CHECK(imsg_compose(&wa, 5, 0, 0, -1, NULL, 0) == 0);
	CHECK(imsg_flush(&wa) == 0 && imsg_read(&ra) > 0);
	CHECK(imsg_get(&ra, &m) == 1 && imsg_get_len(&m) == sizeof(v));
	CHECK(imsg_get_data(&m, &w, sizeof(w) - 1) == -1 && errno == EBADMSG);
	CHECK(imsg_get_data(&m, big, sizeof(big)) == -1 && errno == EBADMSG);
	CHECK(imsg_get_data(&m, &w, 0) == -1 && errno == EBADMSG);
	CHECK(imsg_get_data(&m, &w, sizeof(w)) == 0 && w == v);
	imsg_free(&m);
	CHECK(imsg_get(&ra, &m) == 1 && m.data == NULL);
	CHECK(imsg_get_data(&m, NULL, 0) == 0);
	CHECK(imsg_get_data(&m, big, 1) == -1 && errno == EBADMSG);
	imsg_free(&m);
	return (1);
}

static int
compose_partial(size_t i, size_t len)
{
	char	 s[32];
	int	 fd = -1;

	if (i % 25 == 0) {
		if ((fd = memfd_create("imsg_test", MFD_CLOEXEC)) == -1)
			return (-1);
		snprintf(s, sizeof(s), "memfd %zu", i);
		if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
			return (-1);
	}
	fill(i, len);
	return (imsg_compose(&wa, i, 0, 0, fd, buf, len));
}

static int
check_partial(struct imsg *m, size_t i, size_t len)
{
	char	 s[32], t[32];
	ssize_t	 n;
	int	 fd;

	if (m->hdr.type != i || !check_pattern(m, i, len))
		return (0);
	fd = imsg_get_fd(m);
	if ((i % 25 == 0) != (fd != -1))
		return (0);
	if (fd == -1)
		return (1);
	snprintf(s, sizeof(s), "memfd %zu", i);
	n = pread(fd, t, sizeof(t), 0);
	close(fd);
	return (n == (ssize_t)strlen(s) && memcmp(s, t, n) == 0);
}

static int
t_partial_writes(void)
{
	struct imsg	 m;
	struct ibuf	*b;
	size_t		 i, got = 0, nmsg = 300, shorts = 0, loops = 0;
	int		 sz = 4096, r;
	ssize_t		 n;

	imsg_allow_fdpass(&ra);
	setnb(sv[0]);
	setnb(sv[1]);
	CHECK(setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz)) == 0);
	for (i = 0; i < nmsg; i++)
		CHECK(compose_partial(i, (i * 7919) % (MAXDATA + 1)) == 0);
	while (got < nmsg) {
		CHECK(++loops < 10000000);
		CHECK(imsg_write(&wa) == 0);
		if ((b = TAILQ_FIRST(&wa.w.bufs)) != NULL && b->rpos > 0)
			shorts++;
		if ((n = imsg_read(&ra)) == -1)
			CHECK(errno == EAGAIN);
		CHECK(n != 0);
		while ((r = imsg_get(&ra, &m)) == 1) {
			CHECK(check_partial(&m, got, (got * 7919) %
			    (MAXDATA + 1)));
			imsg_free(&m);
			got++;
		}
		CHECK(r == 0);
	}
	printf("# %zu short writes in %zu rounds\n", shorts, loops);
	CHECK(imsg_queued(&wa) == 0 && imsg_pending(&ra) == 0);
	CHECK(shorts > 0);
	return (1);
}

static int
t_epipe(void)
{
	signal(SIGPIPE, SIG_DFL);	/* a SIGPIPE would kill us */
	close(sv[1]);
	sv[1] = -1;
	CHECK(imsg_compose(&wa, 1, 0, 0, -1, buf, 100) == 0);
	CHECK(imsg_write(&wa) == -1 && errno == EPIPE);
	CHECK(imsg_flush(&wa) == -1 && errno == EPIPE);
	CHECK(imsg_queued(&wa) == 1);
	return (1);
}

static int
t_piecewise(void)
{
	struct imsg	 m;
	struct ibuf	*b;

	CHECK((b = imsg_create(&wa, 6, 42, 0, 3)) != NULL);
	CHECK(imsg_add(b, "abc", 3) == 3 && imsg_add(b, NULL, 0) == 0);
	CHECK(imsg_add(b, "defgh", 5) == 5);
	imsg_close(&wa, b);
	CHECK(imsg_flush(&wa) == 0 && imsg_read(&ra) == HDRSZ + 8);
	CHECK(imsg_get(&ra, &m) == 1 && m.hdr.len == HDRSZ + 8);
	CHECK(imsg_get_pid(&m) == getpid() && imsg_get_peerid(&m) == 42);
	CHECK(m.datalen == 8 && memcmp(m.data, "abcdefgh", 8) == 0);
	imsg_free(&m);
	return (1);
}

static int
t_clear(void)
{
	int	 p[2], q[2];

	CHECK(pipe(p) == 0 && pipe(q) == 0);
	CHECK(imsg_compose(&wa, 1, 0, 0, p[0], NULL, 0) == 0);
	CHECK(imsg_compose(&wa, 1, 0, 0, q[0], NULL, 0) == 0);
	CHECK(imsg_write(&wa) == 0 && imsg_queued(&wa) == 1);
	CHECK(!fdvalid(p[0]) && fdvalid(q[0]));
	imsg_clear(&wa);
	CHECK(!fdvalid(q[0]) && imsg_queued(&wa) == 0);
	CHECK(TAILQ_EMPTY(&wa.w.bufs));
	close(p[1]);
	close(q[1]);
	return (1);
}

/*
 * imsg_discard_unsent: a message half on the wire stays, the rest go
 * with their fds; what is composed after arrives framed.
 */
static int
t_discard(void)
{
	struct imsg	 m;
	struct ibuf	*b;
	size_t		 i, got = 0, before, n;
	int		 sz = 4096, p[2], r;

	setnb(sv[0]);
	setnb(sv[1]);
	CHECK(pipe(p) == 0);
	CHECK(setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz)) == 0);
	memset(buf, 'x', MAXDATA);
	for (i = 0; i < 20; i++)
		CHECK(imsg_compose(&wa, 1, 0, 0, -1, buf, MAXDATA) == 0);
	CHECK(imsg_compose(&wa, 2, 0, 0, p[0], NULL, 0) == 0);
	CHECK(imsg_write(&wa) == 0);
	CHECK((b = TAILQ_FIRST(&wa.w.bufs)) != NULL && b->rpos > 0);
	before = imsg_queued_bytes(&wa);
	n = imsg_discard_unsent(&wa);
	CHECK(n > 0 && imsg_queued(&wa) == 1);
	CHECK(imsg_queued_bytes(&wa) == before - n);
	CHECK(!fdvalid(p[0]));
	CHECK(imsg_compose(&wa, 3, 0, 0, -1, "end", 3) == 0);
	for (;;) {
		CHECK(imsg_write(&wa) == 0);
		if (imsg_read(&ra) == -1)
			CHECK(errno == EAGAIN);
		while ((r = imsg_get(&ra, &m)) == 1) {
			got++;
			r = imsg_get_type(&m);
			imsg_free(&m);
			if (r == 3)
				goto done;
			CHECK(r == 1);
		}
		CHECK(r == 0);
	}
done:
	CHECK(got >= 2 && got < 21 && imsg_queued(&wa) == 0);
	close(p[1]);
	return (1);
}

static const struct {
	const char	*name;
	int		(*fn)(void);
} tests[] = {
	{ "imsg_set_maxsize bounds, 65535-byte message", t_maxsize },
	{ "round trip of every payload size 0..max", t_roundtrip },
	{ "oversize compose/create/add rejected with ERANGE",
	    t_compose_oversize },
	{ "oversize length on receive gives ERANGE", t_recv_oversize },
	{ "length below header size gives EBADMSG", t_recv_short },
	{ "truncated header/payload and peer closing mid-message",
	    t_truncated },
	{ "fd passed and usable, closed on the sender", t_fdpass },
	{ "fd without fd passing: EBADMSG, fd closed", t_fd_not_allowed },
	{ "IMSGF_HASFD without an fd gives EBADMSG", t_hasfd_without_fd },
	{ "unclaimed received fd closed by imsg_clear", t_extra_fd },
	{ "two fds in one message both received, closed by imsg_clear",
	    t_several_fds },
	{ "100 messages in one read", t_many },
	{ "imsg_get_data exact length", t_get_data },
	{ "partial writes on a nonblocking small-buffer socket",
	    t_partial_writes },
	{ "write to a closed peer gives EPIPE, no SIGPIPE", t_epipe },
	{ "imsg_create/imsg_add/imsg_close", t_piecewise },
	{ "imsg_clear closes fds of queued messages", t_clear },
	{ "imsg_discard_unsent keeps a message half written, and framing",
	    t_discard },
};

int
main(void)
{
	size_t	 i, n = sizeof(tests) / sizeof(tests[0]);
	int	 ok, failed = 0;

	printf("1..%zu\n", n);
	for (i = 0; i < n; i++) {
		ok = 0;
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
			imsg_init(&wa, sv[0]);
			imsg_init(&ra, sv[1]);
			ok = tests[i].fn();
			imsg_clear(&wa);
			imsg_clear(&ra);
			if (sv[0] != -1)
				close(sv[0]);
			if (sv[1] != -1)
				close(sv[1]);
		}
		printf("%sok %zu - %s\n", ok ? "" : "not ", i + 1,
		    tests[i].name);
		failed += !ok;
	}
	return (failed != 0);
}
