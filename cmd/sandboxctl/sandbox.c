/* The sandbox commands: run, create, exec, kill, destroy, ps, show,
 * put and get. */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandboxctl.h"
#include "sbx_msg.h"

struct exec_opts {
	const char	*policy;
	char		*env[SBX_EXEC_MAX_ARGS + 1];
	int		 nenv;
	uint32_t	 timeout;
	const char	*cwd;
	int		 interactive;	/* -i */
	int		 detach;	/* exec -d */
	int		 tap;		/* create -T, --tap */
};

static uint32_t
parse_timeout(const char *s)
{
	char		*end;
	unsigned long	 v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || end == s || v == 0 || v > 86400 ||
	    (*end != '\0' && strcmp(end, "s") != 0))
		errx(1, "bad timeout %s: seconds from 1 to 86400", s);
	return (v);
}

/* Options shared by run and exec; returns the index after them. */
static int
exec_options(int argc, char *argv[], const char *opts, struct exec_opts *o)
{
	int	 ch;

	static const struct option longopts[] = {
		{ "tap", no_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};

	memset(o, 0, sizeof(*o));
	optind = 0;
	while ((ch = getopt_long(argc, argv, opts, strchr(opts, 'T') != NULL ?
	    longopts : longopts + 1, NULL)) != -1) {
		switch (ch) {
		case 'p':
			o->policy = optarg;
			break;
		case 'e':
			if (strchr(optarg, '=') == NULL || optarg[0] == '=' ||
			    o->nenv >= SBX_EXEC_MAX_ARGS)
				errx(1, "bad -e %s: want KEY=VALUE", optarg);
			o->env[o->nenv++] = optarg;
			break;
		case 't':
			o->timeout = parse_timeout(optarg);
			break;
		case 'w':
			o->cwd = optarg;
			break;
		case 'i':
			o->interactive = 1;
			break;
		case 'd':
			o->detach = 1;
			break;
		case 'T':
			o->tap = 1;
			break;
		default:
			errx(1, "usage: see sandboxctl(8)");
		}
	}
	return (optind);
}

/*
 * -i: copies of our standard input and output go just before the
 * request, for the command to use as its own.
 */
static void
send_stdio(struct imsgbuf *ibuf, const char *corr)
{
	struct sbx_stdio	 m;
	int			 i, fd;

	if (json)
		errx(1, "-i and -j both want standard output");
	for (i = 0; i < 2; i++) {
		memset(&m, 0, sizeof(m));
		strlcpy(m.corr, corr, sizeof(m.corr));
		m.which = i == 0 ? SBX_STDIO_IN : SBX_STDIO_OUT;
		if ((fd = dup(i)) == -1)
			err(1, "-i: %s", i == 0 ? "standard input" :
			    "standard output");
		ctl_request(ibuf, IMSG_CTL_STDIO, fd, &m, sizeof(m));
	}
}

static void
exec_fill(struct sbx_exec_req *req, struct exec_opts *o, char *argv[])
{
	req->timeout = o->timeout;
	if (o->interactive)
		req->flags |= SBX_EXEC_INTERACTIVE;
	if (o->detach)
		req->flags |= SBX_EXEC_DETACH;
	if (o->cwd != NULL && strlcpy(req->cwd, o->cwd, sizeof(req->cwd)) >=
	    sizeof(req->cwd))
		errx(1, "directory too long: %s", o->cwd);
	o->env[o->nenv] = NULL;
	if (sbx_exec_pack(req, argv, o->env) == -1)
		errx(1, "command and environment too long (%d bytes at most)",
		    SBX_EXEC_ARGS_SIZE);
}

static void
check_id(const char *id)
{
	char	 buf[SBX_ID_SIZE];

	if (strlcpy(buf, id, sizeof(buf)) >= sizeof(buf) ||
	    sbx_check_id(buf, sizeof(buf)) == -1)
		errx(1, "not a sandbox id: %s", id);
}

/* Returns the new sandbox's id in id, or exits. */
static int
do_create(struct imsgbuf *ibuf, const char *policy, int tap, char *id)
{
	struct sbx_create_req	 req;
	int			 rc;

	memset(&req, 0, sizeof(req));
	ctl_corr(req.corr);
	if (policy != NULL && strlcpy(req.policy, policy,
	    sizeof(req.policy)) >= sizeof(req.policy))
		errx(1, "policy name too long: %s", policy);
	req.tap = tap;
	ctl_last.sandbox_event = "sandbox.create";
	ctl_last.have_sandbox = 0;
	ctl_request(ibuf, IMSG_CTL_CREATE, -1, &req, sizeof(req));
	rc = ctl_replies(ibuf);
	if (rc != 0 || !ctl_last.have_sandbox)
		exit(rc != 0 ? rc : 1);
	strlcpy(id, ctl_last.sandbox.id, SBX_ID_SIZE);
	return (0);
}

static int
do_exec(struct imsgbuf *ibuf, const char *id, struct exec_opts *o,
    char *argv[])
{
	struct sbx_exec_req	*req;
	int			 rc;

	if ((req = calloc(1, sizeof(*req))) == NULL)
		err(1, NULL);
	ctl_corr(req->corr);
	strlcpy(req->id, id, sizeof(req->id));
	exec_fill(req, o, argv);
	if (o->interactive)
		send_stdio(ibuf, req->corr);
	ctl_request(ibuf, IMSG_CTL_EXEC, -1, req, sizeof(*req));
	free(req);
	rc = ctl_replies(ibuf);
	/* Detached: its id on a line of its own, and we are done. */
	if (o->detach && rc == 0 && !json)
		printf("%s\n", ctl_last.exec);
	return (rc);
}

static int
do_by_id(struct imsgbuf *ibuf, uint32_t type, const char *id)
{
	struct sbx_id_req	 req;

	memset(&req, 0, sizeof(req));
	ctl_corr(req.corr);
	strlcpy(req.id, id, sizeof(req.id));
	ctl_last.sandbox_event = "sandbox";
	ctl_request(ibuf, type, -1, &req, sizeof(req));
	return (ctl_replies(ibuf));
}

/* After the options: "--" then the command. */
static char **
command_args(int argc, char *argv[], int i)
{
	if (i > 0 && strcmp(argv[i - 1], "--") == 0)
		;
	else if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i >= argc)
		errx(1, "no command given after --");
	return (argv + i);
}

