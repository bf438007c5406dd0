/*
 * runnerd: creates sandboxes and runs commands in them.  Stays uid 0
 * with a bounded capability set; talks to the master on fd 3 and to
 * envd, netd and dnspind on channels of their own (lib/peerch.c).  Every
 * request is checked again here, whatever the master checked.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "env_msg.h"
#include "fileop.h"
#include "net_msg.h"
#include "log.h"
#include "msgtab.h"
#include "peerch.h"
#include "runnerd.h"
#include "sbx_msg.h"
#include "workspace.h"

struct rsandbox_tree	 rsandboxes = RB_INITIALIZER(&rsandboxes);
struct sandboxd_conf	*runnerd_conf;
static struct event	 ev_sigchld;

static int
rsandbox_cmp(struct rsandbox *a, struct rsandbox *b)
{
	return (strcmp(a->sb.id, b->sb.id));
}

RB_GENERATE(rsandbox_tree, rsandbox, entry, rsandbox_cmp);

void
runnerd_reply(uint32_t type, uint32_t peerid, const void *data, size_t len)
{
	if (peerid == 0)
		return;
	if (imsgev_compose(child_iev_main(), type, peerid, 0, -1, data,
	    len) == -1)
		log_warn("%s", __func__);
}

void
runnerd_result(uint32_t peerid, const char *corr, int error,
    const char *fmt, ...)
{
	struct ctl_result	 res;
	va_list			 ap;

	va_start(ap, fmt);
	sbx_result_vset(&res, corr, error, fmt, ap);
	va_end(ap);
	if (error != 0)
		log_info("%s", res.msg);
	runnerd_reply(IMSG_CTL_RESULT, peerid, &res, sizeof(res));
}

/* A failure of a kind sandboxctl tells apart (enum ctl_fail). */
void
runnerd_result_fail(uint32_t peerid, const char *corr, int error,
    uint32_t fail, const char *msg)
{
	struct ctl_result	 res;

	memset(&res, 0, sizeof(res));
	strlcpy(res.corr, corr, sizeof(res.corr));
	res.error = error;
	res.fail = fail;
	strlcpy(res.msg, msg, sizeof(res.msg));
	log_info("%s", res.msg);
	runnerd_reply(IMSG_CTL_RESULT, peerid, &res, sizeof(res));
}

struct rsandbox *
runnerd_find(const char *id)
{
	struct rsandbox	 key;

	strlcpy(key.sb.id, id, sizeof(key.sb.id));
	return (RB_FIND(rsandbox_tree, &rsandboxes, &key));
}

void
runnerd_new_id(char *id)
{
	unsigned char	 rnd[8];
	size_t		 i;

	do {
		arc4random_buf(rnd, sizeof(rnd));
		for (i = 0; i < sizeof(rnd); i++)
			snprintf(id + 2 * i, 3, "%02x", rnd[i]);
	} while (runnerd_find(id) != NULL);
}

static void
runnerd_info(struct rsandbox *rs, struct sbx_info *info)
{
	const struct policy_msg	*p = &rs->sb.policy;

	memset(info, 0, sizeof(*info));
	strlcpy(info->id, rs->sb.id, sizeof(info->id));
	strlcpy(info->policy, p->name, sizeof(info->policy));
	info->uid = rs->sb.uid;
	info->init_pid = rs->sb.init_pid;
	info->created = rs->created;
	info->execs = exec_count(rs);
	info->procs = sandbox_nprocs(&rs->sb);
	info->ephemeral = rs->ephemeral;
	info->memory = p->memory;
	info->pids = p->pids;
	info->cpu_percent = p->cpu_percent;
	info->timeout = p->timeout;
	info->timeout_max = p->timeout_max;
	info->stdout_cap = p->stdout_cap;
	info->stderr_cap = p->stderr_cap;
	info->workspace = p->workspace;
	strlcpy(info->workspace_path, rs->sb.workspace,
	    sizeof(info->workspace_path));
	strlcpy(info->service, rs->service, sizeof(info->service));
	if (rs->net == RNET_UP) {
		info->net = rs->tap ? SBX_NET_TAP : SBX_NET_VETH;
		info->net_ident = rs->net_ident;
	}
	life_info(rs, info);
}

/* The fs rules of one policy, as the array sandbox_create takes. */
static struct fs_rule_msg *
runnerd_fs_rules(const char *policy, size_t *n)
{
	struct conf_fs_rule	*r;
	struct fs_rule_msg	*rules = NULL;

	*n = 0;
	TAILQ_FOREACH(r, &runnerd_conf->fs_rules, entry) {
		if (strcmp(r->m.policy, policy) != 0)
			continue;
		if ((rules = reallocarray(rules, *n + 1, sizeof(*rules))) ==
		    NULL)
			fatal("%s", __func__);
		rules[(*n)++] = r->m;
	}
	return (rules);
}

/* Begun: sandbox_create_finish completes it when pid 1 reports. */
int
runnerd_build(struct rsandbox *rs, struct conf_policy *pol, int netns,
    char *err, size_t errlen)
{
	struct sandbox_spec	 spec;
	struct fs_rule_msg	*rules;
	int			 rc;

	memset(&spec, 0, sizeof(spec));
	spec.id = rs->sb.id;
	spec.policy = &pol->m;
	spec.state_dir = runnerd_conf->global.state_dir;
	spec.uid = rs->sb.uid;
	spec.gid = rs->sb.uid;
	spec.resolver = runnerd_conf->global.resolver.addr.v4;
	spec.netns = netns;
	spec.fs_rules = rules = runnerd_fs_rules(pol->m.name,
	    &spec.nfs_rules);
	svcws_spec(rs, &spec);
	rc = sandbox_create_begin(&rs->sb, &spec, err, errlen);
	free(rules);
	return (rc);
}

