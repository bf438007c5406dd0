/*
 * sandboxctl put/get: copy one file in or out of a sandbox's workspace.
 *
 * The copy runs in a forked process that keeps only three fds, becomes
 * the sandbox's uid and gid with no capabilities, and only then resolves
 * the path with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS) below
 * the workspace: the kernel refuses "..", absolute paths and symlinks
 * that lead out while it resolves, so nothing is checked apart from
 * where it is used, and the copier has exactly the sandbox's rights.
 */
#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <linux/capability.h>
#include <linux/openat2.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "workspace.h"

/* Where the copier keeps its three fds. */
#define WS_FD_WORKSPACE	WORKSPACE_FD_ROOT
#define WS_FD_CALLER	WORKSPACE_FD_CALLER
#define WS_FD_RESULT	5
#define WS_FD_FIRSTFREE	6

#define WS_CHUNK	(1 << 20)	/* per copy_file_range/sendfile */
#define WS_BUFSZ	(64 * 1024)	/* per read/write */
#define WS_QUOTE_SIZE	100		/* a path as shown in messages */
#define WS_EAGAIN_TRIES	8

enum ws_how { WS_CFR, WS_SENDFILE, WS_RW };

struct ws_ctx {
	const struct workspace_copy	*wc;
	struct workspace_result		 res;
	char				 qpath[WS_QUOTE_SIZE];
	char				 path[PATH_MAX];
	const char			*dir;	/* all but the last component */
	const char			*base;	/* the last component */
	int				 dirfd;	/* dir, opened O_PATH */
	int				 fd;	/* the workspace file */
};

static char	ws_buf[WS_BUFSZ];

/*
 * A path as it may be shown to a person or a log: printable ASCII as
 * is, anything else (NUL, newlines, bytes of other encodings) as \ooo,
 * cut short with "..." to fit dstsz, which must be at least 8.
 */
static void
ws_quote(char *dst, size_t dstsz, const char *p, size_t len)
{
	size_t		 i, o = 0;
	unsigned char	 c;

	for (i = 0; i < len && o + 8 < dstsz; i++) {
		c = (unsigned char)p[i];
		if (c == '\\')
			o += snprintf(dst + o, dstsz - o, "\\\\");
		else if (c >= 0x20 && c < 0x7f)
			dst[o++] = c;
		else
			o += snprintf(dst + o, dstsz - o, "\\%03o", c);
	}
	snprintf(dst + o, dstsz - o, "%s", i < len ? "..." : "");
}

static int
ws_has_dotdot(const char *p, size_t len)
{
	size_t	 i, start = 0;

	for (i = 0; i <= len; i++) {
		if (i < len && p[i] != '/')
			continue;
		if (i - start == 2 && p[start] == '.' && p[start + 1] == '.')
			return (1);
		start = i + 1;
	}
	return (0);
}

int
workspace_check_path(const char *path, size_t len, char *err, size_t errlen)
{
	char		 q[WS_QUOTE_SIZE];
	const char	*why = NULL;

	if (path == NULL || len == 0) {
		snprintf(err, errlen, "empty path");
		return (-1);
	}
	if (strnlen(path, len) != len)
		why = "path contains a NUL byte";
	else if (len >= PATH_MAX)
		why = "path is too long";
	else if (path[0] == '/')
		why = "path must be relative to the workspace";
	else if (ws_has_dotdot(path, len))
		why = "path must not contain '..'";
	if (why == NULL)
		return (0);
	ws_quote(q, sizeof(q), path, len);
	snprintf(err, errlen, "%s: %s", q, why);
	return (-1);
}

__attribute__((format(printf, 3, 4)))
static void
ws_fail(struct ws_ctx *c, int error, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	c->res.error = error;
	n = snprintf(c->res.msg, sizeof(c->res.msg), "%s: ", c->qpath);
	if (n < 0 || (size_t)n >= sizeof(c->res.msg))
		return;
	va_start(ap, fmt);
	vsnprintf(c->res.msg + n, sizeof(c->res.msg) - n, fmt, ap);
	va_end(ap);
}

__attribute__((noreturn))
static void
ws_report(struct ws_ctx *c)
{
	ssize_t	 n;

	while ((n = write(WS_FD_RESULT, &c->res, sizeof(c->res))) == -1 &&
	    errno == EINTR)
		;
	_exit(n == (ssize_t)sizeof(c->res) ? 0 : 1);
}

/*
 * Keep the workspace, the caller's file and the result pipe as fds 3, 4
 * and 5 and close everything else.  0, 1 and 2 become copies of the
 * O_PATH workspace fd, on which every read and write fails with EBADF:
 * nothing the copier opens can land there, and a stray write to stderr
 * reaches no file.
 */
