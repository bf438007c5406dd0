/* sandboxctl: the control client of sandboxd. */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msgtab.h"
#include "sandboxctl.h"

int		 json;
struct ctl_last	 ctl_last;
static const char *ctl_socket = CONF_DEFAULT_SOCKET;

__attribute__((noreturn))
static void
usage(void)
{
	extern char	*__progname;
	static const char text[] =
	    "usage: %s [-jr] [-s socket] command [arg ...]\n"
	    "commands:\n"
	    "\tstatus\n\treload\n\tlog verbose | log brief\n"
	    "\trun [-i] [-p policy] [-e name=value]... [-t timeout] "
	    "[-w dir] -- command ...\n"
	    "\tcreate [-T | --tap] [-p policy] [--ttl duration] "
	    "[--idle duration]\n\t    [--label key=value]...\n"
	    "\texec [-di] [-e name=value]... [-t timeout] [-w dir] id -- "
	    "command ...\n"
	    "\tattach exec\n\twait exec\n\tkill [-s signal] exec\n"
	    "\tkill id\n\tdestroy id\n\tpause id\n\tresume id\n"
	    "\tps [--label key[=value]]...\n\tps id\n\tshow id\n"
	    "\tput id local remote\n\tget id remote local\n"
	    "\tput -r id localdir remotedir\n\tget -r id remotedir localdir\n"
	    "\tls id [path]\n\tstat id path\n"
	    "\tmkdir [-p] [-m mode] id path\n\trm [-r] id path\n"
	    "\tservice start name [-p policy] [-e name=value]... "
	    "[-- command ...]\n"
	    "\tservice stop | restart | status | attach name\n"
	    "\tservice list\n";
	char	 msg[sizeof(text) + 64];

	if (json) {
		snprintf(msg, sizeof(msg), text, __progname);
		jev_error("usage", 0, NULL, msg);
	} else
		fprintf(stderr, text, __progname);
	exit(125);
}

/* Errors reaching sandboxd are 125, with -j an error event. */
static int
ctl_connect(const char *path)
{
	struct sockaddr_un	 sun;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlcpy(sun.sun_path, path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path))
		ctl_fail("usage", "socket path too long: %s", path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		ctl_fail_errno("unavailable", "socket");
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0)
		return (fd);
	if (errno == EACCES)
		ctl_fail("permission_denied", "%s: permission denied: only "
		    "root and members of the control group may use sandboxd",
		    path);
	if (errno == ENOENT || errno == ECONNREFUSED)
		ctl_fail("unavailable", "%s: %s (is sandboxd running?)", path,
		    strerror(errno));
	ctl_fail_errno("unavailable", "connect %s", path);
}

void
ctl_corr(char *corr)
{
	unsigned char	 rnd[16];
	size_t		 i;

	arc4random_buf(rnd, sizeof(rnd));
	for (i = 0; i < sizeof(rnd); i++)
		snprintf(corr + 2 * i, 3, "%02x", rnd[i]);
}

void
ctl_request(struct imsgbuf *ibuf, uint32_t type, int fd, const void *data,
    size_t len)
{
	/* Connected only now: every argument has been checked. */
	if (ibuf->fd == -1)
		ibuf->fd = ctl_connect(ctl_socket);
	if (imsg_compose(ibuf, type, 0, 0, fd, data, len) == -1)
		ctl_fail_errno("failed", "compose request");
	/* A refused client may find the refusal waiting: read it. */
	if (imsg_flush(ibuf) == -1 && errno != EPIPE && errno != ECONNRESET)
		ctl_fail_errno("connection_lost", "send request");
}

/*
 * Every reply is checked against the table (lib/msgtab.c) first: the
 * daemon does not send junk, and if it does we stop.
 */
