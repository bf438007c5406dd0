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

#include "imsg.h"
#include "sandboxctl.h"

int	 json;

__attribute__((noreturn))
static void
usage(void)
{
	extern char	*__progname;

	fprintf(stderr, "usage: %s [-j] [-s socket] command [arg ...]\n"
	    "commands: status, reload, log verbose | log brief\n",
	    __progname);
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
		errx(1, "socket path too long: %s", path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		err(1, "socket");
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0)
		return (fd);
	if (errno == EACCES)
		errx(1, "%s: permission denied: only root and members of "
		    "the control group may use sandboxd", path);
	if (errno == ENOENT || errno == ECONNREFUSED)
		errx(1, "%s: %s (is sandboxd running?)", path,
		    strerror(errno));
	err(1, "connect %s", path);
}

static void
ctl_send(struct imsgbuf *ibuf, uint32_t type, int arg, char *corr)
{
	struct ctl_request	 req;
	unsigned char		 rnd[16];
	size_t			 i;

	memset(&req, 0, sizeof(req));
	arc4random_buf(rnd, sizeof(rnd));
	for (i = 0; i < sizeof(rnd); i++)
		snprintf(req.corr + 2 * i, 3, "%02x", rnd[i]);
	strlcpy(corr, req.corr, CORR_ID_SIZE);
	req.arg = arg;
	if (imsg_compose(ibuf, type, 0, 0, -1, &req, sizeof(req)) == -1)
		err(1, "compose request");
	/* A refused client may find the refusal waiting: read it. */
	if (imsg_flush(ibuf) == -1 && errno != EPIPE && errno != ECONNRESET)
		err(1, "send request");
}

/* Read replies until IMSG_CTL_RESULT; returns the exit status. */
static int
ctl_replies(struct imsgbuf *ibuf, const char *corr)
{
	struct ctl_proc_status	 ps;
	struct ctl_result	 res;
	struct imsg		 imsg;
	ssize_t			 n;

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
		switch (imsg_get_type(&imsg)) {
		case IMSG_CTL_PROC_STATUS:
			if (imsg_get_data(&imsg, &ps, sizeof(ps)) == -1)
				errx(1, "malformed status reply");
			ps.name[sizeof(ps.name) - 1] = '\0';
			ps.user[sizeof(ps.user) - 1] = '\0';
			ps.root[sizeof(ps.root) - 1] = '\0';
			show_proc_status(&ps);
			break;
		case IMSG_CTL_RESULT:
			if (imsg_get_data(&imsg, &res, sizeof(res)) == -1)
				errx(1, "malformed result");
			res.msg[sizeof(res.msg) - 1] = '\0';
			res.corr[sizeof(res.corr) - 1] = '\0';
			imsg_free(&imsg);
			return (show_result(&res, corr));
		default:
			errx(1, "unexpected reply type %u",
			    imsg_get_type(&imsg));
		}
		imsg_free(&imsg);
	}
}

int
main(int argc, char *argv[])
{
	struct imsgbuf	 ibuf;
	const char	*sock = CONF_DEFAULT_SOCKET;
	char		 corr[CORR_ID_SIZE];
	uint32_t	 type;
	int		 ch, arg = 0;

	while ((ch = getopt(argc, argv, "js:")) != -1) {
		switch (ch) {
		case 'j':
			json = 1;
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
	if (argc == 1 && strcmp(argv[0], "status") == 0)
		type = IMSG_CTL_STATUS;
	else if (argc == 1 && strcmp(argv[0], "reload") == 0)
		type = IMSG_CTL_RELOAD;
	else if (argc == 2 && strcmp(argv[0], "log") == 0 &&
	    (strcmp(argv[1], "verbose") == 0 || strcmp(argv[1], "brief") == 0)) {
		type = IMSG_CTL_LOG_VERBOSE;
		arg = strcmp(argv[1], "verbose") == 0;
	} else
		usage();
	imsg_init(&ibuf, ctl_connect(sock));
	if (type == IMSG_CTL_STATUS)
		show_status_header();
	ctl_send(&ibuf, type, arg, corr);
	return (ctl_replies(&ibuf, corr));
}
