/* What every child daemon shares: start-up, privilege drop, main loop. */
#ifndef SANDBOXD_CHILD_H
#define SANDBOXD_CHILD_H

#include <stdint.h>

#include "conf.h"
#include "imsgev.h"
#include "msgtab.h"

struct child_ops {
	const char	*name;
	int		 fdpass;	/* accepts fds from the master */
	/* Privileged set-up, before the drop (may be NULL). */
	void		(*preinit)(void);
	/* After the drop and the seccomp filter (may be NULL). */
	void		(*init)(void);
	/* Swap in a complete, checked config; the child owns it. */
	void		(*conf_apply)(struct sandboxd_conf *);
	/* On SIGTERM, before exit: leave nothing behind (may be NULL). */
	void		(*shutdown)(void);
	/*
	 * -x feature (testing): do without a kernel feature; -1 if the
	 * name is unknown.  NULL: no feature of this child's.
	 */
	int		(*without)(const char *);
	/* Any other message from the master; -1 if unknown. */
	int		(*dispatch_main)(struct imsg *);
	/*
	 * The direct channels to other children (lib/peerch.c): a checked
	 * message from one (-1 if unknown), a new channel (resend what the
	 * peer must know), a channel gone (fail what waits on it).  NULL
	 * dispatch_peer: the child has none.
	 */
	int		(*dispatch_peer)(enum msg_prog, struct imsg *);
	void		(*peer_up)(enum msg_prog);
	void		(*peer_down)(enum msg_prog);
	/* What the master's STATUS line counts, for its pings (may be NULL). */
	uint32_t	(*load)(void);
};

__attribute__((noreturn))
void		 child_main(int, char *[], const struct child_ops *);
struct imsgev	*child_iev_main(void);

#endif
