/* Printing replies: a table for people, JSON lines with -j. */
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
	if (o == NULL)
		return;
	json_dumpf(o, stdout, JSON_COMPACT);
	putchar('\n');
	json_decref(o);
}

/* netd's warning about the host's other filters, after the rows. */
void
show_hostfw(const struct net_hostfw *hf)
{
	json_t	*o;

	if (!json) {
		printf("warning: host firewall: %s\n", hf->text);
		return;
	}
	if ((o = json_pack("{s:s, s:s}", "event", "net.hostfw", "problem",
	    hf->text)) == NULL)
		return;
	json_dumpf(o, stdout, JSON_COMPACT);
	putchar('\n');
	json_decref(o);
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

void
json_emit(json_t *o)
{
	if (o == NULL)
		return;
	json_dumpf(o, stdout, JSON_COMPACT);
	putchar('\n');
	fflush(stdout);
	json_decref(o);
}

int
show_result(const struct ctl_result *res)
{
	show_net_flush();
	if (json)
		json_emit(json_pack("{s:s, s:b, s:i, s:s, s:s}", "event",
		    "result", "ok", res->error == 0, "error", res->error,
		    "message", res->msg, "corr", res->corr));
	else if (res->error != 0)
		fprintf(stderr, "sandboxctl: %s\n", res->msg);
	else if (res->msg[0] != '\0' && !ctl_last.have_sandbox &&
	    !ctl_last.ps)
		printf("%s\n", res->msg);
	/* 125: sandboxd refused or failed, as timeout(1) and env(1) do. */
	return (res->error == 0 ? 0 : 125);
}

void
show_ps_header(void)
{
	if (!json)
		printf("%-16s %-12s %8s %8s %5s %5s %8s %s\n", "ID", "POLICY",
		    "UID", "PID", "EXECS", "PROCS", "AGE", "SERVICE");
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
}

void
show_sandbox(const struct sbx_info *si, const char *event)
{
	if (json) {
		json_emit(sandbox_json(si, event != NULL ? event : "sandbox"));
		return;
	}
	if (ctl_last.ps)
		printf("%-16s %-12s %8u %8d %5u %5u %7llds %s\n", si->id,
		    si->policy, si->uid, si->init_pid, si->execs, si->procs,
		    (long long)(time(NULL) - si->created),
		    si->service[0] != '\0' ? si->service : "-");
	else if (event != NULL && strcmp(event, "sandbox") == 0)
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
		    "s:I}", "event", "exec.start", "id", st->id, "exec",
		    (json_int_t)st->exec_id, "exec_id", st->exec, "pid",
		    st->pid, "timeout", (json_int_t)st->timeout, "detached",
		    st->detached, "replay", st->replay, "started",
		    (json_int_t)st->started));
}

/* An exec's streams, each escaped on a terminal. */
static struct esc_state	 esc_out, esc_err;

/* JSON strings are UTF-8: each ill-formed byte becomes U+FFFD. */
static char *
utf8_clean(const char *s, size_t len, size_t *outlen)
{
	char	*out, *o;
	size_t	 i, n;

	if ((out = o = malloc(len * 3 + 1)) == NULL)
		err(1, NULL);
	for (i = 0; i < len; i += n) {
		if ((n = utf8_seqlen(s + i, len - i)) ==
		    0) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			n = 1;
			continue;
		}
		memcpy(o, s + i, n);
		o += n;
	}
	*outlen = o - out;
	return (out);
}

static void
show_line(const struct sbx_output_hdr *h, const char *line, size_t len)
{
	char	*clean;
	size_t	 clen;

	clean = utf8_clean(line, len, &clen);
	json_emit(json_pack("{s:s, s:s, s:I, s:s, s:s%}", "event", "log.line",
	    "id", h->id, "exec", (json_int_t)h->exec_id, "stream",
	    h->stream == SBX_STDOUT ? "stdout" : "stderr", "line", clean,
	    clen));
	free(clean);
}

void
show_output(const struct sbx_output_hdr *h, const char *data)
{
	const char	*nl;
	size_t		 left = h->len;

	if (!json) {
		fflush(stdout);
		if (h->stream == SBX_STDOUT)
			esc_write(STDOUT_FILENO, &esc_out, data, h->len);
		else
			esc_write(STDERR_FILENO, &esc_err, data, h->len);
		return;
	}
	while (left > 0) {
		if ((nl = memchr(data, '\n', left)) == NULL) {
			show_line(h, data, left);
			break;
		}
		show_line(h, data, nl - data);
		left -= nl - data + 1;
		data = nl + 1;
	}
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
	if (!json) {
		esc_flush(STDOUT_FILENO, &esc_out);
		esc_flush(STDERR_FILENO, &esc_err);
	}
	if (json)
		json_emit(json_pack("{s:s, s:s, s:I, s:i, s:i, s:s, s:I, "
		    "s:I, s:I, s:b, s:b, s:b, s:i}", "event", "exec.complete",
		    "id", r->id, "exec", (json_int_t)r->exec_id, "status",
		    r->status, "signal", r->signal, "reason",
		    sbx_reason_name(r->reason),
		    "duration_us", (json_int_t)r->duration_us,
		    "bytes_stdout", (json_int_t)r->bytes_stdout,
		    "bytes_stderr", (json_int_t)r->bytes_stderr,
		    "truncated", r->truncated_stdout || r->truncated_stderr,
		    "truncated_stdout", r->truncated_stdout,
		    "truncated_stderr", r->truncated_stderr, "exit", rc));
	else if (r->reason != SBX_REASON_EXIT ||
	    r->truncated_stdout || r->truncated_stderr)
		fprintf(stderr, "sandboxctl: %s%s%s\n",
		    sbx_reason_name(r->reason),
		    r->signal ? ", signal " : "",
		    r->signal ? strsignal(r->signal) : "");
	if (!json && (r->truncated_stdout || r->truncated_stderr))
		fprintf(stderr, "sandboxctl: output truncated (stdout %llu "
		    "bytes, stderr %llu bytes produced)\n",
		    (unsigned long long)r->bytes_stdout,
		    (unsigned long long)r->bytes_stderr);
	return (rc);
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
