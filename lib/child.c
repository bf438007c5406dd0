/*
 * The skeleton every child runs: parse flags, drop privileges, load its
 * seccomp filter, then serve the master on fd 3.  Nothing is read from
 * the master before the drop is complete.
 */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "child.h"
#include "conf_imsg.h"
#include "log.h"
#include "msgtab.h"
#include "peerch.h"
#include "proc.h"
#include "sandboxd_imsg.h"

static const struct child_ops	*ops;
static enum msg_prog		 self;	/* this child, in the table */
static struct imsgev		 iev_main;
static struct sandboxd_conf	*pending_conf;
static struct event		 ev_sigterm, ev_sigint, ev_sighup;

struct imsgev *
child_iev_main(void)
{
	return (&iev_main);
}

static void
child_sig(int sig, short event, void *arg)
{
	switch (sig) {
	case SIGTERM:
	case SIGINT:
		log_debug("%s: exiting on signal %d", __func__, sig);
		if (ops->shutdown != NULL)
			ops->shutdown();
		exit(0);
	default:
		break;	/* SIGHUP: only the master reloads */
	}
}

static void
child_reconf(struct imsg *imsg)
{
	struct sandboxd_conf	*done;
	struct reconf_done	 ack;
	char			 err[256];

	switch (conf_recv(&pending_conf, imsg, &done, err, sizeof(err))) {
	case -1:
		fatalx("%s: from master: %s", __func__, err);
	case 0:
		return;
	}
	memset(&ack, 0, sizeof(ack));
	ack.generation = done->global.generation;
	ack.policies = conf_count_policies(done);
	ack.rules = conf_count_rules(done);
	log_setcorr(done->global.corr);
	log_info("config generation %llu: %u policies, %u rules",
	    (unsigned long long)ack.generation, ack.policies, ack.rules);
	log_setcorr(NULL);
	ops->conf_apply(done);
	imsgev_compose(&iev_main, IMSG_RECONF_DONE, 0, 0, -1, &ack,
	    sizeof(ack));
}

/* The master's liveness check: answered at once from the event loop. */
static void
child_pong(struct imsg *imsg)
{
	struct proc_pong	 pong;

	memset(&pong, 0, sizeof(pong));
	pong.seq = IMSG_PAYLOAD(imsg, struct proc_ping)->seq;
	if (ops->load != NULL)
		pong.load = ops->load();
	imsgev_compose(&iev_main, IMSG_PROC_PONG, 0, 0, -1, &pong,
	    sizeof(pong));
}

/* A peer broke the rules on its channel: the master restarts it. */
static void
child_peer_dropped(enum msg_prog peer)
{
	struct peer_channel	 m;

	memset(&m, 0, sizeof(m));
	m.peer = peer;
	imsgev_compose(&iev_main, IMSG_PEER_DROPPED, 0, 0, -1, &m,
	    sizeof(m));
}

static struct peerch_ops	 peer_ops = {
	.dropped = child_peer_dropped
};

/* A new end of a channel to another child, from the master. */
static void
child_peer_channel(struct imsg *imsg)
{
	enum msg_prog	 peer;

	peer = IMSG_PAYLOAD(imsg, struct peer_channel)->peer;
	if (ops->dispatch_peer == NULL || !msg_peer_channel(self, peer))
		fatalx("%s: from master: no channel of ours to %s", __func__,
		    msg_prog_name(peer));
	peerch_open(peer, imsg_get_fd(imsg));
}

/*
 * Every message is checked against the table (lib/msgtab.c) before
 * any handler sees it; from the master a bad one means a bug or worse:
 * stop.
 */
