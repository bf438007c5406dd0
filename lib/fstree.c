/*
 * A tree of files as a stream of entries (fstree.h).  Directories are
 * walked and made one fd at a time, each name opened with openat2
 * RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS and O_NOFOLLOW, so a link met on
 * the way is an entry to copy, never a way to somewhere else.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <linux/openat2.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fstree.h"

#define FSTREE_BUFSZ		(64 * 1024)
#define FSTREE_EAGAIN_TRIES	8

/* A directory made by recv: its mode and times are set at the end. */
struct fstree_dir {
	char		*path;
	uint32_t	 mode;
	struct timespec	 mtime;
};

struct fstree_dirs {
	struct fstree_dir	*v;
	size_t			 n, cap;
};

__attribute__((format(printf, 3, 4)))
static int
fstree_fail(struct fstree *t, int error, const char *fmt, ...)
{
	va_list	 ap;

	if (t->error != 0)
		return (-1);	/* the first failure is the one to tell */
	t->error = error != 0 ? error : EIO;
	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
	return (-1);
}

static int
fstree_fail_errno(struct fstree *t, int e, const char *what, const char *p)
{
	if (e == ENOSPC || e == EDQUOT)
		return (fstree_fail(t, e, "%.120s: %s: quota exceeded (no "
		    "space left)", p[0] != '\0' ? p : ".", what));
	if (e == EAGAIN || e == EWOULDBLOCK)
		return (fstree_fail(t, e, "%.120s: %s: the other side stalled "
		    "(timed out)", p[0] != '\0' ? p : ".", what));
	if (e == ELOOP || e == EXDEV)
		return (fstree_fail(t, e, "%.120s: %s: a symbolic link is in "
		    "the way", p[0] != '\0' ? p : ".", what));
	return (fstree_fail(t, e, "%.120s: %s: %s", p[0] != '\0' ? p : ".",
	    what, strerror(e)));
}

int
fstree_openat(int dirfd, const char *path, int flags, int mode,
    int nosymlinks)
{
	struct open_how	 how;
	int		 fd, tries = 0;

	memset(&how, 0, sizeof(how));
	how.flags = flags | O_CLOEXEC;
	how.mode = (flags & O_CREAT) ? mode : 0;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
	if (nosymlinks)
		how.resolve |= RESOLVE_NO_SYMLINKS;
	do {
		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	} while (fd == -1 && (errno == EAGAIN || errno == EINTR) &&
	    ++tries < FSTREE_EAGAIN_TRIES);
	return (fd);
}

void
fent_from_stat(struct sbx_fent *e, const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		e->type = FENT_FILE;
	else if (S_ISDIR(st->st_mode))
		e->type = FENT_DIR;
	else if (S_ISLNK(st->st_mode))
		e->type = FENT_LINK;
	else
		e->type = FENT_OTHER;
	e->mode = st->st_mode & 07777;
	e->uid = st->st_uid;
	e->gid = st->st_gid;
	e->mtime = st->st_mtim.tv_sec;
	e->mtime_ns = st->st_mtim.tv_nsec;
	e->nlink = st->st_nlink;
	e->size = e->type == FENT_FILE || e->type == FENT_LINK ?
	    (uint64_t)st->st_size : 0;
}

