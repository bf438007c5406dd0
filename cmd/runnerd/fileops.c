/*
 * sandboxctl ls, stat, mkdir, rm, put -r and get -r: the work, done in
 * the copier process of workspace.c once it is the sandbox's user with
 * no capabilities.  The path asked is resolved beneath the workspace
 * with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS); every name below
 * it one directory fd at a time with no symbolic link followed
 * (lib/fstree.c).  Entries go to the client on its socket, fd
 * WORKSPACE_FD_CALLER; the result goes back to runnerd.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileop.h"
#include "fstree.h"
#include "runnerd.h"
#include "workspace.h"

#define FOP_QUOTE_SIZE	120
#define FOP_IDLE_SEC	120	/* a tree stream that stalls this long fails */

struct fop {
	const struct sbx_fileop_req	*req;
	struct workspace_result		*res;
	char				 path[PATH_MAX];	/* trimmed */
	char				 parent[PATH_MAX];
	const char			*base;
};

__attribute__((format(printf, 3, 4)))
static void
fop_fail(struct fop *f, int error, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	f->res->error = error != 0 ? error : EIO;
	n = snprintf(f->res->msg, sizeof(f->res->msg), "%.*s: ",
	    FOP_QUOTE_SIZE, f->req->path);
	if (n < 0 || (size_t)n >= sizeof(f->res->msg))
		return;
	va_start(ap, fmt);
	vsnprintf(f->res->msg + n, sizeof(f->res->msg) - n, fmt, ap);
	va_end(ap);
}

static void
fop_open_error(struct fop *f, int e)
{
	switch (e) {
	case EXDEV:
		fop_fail(f, e, "path escapes the workspace");
		break;
	case ELOOP:
		fop_fail(f, e, "path goes through a symbolic link or a /proc "
		    "magic link");
		break;
	case ENOENT:
		fop_fail(f, e, "no such file or directory");
		break;
	case ENOTDIR:
		fop_fail(f, e, "a component of the path is not a directory");
		break;
	case EACCES:
	case EPERM:
		fop_fail(f, e, "permission denied");
		break;
	case EEXIST:
		fop_fail(f, e, "already exists");
		break;
	case ENOTEMPTY:
		fop_fail(f, e, "directory not empty (rm -r removes it and "
		    "all below)");
		break;
	case ENOSPC:
	case EDQUOT:
		fop_fail(f, e, "workspace quota exceeded");
		break;
	default:
		fop_fail(f, e, "%s", strerror(e));
		break;
	}
}

/* "a/b//" -> parent "a", base "b"; "b" -> ".", "b"; "." -> ".", ".". */
static void
fop_split(struct fop *f)
{
	char	*slash;
	size_t	 len;

	strlcpy(f->path, f->req->path, sizeof(f->path));
	len = strlen(f->path);
	while (len > 1 && f->path[len - 1] == '/')
		f->path[--len] = '\0';
	strlcpy(f->parent, f->path, sizeof(f->parent));
	if ((slash = strrchr(f->parent, '/')) == NULL) {
		strlcpy(f->parent, ".", sizeof(f->parent));
		f->base = f->path;
	} else {
		*slash = '\0';
		f->base = f->path + (slash - f->parent) + 1;
	}
}

/* The parent of the path, as an O_PATH directory fd, or -1 reported. */
static int
fop_parent(struct fop *f)
{
	int	 fd;

	if ((fd = fstree_openat(WORKSPACE_FD_ROOT, f->parent, O_PATH |
	    O_DIRECTORY, 0, 0)) == -1)
		fop_open_error(f, errno);
	return (fd);
}

/*
 * A client that stops reading or writing a tree must not keep a worker
 * for ever: the stream fails once idle for FOP_IDLE_SEC.  Not a socket
 * (a raw client may pass anything): no timeout, nothing else changes.
 */
