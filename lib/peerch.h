/*
 * A child's direct channels to the other children (one socketpair per
 * pair that talks, made and handed out by the master: lib/msgtab.c
 * lists them).  See lib/peerch.c.
 */
#ifndef SANDBOXD_PEERCH_H
#define SANDBOXD_PEERCH_H

#include <stddef.h>
#include <stdint.h>

#include "imsgev.h"
#include "msgtab.h"

struct peerch_ops {
	/* A checked message from peer; -1: not one it takes. */
	int	(*dispatch)(enum msg_prog, struct imsg *);
	/* A new channel to peer: tell it what it must know (may be NULL). */
	void	(*up)(enum msg_prog);
	/* The channel to peer is gone: what waits on it fails (may be NULL). */
	void	(*down)(enum msg_prog);
	/* The channel was closed for a bad message: tell the master. */
	void	(*dropped)(enum msg_prog);
};

void	 peerch_init(enum msg_prog, const struct peerch_ops *);
/* A new end from the master; an old channel to peer is closed first. */
void	 peerch_open(enum msg_prog, int);
int	 peerch_up(enum msg_prog);
/* Queue one message; -1 with errno EAGAIN if there is no channel. */
int	 peerch_send(enum msg_prog, uint32_t, uint32_t, int, const void *,
	    size_t);
/* The channel's imsgev, for imsg_create; NULL if there is none. */
struct imsgev	*peerch_iev(enum msg_prog);
/* Write what is queued to peer now, as far as the socket takes it. */
void	 peerch_flush(enum msg_prog);

#endif