/*
 * To envd on our channel; -1 if there is none (the caller fails what
 * waits for an answer; sandboxes are announced again when a new
 * channel comes, runnerd_peer_up).
 */
int
runnerd_env_send(uint32_t type, int fd, const void *data, size_t len)
{
	if (peerch_send(MSG_ENVD, type, 0, fd, data, len) == 0)
		return (0);
	if (errno != EAGAIN)
		log_warn("%s", __func__);
	return (-1);
}

/*
 * Out now, not when the event loop next runs: envd and netd work on
 * what a create asks of them while runnerd builds the sandbox, and a
 * reply is not held up by a spare built meanwhile.  One imsg_write
 * stops at each message carrying an fd: write until all is out or the
 * socket is full (the loop's write event sends the rest).
 */
void
runnerd_flush(void)
{
	struct imsgbuf	*ibuf = &child_iev_main()->ibuf;
	uint32_t	 before;

	while ((before = imsg_queued(ibuf)) > 0) {
		if (imsg_write(ibuf) == -1) {
			log_warn("%s", __func__);
			break;
		}
		if (imsg_queued(ibuf) == before)
			break;		/* full, or only part of one went */
	}
	peerch_flush(MSG_ENVD);
	peerch_flush(MSG_NETD);
	peerch_flush(MSG_DNSPIND);
}

/* Tell envd of a sandbox (with a copy of its broker socket) or its end. */
static void
runnerd_env_announce(struct rsandbox *rs, int gone)
{
	struct env_sandbox	 m;
	int			 fd = -1;

	memset(&m, 0, sizeof(m));
	strlcpy(m.corr, rs->corr, sizeof(m.corr));
	strlcpy(m.id, rs->sb.id, sizeof(m.id));
	strlcpy(m.policy, rs->sb.policy.name, sizeof(m.policy));
	if (!gone && (fd = dup(rs->sb.broker_fd)) == -1) {
		log_warn("%s: sandbox %s: dup", __func__, rs->sb.id);
		return;
	}
	runnerd_env_send(gone ? IMSG_ENV_SANDBOX_GONE : IMSG_ENV_SANDBOX, fd,
	    &m, sizeof(m));
}

static int	runnerd_id_busy(const char *);
static int	runnerd_id_going(const char *);
static int	runnerd_park(struct sbx_run_req *, int, uint32_t);
static void	runnerd_unpark(const char *);
static void	runnerd_unpark_client(uint32_t);
static void	runnerd_create(struct sbx_create_req *, uint32_t);
static void	runnerd_run(struct sbx_run_req *, uint32_t);

/* Its uid is free again, unless its service keeps it (svcws.c). */
static void
runnerd_uid_release(struct rsandbox *rs)
{
	if (!svcws_release(rs))
		uid_free(&runnerd_conf->global, rs->sb.uid);
}

/* A sandbox's place: its id, uid and policy, not yet built. */
static struct rsandbox *
runnerd_alloc(struct sbx_create_req *req, uint32_t peerid,
    struct conf_policy **polp)
{
	struct rsandbox		*rs;
	const char		*name;

	name = req->policy[0] != '\0' ? req->policy : CONF_DEFAULT_POLICY;
	if ((*polp = conf_policy_find(runnerd_conf, name)) == NULL) {
		runnerd_result(peerid, req->corr, ENOENT, "no such policy: %s",
		    name);
		return (NULL);
	}
	if (req->want_id[0] != '\0' && runnerd_id_busy(req->want_id)) {
		runnerd_result(peerid, req->corr, EEXIST, "sandbox %s is in "
		    "use", req->want_id);
		return (NULL);
	}
	/* A service's sandboxes have the id of its name: never a spare. */
	if (req->want_id[0] == '\0' &&
	    (rs = spare_take(*polp, req)) != NULL) {
		rs->prebuilt = 1;
		strlcpy(rs->service, req->service, sizeof(rs->service));
		strlcpy(rs->corr, req->corr, sizeof(rs->corr));
		return (rs);
	}
	if ((rs = calloc(1, sizeof(*rs))) == NULL)
		fatal("%s", __func__);
	strlcpy(rs->service, req->service, sizeof(rs->service));
	/*
	 * A service's sandboxes all have the id its name gives, so each
	 * gets the same network identity; others take the network made
	 * ahead if they can.
	 */
	if (req->want_id[0] != '\0')
		strlcpy(rs->sb.id, req->want_id, sizeof(rs->sb.id));
	else if (!net_claim(&(*polp)->m, req, rs->sb.id))
		runnerd_new_id(rs->sb.id);
	TAILQ_INIT(&rs->execs);
	TAILQ_INIT(&rs->recs);
	rs->sb.policy = (*polp)->m;
	strlcpy(rs->corr, req->corr, sizeof(rs->corr));
	if (svcws_claim(rs, req, &(*polp)->m, &rs->sb.uid) == -1) {
		free(rs);
		runnerd_result(peerid, req->corr, EAGAIN,
		    "no free sandbox uid in the configured range");
		return (NULL);
	}
	return (rs);
}

/*
 * Built, its network up (or none asked for), and no other exec on its
 * way: the next exec may start.
 */
int
runnerd_ready(const struct rsandbox *rs)
{
	return (rstate_up(rs) && rs->starting == NULL);
}

/* pid 1 has reported, or a built spare was taken: netd may still work. */
static void
runnerd_up(struct rsandbox *rs)
{
	rstate_set(rs, rs->net == RNET_PENDING ? RS_NET_WAIT : RS_LIVE);
}

/*
 * Ready now: a create that waited is answered, execs that had their
 * environment start.
 */
