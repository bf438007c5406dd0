/*
 * A peer that passes us a socket with SO_LINGER set and unsent data
 * makes our close(2) of the last reference wait for the linger time
 * (tcp_close waits in the closing task, O_NONBLOCK or not).  Sockets
 * tenants reach are told to refuse SCM_RIGHTS (SO_PASSRIGHTS 0: the
 * sender's sendmsg(2) fails with EPERM); where the kernel predates
 * that, every fd that arrives anyway is received, its linger turned
 * into an abortive close, and closed.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fdguard.h"

int
fdguard_refuse(int sock)
{
	int	 off = 0;

	return (setsockopt(sock, SOL_SOCKET, SO_PASSRIGHTS, &off,
	    sizeof(off)));
}

void
fdguard_discard(int fd)
{
	struct linger	 abort_close = { 1, 0 };
	int		 saved_errno = errno;

	if (fd == -1)
		return;
	/* Fails with ENOTSOCK on anything else, which closes at once. */
	(void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort_close,
	    sizeof(abort_close));
	close(fd);
	errno = saved_errno;
}

size_t
fdguard_discard_cmsgs(struct msghdr *msg)
{
	struct cmsghdr	*cm;
	size_t		 i, nfds, total = 0;
	int		 fd;

	for (cm = CMSG_FIRSTHDR(msg); cm != NULL; cm = CMSG_NXTHDR(msg, cm)) {
		if (cm->cmsg_level != SOL_SOCKET ||
		    cm->cmsg_type != SCM_RIGHTS || cm->cmsg_len < CMSG_LEN(0))
			continue;
		nfds = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < nfds; i++) {
			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int),
			    sizeof(fd));
			fdguard_discard(fd);
		}
		total += nfds;
	}
	return (total);
}

ssize_t
fdguard_recv(int sock, void *buf, size_t len, size_t *nfds)
{
	union {
		struct cmsghdr	 hdr;
		unsigned char	 buf[FDGUARD_CMSG_SPACE];
	}		 cmsgbuf;
	struct msghdr	 msg;
	struct iovec	 iov;
	ssize_t		 n;

	*nfds = 0;
	memset(&msg, 0, sizeof(msg));
	iov.iov_base = buf;
	iov.iov_len = len;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cmsgbuf.buf;
	msg.msg_controllen = sizeof(cmsgbuf.buf);
	if ((n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC)) == -1)
		return (-1);
	*nfds = fdguard_discard_cmsgs(&msg);
	return (n);
}
