/*
 * envd: sanitized environments and the secrets broker.  Runs as
 * _sbxenvd in a chroot with no capabilities; talks to the master on
 * fd 3, to runnerd on a channel of their own (lib/peerch.c) and to
 * sandboxed code on each sandbox's broker channel.
 */
#include <sys/resource.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "child.h"
#include "env_msg.h"
#include "envd.h"
#include "log.h"
#include "msgtab.h"
#include "peerch.h"

extern char		**environ;

struct sandboxd_conf	*envd_conf;
struct esandbox_tree	 esandboxes = RB_INITIALIZER(&esandboxes);

static int
esandbox_cmp(struct esandbox *a, struct esandbox *b)
{
	return (strcmp(a->id, b->id));
}

RB_GENERATE(esandbox_tree, esandbox, entry, esandbox_cmp);

/* To runnerd on our channel; without one, nobody waits for it. */
void
envd_send(uint32_t type, int fd, const void *data, size_t len)
{
	if (peerch_send(MSG_RUNNERD, type, 0, fd, data, len) == -1) {
		if (errno != EAGAIN)
			fatal("%s", __func__);
		log_debug("%s: %s: no channel to runnerd", __func__,
		    msg_name(type));
	}
}

void
envd_send_master(uint32_t type, const void *data, size_t len)
{
	if (imsgev_compose(child_iev_main(), type, 0, 0, -1, data,
	    len) == -1)
		fatal("%s", __func__);
}

static struct esandbox *
envd_find(const char *id)
{
	struct esandbox	 key;

	strlcpy(key.id, id, sizeof(key.id));
	return (RB_FIND(esandbox_tree, &esandboxes, &key));
}

/* The sandbox of that id, made on first mention. */
struct esandbox *
envd_sandbox(const char *id, const char *policy, const char *corr)
{
	struct esandbox	*sb;

	if ((sb = envd_find(id)) != NULL)
		return (sb);
	if ((sb = calloc(1, sizeof(*sb))) == NULL)
		fatal("%s", __func__);
	strlcpy(sb->id, id, sizeof(sb->id));
	strlcpy(sb->policy, policy, sizeof(sb->policy));
	strlcpy(sb->corr, corr, sizeof(sb->corr));
	sb->listen_fd = -1;
	TAILQ_INIT(&sb->conns);
	TAILQ_INIT(&sb->exposed);
	RB_INSERT(esandbox_tree, &esandboxes, sb);
	return (sb);
}

static void
envd_sandbox_gone(const char *id)
{
	struct esandbox	*sb;

	if ((sb = envd_find(id)) == NULL)
		return;
	RB_REMOVE(esandbox_tree, &esandboxes, sb);
	broker_sandbox_free(sb);
}

static void
envd_reset(void)
{
	struct esandbox	*sb;

	while ((sb = RB_MIN(esandbox_tree, &esandboxes)) != NULL) {
		RB_REMOVE(esandbox_tree, &esandboxes, sb);
		broker_sandbox_free(sb);
	}
}

/*
 * From runnerd on our channel, checked against the table (lib/msgtab.c)
 * by peerch.c first.
 */
static int
envd_dispatch_runnerd(enum msg_prog peer, struct imsg *imsg)
{
	const struct env_sandbox	*sm;
	struct env_build_req		*breq;
	const struct env_abort		*am;
	const struct env_broker		*bm;
	struct esandbox			*sb;

	if (envd_conf == NULL)
		return (-1);
	switch (imsg_get_type(imsg)) {
	case IMSG_ENV_SANDBOX:
		sm = IMSG_PAYLOAD(imsg, struct env_sandbox);
		broker_listen(envd_sandbox(sm->id, sm->policy, sm->corr),
		    imsg_get_fd(imsg));
		break;
	case IMSG_ENV_SANDBOX_GONE:
		envd_sandbox_gone(IMSG_PAYLOAD(imsg, struct env_sandbox)->id);
		break;
	case IMSG_ENV_BUILD:
		breq = IMSG_PAYLOAD(imsg, struct env_build_req);
		sb = envd_sandbox(breq->id, breq->policy, breq->corr);
		env_build(sb, breq);
		explicit_bzero(breq, sizeof(*breq));
		break;
	case IMSG_ENV_BROKER:
		bm = IMSG_PAYLOAD(imsg, struct env_broker);
		broker_conn_new(envd_sandbox(bm->id, bm->policy, bm->corr),
		    imsg_get_fd(imsg), bm->exec_id);
		break;
	case IMSG_ENV_ABORT:
		am = IMSG_PAYLOAD(imsg, struct env_abort);
		if ((sb = envd_find(am->id)) != NULL)
			broker_abort(sb, am);
		break;
	default:
		return (-1);
	}
	return (0);
}

/*
 * A channel to runnerd made or gone: runnerd restarted (its sandboxes
 * died with it) or is about to tell us of every live one again.
 */
static void
envd_runnerd_changed(enum msg_prog peer)
{
	envd_reset();
}

static void
envd_conf_apply(struct sandboxd_conf *conf)
{
	if (envd_conf != NULL)
		conf_free(envd_conf);
	envd_conf = conf;
}

/*
 * As root, before the drop: room for every broker client, the
 * environment the allowlist reads from, copied before anything runs,
 * and the JSON library's hash seed.
 */
static void
envd_preinit(void)
{
	struct rlimit	 rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
			log_warn("%s: RLIMIT_NOFILE", __func__);
	}
	env_snapshot(environ);
	/* jansson would read /dev/urandom for its hash seed otherwise. */
	json_object_seed(arc4random() | 1);
}

static void
envd_shutdown(void)
{
	envd_reset();
}

static const struct child_ops envd_ops = {
	.name = "envd",
	.fdpass = 1,
	.preinit = envd_preinit,
	.conf_apply = envd_conf_apply,
	.shutdown = envd_shutdown,
	.dispatch_peer = envd_dispatch_runnerd,
	.peer_up = envd_runnerd_changed,
	.peer_down = envd_runnerd_changed,
};

int
main(int argc, char *argv[])
{
	child_main(argc, argv, &envd_ops);
}