static void
runnerd_settle(struct rsandbox *rs)
{
	struct sbx_info	 info;

	if (!runnerd_ready(rs))
		return;
	if (rs->create_pending) {
		rs->create_pending = 0;
		runnerd_info(rs, &info);
		runnerd_reply(IMSG_CTL_SANDBOX, rs->create_peerid, &info,
		    sizeof(info));
		runnerd_result(rs->create_peerid, rs->corr, 0, "%s",
		    rs->sb.id);
		spare_soon();
	}
	exec_sandbox_ready(rs);
}

/* A sandbox that could not be built: its creator and execs hear why. */
static void
runnerd_build_failed(struct rsandbox *rs, const char *err)
{
	uint32_t	 peerid = rs->create_pending ? rs->create_peerid :
			    rs->owner;

	rs->create_pending = 0;
	exec_discard(rs);
	runnerd_result(peerid, rs->corr, EIO, "create: %s", err);
	/* Its pid 1 is killed: the rest goes once it is dead. */
	runnerd_teardown(rs);
}

/*
 * pid 1 has reported: the sandbox is whole, or was torn down with the
 * reason.  Heard as an event, so that runnerd serves everyone else
 * while a pid 1 builds (a cgroup move alone may wait 20 ms on an RCU
 * grace period).
 */
static void
runnerd_built(int fd, short event, void *arg)
{
	struct rsandbox	*rs = arg;
	char		 err[256];

	event_del(&rs->ev_events);
	rs->ev_events_set = 0;
	if (sandbox_create_check(&rs->sb, err, sizeof(err)) == -1) {
		runnerd_build_failed(rs, err);
		return;
	}
	runnerd_env_announce(rs, 0);
	runnerd_up(rs);
	runnerd_settle(rs);
}

static void
runnerd_wait_built(struct rsandbox *rs)
{
	/* A spare taken while it builds is BUILDING already. */
	if (rs->state == RS_NEW)
		rstate_set(rs, RS_BUILDING);
	event_set(&rs->ev_events, rs->sb.sock, EV_READ, runnerd_built, rs);
	event_add(&rs->ev_events, NULL);
	rs->ev_events_set = 1;
}

/*
 * Begin it; on failure, nothing of it is left and the caller heard.
 * The create is answered, and its execs start, once pid 1 has reported
 * and netd has set the network up (runnerd_settle).
 */
static int
runnerd_make(struct rsandbox *rs, struct conf_policy *pol,
    struct sbx_create_req *req, uint32_t peerid)
{
	struct sbx_info		 info;
	char			 err[256];
	int			 netns = -1, rc;

	/* netd sets the network up while the sandbox is built. */
	if (rs->prebuilt) {
		rc = 0;
		if (rs->spare_net)
			net_begin_spare(rs);
	} else if ((rc = net_begin(rs, req, &pol->m, &netns, err,
	    sizeof(err))) == 0)
		rc = runnerd_build(rs, pol, netns, err, sizeof(err));
	if (netns != -1)
		close(netns);
	if (rc == -1) {
		net_end(rs);
		exec_discard(rs);
		runnerd_env_announce(rs, 1);
		runnerd_teardown(rs);
		runnerd_result(peerid, req->corr, EIO, "create: %s", err);
		return (-1);
	}
	rs->owner = peerid;
	rs->ephemeral = req->ephemeral;
	rs->created = time(NULL);
	RB_INSERT(rsandbox_tree, &rsandboxes, rs);
	life_begin(rs, req);
	log_setcorr(req->corr);
	log_info("sandbox %s created: policy %s, uid %u", rs->sb.id,
	    pol->m.name, (unsigned int)rs->sb.uid);
	log_setcorr(NULL);
	if (rs->run_once) {
		/* sandbox.create comes first, whatever is still to come. */
		runnerd_info(rs, &info);
		runnerd_reply(IMSG_CTL_SANDBOX, peerid, &info, sizeof(info));
	} else {
		rs->create_pending = 1;
		rs->create_peerid = peerid;
	}
	if (rs->state == RS_NEW || rs->state == RS_BUILDING)
		runnerd_wait_built(rs);
	else {
		runnerd_env_announce(rs, 0);
		runnerd_up(rs);
	}
	runnerd_settle(rs);
	return (0);
}

static void
runnerd_create(struct sbx_create_req *req, uint32_t peerid)
{
	struct rsandbox		*rs;
	struct conf_policy	*pol;
	struct sbx_run_req	*run;

	if (req->want_id[0] != '\0' && runnerd_id_going(req->want_id)) {
		if ((run = calloc(1, sizeof(*run))) == NULL)
			fatal("%s", __func__);
		run->create = *req;
		(void)runnerd_park(run, 0, peerid);
		free(run);
		return;
	}
	if ((rs = runnerd_alloc(req, peerid, &pol)) != NULL)
		(void)runnerd_make(rs, pol, req, peerid);
}