static int
ws_child_fds(const struct workspace_copy *wc, int resultfd)
{
	int	 keep[3] = { wc->workspace_fd, wc->fd, resultfd };
	int	 i;

	for (i = 0; i < 3; i++)
		if ((keep[i] = fcntl(keep[i], F_DUPFD_CLOEXEC,
		    WS_FD_FIRSTFREE)) == -1)
			return (-1);
	for (i = 0; i < 3; i++)
		if (dup2(keep[i], WS_FD_WORKSPACE + i) == -1)
			return (-1);
	if (close_range(WS_FD_FIRSTFREE, ~0U, 0) == -1)
		return (-1);
	for (i = 0; i < 3; i++)
		if (dup2(WS_FD_WORKSPACE, i) == -1)
			return (-1);
	return (0);
}

/* Default dispositions (SIGPIPE ignored: EPIPE is reported), no mask. */
static void
ws_child_signals(void)
{
	sigset_t	 none;
	int		 sig;

	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, sig == SIGPIPE ? SIG_IGN : SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static int
ws_caps_clear(int check)
{
	struct __user_cap_header_struct	 hdr;
	struct __user_cap_data_struct	 data[_LINUX_CAPABILITY_U32S_3];
	int				 i;

	memset(&hdr, 0, sizeof(hdr));
	memset(data, 0, sizeof(data));
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	if (!check)
		return (syscall(SYS_capset, &hdr, data) == -1 ? -1 : 0);
	if (syscall(SYS_capget, &hdr, data) == -1)
		return (-1);
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (data[i].effective != 0 || data[i].permitted != 0 ||
		    data[i].inheritable != 0)
			return (-1);
	return (0);
}

/*
 * Become the sandbox's user with no groups and no capabilities, and
 * check that the kernel agrees before any file is touched.  A daemon
 * that is not root keeps its capabilities across setresuid(2), so they
 * are dropped explicitly.
 */
static int
ws_become_sandbox(uid_t uid, gid_t gid)
{
	uid_t	 ru, eu, su;
	gid_t	 rg, eg, sg;

	if (setgroups(0, NULL) == -1 || setresgid(gid, gid, gid) == -1 ||
	    setresuid(uid, uid, uid) == -1)
		return (-1);
	if (ws_caps_clear(0) == -1 || prctl(PR_SET_DUMPABLE, 0) == -1)
		return (-1);
	if (getresuid(&ru, &eu, &su) == -1 || getresgid(&rg, &eg, &sg) == -1)
		return (-1);
	if (ru != uid || eu != uid || su != uid || rg != gid || eg != gid ||
	    sg != gid || getgroups(0, NULL) != 0 || ws_caps_clear(1) == -1) {
		errno = EPERM;
		return (-1);
	}
	return (0);
}

static int
ws_openat2(int dirfd, const char *path, uint64_t flags, uint64_t mode)
{
	struct open_how	 how;
	int		 fd, tries = 0;

	memset(&how, 0, sizeof(how));
	how.flags = flags;
	how.mode = mode;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
	/* EAGAIN: a rename raced a lookup and the kernel could not tell. */
	do {
		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	} while (fd == -1 && (errno == EAGAIN || errno == EINTR) &&
	    ++tries < WS_EAGAIN_TRIES);
	return (fd);
}

/* Why an openat2 failed, in words; indir: while opening the directory. */
static void
ws_open_error(struct ws_ctx *c, int e, int indir)
{
	int	 put = c->wc->op == WORKSPACE_PUT;

	switch (e) {
	case EXDEV:
		ws_fail(c, e, "path escapes the workspace");
		break;
	case ELOOP:
		if (indir)
			ws_fail(c, e, "path goes through a /proc magic link "
			    "or a symbolic link loop");
		else
			ws_fail(c, e, "is a symbolic link");
		break;
	case ENOENT:
		if (indir && put)
			ws_fail(c, e, "parent directory does not exist "
			    "(put does not create directories)");
		else
			ws_fail(c, e, "no such file or directory");
		break;
	case ENOTDIR:
		ws_fail(c, e, "a component of the path is not a directory");
		break;
	case EACCES:
	case EPERM:
		ws_fail(c, e, "permission denied");
		break;
	case EISDIR:
		ws_fail(c, e, "is a directory");
		break;
	case ENXIO:
		ws_fail(c, e, "is not a regular file");
		break;
	case ENOSPC:
	case EDQUOT:
		ws_fail(c, e, "workspace quota exceeded");
		break;
	case ENAMETOOLONG:
		ws_fail(c, e, "path is too long");
		break;
	case E2BIG:
	case ENOSYS:
		ws_fail(c, e, "openat2 is not available in this kernel");
		break;
	default:
		ws_fail(c, e, "%s", strerror(e));
		break;
	}
}

/* Split the path into its directory and last component. */
static void
ws_split(struct ws_ctx *c)
{
	char	*slash;
	size_t	 len;

	snprintf(c->path, sizeof(c->path), "%s", c->wc->path);
	len = strlen(c->path);
	c->dir = c->path;
	if (c->path[len - 1] == '/')
		c->base = ".";		/* "a/b/" names the directory a/b */
	else if ((slash = strrchr(c->path, '/')) == NULL) {
		c->dir = ".";
		c->base = c->path;
	} else {
		*slash = '\0';
		c->base = slash + 1;
	}
}

static int
ws_open(struct ws_ctx *c)
{
	struct stat	 st;
	uint64_t	 flags;

	ws_split(c);
	c->dirfd = ws_openat2(WS_FD_WORKSPACE, c->dir,
	    O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	if (c->dirfd == -1) {
		ws_open_error(c, errno, 1);
		return (-1);
	}
	/* O_NONBLOCK: a FIFO must not hang the open; refused below. */
	flags = O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
	if (c->wc->op == WORKSPACE_PUT)
		flags |= O_WRONLY | O_CREAT | O_TRUNC;
	else
		flags |= O_RDONLY;
	c->fd = ws_openat2(c->dirfd, c->base, flags,
	    c->wc->op == WORKSPACE_PUT ? (c->wc->mode & 0777) : 0);
	if (c->fd == -1) {
		ws_open_error(c, errno, 0);
		return (-1);
	}
	if (fstat(c->fd, &st) == -1) {
		ws_fail(c, errno, "fstat: %s", strerror(errno));
		return (-1);
	}
	if (S_ISDIR(st.st_mode)) {
		ws_fail(c, EISDIR, "is a directory");
		return (-1);
	}
	if (!S_ISREG(st.st_mode)) {
		ws_fail(c, EINVAL, "is not a regular file");
		return (-1);
	}
	return (0);
}

/* After a failed call: 0 to try again (EINTR, or EAGAIN and ready). */
static int
ws_retry(int fd, short events)
{
	struct pollfd	 pfd;

	if (errno == EINTR)
		return (0);
	if (errno != EAGAIN)
		return (-1);
	pfd.fd = fd;
	pfd.events = events;
	while (poll(&pfd, 1, -1) == -1)
		if (errno != EINTR)
			return (-1);
	return (0);
}

/* Whether a copy_file_range or sendfile error means "not here". */
static int
ws_fallback(int e)
{
	return (e == EXDEV || e == EINVAL || e == ENOSYS || e == EOPNOTSUPP ||
	    e == EBADF || e == ETXTBSY || e == EPERM);
}

static ssize_t
ws_rw(int in, int out, size_t n)
{
	ssize_t	 r, w;
	size_t	 off;

	if (n > sizeof(ws_buf))
		n = sizeof(ws_buf);
	while ((r = read(in, ws_buf, n)) == -1)
		if (ws_retry(in, POLLIN) == -1)
			return (-1);
	for (off = 0; off < (size_t)r; off += w) {
		while ((w = write(out, ws_buf + off, r - off)) == -1)
			if (ws_retry(out, POLLOUT) == -1)
				return (-1);
		if (w == 0) {
			errno = EIO;
			return (-1);
		}
	}
	return (r);
}

/*
 * Move up to n bytes with the cheapest call the two fds allow:
 * copy_file_range, then sendfile, then read and write.
 */
static ssize_t
ws_chunk(enum ws_how *how, int in, int out, size_t n)
{
	ssize_t	 r;

	while (*how != WS_RW) {
		if (*how == WS_CFR)
			r = copy_file_range(in, NULL, out, NULL, n, 0);
		else
			r = sendfile(out, in, NULL, n);
		if (r != -1)
			return (r);
		if (ws_fallback(errno))
			(*how)++;
		else if (ws_retry(out, POLLOUT) == -1)
			return (-1);
	}
	return (ws_rw(in, out, n));
}

/* Copy until EOF or limit bytes; a zero is confirmed by read(2). */
static int
ws_copy(int in, int out, uint64_t limit, uint64_t *done)
{
	enum ws_how	 how = WS_CFR;
	uint64_t	 left;
	ssize_t		 r;

	*done = 0;
	while ((left = limit - *done) > 0) {
		r = ws_chunk(&how, in, out, left < WS_CHUNK ? left : WS_CHUNK);
		if (r == -1)
			return (-1);
		if (r == 0) {
			if (how == WS_RW)
				break;
			how = WS_RW;
			continue;
		}
		*done += r;
	}
	return (0);
}

/* A failed put leaves no partial file behind. */
static void
ws_put_undo(struct ws_ctx *c)
{
	struct stat	 st, cur;

	if (ftruncate(c->fd, 0) == -1 || fstat(c->fd, &st) == -1)
		return;
	/* Only unlink the name if it is still the file written to. */
	if (fstatat(c->dirfd, c->base, &cur, AT_SYMLINK_NOFOLLOW) == 0 &&
	    cur.st_dev == st.st_dev && cur.st_ino == st.st_ino)
		unlinkat(c->dirfd, c->base, 0);
}

static void
ws_transfer(struct ws_ctx *c)
{
	struct stat	 st;
	uint64_t	 limit = UINT64_MAX;
	int		 put = c->wc->op == WORKSPACE_PUT, e;

	/* A get copies the file as large as it was when opened. */
	if (!put && fstat(c->fd, &st) == 0)
		limit = st.st_size;
	if (ws_copy(put ? WS_FD_CALLER : c->fd, put ? c->fd : WS_FD_CALLER,
	    limit, &c->res.bytes) == 0)
		return;
	e = errno;
	if (put && (e == ENOSPC || e == EDQUOT))
		ws_fail(c, e, "workspace quota exceeded");
	else
		ws_fail(c, e, "copy failed: %s", strerror(e));
	if (put)
		ws_put_undo(c);
}

__attribute__((noreturn))
static void
ws_child(const struct workspace_copy *wc, int resultfd)
{
	struct ws_ctx	 c;

	ws_child_signals();
	memset(&c, 0, sizeof(c));
	c.wc = wc;
	c.dirfd = c.fd = -1;
	ws_quote(c.qpath, sizeof(c.qpath), wc->path, wc->pathlen);
	if (ws_child_fds(wc, resultfd) == -1)
		_exit(1);	/* the result pipe may be gone: no report */
	umask(0);
	if (ws_become_sandbox(wc->uid, wc->gid) == -1)
		ws_fail(&c, errno, "cannot become the sandbox user %u:%u: %s",
		    (unsigned)wc->uid, (unsigned)wc->gid, strerror(errno));
	else if (wc->op == WORKSPACE_WORK)
		wc->work(wc, &c.res);
	else if (ws_open(&c) == 0)
		ws_transfer(&c);
	ws_report(&c);
}

static int
ws_check_args(const struct workspace_copy *wc, char *err, size_t errlen)
{
	if (wc->op != WORKSPACE_PUT && wc->op != WORKSPACE_GET &&
	    (wc->op != WORKSPACE_WORK || wc->work == NULL)) {
		snprintf(err, errlen, "unknown workspace operation %d",
		    (int)wc->op);
		return (-1);
	}
	if (wc->workspace_fd < 0 || wc->fd < 0) {
		snprintf(err, errlen, "no workspace or no file to copy");
		return (-1);
	}
	/* The copier must never run with the daemon's own ids. */
	if (wc->uid == 0 || wc->gid == 0 || wc->uid == (uid_t)-1 ||
	    wc->gid == (gid_t)-1) {
		snprintf(err, errlen, "refusing to copy as uid %u gid %u",
		    (unsigned)wc->uid, (unsigned)wc->gid);
		return (-1);
	}
	return (workspace_check_path(wc->path, wc->pathlen, err, errlen));
}

pid_t
workspace_copy_start(const struct workspace_copy *wc, int *resultfd,
    char *err, size_t errlen)
{
	sigset_t	 all, old;
	pid_t		 pid;
	int		 p[2], e;

	if (ws_check_args(wc, err, errlen) == -1)
		return (-1);
	if (pipe2(p, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "result pipe: %s", strerror(errno));
		return (-1);
	}
	if (fcntl(p[0], F_SETFL, O_NONBLOCK) == -1) {
		snprintf(err, errlen, "result pipe: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return (-1);
	}
	/* No handler of ours may run in the child before it resets them. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	if ((pid = fork()) == 0)
		ws_child(wc, p[1]);
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(p[1]);
	if (pid == -1) {
		close(p[0]);
		snprintf(err, errlen, "fork: %s", strerror(e));
		return (-1);
	}
	log_debug("%s: %s as %u:%u, pid %d", __func__,
	    wc->op == WORKSPACE_PUT ? "put" : wc->op == WORKSPACE_GET ?
	    "get" : "file operation", (unsigned)wc->uid,
	    (unsigned)wc->gid, (int)pid);
	*resultfd = p[0];
	return (pid);
}