static int
fstree_readn(int fd, void *buf, size_t len)
{
	size_t	 off = 0;
	ssize_t	 n;

	while (off < len) {
		n = read(fd, (char *)buf + off, len - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return (-1);
		if (n == 0)
			break;
		off += n;
	}
	return (off);
}

static int
fstree_writen(int fd, const void *buf, size_t len)
{
	size_t	 off = 0;
	ssize_t	 n;

	while (off < len) {
		n = write(fd, (const char *)buf + off, len - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return (-1);
		off += n;
	}
	return (0);
}

int
fent_read(int fd, struct sbx_fent *e)
{
	int	 n;

	if ((n = fstree_readn(fd, e, sizeof(*e))) == -1)
		return (-1);
	if (n == 0)
		return (0);
	if ((size_t)n != sizeof(*e)) {
		errno = EPROTO;
		return (-1);
	}
	return (1);
}

int
fent_write(int fd, const struct sbx_fent *e)
{
	return (fstree_writen(fd, e, sizeof(*e)));
}

/* Copy exactly len bytes from in to out. */
static int
fstree_copy(struct fstree *t, int in, int out, uint64_t len, int sending,
    const char *path)
{
	static char	 buf[FSTREE_BUFSZ];
	size_t		 want;
	int		 n;

	while (len > 0) {
		want = len < sizeof(buf) ? len : sizeof(buf);
		if ((n = fstree_readn(in, buf, want)) == -1)
			return (fstree_fail_errno(t, errno, "read", path));
		if (n == 0)
			return (fstree_fail(t, EIO, "%.120s: %s", path,
			    sending ? "the file shrank while it was copied" :
			    "the stream ended inside the file"));
		if (fstree_writen(out, buf, n) == -1)
			return (fstree_fail_errno(t, errno, "write", path));
		len -= n;
		t->bytes += n;
	}
	return (0);
}

static int
fstree_join(struct fstree *t, char *dst, const char *dir, const char *name)
{
	int	 n;

	n = dir[0] == '\0' ? snprintf(dst, FENT_PATH_SIZE, "%s", name) :
	    snprintf(dst, FENT_PATH_SIZE, "%s/%s", dir, name);
	if (n < 0 || n >= FENT_PATH_SIZE)
		return (fstree_fail(t, ENAMETOOLONG, "%.120s/%.60s: path "
		    "longer than %d bytes", dir, name, FENT_PATH_SIZE - 1));
	return (0);
}

static int	fstree_send_dir(struct fstree *, int, const char *, int);

/* One entry of a directory: sent, and its content or subtree after. */
static int
fstree_send_one(struct fstree *t, int dfd, const char *name,
    const char *rel, int depth)
{
	struct sbx_fent	 e;
	struct stat	 st;
	ssize_t		 n;
	int		 fd, rc = 0;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == -1)
		return (fstree_fail_errno(t, errno, "stat", rel));
	memset(&e, 0, sizeof(e));
	fent_from_stat(&e, &st);
	if (e.type == FENT_OTHER) {
		t->skipped++;
		return (0);
	}
	if (++t->entries > FENT_TREE_MAX)
		return (fstree_fail(t, EFBIG, "more than %d entries",
		    FENT_TREE_MAX));
	strlcpy(e.path, rel, sizeof(e.path));
	if (e.type == FENT_LINK) {
		n = readlinkat(dfd, name, e.target, sizeof(e.target));
		if (n == -1)
			return (fstree_fail_errno(t, errno, "readlink", rel));
		if (n == 0 || (size_t)n >= sizeof(e.target))
			return (fstree_fail(t, ENAMETOOLONG, "%.120s: link "
			    "target empty or too long", rel));
		e.target[n] = '\0';
		e.size = n;
		return (fent_write(t->sock, &e) == -1 ?
		    fstree_fail_errno(t, errno, "send", rel) : 0);
	}
	if (e.type == FENT_DIR) {
		if (depth + 1 > FENT_DEPTH_MAX)
			return (fstree_fail(t, ELOOP, "%.120s: deeper than %d "
			    "levels", rel, FENT_DEPTH_MAX));
		if (fent_write(t->sock, &e) == -1)
			return (fstree_fail_errno(t, errno, "send", rel));
		if ((fd = fstree_openat(dfd, name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW, 0, 1)) == -1)
			return (fstree_fail_errno(t, errno, "open", rel));
		return (fstree_send_dir(t, fd, rel, depth + 1));
	}
	if ((fd = fstree_openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK,
	    0, 1)) == -1)
		return (fstree_fail_errno(t, errno, "open", rel));
	/* What is sent is the file as opened, whatever the name is now. */
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode))
		rc = fstree_fail(t, EINVAL, "%.120s: changed while copied",
		    rel);
	else {
		fent_from_stat(&e, &st);
		if (fent_write(t->sock, &e) == -1)
			rc = fstree_fail_errno(t, errno, "send", rel);
		else
			rc = fstree_copy(t, fd, t->sock, e.size, 1, rel);
	}
	close(fd);
	return (rc);
}

/* Takes dfd, an O_RDONLY directory, and closes it. */
static int
fstree_send_dir(struct fstree *t, int dfd, const char *rel, int depth)
{
	char		 sub[FENT_PATH_SIZE];
	struct dirent	*de;
	DIR		*d;
	int		 rc = 0;

	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		return (fstree_fail_errno(t, errno, "opendir", rel));
	}
	while (rc == 0) {
		errno = 0;
		if ((de = readdir(d)) == NULL) {
			if (errno != 0)
				rc = fstree_fail_errno(t, errno, "readdir",
				    rel);
			break;
		}
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if ((rc = fstree_join(t, sub, rel, de->d_name)) == 0)
			rc = fstree_send_one(t, dirfd(d), de->d_name, sub,
			    depth);
	}
	closedir(d);
	return (rc);
}