/*
 * The one teardown.  Every end of a sandbox comes here, in this order:
 * a client's destroy, the end of a run, ttl and idle (lifecycle.c), a
 * client gone with its ephemeral sandboxes, a failed build, netd
 * refusing a create's network, runnerd's stop, a spare dropped or dead
 * (spare.c).
 *
 *  1. runnerd_teardown (-> DYING): its clocks stop and a pause under
 *     way is answered, a frozen sandbox's tasks killed (life_end); its
 *     execs are killed and answered (exec_kill_now); its copiers, which
 *     run as its uid outside it, are killed and answered (files_kill);
 *     netd and dnspind hear of its end (net_end); it leaves the tree;
 *     pid 1 gets SIGKILL, and the sandbox waits in the graveyard until
 *     pid 1's pidfd says it is dead.  The caller answers at once:
 *     nothing of the sandbox runs any more.
 *  2. runnerd_bury, pid 1 dead and its copiers reaped on SIGCHLD
 *     (runnerd_copiers_reaped, whichever comes last): the kernel took
 *     every other process of its pid namespace before pid 1, so
 *     nothing runs as its uid.  envd hears of its end, sandbox_destroy
 *     removes the rest or hands its unmount to the unmounter, and its
 *     uid goes back to the pool (or stays with its service's kept
 *     workspace) (-> UNMOUNTING, CGROUP_RETRY or GONE).
 *  3. runnerd_unmounted: the unmounter is done (-> CGROUP_RETRY if its
 *     cgroup was still busy, else GONE).
 *  4. runnerd_id_freed: cgretry.c removed the cgroup, or gave up on it
 *     (-> GONE): the sandbox is freed, and a create waiting for its id
 *     goes ahead.
 *
 * Pid 1's exit, with its namespaces and mounts, is the kernel's work on
 * another CPU: runnerd serves the next request meanwhile instead of
 * waiting in poll(2).  A sandbox never built (NEW: its create failed
 * before pid 1 existed) only has its network and uid to give back.
 */
static TAILQ_HEAD(, rsandbox)	 graveyard = TAILQ_HEAD_INITIALIZER(graveyard);
/* Buried, its id still taken: UNMOUNTING or CGROUP_RETRY. */
static TAILQ_HEAD(, rsandbox)	 going = TAILQ_HEAD_INITIALIZER(going);
static int			 runnerd_stopping;

static void	runnerd_grave_ready(int, short, void *);

/*
 * Every pid 1 starts as a fork of runnerd: the heap a burst of
 * thousands of sandboxes left, freed but kept by malloc, is copied
 * into each (page tables, then copy-on-write) and unmapped by each
 * again.  So the free memory goes back to the kernel every
 * RUNNERD_TRIM_EVERY sandboxes gone.  After 4000 live, the CPU a
 * create+exec+destroy costs runnerd went 2.9 -> 1.7 ms, its forks
 * 7.3 -> 5.7 ms (life_bench.py).
 */
#define RUNNERD_TRIM_EVERY	256

static void
runnerd_free(struct rsandbox *rs)
{
	static unsigned int	 freed;

	rstate_set(rs, RS_GONE);
	free(rs);
	if (++freed % RUNNERD_TRIM_EVERY == 0)
		malloc_trim(0);
}

/* The end: its id is free, what waited for it goes ahead. */
static void
runnerd_gone(struct rsandbox *rs)
{
	char	 id[SANDBOX_ID_SIZE];

	strlcpy(id, rs->sb.id, sizeof(id));
	if (rs->state != RS_DYING)
		TAILQ_REMOVE(&going, rs, grave);
	runnerd_free(rs);
	runnerd_unpark(id);
}

/* A create that failed before its build: nothing ran, nothing to bury. */
static void
runnerd_unbuilt(struct rsandbox *rs)
{
	net_end(rs);
	exec_discard(rs);
	runnerd_uid_release(rs);
	runnerd_free(rs);
}

void
runnerd_teardown(struct rsandbox *rs)
{
	struct timeval	 tv;

	if (rs->state == RS_NEW) {
		runnerd_unbuilt(rs);
		return;
	}
	life_end(rs);
	/* pid 1 has not reported: nobody waits for its report now. */
	if (rs->ev_events_set && (rs->state == RS_BUILDING ||
	    rs->state == RS_SPARE_BUILDING)) {
		event_del(&rs->ev_events);
		rs->ev_events_set = 0;
	}
	rstate_set(rs, RS_DYING);
	exec_kill_now(rs);
	files_kill(rs);
	net_end(rs);
	/* A spare, or one taken for a run that failed, is in no tree. */
	if (runnerd_find(rs->sb.id) == rs)
		RB_REMOVE(rsandbox_tree, &rsandboxes, rs);
	if (rs->sb.init_pid > 0)
		kill(rs->sb.init_pid, SIGKILL);
	TAILQ_INSERT_TAIL(&graveyard, rs, grave);
	/* No pidfd, nothing to wait for; past the wait, a warning. */
	tv.tv_sec = rs->sb.init_pidfd == -1 ? 0 : SBX_KILL_WAIT_MS / 1000;
	tv.tv_usec = rs->sb.init_pidfd == -1 ? 0 :
	    (SBX_KILL_WAIT_MS % 1000) * 1000;
	event_set(&rs->ev_grave, rs->sb.init_pidfd, EV_READ,
	    runnerd_grave_ready, rs);
	event_add(&rs->ev_grave, &tv);
}

/* pid 1 is dead (or runnerd stops): everything else of it goes. */
static void
runnerd_bury(struct rsandbox *rs)
{
	int	 keep = rs->failed && rs->sb.policy.keep_failed;
	int	 spare = rstate_spare(rs);

	event_del(&rs->ev_grave);
	TAILQ_REMOVE(&graveyard, rs, grave);
	/* A spare was never announced; a veth lent to it goes too. */
	if (!spare)
		runnerd_env_announce(rs, 1);
	else if (rs->spare_net)
		net_spare_release(rs->sb.id);
	cgretry_destroy(&rs->sb, keep);
	if (!spare) {
		net_prepare_soon();
		log_info("sandbox %s destroyed%s", rs->sb.id,
		    keep ? ", workspace kept" : "");
	}
	runnerd_uid_release(rs);
	if (sandbox_unmount_pending(rs->sb.id))
		rstate_set(rs, RS_UNMOUNTING);
	else if (cgretry_pending(rs->sb.id))
		rstate_set(rs, RS_CGROUP_RETRY);
	else {
		runnerd_gone(rs);
		return;
	}
	TAILQ_INSERT_TAIL(&going, rs, grave);
}

