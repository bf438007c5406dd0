/*
 * The direct channels between children (lib/msgtab.c lists them): the
 * master makes a socketpair for each pair that talks whenever both
 * run, one end to each, and stays out of what goes on it.  A child
 * (re)started gets new channels to each of its peers; each side resends
 * on a new channel what the other must know (lib/peerch.c, the
 * children's peer_up).  A child that breaks the rules on a channel is
 * reported by the other end and restarted like one that breaks them
 * on its channel to the master.
 */
#include <sys/socket.h>

#include <string.h>
#include <unistd.h>

#include "log.h"
#include "msgtab.h"
#include "sandboxd.h"

/* A new channel between a and b; each drops the one it had. */
static void
channel_make(enum proc_id a, enum proc_id b)
{
	struct peer_channel	 m;
	enum msg_prog		 pa = msg_prog_of(a), pb = msg_prog_of(b);
	uint32_t		 type;
	int			 sp[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0, sp) == -1) {
		log_warn("%s: socketpair: no channel %s-%s until a restart",
		    __func__, msg_prog_name(pa), msg_prog_name(pb));
		return;
	}
	/* The pin channel's ends come bare, as they always did. */
	if (!msg_peer_channel(pa, pb)) {
		type = IMSG_DNS_CHANNEL;
		children_send(a, type, sp[0], NULL, 0);
		children_send(b, type, sp[1], NULL, 0);
	} else {
		memset(&m, 0, sizeof(m));
		m.peer = pb;
		if (children_send(a, IMSG_PEER_CHANNEL, sp[0], &m,
		    sizeof(m)) == -1)
			log_warn("%s: to %s", __func__, msg_prog_name(pa));
		m.peer = pa;
		if (children_send(b, IMSG_PEER_CHANNEL, sp[1], &m,
		    sizeof(m)) == -1)
			log_warn("%s: to %s", __func__, msg_prog_name(pb));
	}
	log_debug("%s: a new channel between %s and %s", __func__,
	    msg_prog_name(pa), msg_prog_name(pb));
}

/*
 * id is ready (started or restarted): a channel to each running child
 * it talks to.  One that misses its end (gone again meanwhile) leaves
 * the other an end whose peer is closed, which it sees as the channel
 * gone.
 */
void
channels_make(enum proc_id id)
{
	int	 i;

	for (i = 0; i < PROC_MAX; i++)
		if (i != (int)id && children_running(i) &&
		    msg_channel(msg_prog_of(id), msg_prog_of(i)))
			channel_make(id, i);
}

/*
 * from closed its channel to the peer it names, for a message that
 * broke the table: that peer is treated as compromised, as when it
 * sends the master such a message, and its restart makes new channels.
 */
void
channels_dropped(enum proc_id from, struct imsg *imsg)
{
	enum msg_prog	 peer = IMSG_PAYLOAD(imsg, struct peer_channel)->peer;
	enum proc_id	 id;

	for (id = 0; id < PROC_MAX; id++)
		if (msg_prog_of(id) == peer)
			break;
	if (id == PROC_MAX || !msg_peer_channel(msg_prog_of(from), peer)) {
		log_warnx("%s: from %s: no channel to %s", __func__,
		    msg_prog_name(msg_prog_of(from)), msg_prog_name(peer));
		return;
	}
	children_peer_misbehaved(id, msg_prog_of(from));
}
