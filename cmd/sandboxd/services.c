/*
 * Supervised services: one command each, run in a sandbox of its
 * policy by runnerd on the master's behalf (the peerid of a service is
 * SVC_PEER_BASE + its slot, never a control client's), made again when
 * it ends as its policy's restart statement says, with exponential
 * backoff and full jitter, until the policy's cap gives up on it.
 * Every sandbox of a service has the id its name hashes to, so netd
 * gives each the same network identity.
 *
 * Its standard input and output are two pipes whose far ends go to
 * runnerd as for sandboxctl -i.  The master holds the near ends: it
 * never writes to the input (a service sees nothing there unless a
 * client is attached) and, while nobody is attached, reads and drops
 * the output, counting it, so a service never blocks on a full pipe
 * and nothing is buffered.  service attach hands the client copies of
 * both ends and stops reading until it detaches: the bytes then pass
 * between client and service with no daemon in the way.
 *
 * Services live in the master's memory: declared ones are made again
 * from the config when the master starts; those started by sandboxctl
 * end with the master (sandboxd(8)).
 *
 * The next instance of a service that was running (a crash, its
 * watchdog, service restart, a reload, runnerd's death) is a restart:
 * its create says so, and its kept workspace (keep-workspace) and the
 * DNS pins its last sandbox held carry over.  service start, stop, the
 * config dropping it and a new master start it afresh.  runnerd hears
 * which services may keep a workspace (IMSG_RUN_SERVICES) when it
 * starts and whenever one stops for good.
 *
 * This file keeps the list and each instance's life; svc_stdio.c the
 * pipes and attach, svc_restart.c restarts and the watchdog, svc_ctl.c
 * the requests of sandboxctl service.
 */
#include <sys/types.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "log.h"
#include "sandboxd.h"
#include "sbx_msg.h"
#include "services.h"

struct services	 services = TAILQ_HEAD_INITIALIZER(services);
static uint32_t	 svc_slots;	/* peerids handed out */

/* One JSON audit line, as envd and dnspind write theirs. */
void
svc_audit(struct service *s, const char *event, json_t *extra)
{
	struct timespec	 ts;
	json_t		*a;
	char		*out;

	clock_gettime(CLOCK_REALTIME, &ts);
	a = json_pack("{s:s, s:s, s:s, s:s, s:f}", "audit", event, "service",
	    s->name, "sandbox", s->id, "corr", s->corr, "time",
	    ts.tv_sec + ts.tv_nsec / 1e9);
	if (a == NULL)
		fatalx("%s: json_pack", __func__);
	if (extra != NULL && json_object_update(a, extra) == -1)
		fatalx("%s: json_object_update", __func__);
	json_decref(extra);
	if ((out = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_REAL_PRECISION(15))) == NULL)
		fatalx("%s: json_dumps", __func__);
	log_info("audit %s", out);
	free(out);
	json_decref(a);
}

struct service *
svc_find(const char *name)
{
	struct service	*s;

	TAILQ_FOREACH(s, &services, entry)
		if (strcmp(s->name, name) == 0)
			return (s);
	return (NULL);
}

static struct service *
svc_by_peer(uint32_t peerid)
{
	struct service	*s;

	TAILQ_FOREACH(s, &services, entry)
		if (s->peerid == peerid)
			return (s);
	return (NULL);
}

