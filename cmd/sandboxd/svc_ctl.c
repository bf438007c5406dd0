/*
 * sandboxctl service ...: the control socket's requests about services
 * (start, stop, restart, status, list, attach; sandboxctl(8)), their
 * answers, and the service lines of sandboxctl status.
 */
#include <sys/types.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "services.h"

static void
svc_command(struct service *s, char *buf, size_t len)
{
	const char	*a = s->exec->args;
	uint32_t	 i;

	buf[0] = '\0';
	for (i = 0; i < s->exec->argc; i++, a += strlen(a) + 1) {
		if (i > 0)
			strlcat(buf, " ", len);
		strlcat(buf, a, len);
	}
}

static void
svc_info(struct service *s, struct svc_info *si)
{
	const struct policy_msg	*p = svc_policy(s);

	memset(si, 0, sizeof(*si));
	strlcpy(si->name, s->name, sizeof(si->name));
	strlcpy(si->policy, s->policy[0] != '\0' ? s->policy :
	    CONF_DEFAULT_POLICY, sizeof(si->policy));
	if (s->instance)
		strlcpy(si->sandbox, s->id, sizeof(si->sandbox));
	si->state = s->state;
	si->declared = s->declared;
	si->attached = s->attached != 0;
	si->pid = s->pid;
	si->starts = s->starts;
	si->restarts = s->restarts;
	if (p != NULL) {
		si->restart = p->restart;
		si->restart_max = p->restart_max;
		si->restart_window = p->restart_window;
		si->watchdog = p->watchdog;
	}
	si->backoff_ms = s->state == SVC_STATE_BACKOFF ? s->backoff_ms : 0;
	si->uptime = s->pid != 0 ? monotime() - s->started : 0;
	si->dropped = s->dropped;
	svc_command(s, si->command, sizeof(si->command));
	strlcpy(si->reason, s->reason, sizeof(si->reason));
}

static void
svc_send_info(uint32_t client, struct service *s)
{
	struct svc_info	 si;

	svc_info(s, &si);
	control_relay(client, IMSG_CTL_SERVICE_INFO, &si, sizeof(si));
}

/* For sandboxctl status: every service, then the caller's RESULT. */
void
services_status(uint32_t client)
{
	struct service	*s;

	TAILQ_FOREACH(s, &services, entry)
		svc_send_info(client, s);
}

void
svc_result(uint32_t client, const char *corr, int error, const char *fmt,
    ...)
{
	struct ctl_result	 res;
	va_list			 ap;

	va_start(ap, fmt);
	sbx_result_vset(&res, corr, error, fmt, ap);
	va_end(ap);
	control_relay(client, IMSG_CTL_RESULT, &res, sizeof(res));
}

static int
svc_count(void)
{
	struct service	*s;
	int		 n = 0;

	TAILQ_FOREACH(s, &services, entry)
		n++;
	return (n);
}

static void
svc_req_start(uint32_t client, struct svc_req *req, struct service *s)
{
	struct sbx_exec_req	*e;

	if (req->exec.argc == 0) {
		if (s == NULL) {
			svc_result(client, req->corr, ENOENT, "no such "
			    "service: %s; give a command to start a new one",
			    req->name);
			return;
		}
	} else if (s != NULL && s->declared) {
		svc_result(client, req->corr, EEXIST, "service %s is declared "
		    "in the config; start it without a command", s->name);
		return;
	} else if (s == NULL && svc_count() >= CONF_SERVICES_MAX) {
		svc_result(client, req->corr, ENOSPC, "%d services already",
		    CONF_SERVICES_MAX);
		return;
	}
	if (s != NULL && s->state != SVC_STATE_STOPPED &&
	    s->state != SVC_STATE_FAILED) {
		svc_result(client, req->corr, EEXIST, "service %s is already "
		    "running; stop or restart it", s->name);
		return;
	}
	if (conf_policy_find(sbx->conf, req->policy[0] != '\0' ? req->policy :
	    CONF_DEFAULT_POLICY) == NULL && (s == NULL || req->exec.argc)) {
		svc_result(client, req->corr, ENOENT, "no such policy: %s",
		    req->policy);
		return;
	}
	if (req->exec.argc != 0) {
		if ((e = malloc(sizeof(*e))) == NULL)
			fatal("%s", __func__);
		*e = req->exec;
		e->flags = 0;
		e->timeout = 0;
		if (s == NULL)
			s = svc_new(req->name, req->policy, e, 0);
		else {
			free(s->exec);
			s->exec = e;
			strlcpy(s->policy, req->policy, sizeof(s->policy));
		}
	}
	s->restarts = 0;
	s->backoff_step = 0;
	memset(s->restart_times, 0, sizeof(s->restart_times));
	s->reason[0] = '\0';
	/* A start is a fresh one: no workspace or pins of an earlier. */
	if (s->carry) {
		s->carry = 0;
		svc_send_kept();
	}
	svc_start_instance(s);
	svc_send_info(client, s);
	svc_result(client, req->corr, 0, "%s", s->state == SVC_STATE_WAITING ?
	    "waiting for runnerd" : "started");
}

void
services_request(uint32_t client, struct svc_req *req)
{
	struct service	*s = NULL;

	if (req->op != SVC_OP_LIST && (s = svc_find(req->name)) == NULL &&
	    req->op != SVC_OP_START) {
		svc_result(client, req->corr, ENOENT, "no such service: %s",
		    req->name);
		return;
	}
	switch (req->op) {
	case SVC_OP_START:
		svc_req_start(client, req, s);
		return;
	case SVC_OP_LIST:
		services_status(client);
		svc_result(client, req->corr, 0, "%s", "");
		return;
	case SVC_OP_STATUS:
		svc_send_info(client, s);
		svc_result(client, req->corr, 0, "%s", "");
		return;
	case SVC_OP_ATTACH:
		svc_req_attach(client, req, s);
		return;
	}
	/* stop, restart: answered once it has stopped. */
	if (s->waiter != 0 || s->state == SVC_STATE_STOPPING) {
		svc_result(client, req->corr, EBUSY, "service %s is stopping "
		    "already", s->name);
		return;
	}
	s->waiter = client;
	strlcpy(s->waiter_corr, req->corr, sizeof(s->waiter_corr));
	if (req->op == SVC_OP_RESTART)
		s->start_after_stop = 1;
	svc_stop(s);
}

/* A client went away: it waits for nothing any more. */
void
services_client_gone(uint32_t client)
{
	struct service	*s;

	TAILQ_FOREACH(s, &services, entry)
		if (s->waiter == client)
			s->waiter = 0;
	services_detach(client);
}
