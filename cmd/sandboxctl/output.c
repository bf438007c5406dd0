/* Printing replies: a table for people, JSON lines with -j. */
#include <cap-ng.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

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

static void
caps_join(uint64_t caps, int last, char *buf, size_t len)
{
	const char	*name;
	int		 i;

	for (i = 0; i <= last; i++) {
		if ((caps & (1ULL << i)) == 0)
			continue;
		if (buf[0] != '\0' && buf[strlen(buf) - 1] != ' ')
			strlcat(buf, ",", len);
		name = capng_capability_to_name(i);
		strlcat(buf, name != NULL ? name : "?", len);
	}
}

/*
 * "none", the names joined by commas, or for a set holding most of
 * them "all" and what is missing, which is what a reader looks for.
 */
static void
caps_names(uint64_t caps, char *buf, size_t len)
{
	uint64_t	 full;
	int		 last = CAP_LAST_CAP;

	buf[0] = '\0';
	full = last >= 63 ? ~0ULL : (1ULL << (last + 1)) - 1;
	caps &= full;
	if (caps == 0)
		strlcpy(buf, "none", len);
	else if (caps == full)
		strlcpy(buf, "all", len);
	else if (__builtin_popcountll(caps) > (last + 1) / 2) {
		strlcpy(buf, "all except ", len);
		caps_join(full & ~caps, last, buf, len);
	} else
		caps_join(caps, last, buf, len);
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

void
show_proc_status(const struct ctl_proc_status *ps)
{
	char	 caps[1024];

	caps_names(ps->cap_eff, caps, sizeof(caps));
	if (json) {
		show_proc_json(ps, caps);
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
	    state_name(ps->state), caps);
}

int
show_result(const struct ctl_result *res, const char *corr)
{
	json_t	*o;

	if (json) {
		o = json_pack("{s:s, s:b, s:i, s:s, s:s}", "event", "result",
		    "ok", res->error == 0, "error", res->error, "message",
		    res->msg, "corr", res->corr[0] ? res->corr : corr);
		if (o != NULL) {
			json_dumpf(o, stdout, JSON_COMPACT);
			putchar('\n');
			json_decref(o);
		}
	} else if (res->error != 0)
		fprintf(stderr, "sandboxctl: %s\n", res->msg);
	else if (res->msg[0] != '\0')
		printf("%s\n", res->msg);
	return (res->error == 0 ? 0 : 1);
}
