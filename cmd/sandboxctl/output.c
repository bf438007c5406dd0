/* Printing replies: a table for people, JSON lines with -j. */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sbx_msg.h"
#include "utf8.h"

#include <err.h>

#include "sandboxctl.h"

static const char *
state_name(uint32_t state)
{
	switch (state) {
	case PROC_STATE_RUNNING:
		return ("running");
	case PROC_STATE_STARTING:
		return ("starting");
	case PROC_STATE_BACKOFF:
		return ("restarting");
	case PROC_STATE_FAILED:
		return ("failed");
	case PROC_STATE_SELF:
		return ("running");
	}
	return ("unknown");
}

static const char *
seccomp_name(uint32_t mode)
{
	switch (mode) {
	case 0:
		return ("none");
	case 1:
		return ("strict");
	case 2:
		return ("filter");
	}
	return ("unknown");
}

void
show_status_header(void)
{
	if (!json)
		printf("%-9s %7s %-12s %-8s %-4s %8s %8s %5s %-10s %s\n",
		    "NAME", "PID", "USER", "SECCOMP", "NNP", "RESTARTS",
		    "UPTIME", "CONF", "STATE", "CAPABILITIES");
}

static void
show_proc_json(const struct ctl_proc_status *ps, const char *caps)
{
	json_t	*o;

	o = json_pack("{s:s, s:s, s:i, s:I, s:s, s:s, s:I, s:s, s:b, s:I, "
	    "s:I, s:I, s:s, s:s}",
	    "event", "proc.status", "name", ps->name, "pid", ps->pid,
	    "uid", (json_int_t)ps->uid, "user", ps->user,
	    "capabilities", caps, "cap_eff", (json_int_t)ps->cap_eff,
	    "seccomp", seccomp_name(ps->seccomp), "no_new_privs",
	    ps->nonewprivs, "restarts", (json_int_t)ps->restarts,
	    "uptime", (json_int_t)ps->uptime,
	    "conf_generation", (json_int_t)ps->conf_generation,
	    "state", state_name(ps->state), "root", ps->root);
	json_emit(o);
}

/* netd's warning about the host's other filters, after the rows. */
void
show_hostfw(const struct net_hostfw *hf)
{
	if (!json) {
		printf("warning: host firewall: %s\n", hf->text);
		return;
	}
	json_emit(json_pack("{s:s, s:s}", "event", "net.hostfw", "problem",
	    hf->text));
}

void
show_proc_status(const struct ctl_proc_status *ps)
{
	if (json) {
		show_proc_json(ps, ps->caps);
		return;
	}
	if (ps->pid <= 0) {
		printf("%-9s %7s %-12s %-8s %-4s %8u %8s %5s %-10s %s\n",
		    ps->name, "-", "-", "-", "-", ps->restarts, "-", "-",
		    state_name(ps->state), "-");
		return;
	}
	printf("%-9s %7d %-12s %-8s %-4u %8u %7llds %5llu %-10s %s\n",
	    ps->name, ps->pid, ps->user[0] ? ps->user : "?",
	    seccomp_name(ps->seccomp), ps->nonewprivs, ps->restarts,
	    (long long)ps->uptime, (unsigned long long)ps->conf_generation,
	    state_name(ps->state), ps->caps);
}

/* The stable code of a failure sandboxd reported (sandboxctl(8)). */
static const char *
result_code(const struct ctl_result *res)
{
	switch (res->fail) {
	case CTL_FAIL_NOCMD:
		return ("command_not_found");
	case CTL_FAIL_NOEXEC:
		return ("command_not_executable");
	case CTL_FAIL_LIMIT:
		return ("limit");
	case CTL_FAIL_NET:
		return ("network_unavailable");
	}
	switch (res->error) {
	case EPERM:
	case EACCES:
		return ("permission_denied");
	case ENOENT:
		return ("not_found");
	case EEXIST:
		return ("exists");
	case EINVAL:
		return ("invalid");
	case EAGAIN:
		return ("unavailable");
	case ETIMEDOUT:
		return ("timed_out");
	case ECANCELED:
		return ("cancelled");
	case EDQUOT:
	case ENOSPC:
		return ("quota");
	}
	return ("failed");
}

/*
 * 125: sandboxd refused or failed, as timeout(1) and env(1) do; 127
 * and 126 for a command not found or not executable, as sh(1) does.
 */
