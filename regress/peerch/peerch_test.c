/*
 * A child's end of a direct channel to another child (lib/peerch.c),
 * driven through a real socketpair as a compromised peer would drive
 * it: a good message reaches the handler; one of a type that does not
 * travel on this channel, a malformed one, one the handler does not
 * take, or an fd where the table passes none closes the channel, and
 * the master is told (dropped) and the rest told it is gone (down);
 * the child never exits.  A new end replaces the old one (up).  Sends
 * with no channel fail with EAGAIN.  Prints TAP.
 */
#include <sys/socket.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "log.h"
#include "peerch.h"
#include "sandboxd_imsg.h"
#include "../lib/chpeer.h"
#include "../lib/tap.h"

static int	 ndispatched, nup, ndown, ndropped;
static enum msg_prog	 dropped_peer;

static int
t_dispatch(enum msg_prog peer, struct imsg *imsg)
{
	/* This envd takes aborts only: the rest is "no handler". */
	if (imsg_get_type(imsg) != IMSG_ENV_ABORT)
		return (-1);
	ndispatched++;
	return (0);
}

static void	t_up(enum msg_prog p) { nup++; }
static void	t_down(enum msg_prog p) { ndown++; }
static void	t_dropped(enum msg_prog p) { ndropped++; dropped_peer = p; }

static const struct peerch_ops	 t_ops = {
	.dispatch = t_dispatch,
	.up = t_up,
	.down = t_down,
	.dropped = t_dropped
};

/* A new channel: one end to peerch, the test's (chpeer) as runnerd's. */
static void
fresh(void)
{
	peerch_open(MSG_RUNNERD, chpeer_pair());
}

static void
good_abort(struct env_abort *a)
{
	memset(a, 0, sizeof(*a));
	strlcpy(a->id, "0123456789abcdef", sizeof(a->id));
	a->exec_id = 1;
	a->reason = SBX_REASON_KILLED;
}

/* What must close the channel, then a new one that works. */
static void
closes(const char *what, uint32_t type, int fd, const void *data,
    size_t len)
{
	struct env_abort	 a;
	int			 drops = ndropped, downs = ndown;
	int			 before = ndispatched;

	chpeer_send(type, fd, data, len);
	ok(!peerch_up(MSG_RUNNERD) && ndropped == drops + 1 &&
	    dropped_peer == MSG_RUNNERD && ndown == downs + 1 &&
	    ndispatched == before,
	    "%s: not handled, the channel closed, the master told", what);
	fresh();
	good_abort(&a);
	chpeer_send(IMSG_ENV_ABORT, -1, &a, sizeof(a));
	ok(peerch_up(MSG_RUNNERD) && ndispatched == before + 1,
	    "a new channel takes the next good message");
}

int
main(void)
{
	struct env_abort	 a;
	struct env_ready	 r;
	struct env_sandbox	 es;
	int			 ups, downs, drops, devnull;

	log_procinit("envd");
	log_init(1, LOG_DAEMON);
	event_init();
	peerch_init(MSG_ENVD, &t_ops);
	if ((devnull = open("/dev/null", O_RDONLY)) == -1)
		err(1, "/dev/null");

	ok(peerch_send(MSG_RUNNERD, IMSG_ENV_READY, 0, -1, NULL, 0) == -1 &&
	    errno == EAGAIN, "no channel yet: a send fails with EAGAIN");
	fresh();
	ok(nup == 1 && peerch_up(MSG_RUNNERD), "a new end: up");
	good_abort(&a);
	chpeer_send(IMSG_ENV_ABORT, -1, &a, sizeof(a));
	ok(ndispatched == 1, "a good message reaches the handler");

	memset(&r, 0, sizeof(r));
	strlcpy(r.id, "0123456789abcdef", sizeof(r.id));
	closes("envd's own answer sent to it (wrong way)", IMSG_ENV_READY,
	    -1, &r, sizeof(r));
	closes("a message for the master", IMSG_PROC_PONG, -1, &a,
	    sizeof(struct proc_pong));
	closes("an abort one byte short", IMSG_ENV_ABORT, -1, &a,
	    sizeof(a) - 1);
	a.reason = 9999;
	closes("an abort with no such reason", IMSG_ENV_ABORT, -1, &a,
	    sizeof(a));
	good_abort(&a);
	closes("an abort with an fd", IMSG_ENV_ABORT, dup(devnull), &a,
	    sizeof(a));
	closes("an unknown type", 99999, -1, &a, sizeof(a));
	memset(&es, 0, sizeof(es));
	strlcpy(es.id, "0123456789abcdef", sizeof(es.id));
	strlcpy(es.policy, "default", sizeof(es.policy));
	closes("a good message with no handler here", IMSG_ENV_SANDBOX_GONE,
	    -1, &es, sizeof(es));

	ups = nup;
	fresh();
	ok(nup == ups + 1 && ndown >= 1,
	    "a new end replaces a live one: down, then up");
	downs = ndown;
	drops = ndropped;
	close(chpeer.fd);
	chpeer.fd = -1;
	chpeer_spin();
	ok(!peerch_up(MSG_RUNNERD) && ndown == downs + 1 &&
	    ndropped == drops, "the peer gone: down, the master not told");
	ok(peerch_send(MSG_RUNNERD, IMSG_ENV_READY, 0, dup(devnull), &r,
	    sizeof(r)) == -1 && errno == EAGAIN,
	    "a send on a closed channel fails with EAGAIN");
	printf("1..%d\n", tap_n);
	return (tap_failed != 0);
}