/* FNV-1a of the name: the same sandbox id whoever starts it, when. */
static void
svc_make_id(const char *name, char *id)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	const char	*p;

	for (p = "service:"; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	for (p = name; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	snprintf(id, SBX_ID_SIZE, "%016llx", (unsigned long long)h);
}

const struct policy_msg *
svc_policy(struct service *s)
{
	struct conf_policy	*p;

	p = conf_policy_find(sbx->conf, s->policy[0] != '\0' ? s->policy :
	    CONF_DEFAULT_POLICY);
	return (p != NULL ? &p->m : NULL);
}

struct service *
svc_new(const char *name, const char *policy, struct sbx_exec_req *exec,
    int declared)
{
	struct service	*s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		fatal("%s", __func__);
	strlcpy(s->name, name, sizeof(s->name));
	strlcpy(s->policy, policy, sizeof(s->policy));
	s->exec = exec;
	s->declared = declared;
	s->peerid = SVC_PEER_BASE + svc_slots++;
	svc_make_id(name, s->id);
	s->in_w = s->out_r = -1;
	s->state = SVC_STATE_STOPPED;
	evtimer_set(&s->ev_restart, svc_restart_cb, s);
	evtimer_set(&s->ev_watchdog, svc_watchdog_cb, s);
	TAILQ_INSERT_TAIL(&services, s, entry);
	return (s);
}

static void
svc_free(struct service *s)
{
	evtimer_del(&s->ev_restart);
	evtimer_del(&s->ev_watchdog);
	TAILQ_REMOVE(&services, s, entry);
	free(s->exec);
	free(s);
	svc_send_kept();
}

/* What an instance needs running: netd and dnspind only for a network. */
static int
svc_children_up(struct service *s)
{
	const struct policy_msg	*p = svc_policy(s);

	if (!children_running(PROC_RUNNERD) || !children_running(PROC_ENVD))
		return (0);
	return (p == NULL || !p->has_network ||
	    (children_running(PROC_NETD) && children_running(PROC_DNSPIND)));
}

static void
svc_reply_waiter(struct service *s, int error, const char *msg)
{
	struct ctl_result	 res;

	if (s->waiter == 0)
		return;
	memset(&res, 0, sizeof(res));
	strlcpy(res.corr, s->waiter_corr, sizeof(res.corr));
	res.error = error;
	strlcpy(res.msg, msg, sizeof(res.msg));
	control_relay(s->waiter, IMSG_CTL_RESULT, &res, sizeof(res));
	s->waiter = 0;
}

void
svc_start_instance(struct service *s)
{
	struct sbx_run_req	*req;

	if (!svc_children_up(s)) {
		s->state = SVC_STATE_WAITING;
		return;
	}
	corr_new(s->corr, sizeof(s->corr));
	if ((req = calloc(1, sizeof(*req))) == NULL)
		fatal("%s", __func__);
	strlcpy(req->create.corr, s->corr, sizeof(req->create.corr));
	strlcpy(req->create.policy, s->policy, sizeof(req->create.policy));
	strlcpy(req->create.service, s->name, sizeof(req->create.service));
	strlcpy(req->create.want_id, s->id, sizeof(req->create.want_id));
	req->create.ephemeral = 1;
	req->create.restart = s->carry != 0;
	req->exec = *s->exec;
	strlcpy(req->exec.corr, s->corr, sizeof(req->exec.corr));
	req->exec.flags = SBX_EXEC_INTERACTIVE | SBX_EXEC_SERVICE;
	s->have_result = s->watchdog_fired = s->stop_requested = 0;
	s->start_err[0] = '\0';
	s->kill_corr[0] = '\0';
	s->tail_len = 0;
	s->pid = 0;
	s->starts++;
	s->state = SVC_STATE_STARTING;
	s->started = monotime();
	if (svc_open_stdio(s) == -1 || children_send_runnerd(IMSG_RUN_RUN,
	    s->peerid, -1, req, sizeof(*req)) == -1) {
		/* runnerd went away between the check and now. */
		svc_close_stdio(s);
		s->state = SVC_STATE_WAITING;
		free(req);
		return;
	}
	free(req);
	s->instance = 1;
	svc_drain_start(s);
	log_info("service %s: starting, sandbox %s", s->name, s->id);
}

void
svc_kill(struct service *s)
{
	struct sbx_id_req	 req;

	memset(&req, 0, sizeof(req));
	corr_new(s->kill_corr, sizeof(s->kill_corr));
	strlcpy(req.corr, s->kill_corr, sizeof(req.corr));
	strlcpy(req.id, s->id, sizeof(req.id));
	children_send_runnerd(IMSG_RUN_KILL, s->peerid, -1, &req, sizeof(req));
}

/* Stopped as asked: gone if the config dropped it, else again if asked. */
void
svc_stopped(struct service *s)
{
	s->state = SVC_STATE_STOPPED;
	svc_audit(s, "service.stop", json_pack("{s:s, s:o}", "reason",
	    s->reason, "stderr", svc_tail_lines(s)));
	svc_reply_waiter(s, 0, "stopped");
	if (s->gone) {
		svc_free(s);
		return;
	}
	if (!s->start_after_stop) {
		/* Stopped for good: its kept workspace goes. */
		s->carry = 0;
		svc_send_kept();
	}
	if (s->start_after_stop) {
		s->start_after_stop = 0;
		s->restarts = 0;
		memset(s->restart_times, 0, sizeof(s->restart_times));
		s->backoff_step = 0;
		svc_start_instance(s);
	}
}

/* runnerd's last word on an instance: its sandbox is gone. */
static void
svc_instance_ended(struct service *s)
{
	const struct policy_msg	*p = svc_policy(s);
	int			 failed;

	s->instance = 0;
	s->pid = 0;
	s->carry = 1;
	evtimer_del(&s->ev_watchdog);
	svc_close_stdio(s);
	failed = svc_end_reason(s, s->reason, sizeof(s->reason));
	if (s->stop_requested) {
		svc_stopped(s);
		return;
	}
	svc_audit(s, failed ? "service.crash" : "service.exit",
	    json_pack("{s:s, s:i, s:i, s:o}", "reason", s->reason,
	    "status", s->have_result ? s->result.status : -1,
	    "signal", s->have_result ? s->result.signal : 0,
	    "stderr", svc_tail_lines(s)));
	log_warnx("service %s: %s", s->name, s->reason);
	if (p == NULL || p->restart == RESTART_NEVER ||
	    (p->restart == RESTART_ON_FAILURE && !failed)) {
		s->state = failed ? SVC_STATE_FAILED : SVC_STATE_STOPPED;
		if (failed)
			svc_audit(s, "service.giveup", json_pack("{s:s, s:s}",
			    "reason", s->reason, "restart", p == NULL ?
			    "no policy" : "never"));
		return;
	}
	svc_schedule(s, p);
}

/* runnerd's replies for a service, checked as the clients' are. */
void
services_reply(uint32_t peerid, uint32_t type, const void *data, size_t len)
{
	struct service			*s;
	struct sbx_exec_start		 st;
	struct ctl_result		 res;
	struct sbx_output_hdr		 hdr;

	if ((s = svc_by_peer(peerid)) == NULL || !s->instance)
		return;
	switch (type) {
	case IMSG_CTL_EXEC_START:
		memcpy(&st, data, sizeof(st));
		s->pid = st.pid;
		s->started = monotime();
		if (s->state == SVC_STATE_STARTING)
			s->state = SVC_STATE_RUNNING;
		svc_audit(s, "service.start", json_pack("{s:i, s:I, s:I}",
		    "pid", (int)st.pid, "start", (json_int_t)s->starts,
		    "restarts", (json_int_t)s->restarts));
		if (s->stop_requested)
			svc_kill(s);
		else
			svc_watchdog_arm(s);
		break;
	case IMSG_CTL_OUTPUT:
		memcpy(&hdr, data, sizeof(hdr));
		if (hdr.stream == SBX_STDERR)
			svc_tail_add(s, (const char *)data + sizeof(hdr),
			    hdr.len);
		break;
	case IMSG_CTL_EXEC_RESULT:
		memcpy(&s->result, data, sizeof(s->result));
		s->have_result = 1;
		evtimer_del(&s->ev_watchdog);
		break;
	case IMSG_CTL_RESULT:
		memcpy(&res, data, sizeof(res));
		res.corr[sizeof(res.corr) - 1] = '\0';
		res.msg[sizeof(res.msg) - 1] = '\0';
		/* The answer to our kill, not the end of the instance. */
		if (s->kill_corr[0] != '\0' &&
		    strcmp(res.corr, s->kill_corr) == 0) {
			s->kill_corr[0] = '\0';
			break;
		}
		if (res.error != 0)
			strlcpy(s->start_err, res.msg, sizeof(s->start_err));
		svc_instance_ended(s);
		break;
	}
}

/* runnerd died and its sandboxes with it: no fault of the services'. */
void
services_runnerd_gone(void)
{
	struct service	*s, *next;

	TAILQ_FOREACH_SAFE(s, &services, entry, next) {
		if (!s->instance)
			continue;
		s->instance = 0;
		s->pid = 0;
		s->carry = 1;
		evtimer_del(&s->ev_watchdog);
		svc_close_stdio(s);
		strlcpy(s->reason, "runnerd died", sizeof(s->reason));
		if (s->stop_requested) {
			svc_stopped(s);
			continue;
		}
		svc_audit(s, "service.lost", json_pack("{s:s}", "reason",
		    s->reason));
		s->state = SVC_STATE_WAITING;
	}
}

/* A child is up (again): start what waits for it, each exactly once. */
void
services_kick(void)
{
	struct service	*s;

	TAILQ_FOREACH(s, &services, entry)
		if (s->state == SVC_STATE_WAITING && !s->instance &&
		    svc_children_up(s))
			svc_start_instance(s);
}

/* What a declared service is made of, as an exec request. */
static struct sbx_exec_req *
svc_exec_from_conf(const struct service_msg *m)
{
	struct sbx_exec_req	*e;

	if ((e = calloc(1, sizeof(*e))) == NULL)
		fatal("%s", __func__);
	memcpy(e->args, m->args, m->args_len);
	e->args_len = m->args_len;
	e->argc = m->argc;
	return (e);
}

static int
svc_same(struct service *s, const struct service_msg *m)
{
	return (s->declared && strcmp(s->policy, m->policy) == 0 &&
	    s->exec->envc == 0 && s->exec->argc == m->argc &&
	    s->exec->args_len == m->args_len &&
	    memcmp(s->exec->args, m->args, m->args_len) == 0);
}

/* Stop it; -1 if a stop is under way already. */
int
svc_stop(struct service *s)
{
	switch (s->state) {
	case SVC_STATE_STARTING:
	case SVC_STATE_RUNNING:
		s->stop_requested = 1;
		s->state = SVC_STATE_STOPPING;
		strlcpy(s->reason, "stopped by request", sizeof(s->reason));
		evtimer_del(&s->ev_watchdog);
		/* Starting: the kill follows its exec's start. */
		if (s->pid != 0)
			svc_kill(s);
		return (0);
	case SVC_STATE_STOPPING:
		return (-1);
	default:
		evtimer_del(&s->ev_restart);
		strlcpy(s->reason, "stopped by request", sizeof(s->reason));
		svc_stopped(s);
		return (0);
	}
}

/* The reload kept its policy as it was: name, limits and rules. */
static int
svc_policy_kept(struct service *s, struct sandboxd_conf *old,
    struct sandboxd_conf *conf, const char *policy)
{
	if (old == NULL)
		return (1);
	return (conf_policy_same(old, conf, policy[0] != '\0' ? policy :
	    CONF_DEFAULT_POLICY));
}

/*
 * The config's services: new ones start, changed and failed ones are
 * made again, ones it no longer declares are stopped and forgotten.  A service
 * started by sandboxctl under a name the config now declares becomes
 * the declared one.  A running service whose policy the reload changed
 * (old is the config before it, NULL at start) is made again under the
 * new one, as its next sandbox would be: a tightened policy does not
 * wait for a crash to apply.
 */
void
services_conf(struct sandboxd_conf *old, struct sandboxd_conf *conf)
{
	struct conf_service	*cs;
	struct service		*s, *next;

	TAILQ_FOREACH_SAFE(s, &services, entry, next) {
		TAILQ_FOREACH(cs, &conf->services, entry)
			if (strcmp(cs->m.name, s->name) == 0)
				break;
		if (s->declared && cs == NULL) {
			s->gone = 1;
			svc_stop(s);
		} else if (cs == NULL && s->instance &&
		    s->state != SVC_STATE_STOPPING &&
		    !svc_policy_kept(s, old, conf, s->policy)) {
			s->start_after_stop = 1;
			svc_stop(s);
		}
	}
	TAILQ_FOREACH(cs, &conf->services, entry) {
		if ((s = svc_find(cs->m.name)) != NULL && svc_same(s, &cs->m) &&
		    svc_policy_kept(s, old, conf, cs->m.policy)) {
			/* A reload says the cause of a failure may be fixed. */
			if (s->state == SVC_STATE_FAILED) {
				s->restarts = 0;
				s->backoff_step = 0;
				memset(s->restart_times, 0,
				    sizeof(s->restart_times));
				s->state = SVC_STATE_WAITING;
			}
			continue;
		}
		if (s == NULL) {
			s = svc_new(cs->m.name, cs->m.policy,
			    svc_exec_from_conf(&cs->m), 1);
			s->state = SVC_STATE_WAITING;
			continue;
		}
		free(s->exec);
		s->exec = svc_exec_from_conf(&cs->m);
		strlcpy(s->policy, cs->m.policy, sizeof(s->policy));
		s->declared = 1;
		s->gone = 0;
		if (s->instance || s->state == SVC_STATE_STOPPING) {
			s->start_after_stop = 1;
			svc_stop(s);
		} else {
			evtimer_del(&s->ev_restart);
			s->state = SVC_STATE_WAITING;
		}
	}
	services_kick();
}

/*
 * To runnerd: the services whose workspace it keeps, those with an
 * instance or one to come as a restart; any other kept one goes.
 */
void
svc_send_kept(void)
{
	struct run_services	*m;
	struct service		*s;

	if (!children_running(PROC_RUNNERD))
		return;
	if ((m = calloc(1, sizeof(*m))) == NULL)
		fatal("%s", __func__);
	TAILQ_FOREACH(s, &services, entry)
		if ((s->instance || s->carry) && m->count < CONF_SERVICES_MAX)
			strlcpy(m->ids[m->count++], s->id, sizeof(m->ids[0]));
	children_send_runnerd(IMSG_RUN_SERVICES, 0, -1, m, sizeof(*m));
	free(m);
}

/* runnerd (re)started: it hears which kept workspaces are still ours. */
void
services_runnerd_up(void)
{
	svc_send_kept();
}

/* For the STATUS line: services running and all those known. */
void
services_count(uint32_t *running, uint32_t *total)
{
	struct service	*s;

	*running = *total = 0;
	TAILQ_FOREACH(s, &services, entry) {
		if (s->gone)
			continue;
		(*total)++;
		if (s->state == SVC_STATE_RUNNING)
			(*running)++;
	}
}
