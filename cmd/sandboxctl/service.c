/*
 * sandboxctl service start|stop|restart|status|list|attach.  attach
 * gets copies of the master's ends of the service's standard input and
 * output and copies bytes between them and its own until its input
 * ends (then output for as long as it keeps coming, ATTACH_LINGER_MS
 * of quiet ends it), the service's output ends, or sandboxd goes.
 */
#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "sandboxctl.h"
#include "sbx_msg.h"

#define ATTACH_LINGER_MS	1000
#define ATTACH_BUF		65536

static void
svc_usage(void)
{
	ctl_fail("usage", "usage: service start name [-p policy] [-e K=V]... "
	    "[-- cmd ...] | stop name | restart name | status name | list | "
	    "attach name");
}

static void
svc_name(struct svc_req *req, const char *name)
{
	char	 err[256];

	if (strlcpy(req->name, name, sizeof(req->name)) >= sizeof(req->name) ||
	    conf_check_name(req->name, sizeof(req->name), "service", err,
	    sizeof(err)) == -1)
		ctl_fail("usage", "bad service name: %s", name);
}

/* start NAME [-p policy] [-e K=V]... [-- cmd ...] */
static void
svc_start_args(struct svc_req *req, int argc, char *argv[])
{
	char	*env[SBX_EXEC_MAX_ARGS + 1];
	int	 ch, nenv = 0;

	optind = 1;
	while ((ch = getopt(argc, argv, "+p:e:")) != -1) {
		switch (ch) {
		case 'p':
			if (strlcpy(req->policy, optarg, sizeof(req->policy)) >=
			    sizeof(req->policy))
				ctl_fail("usage", "policy name too long: %s",
				    optarg);
			break;
		case 'e':
			if (strchr(optarg, '=') == NULL || optarg[0] == '=' ||
			    nenv >= SBX_EXEC_MAX_ARGS)
				ctl_fail("usage", "bad -e %s: want KEY=VALUE",
				    optarg);
			env[nenv++] = optarg;
			break;
		default:
			svc_usage();
		}
	}
	env[nenv] = NULL;
	if (optind == argc) {
		if (nenv > 0 || req->policy[0] != '\0')
			ctl_fail("usage", "-p and -e come with a command");
		return;
	}
	ctl_corr(req->exec.corr);
	if (sbx_exec_pack(&req->exec, argv + optind, env) == -1)
		ctl_fail("usage", "command and environment too long (%d bytes "
		    "at most)", SBX_EXEC_ARGS_SIZE);
}

static void
write_all(int fd, const char *p, size_t len, const char *what)
{
	ssize_t	 n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			if (errno == EPIPE)
				ctl_fail("connection_lost", "%s: the service "
				    "is gone", what);
			ctl_fail_errno("failed", "%s", what);
		}
		p += n;
		len -= n;
	}
}

/* With -j, the output's tail and why it ended. */
static void
attach_end(struct jev_stream *js, const char *why)
{
	if (json) {
		jev_output_end(js);
		json_emit(json_pack("{s:s, s:b, s:s}", "event", "result", "ok",
		    why == NULL, "message", why != NULL ? why : ""));
	} else if (why != NULL)
		fprintf(stderr, "sandboxctl: %s\n", why);
}

/* Copy until there is nothing more to copy; see the top. */
static int
attach_pump(int in_w, int out_r, int sock)
{
	struct pollfd	 pfd[3];
	struct esc_state esc = { { 0 }, 0 };
	struct jev_stream js = { "stdout", "", 0, { 0 }, 0 };
	char		*buf;
	ssize_t		 n;
	int		 in_open = 1, timeout;

	if ((buf = malloc(ATTACH_BUF)) == NULL)
		ctl_fail_errno("failed", "memory");
	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		pfd[0].fd = in_open ? STDIN_FILENO : -1;
		pfd[0].events = POLLIN;
		pfd[1].fd = out_r;
		pfd[1].events = POLLIN;
		pfd[2].fd = sock;
		pfd[2].events = POLLIN;
		timeout = in_open ? -1 : ATTACH_LINGER_MS;
		if ((n = poll(pfd, 3, timeout)) == -1) {
			if (errno == EINTR)
				continue;
			ctl_fail_errno("failed", "poll");
		}
		if (n == 0)
			break;
		if (pfd[1].revents & (POLLIN | POLLHUP)) {
			n = read(out_r, buf, ATTACH_BUF);
			if (n == 0 || (n == -1 && errno != EAGAIN &&
			    errno != EINTR)) {
				attach_end(&js, "the service's output ended");
				free(buf);
				return (1);
			}
			if (n > 0 && json)
				jev_output(&js, buf, n);
			else if (n > 0)
				esc_write(STDOUT_FILENO, &esc, buf, n);
		}
		if (pfd[0].revents & (POLLIN | POLLHUP)) {
			n = read(STDIN_FILENO, buf, ATTACH_BUF);
			if (n == 0)
				in_open = 0;
			else if (n == -1 && errno != EINTR && errno != EAGAIN)
				ctl_fail_errno("local", "stdin");
			else if (n > 0)
				write_all(in_w, buf, n, "service input");
		}
		/* sandboxd went away or said something: we are done. */
		if (pfd[2].revents & (POLLIN | POLLHUP))
			break;
	}
	attach_end(&js, NULL);
	free(buf);
	return (0);
}

static int
svc_attach(struct imsgbuf *ibuf)
{
	int	 rc;

	ctl_last.stdio[0] = ctl_last.stdio[1] = -1;
	if ((rc = ctl_replies(ibuf)) != 0)
		return (rc);
	if (ctl_last.stdio[0] == -1 || ctl_last.stdio[1] == -1)
		ctl_fail("protocol", "sandboxd did not send the service's "
		    "standard input and output");
	rc = attach_pump(ctl_last.stdio[0], ctl_last.stdio[1], ibuf->fd);
	close(ctl_last.stdio[0]);
	close(ctl_last.stdio[1]);
	return (rc);
}

int
cmd_service(struct imsgbuf *ibuf, int argc, char *argv[])
{
	static const struct {
		const char	*name;
		uint32_t	 op;
	} ops[] = {
		{ "start", SVC_OP_START }, { "stop", SVC_OP_STOP },
		{ "restart", SVC_OP_RESTART }, { "status", SVC_OP_STATUS },
		{ "list", SVC_OP_LIST }, { "attach", SVC_OP_ATTACH }
	};
	struct svc_req	*req;
	size_t		 i;
	int		 rc;

	if (argc < 2)
		svc_usage();
	if ((req = calloc(1, sizeof(*req))) == NULL)
		ctl_fail_errno("failed", "memory");
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(argv[1], ops[i].name) == 0)
			req->op = ops[i].op;
	if (req->op == 0 || (req->op == SVC_OP_LIST) != (argc == 2))
		svc_usage();
	if (req->op != SVC_OP_LIST)
		svc_name(req, argv[2]);
	if (req->op == SVC_OP_START)
		svc_start_args(req, argc - 2, argv + 2);
	else if (argc > 3)
		svc_usage();
	ctl_corr(req->corr);
	ctl_last.service_long = req->op == SVC_OP_STATUS;
	if (req->op == SVC_OP_LIST || req->op == SVC_OP_START)
		show_service_header();
	ctl_request(ibuf, IMSG_CTL_SERVICE, -1, req, sizeof(*req));
	if (req->op == SVC_OP_ATTACH)
		rc = svc_attach(ibuf);
	else
		rc = ctl_replies(ibuf);
	free(req);
	return (rc);
}