int
fstree_send(struct fstree *t, int rootfd)
{
	struct sbx_fent	 e;
	struct stat	 st;
	int		 fd;

	if (fstat(rootfd, &st) == -1)
		return (fstree_fail_errno(t, errno, "stat", ""));
	if (!S_ISDIR(st.st_mode))
		return (fstree_fail(t, ENOTDIR, "not a directory"));
	memset(&e, 0, sizeof(e));
	fent_from_stat(&e, &st);
	if (fent_write(t->sock, &e) == -1)
		return (fstree_fail_errno(t, errno, "send", ""));
	if ((fd = fstree_openat(rootfd, ".", O_RDONLY | O_DIRECTORY, 0, 1))
	    == -1)
		return (fstree_fail_errno(t, errno, "open", ""));
	if (fstree_send_dir(t, fd, "", 0) == -1)
		return (-1);
	memset(&e, 0, sizeof(e));
	e.type = FENT_END;
	e.size = t->entries;
	if (fent_write(t->sock, &e) == -1)
		return (fstree_fail_errno(t, errno, "send", ""));
	return (0);
}

static int
fstree_dirs_add(struct fstree *t, struct fstree_dirs *ds,
    const struct sbx_fent *e)
{
	struct fstree_dir	*v;
	size_t			 cap;

	if (ds->n == ds->cap) {
		cap = ds->cap == 0 ? 64 : ds->cap * 2;
		if ((v = reallocarray(ds->v, cap, sizeof(*v))) == NULL)
			return (fstree_fail(t, ENOMEM, "out of memory"));
		ds->v = v;
		ds->cap = cap;
	}
	if ((ds->v[ds->n].path = strdup(e->path)) == NULL)
		return (fstree_fail(t, ENOMEM, "out of memory"));
	ds->v[ds->n].mode = e->mode & 0777;
	ds->v[ds->n].mtime.tv_sec = e->mtime;
	ds->v[ds->n].mtime.tv_nsec = e->mtime_ns;
	ds->n++;
	return (0);
}

/*
 * Modes and times of the directories, deepest last made first, so a
 * directory closed to its owner is closed only once all below is done.
 */
static int
fstree_dirs_finish(struct fstree *t, int rootfd, struct fstree_dirs *ds)
{
	struct timespec	 ts[2];
	size_t		 i;
	int		 fd, rc = 0;

	for (i = ds->n; i-- > 0; ) {
		if (rc == 0 && (fd = fstree_openat(rootfd, ds->v[i].path[0] ==
		    '\0' ? "." : ds->v[i].path, O_RDONLY | O_DIRECTORY, 0,
		    1)) == -1)
			rc = fstree_fail_errno(t, errno, "open",
			    ds->v[i].path);
		else if (rc == 0) {
			ts[0].tv_sec = 0;
			ts[0].tv_nsec = UTIME_OMIT;
			ts[1] = ds->v[i].mtime;
			if (fchmod(fd, ds->v[i].mode) == -1 ||
			    futimens(fd, ts) == -1)
				rc = fstree_fail_errno(t, errno, "chmod",
				    ds->v[i].path);
			close(fd);
		}
		free(ds->v[i].path);
	}
	free(ds->v);
	ds->v = NULL;
	ds->n = ds->cap = 0;
	return (rc);
}

static int
fstree_make_file(struct fstree *t, int pfd, const char *base,
    const struct sbx_fent *e)
{
	struct timespec	 ts[2];
	int		 fd, rc;

	if ((fd = fstree_openat(pfd, base, O_WRONLY | O_CREAT | O_EXCL |
	    O_NOFOLLOW, 0600, 1)) == -1)
		return (fstree_fail_errno(t, errno, "create", e->path));
	rc = fstree_copy(t, t->sock, fd, e->size, 0, e->path);
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_OMIT;
	ts[1].tv_sec = e->mtime;
	ts[1].tv_nsec = e->mtime_ns;
	if (rc == 0 && (fchmod(fd, e->mode & 0777) == -1 ||
	    futimens(fd, ts) == -1))
		rc = fstree_fail_errno(t, errno, "chmod", e->path);
	/* Where the quota is met can be the close of a buffered file. */
	if (close(fd) == -1 && rc == 0)
		rc = fstree_fail_errno(t, errno, "write", e->path);
	return (rc);
}