int
show_result(const struct ctl_result *res)
{
	if (res->fail == CTL_FAIL_NET && ctl_last.have_sandbox)
		show_net_unavailable(ctl_last.sandbox.id, res->msg);
	else
		show_net_flush();
	if (res->error != 0 && json)
		jev_error(result_code(res), res->error, res->corr, res->msg);
	else if (json)
		json_emit(json_pack("{s:s, s:b, s:s, s:s}", "event", "result",
		    "ok", 1, "message", res->msg, "corr", res->corr));
	else if (res->error != 0)
		fprintf(stderr, "sandboxctl: %s\n", res->msg);
	else if (res->msg[0] != '\0' && !ctl_last.have_sandbox &&
	    !ctl_last.ps)
		printf("%s\n", res->msg);
	if (res->error == 0)
		return (0);
	if (res->fail == CTL_FAIL_NOCMD)
		return (127);
	if (res->fail == CTL_FAIL_NOEXEC)
		return (126);
	return (125);
}

void
show_ps_header(void)
{
	if (!json)
		printf("%-16s %-12s %8s %8s %5s %5s %8s %-7s %-12s %s\n", "ID",
		    "POLICY", "UID", "PID", "EXECS", "PROCS", "AGE", "STATE",
		    "LABELS", "SERVICE");
}

static json_t *
sandbox_json(const struct sbx_info *si, const char *event)
{
	json_t	*o;

	o = json_pack("{s:s, s:s, s:s, s:I, s:i, s:I, s:I, s:I, s:b, "
	    "s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:s}",
	    "event", event, "id", si->id, "policy", si->policy,
	    "uid", (json_int_t)si->uid, "pid", si->init_pid,
	    "created", (json_int_t)si->created,
	    "execs", (json_int_t)si->execs, "procs", (json_int_t)si->procs,
	    "ephemeral", si->ephemeral, "memory", (json_int_t)si->memory,
	    "pids", (json_int_t)si->pids,
	    "cpu_percent", (json_int_t)si->cpu_percent,
	    "timeout", (json_int_t)si->timeout,
	    "timeout_max", (json_int_t)si->timeout_max,
	    "stdout_cap", (json_int_t)si->stdout_cap,
	    "stderr_cap", (json_int_t)si->stderr_cap,
	    "workspace", (json_int_t)si->workspace,
	    "workspace_path", si->workspace_path);
	if (o != NULL && si->service[0] != '\0')
		json_object_set_new(o, "service", json_string(si->service));
	if (o != NULL && si->net != SBX_NET_NONE)
		json_object_set_new(o, "network", net_ident_json(&si->net_ident,
		    si->net == SBX_NET_TAP));
	life_json(o, si);
	return (o);
}

static void
show_sandbox_long(const struct sbx_info *si)
{
	printf("id:             %s\npolicy:         %s\n"
	    "uid:            %u\npid:            %d\n"
	    "execs:          %u\nprocesses:      %u\n"
	    "memory:         %llu\npids:           %u\n"
	    "cpu:            %u%%\ntimeout:        %us (max %us)\n"
	    "stdout cap:     %llu\nstderr cap:     %llu\n"
	    "workspace:      %s (%llu bytes)\n",
	    si->id, si->policy, si->uid, si->init_pid, si->execs,
	    si->procs, (unsigned long long)si->memory, si->pids,
	    si->cpu_percent, si->timeout, si->timeout_max,
	    (unsigned long long)si->stdout_cap,
	    (unsigned long long)si->stderr_cap, si->workspace_path,
	    (unsigned long long)si->workspace);
	life_show_long(si);
}

void
show_sandbox(const struct sbx_info *si, const char *event)
{
	char	 labels[SBX_LABELS_SIZE + 16];

	if (ctl_last.ps && !life_ps_match(si))
		return;
	if (json) {
		json_emit(sandbox_json(si, event != NULL ? event : "sandbox"));
		return;
	}
	if (ctl_last.ps) {
		life_labels_text(si, labels, sizeof(labels));
		printf("%-16s %-12s %8u %8d %5u %5u %7llds %-7s %-12s %s\n",
		    si->id, si->policy, si->uid, si->init_pid, si->execs,
		    si->procs, (long long)(time(NULL) - si->created),
		    life_state(si), labels,
		    si->service[0] != '\0' ? si->service : "-");
	} else if (event != NULL && strcmp(event, "sandbox") == 0)
		show_sandbox_long(si);
}