static int
ctl_reply(struct imsg *imsg, int *rc)
{
	struct sbx_output_hdr	*out;
	struct sbx_exec_start	*st;
	struct sbx_stdio	*sio;
	char			 err[160];
	int			 fd;

	if (imsg_check(MSG_CTL, MSG_MASTER, imsg, err, sizeof(err)) == -1)
		ctl_fail("protocol", "malformed reply: %s", err);
	switch (imsg_get_type(imsg)) {
	case IMSG_CTL_SERVICE_INFO:
		show_service(IMSG_PAYLOAD(imsg, struct svc_info));
		return (0);
	case IMSG_CTL_STDIO:
		sio = IMSG_PAYLOAD(imsg, struct sbx_stdio);
		fd = imsg_get_fd(imsg);
		if (ctl_last.stdio[sio->which] != -1)
			close(ctl_last.stdio[sio->which]);
		ctl_last.stdio[sio->which] = fd;
		return (0);
	case IMSG_CTL_HOSTFW:
		show_hostfw(IMSG_PAYLOAD(imsg, struct net_hostfw));
		return (0);
	case IMSG_CTL_PROC_STATUS:
		show_proc_status(IMSG_PAYLOAD(imsg, struct ctl_proc_status));
		return (0);
	case IMSG_CTL_SANDBOX:
		ctl_last.sandbox = *IMSG_PAYLOAD(imsg, struct sbx_info);
		ctl_last.have_sandbox = 1;
		show_sandbox(&ctl_last.sandbox, ctl_last.sandbox_event);
		return (0);
	case IMSG_CTL_EXEC_START:
		st = IMSG_PAYLOAD(imsg, struct sbx_exec_start);
		strlcpy(ctl_last.exec, st->exec, sizeof(ctl_last.exec));
		show_exec_start(st);
		return (0);
	case IMSG_CTL_EXEC_INFO:
		show_exec_info(IMSG_PAYLOAD(imsg, struct sbx_exec_info));
		return (0);
	case IMSG_CTL_OUTPUT:
		out = IMSG_PAYLOAD(imsg, struct sbx_output_hdr);
		show_output(out, (const char *)(out + 1));
		return (0);
	case IMSG_CTL_NET_INFO:
		show_net_info(IMSG_PAYLOAD(imsg, struct sbx_net_info));
		return (0);
	case IMSG_CTL_NET_RULES:
		show_net_rules(imsg->data, imsg_get_len(imsg));
		return (0);
	case IMSG_CTL_NET_PINS:
		show_net_pins(IMSG_PAYLOAD(imsg, struct sbx_net_pins));
		return (0);
	case IMSG_CTL_EXEC_RESULT:
		*rc = show_exec_result(IMSG_PAYLOAD(imsg,
		    struct sbx_exec_result));
		return (1);
	case IMSG_CTL_RESULT:
		*rc = show_result(IMSG_PAYLOAD(imsg, struct ctl_result));
		return (1);
	}
	ctl_fail("protocol", "unexpected reply type %u",
	    imsg_get_type(imsg));
}

int
ctl_replies(struct imsgbuf *ibuf)
{
	struct imsg	 imsg;
	ssize_t		 n;
	int		 rc = 1, done;

	for (;;) {
		while ((n = imsg_get(ibuf, &imsg)) == 0) {
			if ((n = imsg_read(ibuf)) == -1 && errno != EINTR &&
			    errno != EAGAIN)
				ctl_fail_errno("connection_lost", "read reply");
			if (n == 0)
				ctl_fail("connection_lost", "sandboxd closed "
				    "the connection");
		}
		if (n == -1)
			ctl_fail_errno("protocol", "malformed reply");
		done = ctl_reply(&imsg, &rc);
		ctl_last.last_type = imsg_get_type(&imsg);
		imsg_free(&imsg);
		if (done)
			return (rc);
	}
}

static int
cmd_simple(struct imsgbuf *ibuf, uint32_t type, int arg)
{
	struct ctl_request	 req;

	memset(&req, 0, sizeof(req));
	ctl_corr(req.corr);
	req.arg = arg;
	if (type == IMSG_CTL_STATUS)
		show_status_header();
	ctl_request(ibuf, type, -1, &req, sizeof(req));
	return (ctl_replies(ibuf));
}