/* One request: create, exec, destroy; the exit status is the exec's. */
int
cmd_run(struct imsgbuf *ibuf, int argc, char *argv[])
{
	struct exec_opts	 o;
	struct sbx_run_req	*req;
	char			**cmd;
	int			 i, rc;

	i = exec_options(argc, argv, "+ip:e:t:w:", &o);
	cmd = command_args(argc, argv, i);
	if ((req = calloc(1, sizeof(*req))) == NULL)
		err(1, NULL);
	ctl_corr(req->create.corr);
	strlcpy(req->exec.corr, req->create.corr, sizeof(req->exec.corr));
	if (o.policy != NULL && strlcpy(req->create.policy, o.policy,
	    sizeof(req->create.policy)) >= sizeof(req->create.policy))
		errx(1, "policy name too long: %s", o.policy);
	req->create.ephemeral = 1;
	exec_fill(&req->exec, &o, cmd);
	if (o.interactive)
		send_stdio(ibuf, req->create.corr);
	ctl_last.sandbox_event = "sandbox.create";
	ctl_request(ibuf, IMSG_CTL_RUN, -1, req, sizeof(*req));
	free(req);
	rc = ctl_replies(ibuf);
	if (ctl_last.last_type != IMSG_CTL_EXEC_RESULT)
		return (rc);
	/* The sandbox is gone once this last reply comes. */
	ctl_last.have_sandbox = 1;	/* keep "destroyed" off stdout */
	if (ctl_replies(ibuf) == 0)
		show_event_id("sandbox.destroy", ctl_last.sandbox.id);
	return (rc);
}

int
cmd_create(struct imsgbuf *ibuf, int argc, char *argv[])
{
	struct exec_opts	 o;
	char			 id[SBX_ID_SIZE];

	if (exec_options(argc, argv, "+Tp:", &o) != argc)
		errx(1, "usage: create [-T | --tap] [-p policy]");
	do_create(ibuf, o.policy, o.tap, id);
	if (!json)
		printf("%s\n", id);
	return (0);
}

