/*
 * ls, stat, mkdir, rm, put -r and get -r.  Each request goes with one
 * end of a socketpair, on which runnerd's worker (the sandbox's uid)
 * sends the entries or reads the tree; the result comes as usual.
 * A local tree is read and made here, with the caller's own rights,
 * one fd at a time and no link followed (lib/fstree.c).
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fileop.h"
#include "fstree.h"
#include "sandboxctl.h"
#include "sbx_msg.h"
#include "utf8.h"

#define FOP_EXIT_ERROR	125	/* sandboxctl's or sandboxd's error */

static void
fop_check_id(const char *id)
{
	char	 buf[SBX_ID_SIZE];

	if (strlcpy(buf, id, sizeof(buf)) >= sizeof(buf) ||
	    sbx_check_id(buf, sizeof(buf)) == -1)
		errx(FOP_EXIT_ERROR, "not a sandbox id: %s", id);
}

/* Send the request; returns our end of the socket the worker gets. */
static int
fop_request(struct imsgbuf *ibuf, uint32_t op, uint32_t flags,
    uint32_t mode, const char *id, const char *path)
{
	struct sbx_fileop_req	 req;
	size_t			 len = strlen(path);
	int			 sv[2];

	fop_check_id(id);
	if (len == 0)
		errx(FOP_EXIT_ERROR, "empty path");
	if (len >= sizeof(req.path))
		errx(FOP_EXIT_ERROR, "path longer than %zu bytes: %.60s...",
		    sizeof(req.path) - 1, path);
	memset(&req, 0, sizeof(req));
	ctl_corr(req.corr);
	strlcpy(req.id, id, sizeof(req.id));
	memcpy(req.path, path, len);
	req.pathlen = len;
	req.op = op;
	req.flags = flags;
	req.mode = mode;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1)
		err(FOP_EXIT_ERROR, "socketpair");
	/* A worker gone mid-tree is an EPIPE to report, not a death. */
	signal(SIGPIPE, SIG_IGN);
	ctl_request(ibuf, IMSG_CTL_FILEOP, sv[1], &req, sizeof(req));
	return (sv[0]);
}

static int
fop_exit(int rc)
{
	return (rc == 0 ? 0 : FOP_EXIT_ERROR);
}

static void
fop_b64(char *dst, const unsigned char *src, size_t len)
{
	static const char	 tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t			 i;
	uint32_t		 v;

	for (i = 0; i + 2 < len; i += 3) {
		v = src[i] << 16 | src[i + 1] << 8 | src[i + 2];
		*dst++ = tab[v >> 18];
		*dst++ = tab[(v >> 12) & 63];
		*dst++ = tab[(v >> 6) & 63];
		*dst++ = tab[v & 63];
	}
	if (i < len) {
		v = src[i] << 16 | (i + 1 < len ? src[i + 1] << 8 : 0);
		*dst++ = tab[v >> 18];
		*dst++ = tab[(v >> 12) & 63];
		*dst++ = i + 1 < len ? tab[(v >> 6) & 63] : '=';
		*dst++ = '=';
	}
	*dst = '\0';
}

/* key: the string if it is UTF-8, else key_b64: its bytes in base64. */
static void
fop_json_name(json_t *o, const char *key, const char *s)
{
	char	 b64[FENT_PATH_SIZE * 4 / 3 + 8], k[32];
	size_t	 len = strlen(s);

	if (utf8_valid(s, len)) {
		json_object_set_new(o, key, json_string(s));
		return;
	}
	fop_b64(b64, (const unsigned char *)s, len);
	snprintf(k, sizeof(k), "%s_b64", key);
	json_object_set_new(o, k, json_string(b64));
}

static void
fop_show_json(const struct sbx_fent *e)
{
	char	 mode[8];
	json_t	*o;

	snprintf(mode, sizeof(mode), "%04o", e->mode);
	o = json_pack("{s:s, s:s, s:I, s:s, s:I, s:I, s:i, s:i, s:i}",
	    "event", "entry", "type", fent_type_name(e->type),
	    "size", (json_int_t)e->size, "mode", mode,
	    "mtime", (json_int_t)e->mtime, "mtime_ns", (json_int_t)e->mtime_ns,
	    "uid", (int)e->uid, "gid", (int)e->gid, "nlink", (int)e->nlink);
	if (o == NULL)
		errx(FOP_EXIT_ERROR, "out of memory");
	fop_json_name(o, "name", e->path);
	if (e->type == FENT_LINK)
		fop_json_name(o, "target", e->target);
	json_emit(o);
}