/* The buried sandbox of that id, still going; NULL if none. */
static struct rsandbox *
runnerd_going(const char *id)
{
	struct rsandbox	*rs;

	TAILQ_FOREACH(rs, &going, grave)
		if (strcmp(rs->sb.id, id) == 0)
			return (rs);
	return (NULL);
}

/*
 * A create or run for an id still in the graveyard (a service started
 * again at once) waits here for the old sandbox's burial, so that envd,
 * netd and dnspind hear of the old one's end before the new one's
 * start, and runnerd waits for neither.  One per id.
 */
struct rparked {
	TAILQ_ENTRY(rparked)	 entry;
	char			 id[SANDBOX_ID_SIZE];
	uint32_t		 peerid;
	int			 run;	/* else only req->create counts */
	struct sbx_run_req	*req;
};
static TAILQ_HEAD(, rparked)	 parked = TAILQ_HEAD_INITIALIZER(parked);

static int
runnerd_id_going(const char *id)
{
	struct rsandbox	*rs;

	TAILQ_FOREACH(rs, &graveyard, grave)
		if (strcmp(rs->sb.id, id) == 0)
			return (1);
	return (runnerd_going(id) != NULL || cgretry_pending(id) ||
	    sandbox_unmount_pending(id));
}

/* 1: parked (or refused), the caller is done; 0: go ahead now. */
static int
runnerd_park(struct sbx_run_req *req, int run, uint32_t peerid)
{
	struct sbx_create_req	*c = &req->create;
	struct rparked		*p;

	if (c->want_id[0] == '\0' || !runnerd_id_going(c->want_id))
		return (0);
	TAILQ_FOREACH(p, &parked, entry)
		if (strcmp(p->id, c->want_id) == 0) {
			runnerd_result(peerid, c->corr, EEXIST, "sandbox %s "
			    "is in use", c->want_id);
			return (1);
		}
	if ((p = calloc(1, sizeof(*p))) == NULL ||
	    (p->req = malloc(sizeof(*p->req))) == NULL)
		fatal("%s", __func__);
	strlcpy(p->id, c->want_id, sizeof(p->id));
	p->peerid = peerid;
	p->run = run;
	if (run)
		*p->req = *req;
	else
		p->req->create = *c;
	TAILQ_INSERT_TAIL(&parked, p, entry);
	return (1);
}

/* Its cgroup is gone too, or given up (cgretry.c): step 4. */
void
runnerd_id_freed(const char *id)
{
	struct rsandbox	*rs;

	if ((rs = runnerd_going(id)) != NULL)
		runnerd_gone(rs);
	else
		runnerd_unpark(id);
}

/*
 * The unmounter is done with id (step 3); a cgroup it found still busy
 * is retried from cgretry.c's timer, the id taken until it goes.
 */
static void
runnerd_unmounted(const char *id, int cgroup_busy)
{
	struct rsandbox	*rs;

	if (!cgroup_busy) {
		runnerd_id_freed(id);
		return;
	}
	cgretry_add(id);
	if ((rs = runnerd_going(id)) != NULL && rs->state == RS_UNMOUNTING)
		rstate_set(rs, RS_CGROUP_RETRY);
}

/* Nobody waits for it any more. */
static void
runnerd_unpark_client(uint32_t peerid)
{
	struct rparked	*p, *next;

	TAILQ_FOREACH_SAFE(p, &parked, entry, next)
		if (p->peerid == peerid) {
			TAILQ_REMOVE(&parked, p, entry);
			free(p->req);
			free(p);
		}
}

/* The id is free: what waited for it goes ahead (not at a stop). */
static void
runnerd_unpark(const char *id)
{
	struct rparked	*p;

	TAILQ_FOREACH(p, &parked, entry)
		if (strcmp(p->id, id) == 0)
			break;
	if (p == NULL || (!runnerd_stopping && runnerd_id_going(id)))
		return;
	TAILQ_REMOVE(&parked, p, entry);
	if (runnerd_stopping)
		runnerd_result(p->peerid, p->req->create.corr, ECANCELED,
		    "create: runnerd is stopping");
	else if (p->run)
		runnerd_run(p->req, p->peerid);
	else
		runnerd_create(&p->req->create, p->peerid);
	free(p->req);
	free(p);
}

/*
 * pid 1 is dead, or late: a starved sandbox's pid 1 dies on its own
 * CPU quota.  Late, it is waited for on, not in, the event loop.
 */
static void
runnerd_grave_ready(int fd, short event, void *arg)
{
	struct rsandbox	*rs = arg;

	if ((event & EV_TIMEOUT) && rs->sb.init_pidfd != -1) {
		log_warnx("sandbox %s: pid 1 is still dying after %d ms",
		    rs->sb.id, SBX_KILL_WAIT_MS);
		event_add(&rs->ev_grave, NULL);
		return;
	}
	/* Its copiers run as its uid too: runnerd_copiers_reaped buries. */
	if (files_left(rs) > 0) {
		log_debug("sandbox %s: pid 1 is dead, %d copiers not yet",
		    rs->sb.id, files_left(rs));
		rs->grave_copiers = 1;
		return;
	}
	runnerd_bury(rs);
}

/* files.c reaped the last copier of rs: buried if pid 1 was before. */
void
runnerd_copiers_reaped(struct rsandbox *rs)
{
	if (!rs->grave_copiers)
		return;
	rs->grave_copiers = 0;
	runnerd_bury(rs);
}

/* Everything in the graveyard, now: a clean stop. */
static void
runnerd_bury_all(void)
{
	struct rsandbox	*rs;

	runnerd_stopping = 1;
	while ((rs = TAILQ_FIRST(&graveyard)) != NULL)
		runnerd_bury(rs);
}