static void
fop_stream_timeout(void)
{
	struct timeval	 tv = { FOP_IDLE_SEC, 0 };

	(void)setsockopt(WORKSPACE_FD_CALLER, SOL_SOCKET, SO_RCVTIMEO, &tv,
	    sizeof(tv));
	(void)setsockopt(WORKSPACE_FD_CALLER, SOL_SOCKET, SO_SNDTIMEO, &tv,
	    sizeof(tv));
}

static int
fop_send_end(struct fop *f, uint64_t count)
{
	struct sbx_fent	 e;

	memset(&e, 0, sizeof(e));
	e.type = FENT_END;
	e.size = count;
	if (fent_write(WORKSPACE_FD_CALLER, &e) == -1) {
		fop_fail(f, errno, "sending the reply: %s", strerror(errno));
		return (-1);
	}
	return (0);
}

/* One entry named name beneath dfd, shown as shown. */
static int
fop_send_entry(struct fop *f, int dfd, const char *name, const char *shown)
{
	struct sbx_fent	 e;
	struct stat	 st;
	ssize_t		 n;

	if (fstatat(dfd, name, &st, name[0] == '\0' ? AT_EMPTY_PATH :
	    AT_SYMLINK_NOFOLLOW) == -1) {
		if (errno == ENOENT)
			return (0);	/* gone since it was listed */
		fop_fail(f, errno, "%.60s: %s", name, strerror(errno));
		return (-1);
	}
	memset(&e, 0, sizeof(e));
	fent_from_stat(&e, &st);
	strlcpy(e.path, shown, sizeof(e.path));
	if (e.type == FENT_LINK) {
		n = readlinkat(dfd, name, e.target, sizeof(e.target) - 1);
		if (n <= 0)
			strlcpy(e.target, "?", sizeof(e.target));
		else
			e.target[n] = '\0';
	}
	if (fent_write(WORKSPACE_FD_CALLER, &e) == -1) {
		fop_fail(f, errno, "sending the reply: %s", strerror(errno));
		return (-1);
	}
	return (0);
}

static int
fop_name_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* The names of a directory, sorted; at most FENT_LS_MAX of them. */
static char **
fop_names(struct fop *f, int dfd, size_t *np)
{
	struct dirent	*de;
	char		**v = NULL, **nv;
	size_t		 n = 0, cap = 0;
	DIR		*d;
	int		 fd;

	if ((fd = fstree_openat(dfd, ".", O_RDONLY | O_DIRECTORY, 0, 1)) ==
	    -1 || (d = fdopendir(fd)) == NULL) {
		fop_open_error(f, errno);
		return (NULL);
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (n == FENT_LS_MAX) {
			fop_fail(f, EFBIG, "more than %d entries: list a "
			    "directory below it, or get -r it", FENT_LS_MAX);
			break;
		}
		if (n == cap) {
			cap = cap == 0 ? 256 : cap * 2;
			if ((nv = reallocarray(v, cap, sizeof(*v))) == NULL)
				break;
			v = nv;
		}
		if ((v[n] = strdup(de->d_name)) == NULL)
			break;
		n++;
	}
	closedir(d);
	if (f->res->error == 0 && de != NULL)
		fop_fail(f, ENOMEM, "out of memory");
	if (n > 1)
		qsort(v, n, sizeof(*v), fop_name_cmp);
	*np = n;
	return (v);
}

static void
fop_ls(struct fop *f)
{
	struct stat	 st;
	char		**names;
	size_t		 n = 0, i;
	int		 fd, rc = 0;

	/* The path itself may be a link that stays in the workspace. */
	if ((fd = fstree_openat(WORKSPACE_FD_ROOT, f->path, O_PATH, 0, 0)) ==
	    -1) {
		fop_open_error(f, errno);
		return;
	}
	if (fstat(fd, &st) == -1 || !S_ISDIR(st.st_mode)) {
		if (fop_send_entry(f, fd, "", f->req->path) == 0)
			fop_send_end(f, 1);
		close(fd);
		return;
	}
	names = fop_names(f, fd, &n);
	for (i = 0; i < n; i++) {
		if (rc == 0 && f->res->error == 0)
			rc = fop_send_entry(f, fd, names[i], names[i]);
		free(names[i]);
	}
	free(names);
	if (rc == 0 && f->res->error == 0)
		fop_send_end(f, n);
	close(fd);
}