void
show_event_id(const char *event, const char *id)
{
	if (json)
		json_emit(json_pack("{s:s, s:s}", "event", event, "id", id));
}

void
show_exec_start(const struct sbx_exec_start *st)
{
	if (json)
		json_emit(json_pack("{s:s, s:s, s:I, s:s, s:i, s:I, s:b, s:b, "
		    "s:I}", "event", "start", "id", st->id, "exec",
		    (json_int_t)st->exec_id, "exec_id", st->exec, "pid",
		    st->pid, "timeout", (json_int_t)st->timeout, "detached",
		    st->detached, "replay", st->replay, "started",
		    (json_int_t)st->started));
}

/* An exec's streams: escaped on a terminal, or events with -j. */
static struct esc_state	 esc_out, esc_err;
static struct jev_stream jev_out = { "stdout", "", 0, { 0 }, 0 };
static struct jev_stream jev_err = { "stderr", "", 0, { 0 }, 0 };

void
show_output(const struct sbx_output_hdr *h, const char *data)
{
	struct jev_stream	*js;

	if (!json) {
		fflush(stdout);
		if (h->stream == SBX_STDOUT)
			esc_write(STDOUT_FILENO, &esc_out, data, h->len);
		else
			esc_write(STDERR_FILENO, &esc_err, data, h->len);
		return;
	}
	js = h->stream == SBX_STDOUT ? &jev_out : &jev_err;
	if (js->exec != h->exec_id || strcmp(js->id, h->id) != 0) {
		jev_output_end(js);
		strlcpy(js->id, h->id, sizeof(js->id));
		js->exec = h->exec_id;
	}
	jev_output(js, data, h->len);
}

static const char *
exit_reason(const struct sbx_exec_result *r)
{
	if (r->reason == SBX_REASON_EXIT)
		return (r->signal != 0 ? "signalled" : "exited");
	return (sbx_reason_name(r->reason));
}

/* The last event of an exec: how it ended and what it used. */
static void
show_exit_json(const struct sbx_exec_result *r, int rc)
{
	json_t	*o;

	jev_output_end(&jev_out);
	jev_output_end(&jev_err);
	o = json_pack("{s:s, s:s, s:I, s:s, s:i, "
	    "s:{s:b, s:b}, s:{s:I, s:I}, s:{s:I, s:I, s:I, s:I}}",
	    "event", "exit", "id", r->id, "exec", (json_int_t)r->exec_id,
	    "reason", exit_reason(r), "exit_status", rc,
	    "truncated", "stdout", r->truncated_stdout,
	    "stderr", r->truncated_stderr,
	    "bytes", "stdout", (json_int_t)r->bytes_stdout,
	    "stderr", (json_int_t)r->bytes_stderr,
	    "usage", "wall_us", (json_int_t)r->duration_us,
	    "user_us", (json_int_t)r->utime_us,
	    "system_us", (json_int_t)r->stime_us,
	    "max_rss_bytes", (json_int_t)(r->maxrss_kb * 1024));
	if (o != NULL) {
		json_object_set_new(o, "exec_id", json_string(r->exec));
		json_object_set_new(o, "code", r->signal == 0 ?
		    json_integer(r->status) : json_null());
		json_object_set_new(o, "signal", r->signal != 0 ?
		    json_integer(r->signal) : json_null());
		if (r->signal != 0 && sigabbrev_np(r->signal) != NULL)
			json_object_set_new(o, "signal_name",
			    json_string(sigabbrev_np(r->signal)));
	}
	json_emit(o);
}

/* The command's own status; 124 on timeout; 128+N on signal N. */
int
show_exec_result(const struct sbx_exec_result *r)
{
	int	 rc;

	if (r->reason == SBX_REASON_TIMEOUT)
		rc = 124;
	else if (r->signal != 0)
		rc = 128 + r->signal;
	else
		rc = r->status;
	ctl_last.exec_result = *r;
	ctl_last.have_exec_result = 1;
	ctl_last.exit_status = rc;
	/* With -j, the exit event comes last, from show_exec_end. */
	if (json)
		return (rc);
	esc_flush(STDOUT_FILENO, &esc_out);
	esc_flush(STDERR_FILENO, &esc_err);
	if (r->reason != SBX_REASON_EXIT ||
	    r->truncated_stdout || r->truncated_stderr)
		fprintf(stderr, "sandboxctl: %s%s%s\n",
		    sbx_reason_name(r->reason),
		    r->signal ? ", signal " : "",
		    r->signal ? strsignal(r->signal) : "");
	if (r->truncated_stdout || r->truncated_stderr)
		fprintf(stderr, "sandboxctl: output truncated (stdout %llu "
		    "bytes, stderr %llu bytes produced)\n",
		    (unsigned long long)r->bytes_stdout,
		    (unsigned long long)r->bytes_stderr);
	return (rc);
}