/* A new config's uid map: the uids of the dead not yet buried stay taken. */
static void
runnerd_uid_hold(void)
{
	struct rsandbox	*rs;

	TAILQ_FOREACH(rs, &graveyard, grave)
		(void)uid_reserve(&runnerd_conf->global, rs->sb.uid);
}

/* An id asked for again (a service's next sandbox) must be free. */
static int
runnerd_id_busy(const char *id)
{
	return (runnerd_find(id) != NULL || runnerd_id_going(id));
}

/* Step 1, then the answer: nothing of the sandbox runs any more. */
void
runnerd_retire(struct rsandbox *rs, uint32_t peerid, const char *corr)
{
	runnerd_teardown(rs);
	runnerd_result(peerid, corr, 0, "destroyed");
	/* Out now: the loop's next turn may bury or build first. */
	runnerd_flush();
	spare_soon();
}

/* A run sandbox goes as soon as its one exec has ended. */
void
runnerd_exec_done(struct rsandbox *rs)
{
	if (rs->run_once && !rstate_ending(rs) && TAILQ_EMPTY(&rs->execs))
		runnerd_retire(rs, rs->owner, rs->run_corr);
	else
		life_activity(rs);
}

/* An exec that could not start has said why; a run sandbox goes. */
void
runnerd_exec_failed(struct rsandbox *rs)
{
	if (rs->run_once && !rstate_ending(rs) && TAILQ_EMPTY(&rs->execs))
		runnerd_retire(rs, 0, rs->run_corr);
	else
		life_activity(rs);
}

/*
 * netd answered: a create that waited is answered now, execs that
 * waited start or fail.  A sandbox without its network is no use.
 */
void
runnerd_net_ready(struct rsandbox *rs, int error, const char *msg)
{
	if (error == 0) {
		if (rs->state == RS_NET_WAIT)
			rstate_set(rs, RS_LIVE);
		runnerd_settle(rs);
		return;
	}
	if (rs->create_pending) {
		rs->create_pending = 0;
		runnerd_result(rs->create_peerid, rs->corr, error,
		    "create: network: %s", msg);
		runnerd_teardown(rs);
		return;
	}
	/* A run's: it stays built without one; its execs fail, it goes. */
	if (rs->state == RS_NET_WAIT)
		rstate_set(rs, RS_LIVE);
	exec_net_failed(rs, error, msg);
}

/*
 * The exec asks envd for its environment before the sandbox is built,
 * so that envd works while runnerd builds.
 */
static void
runnerd_run(struct sbx_run_req *req, uint32_t peerid)
{
	struct rsandbox		*rs;
	struct conf_policy	*pol;

	req->create.ephemeral = 1;
	if (req->create.tap) {
		runnerd_result(peerid, req->create.corr, EINVAL, "run: a tap "
		    "needs a VMM to attach it: create --tap, then exec");
		return;
	}
	if (runnerd_park(req, 1, peerid))
		return;
	if ((rs = runnerd_alloc(&req->create, peerid, &pol)) == NULL)
		return;
	rs->run_once = 1;
	strlcpy(rs->run_corr, req->create.corr, sizeof(rs->run_corr));
	strlcpy(req->exec.id, rs->sb.id, sizeof(req->exec.id));
	/* A spare taken goes as a dropped one: its pid 1 is killed. */
	if (exec_start(rs, &req->exec, peerid) == -1) {
		runnerd_teardown(rs);
		return;
	}
	runnerd_make(rs, pol, &req->create, peerid);
}

/* A new envd knows nothing: tell it of every sandbox. */
static void
runnerd_env_up(void)
{
	struct rsandbox	*rs;

	RB_FOREACH(rs, rsandbox_tree, &rsandboxes)
		runnerd_env_announce(rs, 0);
}

static struct rsandbox *
runnerd_lookup(struct sbx_id_req *req, uint32_t peerid)
{
	struct rsandbox	*rs;

	if ((rs = runnerd_find(req->id)) == NULL)
		runnerd_result(peerid, req->corr, ENOENT, "no such sandbox: %s",
		    req->id);
	return (rs);
}

static void
runnerd_ps(struct ctl_request *req, uint32_t peerid)
{
	struct rsandbox	*rs;
	struct sbx_info	 info;

	RB_FOREACH(rs, rsandbox_tree, &rsandboxes) {
		runnerd_info(rs, &info);
		runnerd_reply(IMSG_CTL_SANDBOX, peerid, &info, sizeof(info));
	}
	runnerd_result(peerid, req->corr, 0, "%s", "");
}

static void
runnerd_client_gone(uint32_t peerid)
{
	struct rsandbox	*rs, *next;

	runnerd_unpark_client(peerid);
	exec_client_gone(peerid);
	execrec_client_gone(peerid);
	stdio_client_gone(peerid);
	RB_FOREACH_SAFE(rs, rsandbox_tree, &rsandboxes, next)
		if (rs->ephemeral && rs->owner == peerid)
			runnerd_teardown(rs);
}

/*
 * Every message reaches these checked against the table (lib/msgtab.c)
 * by child.c: length, fd and contents.
 */