static void
fop_stat(struct fop *f)
{
	struct stat	 st;
	int		 pfd;

	if ((pfd = fop_parent(f)) == -1)
		return;
	if (fstatat(pfd, f->base, &st, AT_SYMLINK_NOFOLLOW) == -1)
		fop_open_error(f, errno);
	else if (fop_send_entry(f, pfd, f->base, f->req->path) == 0)
		fop_send_end(f, 1);
	close(pfd);
}

/* mkdir -p: each component opened with no link followed, or made. */
static void
fop_mkdir_parents(struct fop *f, mode_t mode)
{
	char	 buf[PATH_MAX], *comp, *next;
	int	 cur, fd;

	strlcpy(buf, f->path, sizeof(buf));
	if ((cur = dup(WORKSPACE_FD_ROOT)) == -1) {
		fop_fail(f, errno, "dup: %s", strerror(errno));
		return;
	}
	for (comp = buf; comp != NULL; comp = next) {
		if ((next = strchr(comp, '/')) != NULL)
			*next++ = '\0';
		if (comp[0] == '\0' || strcmp(comp, ".") == 0)
			continue;
		fd = fstree_openat(cur, comp, O_PATH | O_DIRECTORY, 0, 1);
		if (fd == -1 && errno == ENOENT &&
		    (mkdirat(cur, comp, mode) == 0 || errno == EEXIST))
			fd = fstree_openat(cur, comp, O_PATH | O_DIRECTORY,
			    0, 1);
		if (fd == -1) {
			fop_open_error(f, errno);
			break;
		}
		close(cur);
		cur = fd;
	}
	close(cur);
}

static void
fop_mkdir(struct fop *f)
{
	mode_t	 mode = f->req->mode != 0 ? f->req->mode & 0777 : 0755;
	int	 pfd;

	if (f->req->flags & FILEOP_F_PARENTS) {
		fop_mkdir_parents(f, mode);
		return;
	}
	if ((pfd = fop_parent(f)) == -1)
		return;
	if (mkdirat(pfd, f->base, mode) == -1)
		fop_open_error(f, errno);
	close(pfd);
}

static void
fop_rm(struct fop *f)
{
	struct fstree	 t;
	struct stat	 st;
	int		 pfd;

	if (strcmp(f->base, ".") == 0 || strcmp(f->base, "/") == 0) {
		fop_fail(f, EINVAL, "refusing to remove '.' or the workspace");
		return;
	}
	if ((pfd = fop_parent(f)) == -1)
		return;
	memset(&t, 0, sizeof(t));
	if (fstatat(pfd, f->base, &st, AT_SYMLINK_NOFOLLOW) == -1)
		fop_open_error(f, errno);
	else if (!S_ISDIR(st.st_mode)) {
		if (unlinkat(pfd, f->base, 0) == -1)
			fop_open_error(f, errno);
	} else if (!(f->req->flags & FILEOP_F_RECURSIVE)) {
		if (unlinkat(pfd, f->base, AT_REMOVEDIR) == -1)
			fop_open_error(f, errno);
	} else if (fstree_rm(&t, pfd, f->base, 0) == -1)
		fop_fail(f, t.error, "%s", t.msg);
	close(pfd);
}

/*
 * put -r: the tree is made under a hidden name beside the target and
 * renamed into place once complete, so a failure (the quota, a bad
 * stream, a client gone) leaves nothing half-made: it is removed.
 */