/* A name as a line shows it: control bytes and backslash as \ooo. */
static void
fop_quote(char *dst, size_t size, const char *s)
{
	size_t		 o = 0;
	unsigned char	 c;

	for (; *s != '\0' && o + 5 < size; s++) {
		c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f || c == '\\')
			o += snprintf(dst + o, size - o, "\\%03o", c);
		else
			dst[o++] = c;
	}
	dst[o] = '\0';
}

static void
fop_show_line(const struct sbx_fent *e, int long_form)
{
	static struct esc_state	 esc;
	char			 name[FENT_PATH_SIZE * 4], target[sizeof(name)];
	char			 line[sizeof(name) * 2 + 128], when[32];
	struct tm		 tm;
	time_t			 t = e->mtime;
	const char		*types = "-dl?";
	int			 n;

	fop_quote(name, sizeof(name), e->path);
	fop_quote(target, sizeof(target), e->target);
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	n = snprintf(line, sizeof(line), "%c%c%c%c%c%c%c%c%c%c %10llu %s %s"
	    "%s%s\n", types[e->type - 1],
	    e->mode & 0400 ? 'r' : '-', e->mode & 0200 ? 'w' : '-',
	    e->mode & 04000 ? 's' : e->mode & 0100 ? 'x' : '-',
	    e->mode & 040 ? 'r' : '-', e->mode & 020 ? 'w' : '-',
	    e->mode & 02000 ? 's' : e->mode & 010 ? 'x' : '-',
	    e->mode & 04 ? 'r' : '-', e->mode & 02 ? 'w' : '-',
	    e->mode & 01000 ? 't' : e->mode & 01 ? 'x' : '-',
	    (unsigned long long)e->size, when, name,
	    e->type == FENT_LINK ? " -> " : "", target);
	if (long_form)
		n += snprintf(line + n, sizeof(line) - n, "  uid %u gid %u "
		    "links %u mode %04o mtime %lld.%09u\n", e->uid, e->gid,
		    e->nlink, e->mode, (long long)e->mtime, e->mtime_ns);
	fflush(stdout);
	esc_write(STDOUT_FILENO, &esc, line, strlen(line));
	esc_flush(STDOUT_FILENO, &esc);
}

/* Read the entries of an ls or stat reply, then its result. */
static int
fop_entries(struct imsgbuf *ibuf, int sock, int long_form)
{
	struct sbx_fent	 e;
	char		 emsg[128];
	uint64_t	 count = 0;
	int		 n, ended = 0, rc;

	while (!ended && (n = fent_read(sock, &e)) == 1) {
		if (fent_check(&e, emsg, sizeof(emsg)) == -1 ||
		    e.type == FENT_END) {
			ended = e.type == FENT_END && e.size == count;
			break;
		}
		if (++count > FENT_LS_MAX)
			break;
		if (json)
			fop_show_json(&e);
		else
			fop_show_line(&e, long_form);
	}
	close(sock);
	rc = ctl_replies(ibuf);
	if (rc == 0 && !ended) {
		warnx("the reply was cut short or malformed");
		rc = 1;
	}
	return (fop_exit(rc));
}

int
cmd_ls(struct imsgbuf *ibuf, int argc, char *argv[])
{
	int	 sock;

	if (argc != 2 && argc != 3)
		errx(FOP_EXIT_ERROR, "usage: ls id [path]");
	sock = fop_request(ibuf, FILEOP_LS, 0, 0, argv[1],
	    argc == 3 ? argv[2] : ".");
	return (fop_entries(ibuf, sock, 0));
}

int
cmd_stat(struct imsgbuf *ibuf, int argc, char *argv[])
{
	int	 sock;

	if (argc != 3)
		errx(FOP_EXIT_ERROR, "usage: stat id path");
	sock = fop_request(ibuf, FILEOP_STAT, 0, 0, argv[1], argv[2]);
	return (fop_entries(ibuf, sock, 1));
}

