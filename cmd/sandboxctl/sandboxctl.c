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

#include "sandboxctl.h"

int		 json;
struct ctl_last	 ctl_last;

__attribute__((noreturn))
static void
usage(void)
{
	extern char	*__progname;

	fprintf(stderr, "usage: %s [-jr] [-s socket] command [arg ...]\n"
	    "commands:\n"
	    "\tstatus\n\treload\n\tlog verbose | log brief\n"
	    "\trun [-p policy] [-e K=V]... [-t timeout] [-w dir] -- cmd ...\n"
	    "\tcreate [-p policy]\n"
	    "\texec [-di] [-e K=V]... [-t timeout] [-w dir] id -- cmd ...\n"
	    "\tattach exec\n\twait exec\n\tkill [-s signal] exec\n"
	    "\tkill id\n\tdestroy id\n\tps [id]\n\tshow id\n"
	    "\tput id local remote\n\tget id remote local\n"
	    "\tput -r id localdir remotedir\n\tget -r id remotedir localdir\n"
	    "\tls id [path]\n\tstat id path\n"
	    "\tmkdir [-p] [-m mode] id path\n\trm [-r] id path\n"
	    "\tservice start name [-p policy] [-e K=V]... [-- cmd ...]\n"
	    "\tservice stop | restart | status | attach name\n"
	    "\tservice list\n", __progname);
	exit(1);
}

static int
ctl_connect(const char *path)
{
	struct sockaddr_un	 sun;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlcpy(sun.sun_path, path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path))
		errx(125, "socket path too long: %s", path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		err(125, "socket");
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0)
		return (fd);
	if (errno == EACCES)
		errx(125, "%s: permission denied: only root and members of "
		    "the control group may use sandboxd", path);
	if (errno == ENOENT || errno == ECONNREFUSED)
		errx(125, "%s: %s (is sandboxd running?)", path,
		    strerror(errno));
	err(125, "connect %s", path);
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
	if (imsg_compose(ibuf, type, 0, 0, fd, data, len) == -1)
		err(1, "compose request");
	/* A refused client may find the refusal waiting: read it. */
	if (imsg_flush(ibuf) == -1 && errno != EPIPE && errno != ECONNRESET)
		err(1, "send request");
}

/* Exactly the payload, or we stop: the daemon does not send junk. */
#define REPLY_GET(imsg, var) do {					\
	if (imsg_get_data(imsg, &(var), sizeof(var)) == -1)		\
		errx(1, "malformed reply %u", imsg_get_type(imsg));	\
} while (0)

static void
ctl_output(struct imsg *imsg)
{
	struct sbx_output_hdr	 hdr;
	size_t			 len = imsg_get_len(imsg);

	if (len < sizeof(hdr))
		errx(1, "malformed output");
	memcpy(&hdr, imsg->data, sizeof(hdr));
	if (hdr.len != len - sizeof(hdr))
		errx(1, "malformed output");
	show_output(&hdr, (const char *)imsg->data + sizeof(hdr));
}

/* Returns 1 when the reply ends the request, with *rc set. */
static int
ctl_reply(struct imsg *imsg, int *rc)
{
	struct ctl_proc_status	 ps;
	struct net_hostfw	 hf;
	struct ctl_result	 res;
	struct sbx_exec_start	 st;
	struct sbx_exec_result	 er;
	struct sbx_net_info	 ni;
	struct svc_info		 si;
	struct sbx_stdio	 sio;
	struct sbx_net_pins	 np;
	struct sbx_exec_info	 xi;
	int			 fd;

	switch (imsg_get_type(imsg)) {
	case IMSG_CTL_SERVICE_INFO:
		REPLY_GET(imsg, si);
		show_service(&si);
		return (0);
	case IMSG_CTL_STDIO:
		REPLY_GET(imsg, sio);
		if ((fd = imsg_get_fd(imsg)) == -1 || sio.which > SBX_STDIO_OUT)
			errx(1, "malformed stdio reply");
		if (ctl_last.stdio[sio.which] != -1)
			close(ctl_last.stdio[sio.which]);
		ctl_last.stdio[sio.which] = fd;
		return (0);
	case IMSG_CTL_HOSTFW:
		REPLY_GET(imsg, hf);
		if (memchr(hf.text, '\0', sizeof(hf.text)) == NULL)
			errx(1, "malformed status reply");
		show_hostfw(&hf);
		return (0);
	case IMSG_CTL_PROC_STATUS:
		REPLY_GET(imsg, ps);
		if (memchr(ps.caps, '\0', sizeof(ps.caps)) == NULL ||
		    memchr(ps.name, '\0', sizeof(ps.name)) == NULL ||
		    memchr(ps.user, '\0', sizeof(ps.user)) == NULL ||
		    memchr(ps.root, '\0', sizeof(ps.root)) == NULL)
			errx(1, "malformed status reply");
		show_proc_status(&ps);
		return (0);
	case IMSG_CTL_SANDBOX:
		REPLY_GET(imsg, ctl_last.sandbox);
		ctl_last.have_sandbox = 1;
		show_sandbox(&ctl_last.sandbox, ctl_last.sandbox_event);
		return (0);
	case IMSG_CTL_EXEC_START:
		REPLY_GET(imsg, st);
		if (memchr(st.exec, '\0', sizeof(st.exec)) == NULL)
			errx(1, "malformed exec start reply");
		strlcpy(ctl_last.exec, st.exec, sizeof(ctl_last.exec));
		show_exec_start(&st);
		return (0);
	case IMSG_CTL_EXEC_INFO:
		REPLY_GET(imsg, xi);
		show_exec_info(&xi);
		return (0);
	case IMSG_CTL_OUTPUT:
		ctl_output(imsg);
		return (0);
	case IMSG_CTL_NET_INFO:
		REPLY_GET(imsg, ni);
		show_net_info(&ni);
		return (0);
	case IMSG_CTL_NET_RULES:
		show_net_rules(imsg->data, imsg_get_len(imsg));
		return (0);
	case IMSG_CTL_NET_PINS:
		REPLY_GET(imsg, np);
		show_net_pins(&np);
		return (0);
	case IMSG_CTL_EXEC_RESULT:
		REPLY_GET(imsg, er);
		*rc = show_exec_result(&er);
		return (1);
	case IMSG_CTL_RESULT:
		REPLY_GET(imsg, res);
		*rc = show_result(&res);
		return (1);
	}
	errx(1, "unexpected reply type %u", imsg_get_type(imsg));
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
				err(1, "read reply");
			if (n == 0)
				errx(1, "sandboxd closed the connection");
		}
		if (n == -1)
			err(1, "malformed reply");
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
	if (strcmp(cmd, "ps") == 0 && argc == 1)
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
	const char	*sock = CONF_DEFAULT_SOCKET;
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
			sock = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	imsg_init(&ibuf, ctl_connect(sock));
	imsg_set_maxsize(&ibuf, MAX_IMSGSIZE);
	/* service attach is sent fds: the service's stdio. */
	imsg_allow_fdpass(&ibuf);
	ctl_last.stdio[0] = ctl_last.stdio[1] = -1;
	return (ctl_command(&ibuf, argc, argv));
}
