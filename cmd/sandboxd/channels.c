/*
 * The direct channels between children (lib/msgtab.c lists them): the
 * master makes a socketpair for each pair that talks whenever both
 * run, one end to each, and stays out of what goes on it.  A child
 * (re)started gets new channels to each of its peers; each side resends
 * on a new channel what the other must know (lib/peerch.c, the
 * children's peer_up).  A channel one end closed for a message that
 * broke the table is made again, later each time (channels_dropped).
 */
#include <sys/socket.h>

#include <event.h>
#include <string.h>
#include <time.h>
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
 * A pair whose channel was dropped: its next channel comes after a
 * delay that doubles with each drop within a minute.
 */
#define CHANNEL_REDO_MIN_MS	100
#define CHANNEL_REDO_MAX_MS	10000
#define CHANNEL_REDO_WINDOW_S	60

struct channel_redo {
	struct event	 ev;
	time_t		 first;		/* monotonic s of the window's first */
	unsigned int	 drops;		/* in the window */
	enum proc_id	 a, b;
	int		 armed;
};
static struct channel_redo	 channel_redo[PROC_MAX][PROC_MAX];

static void
channel_redo_fire(int fd, short event, void *arg)
{
	struct channel_redo	*r = arg;

	r->armed = 0;
	if (children_running(r->a) && children_running(r->b))
		channel_make(r->a, r->b);
}

/*
 * from closed its channel to the peer it names, for a message that
 * broke the table.  The master cannot tell which of the two is lying,
 * so neither is restarted on the other's word: dnspind, which parses
 * what the network sends, could otherwise have runnerd and every
 * sandbox killed.  A child that breaks the rules on its channel to
 * the master is still restarted (children.c).  The pair gets a new
 * channel, and resyncs on it, after 100 ms, doubled for each drop of
 * that pair within a minute up to 10 s: a child that keeps breaking
 * the rules costs its peer little.
 */
void
channels_dropped(enum proc_id from, struct imsg *imsg)
{
	enum msg_prog		 peer;
	enum proc_id		 id;
	struct channel_redo	*r;
	struct timeval		 tv;
	unsigned int		 ms, i;
	time_t			 now;

	peer = IMSG_PAYLOAD(imsg, struct peer_channel)->peer;
	for (id = 0; id < PROC_MAX; id++)
		if (msg_prog_of(id) == peer)
			break;
	if (id == PROC_MAX || !msg_peer_channel(msg_prog_of(from), peer)) {
		log_warnx("%s: from %s: no channel to %s", __func__,
		    msg_prog_name(msg_prog_of(from)), msg_prog_name(peer));
		return;
	}
	r = from < id ? &channel_redo[from][id] : &channel_redo[id][from];
	now = monotime();
	if (r->drops == 0 || now - r->first >= CHANNEL_REDO_WINDOW_S) {
		r->first = now;
		r->drops = 0;
	}
	r->drops++;
	for (ms = CHANNEL_REDO_MIN_MS, i = 1; i < r->drops &&
	    ms < CHANNEL_REDO_MAX_MS; i++)
		ms *= 2;
	if (ms > CHANNEL_REDO_MAX_MS)
		ms = CHANNEL_REDO_MAX_MS;
	log_warnx("%s: %s dropped its channel to %s for a bad message "
	    "(%u in a minute): a new one in %u ms", __func__,
	    msg_prog_name(msg_prog_of(from)), msg_prog_name(peer), r->drops,
	    ms);
	if (r->armed)
		return;
	r->a = from;
	r->b = id;
	r->armed = 1;
	evtimer_set(&r->ev, channel_redo_fire, r);
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	evtimer_add(&r->ev, &tv);
}