/* mkdir [-p] [-m mode] and rm [-r]: no entries, only a result. */
int
cmd_mkdir_rm(struct imsgbuf *ibuf, int argc, char *argv[])
{
	const char	*usage;
	char		*end;
	long		 mode = 0;
	uint32_t	 flags = 0;
	int		 ch, mkdir = strcmp(argv[0], "mkdir") == 0, sock;

	usage = mkdir ? "usage: mkdir [-p] [-m mode] id path" :
	    "usage: rm [-r] id path";
	optind = 0;
	while ((ch = getopt(argc, argv, mkdir ? "+m:p" : "+r")) != -1) {
		switch (ch) {
		case 'm':
			mode = strtol(optarg, &end, 8);
			if (*optarg == '\0' || *end != '\0' || mode < 0 ||
			    mode > 0777)
				errx(FOP_EXIT_ERROR, "-m: not an octal mode "
				    "up to 0777: %s", optarg);
			break;
		case 'p':
			flags |= FILEOP_F_PARENTS;
			break;
		case 'r':
			flags |= FILEOP_F_RECURSIVE;
			break;
		default:
			errx(FOP_EXIT_ERROR, "%s", usage);
		}
	}
	if (argc - optind != 2)
		errx(FOP_EXIT_ERROR, "%s", usage);
	sock = fop_request(ibuf, mkdir ? FILEOP_MKDIR : FILEOP_RM, flags,
	    mode, argv[optind], argv[optind + 1]);
	close(sock);
	return (fop_exit(ctl_replies(ibuf)));
}

int
cmd_put_tree(struct imsgbuf *ibuf, const char *id, const char *local,
    const char *remote)
{
	struct fstree	 t;
	int		 fd, sock, rc;

	if ((fd = open(local, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		err(FOP_EXIT_ERROR, "%s", local);
	sock = fop_request(ibuf, FILEOP_PUT_TREE, 0, 0, id, remote);
	memset(&t, 0, sizeof(t));
	t.sock = sock;
	rc = fstree_send(&t, fd);
	close(fd);
	close(sock);
	/* EPIPE: the worker stopped reading, and its result says why. */
	if (rc == -1 && t.error != EPIPE && t.error != ECONNRESET)
		warnx("%s: %s", local, t.msg);
	rc = ctl_replies(ibuf) != 0 || rc == -1;
	return (fop_exit(rc));
}

/* Undo a failed get -r: the directory made and all in it. */
static void
fop_get_undo(const char *local)
{
	struct fstree	 t;
	char		 dir[PATH_MAX], base[PATH_MAX];
	int		 dfd;

	strlcpy(dir, local, sizeof(dir));
	strlcpy(base, local, sizeof(base));
	if ((dfd = open(dirname(dir), O_PATH | O_DIRECTORY | O_CLOEXEC)) ==
	    -1)
		return;
	memset(&t, 0, sizeof(t));
	if (fstree_rm(&t, dfd, basename(base), 0) == -1)
		warnx("%s: could not remove what was made: %s", local, t.msg);
	close(dfd);
}

int
cmd_get_tree(struct imsgbuf *ibuf, const char *id, const char *remote,
    const char *local)
{
	struct fstree	 t;
	struct stat	 st;
	int		 fd, sock, rc;

	if (mkdir(local, 0700) == -1)
		err(FOP_EXIT_ERROR, "%s%s", local, errno == EEXIST ?
		    " (get -r makes a new directory)" : "");
	/* The directory just made, not one put in its place since. */
	if ((fd = open(local, O_PATH | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || fstat(fd, &st) == -1 ||
	    st.st_uid != geteuid()) {
		warnx("%s: replaced while it was made", local);
		return (FOP_EXIT_ERROR);
	}
	sock = fop_request(ibuf, FILEOP_GET_TREE, 0, 0, id, remote);
	memset(&t, 0, sizeof(t));
	t.sock = sock;
	rc = fstree_recv(&t, fd);
	close(fd);
	close(sock);
	/* A stream that ended early: the result says why. */
	if (rc == -1 && t.error != EPIPE)
		warnx("%s: %s", local, t.msg);
	rc = ctl_replies(ibuf) != 0 || rc == -1;
	if (rc != 0)
		fop_get_undo(local);
	return (fop_exit(rc));
}