static void
fop_put_tree(struct fop *f)
{
	struct fstree	 t, undo;
	struct stat	 st;
	char		 tmp[64];
	int		 pfd, rootfd;

	if (strcmp(f->base, ".") == 0) {
		fop_fail(f, EINVAL, "put -r needs a new directory's name");
		return;
	}
	if ((pfd = fop_parent(f)) == -1)
		return;
	if (fstatat(pfd, f->base, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		fop_fail(f, EEXIST, "already exists (put -r makes a new "
		    "directory)");
		close(pfd);
		return;
	}
	snprintf(tmp, sizeof(tmp), ".sandboxd-put.%d", (int)getpid());
	/* Left by a worker killed with our pid: no live one can use it. */
	memset(&undo, 0, sizeof(undo));
	if (mkdirat(pfd, tmp, 0700) == -1 && (errno != EEXIST ||
	    fstree_rm(&undo, pfd, tmp, 0) == -1 ||
	    mkdirat(pfd, tmp, 0700) == -1)) {
		fop_open_error(f, errno);
		close(pfd);
		return;
	}
	memset(&t, 0, sizeof(t));
	t.sock = WORKSPACE_FD_CALLER;
	fop_stream_timeout();
	if ((rootfd = fstree_openat(pfd, tmp, O_PATH | O_DIRECTORY, 0, 1)) ==
	    -1)
		fop_open_error(f, errno);
	else if (fstree_recv(&t, rootfd) == -1)
		fop_fail(f, t.error, "%s; nothing was kept (%s)",
		    t.error == ENOSPC || t.error == EDQUOT ?
		    "workspace quota exceeded" : "put -r failed", t.msg);
	else if (renameat2(pfd, tmp, pfd, f->base, RENAME_NOREPLACE) == -1)
		fop_open_error(f, errno);
	if (rootfd != -1)
		close(rootfd);
	if (f->res->error != 0) {
		memset(&undo, 0, sizeof(undo));
		fstree_rm(&undo, pfd, tmp, 0);
	} else {
		f->res->bytes = t.bytes;
		snprintf(f->res->msg, sizeof(f->res->msg), "put -r %.*s: "
		    "%llu entries, %llu bytes", FOP_QUOTE_SIZE, f->req->path,
		    (unsigned long long)t.entries,
		    (unsigned long long)t.bytes);
	}
	close(pfd);
}

static void
fop_get_tree(struct fop *f)
{
	struct fstree	 t;
	int		 fd;

	if ((fd = fstree_openat(WORKSPACE_FD_ROOT, f->path, O_RDONLY |
	    O_DIRECTORY, 0, 0)) == -1) {
		fop_open_error(f, errno);
		return;
	}
	memset(&t, 0, sizeof(t));
	t.sock = WORKSPACE_FD_CALLER;
	fop_stream_timeout();
	if (fstree_send(&t, fd) == -1)
		fop_fail(f, t.error, "%s", t.msg);
	else {
		f->res->bytes = t.bytes;
		snprintf(f->res->msg, sizeof(f->res->msg), "got -r %.*s: "
		    "%llu entries, %llu bytes%s", FOP_QUOTE_SIZE,
		    f->req->path, (unsigned long long)t.entries,
		    (unsigned long long)t.bytes, t.skipped > 0 ?
		    " (fifos, sockets and devices skipped)" : "");
	}
	close(fd);
}

void
fileops_work(const struct workspace_copy *wc, struct workspace_result *res)
{
	struct fop	 f;

	memset(&f, 0, sizeof(f));
	f.req = wc->arg;
	f.res = res;
	fop_split(&f);
	switch (f.req->op) {
	case FILEOP_LS:
		fop_ls(&f);
		break;
	case FILEOP_STAT:
		fop_stat(&f);
		break;
	case FILEOP_MKDIR:
		fop_mkdir(&f);
		break;
	case FILEOP_RM:
		fop_rm(&f);
		break;
	case FILEOP_PUT_TREE:
		fop_put_tree(&f);
		break;
	case FILEOP_GET_TREE:
		fop_get_tree(&f);
		break;
	default:
		fop_fail(&f, EINVAL, "unknown file operation %u", f.req->op);
		break;
	}
}