/* One entry: its parent exists already, the stream being in order. */
static int
fstree_make(struct fstree *t, int rootfd, struct fstree_dirs *ds,
    struct sbx_fent *e)
{
	char		 parent[FENT_PATH_SIZE], *slash;
	const char	*base;
	int		 pfd, rc = 0;

	if (fent_check_relpath(e->path, t->msg, sizeof(t->msg)) == -1 ||
	    e->path[0] == '\0' || e->type == FENT_OTHER)
		return (fstree_fail(t, EPROTO, "bad entry in the stream: "
		    "%.120s", e->path));
	strlcpy(parent, e->path, sizeof(parent));
	if ((slash = strrchr(parent, '/')) == NULL) {
		base = e->path;
		strlcpy(parent, ".", sizeof(parent));
	} else {
		*slash = '\0';
		base = slash + 1;
	}
	if ((pfd = fstree_openat(rootfd, parent, O_PATH | O_DIRECTORY, 0, 1))
	    == -1)
		return (fstree_fail_errno(t, errno, "open parent", e->path));
	if (e->type == FENT_DIR) {
		if (mkdirat(pfd, base, 0700) == -1)
			rc = fstree_fail_errno(t, errno, "mkdir", e->path);
		else
			rc = fstree_dirs_add(t, ds, e);
	} else if (e->type == FENT_LINK) {
		if (symlinkat(e->target, pfd, base) == -1)
			rc = fstree_fail_errno(t, errno, "symlink", e->path);
	} else
		rc = fstree_make_file(t, pfd, base, e);
	close(pfd);
	return (rc);
}

int
fstree_recv(struct fstree *t, int rootfd)
{
	struct fstree_dirs	 ds;
	struct sbx_fent		 e;
	int			 n, rc = 0;

	memset(&ds, 0, sizeof(ds));
	for (;;) {
		if ((n = fent_read(t->sock, &e)) == -1) {
			rc = fstree_fail_errno(t, errno, "receive", "");
			break;
		}
		if (n == 0) {
			rc = fstree_fail(t, EPIPE, "the stream ended early");
			break;
		}
		if (fent_check(&e, t->msg, sizeof(t->msg)) == -1) {
			rc = fstree_fail(t, EPROTO, "malformed entry in the "
			    "stream");
			break;
		}
		if (e.type == FENT_END)
			break;
		/* First the root, whose mode and times are kept for last. */
		if (t->entries++ == 0) {
			if (e.type != FENT_DIR || e.path[0] != '\0') {
				rc = fstree_fail(t, EPROTO, "the stream does "
				    "not start with its directory");
				break;
			}
			if ((rc = fstree_dirs_add(t, &ds, &e)) == -1)
				break;
			continue;
		}
		if (t->entries > FENT_TREE_MAX + 1) {
			rc = fstree_fail(t, EFBIG, "more than %d entries",
			    FENT_TREE_MAX);
			break;
		}
		if ((rc = fstree_make(t, rootfd, &ds, &e)) == -1)
			break;
	}
	if (rc == 0 && t->entries == 0)
		rc = fstree_fail(t, EPROTO, "an empty stream");
	if (fstree_dirs_finish(t, rootfd, &ds) == -1)
		rc = -1;
	if (t->entries > 0)
		t->entries--;	/* the root is not counted */
	return (rc);
}

int
fstree_rm(struct fstree *t, int pfd, const char *name, int depth)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	int		 fd, rc = 0;

	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) == -1)
		return (fstree_fail_errno(t, errno, "stat", name));
	if (!S_ISDIR(st.st_mode)) {
		if (unlinkat(pfd, name, 0) == -1)
			return (fstree_fail_errno(t, errno, "remove", name));
		t->entries++;
		return (0);
	}
	if (depth >= FSTREE_RM_DEPTH_MAX)
		return (fstree_fail(t, ELOOP, "%.120s: deeper than %d levels",
		    name, FSTREE_RM_DEPTH_MAX));
	if ((fd = fstree_openat(pfd, name, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW, 0, 1)) == -1)
		return (fstree_fail_errno(t, errno, "open", name));
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return (fstree_fail_errno(t, errno, "opendir", name));
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		rc = fstree_rm(t, dirfd(d), de->d_name, depth + 1);
	}
	closedir(d);
	if (rc == 0 && unlinkat(pfd, name, AT_REMOVEDIR) == -1)
		rc = fstree_fail_errno(t, errno, "remove", name);
	if (rc == 0)
		t->entries++;
	return (rc);
}