static void
child_dispatch_imsg(struct imsg *imsg)
{
	char	 err[160];

	if (imsg_check(self, MSG_MASTER, imsg, err, sizeof(err)) == -1)
		fatalx("%s: from master: %s", __func__, err);
	switch (imsg_get_type(imsg)) {
	case IMSG_RECONF_CONF:
	case IMSG_RECONF_POLICY:
	case IMSG_RECONF_NET_RULE:
	case IMSG_RECONF_UPSTREAM:
	case IMSG_RECONF_ENV_RULE:
	case IMSG_RECONF_SECRET_RULE:
	case IMSG_RECONF_FS_RULE:
	case IMSG_RECONF_SECRET:
	case IMSG_RECONF_END:
		child_reconf(imsg);
		break;
	case IMSG_LOG_VERBOSE:
		log_setverbose(*IMSG_PAYLOAD(imsg, int));
		break;
	case IMSG_PROC_PING:
		child_pong(imsg);
		break;
	case IMSG_PEER_CHANNEL:
		child_peer_channel(imsg);
		break;
	default:
		if (ops->dispatch_main == NULL ||
		    ops->dispatch_main(imsg) == -1)
			fatalx("%s: unexpected imsg %u from master", __func__,
			    imsg_get_type(imsg));
	}
}

static void
child_dispatch_main(int fd, short event, void *arg)
{
	struct imsgev	*iev = arg;
	struct imsg	 imsg;
	int		 n;

	if (imsgev_io(iev, event) == -1) {
		if (errno == 0) {
			/* The master is gone: so are we, cleanly. */
			if (ops->shutdown != NULL)
				ops->shutdown();
			exit(0);
		}
		fatal("%s: master channel", __func__);
	}
	for (;;) {
		if ((n = imsg_get(&iev->ibuf, &imsg)) == -1)
			fatal("%s: imsg_get", __func__);
		if (n == 0)
			break;
		child_dispatch_imsg(&imsg);
		imsg_free(&imsg);
	}
	imsgev_add(iev);
}

static void
child_signals(void)
{
	signal(SIGPIPE, SIG_IGN);
	signal_set(&ev_sigterm, SIGTERM, child_sig, NULL);
	signal_set(&ev_sigint, SIGINT, child_sig, NULL);
	signal_set(&ev_sighup, SIGHUP, child_sig, NULL);
	signal_add(&ev_sigterm, NULL);
	signal_add(&ev_sigint, NULL);
	signal_add(&ev_sighup, NULL);
}

void
child_main(int argc, char *argv[], const struct child_ops *o)
{
	const struct proc_spec	*ps;
	int			 ch, debug = 0, verbose = 0;

	ops = o;
	while ((ch = getopt(argc, argv, "dvx:")) != -1) {
		switch (ch) {
		case 'd':
			debug = 1;
			break;
		case 'x':
			if (ops->without != NULL && ops->without(optarg) == -1)
				errx(1, "-x %s: unknown kernel feature",
				    optarg);
			break;
		case 'v':
			verbose++;
			break;
		default:
			fprintf(stderr, "usage: %s [-dv] [-x feature]\n",
			    ops->name);
			exit(1);
		}
	}
	log_procinit(ops->name);
	log_init(debug, LOG_DAEMON);
	log_setverbose(verbose);
	if ((ps = proc_spec_find(ops->name)) == NULL)
		fatalx("%s: unknown process %s", __func__, ops->name);
	self = msg_prog_of((enum proc_id)(ps - proc_specs));
	peer_ops.dispatch = ops->dispatch_peer;
	peer_ops.up = ops->peer_up;
	peer_ops.down = ops->peer_down;
	peerch_init(self, &peer_ops);
	if (ops->preinit != NULL)
		ops->preinit();
	priv_drop(ps);
	event_init();
	child_signals();
	imsgev_init(&iev_main, PROC_PARENT_FD, child_dispatch_main,
	    &iev_main);
	if (ops->fdpass)
		imsg_allow_fdpass(&iev_main.ibuf);
	seccomp_daemon_apply(ops->name);
	if (ops->init != NULL)
		ops->init();
	imsgev_compose(&iev_main, IMSG_PROC_READY, 0, 0, -1, NULL, 0);
	log_debug("%s: ready", __func__);
	event_dispatch();
	fatalx("%s: event loop ended", __func__);
}
