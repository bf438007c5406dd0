/*
 * Direct channels between children.  The master makes a socketpair for
 * each pair of children that talk (lib/msgtab.c, msg_direct) whenever
 * both run, and hands each its end in IMSG_PEER_CHANNEL; from then on
 * they talk without it.  The receiving end checks every message
 * against the table as the master did when it relayed them: a peer
 * that sends a malformed or wrongly routed one loses its channel, and
 * the master hears of it (IMSG_PEER_DROPPED) and makes the pair a new
 * channel, on which both resync (cmd/sandboxd/channels.c).  Nothing on a dead channel
 * is lost quietly: down() fails what waited on it, up() resends what
 * the new peer must know.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "log.h"
#include "peerch.h"

struct peerch {
	struct imsgev	 iev;
	enum msg_prog	 peer;
	int		 open;
};

static struct peerch		 chans[8];	/* by bit number */
static enum msg_prog		 self;
static const struct peerch_ops	*ops;

static struct peerch *
peerch_of(enum msg_prog peer)
{
	int	 bit = ffs((int)peer) - 1;

	if (bit < 0 || (size_t)bit >= sizeof(chans) / sizeof(chans[0]) ||
	    !msg_peer_channel(self, peer))
		fatalx("%s: no channel to %s", __func__, msg_prog_name(peer));
	return (&chans[bit]);
}

void
peerch_init(enum msg_prog s, const struct peerch_ops *o)
{
	self = s;
	ops = o;
}

static void
peerch_close(struct peerch *ch, const char *why)
{
	if (!ch->open)
		return;
	log_info("%s: the channel to %s: %s", __func__,
	    msg_prog_name(ch->peer), why);
	imsgev_del(&ch->iev);
	close(ch->iev.ibuf.fd);
	imsg_clear(&ch->iev.ibuf);
	ch->open = 0;
	if (ops->down != NULL)
		ops->down(ch->peer);
}

/* A broken rule, not a broken stream: closed, and the master told. */
static void
peerch_drop(struct peerch *ch, const char *why)
{
	log_warnx("%s: from %s: %s: channel closed", __func__,
	    msg_prog_name(ch->peer), why);
	peerch_close(ch, "dropped");
	ops->dropped(ch->peer);
}

static int
peerch_imsg(struct imsg *imsg, void *arg)
{
	struct peerch	*ch = arg;
	char		 err[160];

	if (imsg_check(self, ch->peer, imsg, err, sizeof(err)) == -1) {
		peerch_drop(ch, err);
		return (-1);
	}
	if (ops->dispatch(ch->peer, imsg) == -1) {
		snprintf(err, sizeof(err), "%s: no handler",
		    msg_name(imsg_get_type(imsg)));
		peerch_drop(ch, err);
		return (-1);
	}
	return (0);
}

static void
peerch_dispatch(int fd, short event, void *arg)
{
	struct peerch	*ch = ((struct imsgev *)arg)->data;

	if (imsgev_dispatch(&ch->iev, event, peerch_imsg, ch) == 0)
		return;
	if (errno == EBADMSG) {
		peerch_drop(ch, "malformed message");
		return;
	}
	if (errno != 0)
		log_warn("%s: %s", __func__, msg_prog_name(ch->peer));
	peerch_close(ch, errno == 0 ? "closed by the peer" : "broken");
}

void
peerch_open(enum msg_prog peer, int fd)
{
	struct peerch	*ch = peerch_of(peer);

	peerch_close(ch, "replaced by a new one");
	ch->peer = peer;
	imsgev_init(&ch->iev, fd, peerch_dispatch, ch);
	if (msg_fds_from(self, peer))
		imsg_allow_fdpass(&ch->iev.ibuf);
	ch->open = 1;
	log_debug("%s: a channel to %s on fd %d", __func__,
	    msg_prog_name(peer), fd);
	if (ops->up != NULL)
		ops->up(peer);
}

int
peerch_up(enum msg_prog peer)
{
	return (peerch_of(peer)->open);
}

int
peerch_send(enum msg_prog peer, uint32_t type, uint32_t peerid, int fd,
    const void *data, size_t len)
{
	struct peerch	*ch = peerch_of(peer);

	if (!ch->open) {
		if (fd != -1)
			close(fd);
		errno = EAGAIN;
		return (-1);
	}
	return (imsgev_compose(&ch->iev, type, peerid, 0, fd, data, len));
}

struct imsgev *
peerch_iev(enum msg_prog peer)
{
	struct peerch	*ch = peerch_of(peer);

	return (ch->open ? &ch->iev : NULL);
}

/*
 * One imsg_write stops at each message carrying an fd: write until all
 * is out or the socket is full (the write event sends the rest).
 */
void
peerch_flush(enum msg_prog peer)
{
	struct peerch	*ch = peerch_of(peer);
	uint32_t	 before;

	if (!ch->open)
		return;
	while ((before = imsg_queued(&ch->iev.ibuf)) > 0) {
		if (imsg_write(&ch->iev.ibuf) == -1) {
			log_warn("%s: %s", __func__, msg_prog_name(peer));
			return;
		}
		if (imsg_queued(&ch->iev.ibuf) == before)
			break;
	}
	imsgev_add(&ch->iev);
}