static void
runnerd_dispatch_id(struct imsg *imsg, uint32_t peerid)
{
	struct sbx_id_req	 req = *IMSG_PAYLOAD(imsg, struct sbx_id_req);
	struct sbx_info		 info;
	struct rsandbox		*rs;
	struct rexec		*e, *next;

	if ((rs = runnerd_lookup(&req, peerid)) == NULL)
		return;
	switch (imsg_get_type(imsg)) {
	case IMSG_RUN_KILL:
		if (life_kill_refused(rs, req.corr, peerid))
			break;
		/* The whole sandbox, detached execs' stragglers too. */
		TAILQ_FOREACH_SAFE(e, &rs->execs, entry, next) {
			if (e->abort == ABORT_NONE)
				e->group_only = 0;
			exec_abort(e, SBX_REASON_KILLED);
		}
		runnerd_result(peerid, req.corr, 0, "killed");
		break;
	case IMSG_RUN_DESTROY:
		runnerd_retire(rs, peerid, req.corr);
		break;
	case IMSG_RUN_SHOW:
		runnerd_info(rs, &info);
		runnerd_reply(IMSG_CTL_SANDBOX, peerid, &info, sizeof(info));
		net_show(rs, peerid, req.corr);
		break;
	case IMSG_RUN_PAUSE:
		life_pause(rs, req.corr, peerid);
		break;
	case IMSG_RUN_RESUME:
		life_resume(rs, req.corr, peerid);
		break;
	}
}

static void
runnerd_dispatch_exec_op(struct imsg *imsg, uint32_t peerid)
{
	struct sbx_exec_op	 op = *IMSG_PAYLOAD(imsg, struct sbx_exec_op);
	struct rsandbox		*rs;

	if ((rs = runnerd_lookup((struct sbx_id_req *)&op, peerid)) == NULL)
		return;
	/* Signalling an exec of a paused sandbox: as kill, refused. */
	if (op.op == SBX_EXEC_OP_SIGNAL &&
	    life_kill_refused(rs, op.corr, peerid))
		return;
	execrec_request(rs, &op, peerid);
}

/* A built sandbox for a file request, or NULL with fd closed. */
static struct rsandbox *
runnerd_file_sandbox(struct sbx_id_req *req, int fd, uint32_t peerid)
{
	struct rsandbox	*rs;

	if ((rs = runnerd_lookup(req, peerid)) == NULL) {
		close(fd);
		return (NULL);
	}
	if (rs->state == RS_BUILDING) {
		runnerd_result(peerid, req->corr, EAGAIN, "sandbox %s is still "
		    "being built; try again", rs->sb.id);
		close(fd);
		return (NULL);
	}
	return (rs);
}

/* A put, a get or another file operation (IMSG_RUN_FILEOP). */
static void
runnerd_dispatch_file(struct imsg *imsg, uint32_t peerid)
{
	struct sbx_fileop_req	*op = NULL;
	struct sbx_file_req	*file = NULL;
	struct sbx_id_req	*req;
	struct rsandbox		*rs;
	uint32_t		 type = imsg_get_type(imsg);
	int			 fd = imsg_get_fd(imsg);

	if (type == IMSG_RUN_FILEOP) {
		op = IMSG_PAYLOAD(imsg, struct sbx_fileop_req);
		req = (struct sbx_id_req *)op;
	} else {
		file = IMSG_PAYLOAD(imsg, struct sbx_file_req);
		req = (struct sbx_id_req *)file;
	}
	if ((rs = runnerd_file_sandbox(req, fd, peerid)) == NULL)
		return;
	if (op != NULL)
		files_start_op(rs, op, fd, peerid);
	else
		files_start(rs, file, type == IMSG_RUN_PUT ? WORKSPACE_PUT :
		    WORKSPACE_GET, fd, peerid);
	life_activity(rs);
}

static void
runnerd_dispatch_stdio(struct imsg *imsg, uint32_t peerid)
{
	stdio_put(peerid, IMSG_PAYLOAD(imsg, struct sbx_stdio)->which,
	    imsg_get_fd(imsg));
}

static void
runnerd_dispatch_services(struct imsg *imsg)
{
	svcws_services(IMSG_PAYLOAD(imsg, struct run_services));
}

/* envd's answers on our channel, checked against the table. */
static int
runnerd_dispatch_env(struct imsg *imsg)
{
	struct env_chunk_hdr	*h;

	switch (imsg_get_type(imsg)) {
	case IMSG_ENV_CHUNK:
		h = IMSG_PAYLOAD(imsg, struct env_chunk_hdr);
		exec_env_chunk(h, (char *)(h + 1));
		break;
	case IMSG_ENV_READY:
		exec_env_ready(IMSG_PAYLOAD(imsg, struct env_ready),
		    imsg_get_fd(imsg));
		break;
	default:
		return (-1);
	}
	return (0);
}

/* netd's answers on our channel, checked against the table. */
static int
runnerd_dispatch_net(struct imsg *imsg)
{
	switch (imsg_get_type(imsg)) {
	case IMSG_NET_READY:
		net_ready(IMSG_PAYLOAD(imsg, struct net_ready));
		break;
	case IMSG_NET_SHOWN:
		net_shown(IMSG_PAYLOAD(imsg, struct net_id),
		    imsg_get_peerid(imsg));
		break;
	default:
		return (-1);
	}
	return (0);
}