int
cmd_exec(struct imsgbuf *ibuf, int argc, char *argv[])
{
	struct exec_opts	 o;
	int			 i;

	i = exec_options(argc, argv, "+die:t:w:", &o);
	if (i >= argc)
		errx(1, "usage: exec [-di] [-e K=V] [-t timeout] [-w dir] id -- "
		    "cmd ...");
	if (o.detach && o.interactive)
		errx(125, "exec: -d and -i exclude each other: a detached "
		    "exec has no standard input or output of ours");
	check_id(argv[i]);
	return (do_exec(ibuf, argv[i], &o, command_args(argc, argv, i + 1)));
}

int
cmd_by_id(struct imsgbuf *ibuf, uint32_t type, int argc, char *argv[])
{
	int	 rc;

	if (argc != 2)
		errx(1, "usage: %s id", argv[0]);
	check_id(argv[1]);
	rc = do_by_id(ibuf, type, argv[1]);
	if (rc == 0 && type == IMSG_CTL_DESTROY)
		show_event_id("sandbox.destroy", argv[1]);
	return (rc);
}

int
cmd_ps(struct imsgbuf *ibuf, int argc, char *argv[])
{
	struct ctl_request	 req;

	memset(&req, 0, sizeof(req));
	ctl_corr(req.corr);
	ctl_last.sandbox_event = "sandbox";
	ctl_last.ps = 1;
	show_ps_header();
	ctl_request(ibuf, IMSG_CTL_PS, -1, &req, sizeof(req));
	return (ctl_replies(ibuf));
}

static int
do_file(struct imsgbuf *ibuf, uint32_t type, const char *id,
    const char *remote, int fd, mode_t mode)
{
	struct sbx_file_req	 req;
	size_t			 len = strlen(remote);

	memset(&req, 0, sizeof(req));
	ctl_corr(req.corr);
	strlcpy(req.id, id, sizeof(req.id));
	if (len >= sizeof(req.path))
		errx(1, "path too long: %s", remote);
	memcpy(req.path, remote, len);
	req.pathlen = len;
	req.mode = mode & 0777;
	ctl_request(ibuf, type, fd, &req, sizeof(req));
	return (ctl_replies(ibuf));
}

/* The local file is opened here, with the caller's own rights. */
int
cmd_put(struct imsgbuf *ibuf, int argc, char *argv[])
{
	struct stat	 st;
	int		 fd;

	if (argc > 1 && strcmp(argv[1], "-r") == 0) {
		if (argc != 5)
			errx(125, "usage: put -r id localdir remotedir");
		return (cmd_put_tree(ibuf, argv[2], argv[3], argv[4]));
	}
	if (argc != 4)
		errx(1, "usage: put [-r] id local remote");
	check_id(argv[1]);
	if ((fd = open(argv[2], O_RDONLY | O_CLOEXEC)) == -1)
		err(1, "%s", argv[2]);
	if (fstat(fd, &st) == -1)
		err(1, "%s", argv[2]);
	if (!S_ISREG(st.st_mode))
		errx(1, "%s: not a regular file", argv[2]);
	return (do_file(ibuf, IMSG_CTL_PUT, argv[1], argv[3], fd,
	    st.st_mode));
}

int
cmd_get(struct imsgbuf *ibuf, int argc, char *argv[])
{
	int	 fd, rc;

	if (argc > 1 && strcmp(argv[1], "-r") == 0) {
		if (argc != 5)
			errx(125, "usage: get -r id remotedir localdir");
		return (cmd_get_tree(ibuf, argv[2], argv[3], argv[4]));
	}
	if (argc != 4)
		errx(1, "usage: get [-r] id remote local");
	check_id(argv[1]);
	if ((fd = open(argv[3], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0644)) == -1)
		err(1, "%s", argv[3]);
	rc = do_file(ibuf, IMSG_CTL_GET, argv[1], argv[2], fd, 0);
	if (rc != 0)
		unlink(argv[3]);
	return (rc);
}
