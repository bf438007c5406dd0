/*
 * fds a peer may not give us: refused by the kernel where it can
 * (SO_PASSRIGHTS, Linux 6.16), else received and thrown away in a way
 * that cannot block.
 */
#ifndef SANDBOXD_FDGUARD_H
#define SANDBOXD_FDGUARD_H

#include <sys/types.h>
#include <sys/socket.h>

/* asm-generic/socket.h since Linux 6.16; older headers lack it. */
#ifndef SO_PASSRIGHTS
#define SO_PASSRIGHTS		83
#endif

/* The most fds one SCM_RIGHTS message can carry (SCM_MAX_FD). */
#define FDGUARD_MAX_FDS		253
#define FDGUARD_CMSG_SPACE	CMSG_SPACE(FDGUARD_MAX_FDS * sizeof(int))

/* 0 if the kernel now refuses fds sent to sock, -1 if it cannot. */
int	 fdguard_refuse(int);
/* close(2) that cannot wait: a socket is reset, not lingered on. */
void	 fdguard_discard(int);
/* Discard every fd a recvmsg(2) brought; how many there were. */
size_t	 fdguard_discard_cmsgs(struct msghdr *);
/* recvmsg(2) of bytes only: *nfds is how many fds came and went. */
ssize_t	 fdguard_recv(int, void *, size_t, size_t *);

#endif