static int
ctl_command(struct imsgbuf *ibuf, int argc, char *argv[])
{
	const char	*cmd = argv[0];

	if (strcmp(cmd, "status") == 0 && argc == 1)
		return (cmd_simple(ibuf, IMSG_CTL_STATUS, 0));
	if (strcmp(cmd, "reload") == 0 && argc == 1)
		return (cmd_simple(ibuf, IMSG_CTL_RELOAD, 0));
	if (strcmp(cmd, "log") == 0 && argc == 2 &&
	    (strcmp(argv[1], "verbose") == 0 || strcmp(argv[1], "brief") == 0))
		return (cmd_simple(ibuf, IMSG_CTL_LOG_VERBOSE,
		    strcmp(argv[1], "verbose") == 0));
	if (strcmp(cmd, "run") == 0)
		return (cmd_run(ibuf, argc, argv));
	if (strcmp(cmd, "create") == 0)
		return (cmd_create(ibuf, argc, argv));
	if (strcmp(cmd, "exec") == 0)
		return (cmd_exec(ibuf, argc, argv));
	if (strcmp(cmd, "kill") == 0)
		return (cmd_kill(ibuf, argc, argv));
	if (strcmp(cmd, "attach") == 0)
		return (cmd_attach(ibuf, argc, argv));
	if (strcmp(cmd, "wait") == 0)
		return (cmd_wait(ibuf, argc, argv));
	if (strcmp(cmd, "destroy") == 0)
		return (cmd_by_id(ibuf, IMSG_CTL_DESTROY, argc, argv));
	if (strcmp(cmd, "show") == 0)
		return (cmd_by_id(ibuf, IMSG_CTL_SHOW, argc, argv));
	if (strcmp(cmd, "pause") == 0)
		return (cmd_by_id(ibuf, IMSG_CTL_PAUSE, argc, argv));
	if (strcmp(cmd, "resume") == 0)
		return (cmd_by_id(ibuf, IMSG_CTL_RESUME, argc, argv));
	/* ps [--label ...]: sandboxes; ps ID: the execs of one. */
	if (strcmp(cmd, "ps") == 0 && (argc == 1 || argv[1][0] == '-'))
		return (cmd_ps(ibuf, argc, argv));
	if (strcmp(cmd, "ps") == 0)
		return (cmd_exec_ps(ibuf, argc, argv));
	if (strcmp(cmd, "put") == 0)
		return (cmd_put(ibuf, argc, argv));
	if (strcmp(cmd, "get") == 0)
		return (cmd_get(ibuf, argc, argv));
	if (strcmp(cmd, "ls") == 0)
		return (cmd_ls(ibuf, argc, argv));
	if (strcmp(cmd, "stat") == 0)
		return (cmd_stat(ibuf, argc, argv));
	if (strcmp(cmd, "mkdir") == 0 || strcmp(cmd, "rm") == 0)
		return (cmd_mkdir_rm(ibuf, argc, argv));
	if (strcmp(cmd, "service") == 0)
		return (cmd_service(ibuf, argc, argv));
	usage();
}

int
main(int argc, char *argv[])
{
	struct imsgbuf	 ibuf;
	int		 ch;

	while ((ch = getopt(argc, argv, "+jrs:")) != -1) {
		switch (ch) {
		case 'j':
			json = 1;
			break;
		case 'r':
			raw_output = 1;
			break;
		case 's':
			ctl_socket = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	imsg_init(&ibuf, -1);
	imsg_set_maxsize(&ibuf, MAX_IMSGSIZE);
	/* service attach is sent fds: the service's stdio. */
	imsg_allow_fdpass(&ibuf);
	ctl_last.stdio[0] = ctl_last.stdio[1] = -1;
	return (ctl_command(&ibuf, argc, argv));
}