/* After everything else a run or an exec prints: exactly one exit. */
void
show_exec_end(void)
{
	if (json && ctl_last.have_exec_result)
		show_exit_json(&ctl_last.exec_result, ctl_last.exit_status);
	ctl_last.have_exec_result = 0;
}

static const char *
svc_state_name(uint32_t state)
{
	switch (state) {
	case SVC_STATE_WAITING:
		return ("waiting");
	case SVC_STATE_STARTING:
		return ("starting");
	case SVC_STATE_RUNNING:
		return ("running");
	case SVC_STATE_STOPPING:
		return ("stopping");
	case SVC_STATE_BACKOFF:
		return ("backoff");
	case SVC_STATE_STOPPED:
		return ("stopped");
	case SVC_STATE_FAILED:
		return ("failed");
	}
	return ("unknown");
}

static const char *
svc_restart_name(uint32_t r)
{
	switch (r) {
	case RESTART_NEVER:
		return ("never");
	case RESTART_ON_FAILURE:
		return ("on-failure");
	case RESTART_ALWAYS:
		return ("always");
	}
	return ("unknown");
}

void
show_service_header(void)
{
	if (json || ctl_last.service_header || ctl_last.service_long)
		return;
	ctl_last.service_header = 1;
	printf("%-16s %-10s %-12s %-16s %7s %8s %8s %s\n", "SERVICE", "STATE",
	    "POLICY", "SANDBOX", "PID", "RESTARTS", "UPTIME", "REASON");
}

static void
show_service_long(const struct svc_info *si)
{
	printf("service:        %s%s\nstate:          %s\npolicy:         %s\n"
	    "sandbox:        %s\npid:            %d\ncommand:        %s\n"
	    "starts:         %u\nrestarts:       %u\n"
	    "restart:        %s max %u per %us\nwatchdog:       %us\n"
	    "uptime:         %llds\nattached:       %s\n"
	    "stdout dropped: %llu bytes\n",
	    si->name, si->declared ? " (declared)" : "",
	    svc_state_name(si->state), si->policy,
	    si->sandbox[0] ? si->sandbox : "-", si->pid, si->command,
	    si->starts, si->restarts, svc_restart_name(si->restart),
	    si->restart_max, si->restart_window, si->watchdog,
	    (long long)si->uptime, si->attached ? "yes" : "no",
	    (unsigned long long)si->dropped);
	if (si->state == SVC_STATE_BACKOFF)
		printf("next start in:  %u ms\n", si->backoff_ms);
	if (si->reason[0] != '\0')
		printf("reason:         %s\n", si->reason);
}

void
show_service(const struct svc_info *si)
{
	if (json) {
		json_emit(json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:b, s:i, "
		    "s:I, s:I, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:s, s:s}",
		    "event", "service", "name", si->name, "policy", si->policy,
		    "sandbox", si->sandbox, "state", svc_state_name(si->state),
		    "declared", si->declared, "attached", si->attached,
		    "pid", si->pid, "starts", (json_int_t)si->starts,
		    "restarts", (json_int_t)si->restarts,
		    "restart", svc_restart_name(si->restart),
		    "restart_max", (json_int_t)si->restart_max,
		    "restart_window", (json_int_t)si->restart_window,
		    "watchdog", (json_int_t)si->watchdog,
		    "backoff_ms", (json_int_t)si->backoff_ms,
		    "uptime", (json_int_t)si->uptime,
		    "stdout_dropped", (json_int_t)si->dropped,
		    "command", si->command, "reason", si->reason));
		return;
	}
	if (ctl_last.service_long) {
		show_service_long(si);
		return;
	}
	if (!ctl_last.service_header) {
		putchar('\n');
		show_service_header();
	}
	printf("%-16s %-10s %-12s %-16s %7d %8u %7llds %s\n", si->name,
	    svc_state_name(si->state), si->policy,
	    si->sandbox[0] ? si->sandbox : "-", si->pid, si->restarts,
	    (long long)si->uptime, si->reason);
}
