/*
 * Commands on one exec by its id, "<sandbox id>.<n>": attach, wait,
 * kill [-s signal], and ps ID, the list of a sandbox's execs.  Every
 * argument is checked before connecting; a bad one exits 125.
 */
#include <err.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "sandboxctl.h"
#include "sbx_msg.h"

static void
exec_op_fill(struct sbx_exec_op *op, const char *arg, uint32_t code)
{
	memset(op, 0, sizeof(*op));
	ctl_corr(op->corr);
	op->op = code;
	if (sbx_parse_exec_id(arg, op->id, &op->exec_id) == -1)
		errx(125, "not an exec id: %s (an exec id is the sandbox's "
		    "id, a dot and a number, as exec -d prints it)", arg);
}

/* A name (TERM, SIGTERM, term) or a number from 1 to 64. */
static int
parse_signal(const char *s)
{
	const char	*name = s, *abbrev;
	char		*end;
	long		 n;
	int		 i;

	n = strtol(s, &end, 10);
	if (end != s && *end == '\0') {
		if (n < 1 || n > 64)
			errx(125, "bad signal %s: from 1 to 64", s);
		return (n);
	}
	if (strncasecmp(name, "SIG", 3) == 0)
		name += 3;
	for (i = 1; i < 65; i++)
		if ((abbrev = sigabbrev_np(i)) != NULL &&
		    strcasecmp(abbrev, name) == 0)
			return (i);
	errx(125, "bad signal %s: a name such as TERM or a number", s);
}

static int
exec_follow(struct imsgbuf *ibuf, int argc, char *argv[], uint32_t code)
{
	struct sbx_exec_op	 op;

	if (argc != 2)
		errx(125, "usage: %s exec", argv[0]);
	exec_op_fill(&op, argv[1], code);
	ctl_request(ibuf, IMSG_CTL_EXEC_OP, -1, &op, sizeof(op));
	/* The exec's status, or 125 if sandboxd refused. */
	return (ctl_replies(ibuf));
}

int
cmd_attach(struct imsgbuf *ibuf, int argc, char *argv[])
{
	return (exec_follow(ibuf, argc, argv, SBX_EXEC_OP_ATTACH));
}

int
cmd_wait(struct imsgbuf *ibuf, int argc, char *argv[])
{
	return (exec_follow(ibuf, argc, argv, SBX_EXEC_OP_WAIT));
}

/* kill ID: a whole sandbox, as ever; kill [-s SIG] EXEC: one exec. */
int
cmd_kill(struct imsgbuf *ibuf, int argc, char *argv[])
{
	struct sbx_exec_op	 op;
	int			 sig = SIGTERM;

	if (argc == 2 && strchr(argv[1], '.') == NULL)
		return (cmd_by_id(ibuf, IMSG_CTL_KILL, argc, argv));
	if (argc == 4 && strcmp(argv[1], "-s") == 0) {
		sig = parse_signal(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc != 2)
		errx(125, "usage: kill id | kill [-s signal] exec");
	exec_op_fill(&op, argv[1], SBX_EXEC_OP_SIGNAL);
	op.signal = sig;
	ctl_request(ibuf, IMSG_CTL_EXEC_OP, -1, &op, sizeof(op));
	return (ctl_replies(ibuf));
}

int
cmd_exec_ps(struct imsgbuf *ibuf, int argc, char *argv[])
{
	struct sbx_exec_op	 op;
	char			 buf[SBX_ID_SIZE];

	if (argc != 2)
		errx(125, "usage: ps [id]");
	if (strlcpy(buf, argv[1], sizeof(buf)) >= sizeof(buf) ||
	    sbx_check_id(buf, sizeof(buf)) == -1)
		errx(125, "not a sandbox id: %s", argv[1]);
	memset(&op, 0, sizeof(op));
	ctl_corr(op.corr);
	strlcpy(op.id, buf, sizeof(op.id));
	op.op = SBX_EXEC_OP_LIST;
	ctl_last.ps = 1;
	if (!json)
		printf("%-28s %-9s %8s %-20s %6s %s\n", "EXEC", "STATE", "PID",
		    "STARTED", "EXIT", "COMMAND");
	ctl_request(ibuf, IMSG_CTL_EXEC_PS, -1, &op, sizeof(op));
	return (ctl_replies(ibuf));
}

/* running, exited, signalled, or why it was stopped. */
static const char *
exec_state_name(const struct sbx_exec_info *xi)
{
	if (xi->state == SBX_EXEC_STARTING)
		return ("starting");
	if (xi->state == SBX_EXEC_RUNNING)
		return ("running");
	switch (xi->reason) {
	case SBX_REASON_TIMEOUT:
		return ("timeout");
	case SBX_REASON_KILLED:
		return ("killed");
	case SBX_REASON_LIMIT:
		return ("limit");
	}
	return (xi->signal != 0 ? "signalled" : "exited");
}

/* As the exec's own attach or wait would exit. */
static int
exec_exit_code(const struct sbx_exec_info *xi)
{
	if (xi->reason == SBX_REASON_TIMEOUT)
		return (124);
	if (xi->signal != 0)
		return (128 + xi->signal);
	return (xi->status);
}

void
show_exec_info(const struct sbx_exec_info *xi)
{
	char		 started[32], code[16];
	json_t		*o;
	struct tm	 tm;
	time_t		 t = xi->started;

	if (memchr(xi->exec, '\0', sizeof(xi->exec)) == NULL ||
	    memchr(xi->command, '\0', sizeof(xi->command)) == NULL)
		errx(1, "malformed exec row");
	if (json) {
		o = json_pack("{s:s, s:s, s:s, s:I, s:s, s:i, s:b, s:i, "
		    "s:I, s:I, s:I, s:I, s:s}", "event", "exec", "id", xi->id,
		    "exec_id", xi->exec, "exec", (json_int_t)xi->exec_id,
		    "state", exec_state_name(xi), "pid", xi->pid, "detached",
		    xi->detached, "attached", xi->attached, "started",
		    (json_int_t)xi->started, "ended", (json_int_t)xi->ended,
		    "bytes_stdout", (json_int_t)xi->bytes_stdout,
		    "bytes_stderr", (json_int_t)xi->bytes_stderr,
		    "command", xi->command);
		if (o != NULL && xi->state == SBX_EXEC_DONE) {
			json_object_set_new(o, "status",
			    json_integer(xi->status));
			json_object_set_new(o, "signal",
			    json_integer(xi->signal));
			json_object_set_new(o, "reason",
			    json_string(sbx_reason_name(xi->reason)));
			json_object_set_new(o, "exit",
			    json_integer(exec_exit_code(xi)));
		}
		json_emit(o);
		return;
	}
	gmtime_r(&t, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (xi->state == SBX_EXEC_DONE)
		snprintf(code, sizeof(code), "%d", exec_exit_code(xi));
	else
		strlcpy(code, "-", sizeof(code));
	printf("%-28s %-9s %8d %-20s %6s %s\n", xi->exec, exec_state_name(xi),
	    xi->pid, started, code, xi->command);
}