static int
runnerd_dispatch_main(struct imsg *imsg)
{
	struct sbx_exec_req	*ereq;
	struct rsandbox		*rs;
	uint32_t		 peerid = imsg_get_peerid(imsg);

	if (runnerd_conf == NULL)
		fatalx("%s: request before any config", __func__);
	switch (imsg_get_type(imsg)) {
	case IMSG_RUN_CREATE:
		runnerd_create(IMSG_PAYLOAD(imsg, struct sbx_create_req),
		    peerid);
		break;
	case IMSG_RUN_RUN:
		runnerd_run(IMSG_PAYLOAD(imsg, struct sbx_run_req), peerid);
		break;
	case IMSG_RUN_EXEC:
		ereq = IMSG_PAYLOAD(imsg, struct sbx_exec_req);
		if ((rs = runnerd_lookup((struct sbx_id_req *)ereq,
		    peerid)) != NULL && !life_exec_refused(rs, ereq->corr,
		    peerid) && exec_start(rs, ereq, peerid) == 0)
			life_activity(rs);
		break;
	case IMSG_RUN_KILL:
	case IMSG_RUN_DESTROY:
	case IMSG_RUN_SHOW:
	case IMSG_RUN_PAUSE:
	case IMSG_RUN_RESUME:
		runnerd_dispatch_id(imsg, peerid);
		break;
	case IMSG_RUN_EXEC_OP:
	case IMSG_RUN_EXEC_PS:
		runnerd_dispatch_exec_op(imsg, peerid);
		break;
	case IMSG_RUN_PS:
		runnerd_ps(IMSG_PAYLOAD(imsg, struct ctl_request), peerid);
		break;
	case IMSG_RUN_PUT:
	case IMSG_RUN_GET:
	case IMSG_RUN_FILEOP:
		runnerd_dispatch_file(imsg, peerid);
		break;
	case IMSG_RUN_CLIENT_GONE:
		runnerd_client_gone(peerid);
		break;
	case IMSG_RUN_STDIO:
		runnerd_dispatch_stdio(imsg, peerid);
		break;
	case IMSG_RUN_SERVICES:
		runnerd_dispatch_services(imsg);
		break;
	case IMSG_NET_TUN:
		net_tun(IMSG_PAYLOAD(imsg, struct net_ready),
		    imsg_get_fd(imsg));
		break;
	default:
		return (-1);
	}
	return (0);
}

/* From another child, on our channel to it (lib/peerch.c). */
static int
runnerd_dispatch_peer(enum msg_prog peer, struct imsg *imsg)
{
	if (runnerd_conf == NULL)
		return (-1);
	switch (peer) {
	case MSG_ENVD:
		return (runnerd_dispatch_env(imsg));
	case MSG_NETD:
		return (runnerd_dispatch_net(imsg));
	default:
		return (-1);
	}
}

/* A new channel: the peer (new, or resynced) hears what it must know. */
static void
runnerd_peer_up(enum msg_prog peer)
{
	switch (peer) {
	case MSG_ENVD:
		runnerd_env_up();
		break;
	case MSG_NETD:
		net_up();
		break;
	case MSG_DNSPIND:
		net_dns_up();
		break;
	default:
		break;
	}
}

/* A channel gone: what waits for an answer on it fails now. */
static void
runnerd_peer_down(enum msg_prog peer)
{
	switch (peer) {
	case MSG_ENVD:
		exec_env_down();
		break;
	case MSG_NETD:
		net_down();
		break;
	default:
		break;
	}
}

static void
runnerd_sigchld(int sig, short event, void *arg)
{
	/* Execs are pid 1's children: their ends come on its socket. */
	files_reap();
}

static void
runnerd_init(void)
{
	signal_set(&ev_sigchld, SIGCHLD, runnerd_sigchld, NULL);
	signal_add(&ev_sigchld, NULL);
	sandbox_unmount_init(runnerd_unmounted);
}

static void
runnerd_conf_apply(struct sandboxd_conf *conf)
{
	/* Whatever a previous runnerd left behind goes first. */
	if (mkdir(conf->global.state_dir, 0700) == -1 && errno != EEXIST)
		fatal("%s: %s", __func__, conf->global.state_dir);
	if (runnerd_conf == NULL) {
		/* Kept workspaces first: a live one moves out of harm. */
		svcws_reconcile(conf->global.state_dir);
		sandbox_reconcile(conf->global.state_dir);
		/* From now on a busy cgroup is retried, not waited for. */
		sandbox_cgroup_nowait();
	} else {
		/* Built for the old policies, with the old uid range. */
		spare_drop();
		conf_free(runnerd_conf);
	}
	runnerd_conf = conf;
	uid_reset(&conf->global);
	runnerd_uid_hold();
	svcws_conf(&conf->global);
	spare_conf();
}

/*
 * A clean stop destroys every sandbox: no mount, cgroup or dir stays.
 * Every one goes through the teardown's first step, which kills its
 * pid 1, before any is buried, so that the kernel empties them all at
 * once and each burial finds its own done: one by one, 4000 sandboxes
 * took longer than the master waits for a child's stop.
 */
static void
runnerd_shutdown(void)
{
	struct rsandbox	*rs, *next;

	RB_FOREACH_SAFE(rs, rsandbox_tree, &rsandboxes, next)
		runnerd_teardown(rs);
	spare_drop();		/* into the graveyard too */
	files_wait_killed();
	runnerd_bury_all();
	net_spare_drop(1);
	cgretry_flush();
	svcws_shutdown();
	runnerd_flush();
	sandbox_unmount_stop();
	/* What the unmounter found busy at its last word, waited for. */
	cgretry_flush();
	while ((rs = TAILQ_FIRST(&going)) != NULL)
		runnerd_gone(rs);
	sandbox_shutdown();
}

/* For the master's STATUS line: sandboxes that are not on their way out. */
static uint32_t
runnerd_load(void)
{
	struct rsandbox	*rs;
	uint32_t	 n = 0;

	RB_FOREACH(rs, rsandbox_tree, &rsandboxes)
		if (!rstate_ending(rs))
			n++;
	return (n);
}

static const struct child_ops runnerd_ops = {
	.name = "runnerd",
	.fdpass = 1,
	.init = runnerd_init,
	.shutdown = runnerd_shutdown,
	.conf_apply = runnerd_conf_apply,
	.dispatch_main = runnerd_dispatch_main,
	.dispatch_peer = runnerd_dispatch_peer,
	.peer_up = runnerd_peer_up,
	.peer_down = runnerd_peer_down,
	.load = runnerd_load,
};

int
main(int argc, char *argv[])
{
	child_main(argc, argv, &runnerd_ops);
}
