/*
 * Regression tests for cmd/runnerd/workspace.c: sandboxctl put/get.
 * Run as root in a private mount namespace (workspace.t does both): a
 * 1 MiB tmpfs owned by an unprivileged uid stands in for a workspace,
 * with a canary file beside it that the sandbox uid could write if a
 * path ever got out.  Prints TAP; exits non-zero if any test failed.
 */
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cmd/runnerd/workspace.c"

#include "../lib/check.h"

#define SBX_UID		64000
#define SBX_GID		64000
#define OTHER_GID	64001	/* a supplementary group of the test */
#define DAEMON_UID	64002	/* a daemon that is not root, with caps */
#define CANARY		"canary: nothing outside the workspace changes\n"
#define KIB		1024
#define MIB		(1024 * 1024)

static char		 base[64], ws[128], canary[128];
static int		 wsfd = -1;
static unsigned char	 data[2 * MIB], back[2 * MIB];
static struct stat	 passwd_st;

static int
join(char *buf, size_t sz, const char *dir, const char *name)
{
	int	 n = snprintf(buf, sz, "%s/%s", dir, name);

	return (n >= 0 && (size_t)n < sz ? 0 : -1);
}

static int
wspath(char *buf, size_t sz, const char *rel)
{
	return (join(buf, sz, ws, rel));
}

static int
memfd_with(const void *p, size_t len)
{
	int	 fd;

	if ((fd = memfd_create("wstest", MFD_CLOEXEC)) == -1)
		return (-1);
	if ((len > 0 && write(fd, p, len) != (ssize_t)len) ||
	    lseek(fd, 0, SEEK_SET) == -1) {
		close(fd);
		return (-1);
	}
	return (fd);
}

/* Read everything from fd's start into back[]; returns the length. */
static ssize_t
slurp(int fd)
{
	ssize_t	 n, got = 0;

	if (lseek(fd, 0, SEEK_SET) == -1)
		return (-1);
	while ((n = read(fd, back + got, sizeof(back) - got)) > 0)
		got += n;
	return (n == -1 ? -1 : got);
}

/* Reap the copier and read its one result. */
static int
finish(pid_t pid, int rfd, struct workspace_result *res)
{
	struct pollfd	 pfd = { .fd = rfd, .events = POLLIN };
	ssize_t		 n = -1;
	int		 status;

	if (poll(&pfd, 1, 30000) == 1)
		n = read(rfd, res, sizeof(*res));
	close(rfd);
	if (waitpid(pid, &status, 0) != pid)
		return (-1);
	if (n != (ssize_t)sizeof(*res) || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		printf("# copier: read %zd, status %#x\n", n, status);
		return (-1);
	}
	res->msg[sizeof(res->msg) - 1] = '\0';
	return (0);
}

static void
fill_copy(struct workspace_copy *wc, enum workspace_op op, const char *path,
    size_t len, int fd)
{
	memset(wc, 0, sizeof(*wc));
	wc->op = op;
	wc->workspace_fd = wsfd;
	wc->uid = SBX_UID;
	wc->gid = SBX_GID;
	wc->path = path;
	wc->pathlen = len;
	wc->fd = fd;
	wc->mode = 0640;
}

/*
 * One put or get of path (len bytes) with fd as the caller's file.
 * Returns 0 with *res filled, or -1 with err set when it was refused
 * before any fork.
 */
static int
copy(enum workspace_op op, const char *path, size_t len, int fd,
    struct workspace_result *res, char *err, size_t errlen)
{
	struct workspace_copy	 wc;
	pid_t			 pid;
	int			 rfd;

	fill_copy(&wc, op, path, len, fd);
	memset(res, 0, sizeof(*res));
	err[0] = '\0';
	if ((pid = workspace_copy_start(&wc, &rfd, err, errlen)) == -1)
		return (-1);
	if (finish(pid, rfd, res) == -1) {
		res->error = -1;
		snprintf(res->msg, sizeof(res->msg), "no result");
	}
	return (0);
}

static int
put(const char *path, const void *p, size_t len, struct workspace_result *res)
{
	char	 err[WORKSPACE_ERR_SIZE];
	int	 fd, rc;

	if ((fd = memfd_with(p, len)) == -1)
		return (-1);
	rc = copy(WORKSPACE_PUT, path, strlen(path), fd, res, err,
	    sizeof(err));
	close(fd);
	if (rc == -1)
		printf("# refused: %s\n", err);
	return (rc);
}

/* Get path into back[]; returns the bytes the caller's file received. */
static ssize_t
get(const char *path, struct workspace_result *res)
{
	char	 err[WORKSPACE_ERR_SIZE];
	ssize_t	 n;
	int	 fd;

	if ((fd = memfd_with(NULL, 0)) == -1)
		return (-1);
	if (copy(WORKSPACE_GET, path, strlen(path), fd, res, err,
	    sizeof(err)) == -1) {
		printf("# refused: %s\n", err);
		close(fd);
		return (-1);
	}
	n = slurp(fd);
	close(fd);
	return (n);
}

static int
is_msg(const char *got, const char *want)
{
	if (strcmp(got, want) == 0)
		return (1);
	printf("# got \"%s\", want \"%s\"\n", got, want);
	return (0);
}

/* The canary beside the workspace and /etc/passwd are as they were. */
static int
outside_intact(void)
{
	struct stat	 st;
	ssize_t		 n;
	int		 fd;

	if ((fd = open(canary, O_RDONLY | O_CLOEXEC)) == -1)
		return (0);
	n = slurp(fd);
	close(fd);
	if (n != (ssize_t)strlen(CANARY) || memcmp(back, CANARY, n) != 0)
		return (0);
	if (stat("/etc/passwd", &st) == -1)
		return (0);
	return (st.st_size == passwd_st.st_size &&
	    st.st_mtim.tv_sec == passwd_st.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == passwd_st.st_mtim.tv_nsec &&
	    st.st_ino == passwd_st.st_ino);
}

static int
absent(const char *rel)
{
	char		 p[256];
	struct stat	 st;

	return (wspath(p, sizeof(p), rel) == 0 &&
	    lstat(p, &st) == -1 && errno == ENOENT);
}

/* A put of rel is refused with want; nothing outside changes. */
static int
put_refused(const char *rel, const char *want)
{
	struct workspace_result	 res;

	CHECK(put(rel, "EVIL\n", 5, &res) == 0);
	CHECK(res.error != 0 && res.bytes == 0);
	CHECK(is_msg(res.msg, want));
	CHECK(outside_intact());
	return (1);
}

/* A get of rel is refused with want; the caller's file stays empty. */
static int
get_refused(const char *rel, const char *want)
{
	struct workspace_result	 res;

	CHECK(get(rel, &res) == 0);
	CHECK(res.error != 0 && res.bytes == 0);
	CHECK(is_msg(res.msg, want));
	return (1);
}

/* Refused before any fork, both ways, with want as the error. */
static int
lexical_refused(const char *path, size_t len, const char *want)
{
	struct workspace_result	 res;
	char			 err[WORKSPACE_ERR_SIZE];
	int			 fd;

	CHECK((fd = memfd_with("EVIL\n", 5)) != -1);
	CHECK(copy(WORKSPACE_PUT, path, len, fd, &res, err,
	    sizeof(err)) == -1);
	CHECK(is_msg(err, want));
	CHECK(copy(WORKSPACE_GET, path, len, fd, &res, err,
	    sizeof(err)) == -1);
	CHECK(is_msg(err, want));
	CHECK(workspace_check_path(path, len, err, sizeof(err)) == -1);
	CHECK(is_msg(err, want));
	CHECK(slurp(fd) == 5 && memcmp(back, "EVIL\n", 5) == 0);
	close(fd);
	CHECK(outside_intact());
	return (1);
}

static int
t_put_get_300k(void)
{
	struct workspace_result	 res;
	size_t			 len = 300 * KIB;

	CHECK(put("data.bin", data, len, &res) == 0);
	CHECK(res.error == 0 && res.bytes == len);
	CHECK(get("data.bin", &res) == (ssize_t)len);
	CHECK(res.error == 0 && res.bytes == len);
	CHECK(memcmp(back, data, len) == 0);
	return (1);
}

static int
t_put_owner(void)
{
	struct stat	 st;
	char		 p[256];

	CHECK(wspath(p, sizeof(p), "data.bin") == 0);
	CHECK(stat(p, &st) == 0);
	CHECK(st.st_uid == SBX_UID && st.st_gid == SBX_GID);
	CHECK((st.st_mode & 07777) == 0640);
	return (1);
}

static int
t_put_replaces(void)
{
	struct workspace_result	 res;

	CHECK(put("small", "first version, longer\n", 22, &res) == 0);
	CHECK(res.error == 0);
	CHECK(put("small", "second\n", 7, &res) == 0);
	CHECK(res.error == 0 && res.bytes == 7);
	CHECK(get("small", &res) == 7 && memcmp(back, "second\n", 7) == 0);
	return (1);
}

static int
t_empty_file(void)
{
	struct workspace_result	 res;

	CHECK(put("empty", "", 0, &res) == 0);
	CHECK(res.error == 0 && res.bytes == 0);
	CHECK(get("empty", &res) == 0 && res.error == 0);
	return (1);
}

/* Feed len bytes of data[] into a pipe from a child process. */
static pid_t
feeder(int *rfd, size_t len)
{
	int	 p[2];
	pid_t	 pid;

	if (pipe2(p, O_CLOEXEC) == -1)
		return (-1);
	if ((pid = fork()) == 0) {
		close(p[0]);
		_exit(write(p[1], data, len) == (ssize_t)len ? 0 : 1);
	}
	close(p[1]);
	*rfd = p[0];
	return (pid);
}

static int
drain(int fd, size_t *got)
{
	ssize_t	 n;

	*got = 0;
	while ((n = read(fd, back + *got, sizeof(back) - *got)) > 0)
		*got += n;
	return (n == 0 ? 0 : -1);
}

static int
t_pipes(void)
{
	struct workspace_copy	 wc;
	struct workspace_result	 res;
	char			 err[WORKSPACE_ERR_SIZE];
	size_t			 len = 200 * KIB, got;
	pid_t			 fpid, pid;
	int			 rfd, p[2], st;

	CHECK((fpid = feeder(&rfd, len)) != -1);
	CHECK(copy(WORKSPACE_PUT, "piped", 5, rfd, &res, err,
	    sizeof(err)) == 0);
	close(rfd);
	CHECK(waitpid(fpid, &st, 0) == fpid && st == 0);
	CHECK(res.error == 0 && res.bytes == len);
	/* And out through a pipe the test reads while the copier writes. */
	CHECK(pipe2(p, O_CLOEXEC) == 0);
	fill_copy(&wc, WORKSPACE_GET, "piped", 5, p[1]);
	CHECK((pid = workspace_copy_start(&wc, &rfd, err, sizeof(err))) > 0);
	close(p[1]);
	CHECK(drain(p[0], &got) == 0);
	close(p[0]);
	CHECK(finish(pid, rfd, &res) == 0 && res.error == 0);
	CHECK(got == len && res.bytes == len && memcmp(back, data, len) == 0);
	return (1);
}

static int
t_get_unreadable(void)
{
	return (get_refused("secret", "secret: permission denied"));
}

/* The caller's supplementary groups do not reach the copier. */
static int
t_groups_dropped(void)
{
	gid_t	 g[8];
	int	 n;

	CHECK((n = getgroups(8, g)) == 1 && g[0] == OTHER_GID);
	return (get_refused("groupfile", "groupfile: permission denied"));
}

/*
 * runnerd is not root: it runs as its own user with capabilities, which
 * setresuid(2) alone would leave to the copier.
 */
static int
t_caps_dropped(void)
{
	struct __user_cap_header_struct	 hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3
	};
	struct __user_cap_data_struct	 d[_LINUX_CAPABILITY_U32S_3];
	pid_t				 pid;
	int				 fd, st;

	CHECK((pid = fork()) != -1);
	if (pid == 0) {
		if (prctl(PR_SET_KEEPCAPS, 1) == -1 ||
		    setresuid(DAEMON_UID, DAEMON_UID, DAEMON_UID) == -1 ||
		    syscall(SYS_capget, &hdr, d) == -1)
			_exit(2);
		d[0].effective = d[0].permitted;
		d[1].effective = d[1].permitted;
		/* It can read the secret itself: there is something to lose. */
		if (syscall(SYS_capset, &hdr, d) == -1 ||
		    (fd = openat(wsfd, "secret", O_RDONLY | O_CLOEXEC)) == -1)
			_exit(3);
		close(fd);
		_exit(get_refused("secret", "secret: permission denied") &&
		    put_refused("rootfile", "rootfile: permission denied") ?
		    0 : 1);
	}
	CHECK(waitpid(pid, &st, 0) == pid);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		printf("# daemon stand-in: status %#x\n", st);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return (1);
}

static int
t_put_unwritable(void)
{
	struct workspace_result	 res;
	char			 p[256];
	int			 fd;
	ssize_t			 n;

	CHECK(put_refused("rootfile", "rootfile: permission denied"));
	CHECK(wspath(p, sizeof(p), "rootfile") == 0);
	CHECK((fd = open(p, O_RDONLY | O_CLOEXEC)) != -1);
	n = slurp(fd);
	close(fd);
	CHECK(n == 5 && memcmp(back, "root\n", 5) == 0);
	/* Its allowed twin: readable, so a get works. */
	CHECK(get("rootfile", &res) == 5 && res.error == 0);
	return (1);
}

static int
t_dotdot(void)
{
	return (lexical_refused("../x", 4,
	    "../x: path must not contain '..'"));
}

static int
t_dotdot_inner(void)
{
	return (lexical_refused("a/../../x", 9,
	    "a/../../x: path must not contain '..'"));
}

static int
t_dotdot_last(void)
{
	return (lexical_refused("x/..", 4, "x/..: path must not contain '..'"));
}

static int
t_absolute(void)
{
	return (lexical_refused("/etc/passwd", 11,
	    "/etc/passwd: path must be relative to the workspace"));
}

static int
t_nul(void)
{
	return (lexical_refused("a\0b", 3,
	    "a\\000b: path contains a NUL byte"));
}

static int
t_empty(void)
{
	return (lexical_refused("", 0, "empty path"));
}

static int
t_too_long(void)
{
	static char	 p[PATH_MAX + 1];
	char		 want[WORKSPACE_ERR_SIZE];

	memset(p, 'a', PATH_MAX);
	/* Shown cut short, so that the reason still fits. */
	snprintf(want, sizeof(want), "%.*s...: path is too long",
	    WS_QUOTE_SIZE - 8, p);
	return (lexical_refused(p, PATH_MAX, want));
}

static int
t_dotdot_names_ok(void)
{
	struct workspace_result	 res;

	/* "..." and "..x" are names, not "..". */
	CHECK(put("...", "a\n", 2, &res) == 0 && res.error == 0);
	CHECK(put("..x", "b\n", 2, &res) == 0 && res.error == 0);
	CHECK(get("...", &res) == 2 && memcmp(back, "a\n", 2) == 0);
	return (1);
}

static int
t_link_passwd(void)
{
	CHECK(get_refused("passwd", "passwd: is a symbolic link"));
	CHECK(put_refused("passwd", "passwd: is a symbolic link"));
	return (1);
}

static int
t_link_etc(void)
{
	CHECK(get_refused("etc/passwd", "etc/passwd: path escapes the "
	    "workspace"));
	CHECK(put_refused("etc/wstest", "etc/wstest: path escapes the "
	    "workspace"));
	CHECK(access("/etc/wstest", F_OK) == -1 && errno == ENOENT);
	return (1);
}

static int
t_link_procroot(void)
{
	CHECK(get_refused("procroot", "procroot: is a symbolic link"));
	CHECK(get_refused("procroot/etc/passwd", "procroot/etc/passwd: path "
	    "escapes the workspace"));
	CHECK(put_refused("procroot/tmp/x", "procroot/tmp/x: path escapes "
	    "the workspace"));
	return (1);
}

static int
t_magic_link(void)
{
	CHECK(get_refused("mproc/self/root/etc/passwd", "mproc/self/root/etc/"
	    "passwd: path goes through a /proc magic link or a symbolic link "
	    "loop"));
	CHECK(put_refused("mproc/self/cwd/x", "mproc/self/cwd/x: path goes "
	    "through a /proc magic link or a symbolic link loop"));
	CHECK(get_refused("mproc/self/exe", "mproc/self/exe: is a symbolic "
	    "link"));
	return (1);
}

static int
t_link_dir_out(void)
{
	CHECK(put_refused("up/canary", "up/canary: path escapes the "
	    "workspace"));
	CHECK(get_refused("up/canary", "up/canary: path escapes the "
	    "workspace"));
	CHECK(put_refused("canarylink", "canarylink: is a symbolic link"));
	CHECK(get_refused("canarylink", "canarylink: is a symbolic link"));
	return (1);
}

static int
t_link_dir_in(void)
{
	struct workspace_result	 res;
	struct stat		 st;
	char			 p[256];

	CHECK(put("in/f", "inside\n", 7, &res) == 0 && res.error == 0);
	CHECK(wspath(p, sizeof(p), "sub/f") == 0 && stat(p, &st) == 0);
	CHECK(st.st_size == 7 && st.st_uid == SBX_UID);
	CHECK(get("in/f", &res) == 7 && memcmp(back, "inside\n", 7) == 0);
	CHECK(outside_intact());
	return (1);
}

static int
t_quota(void)
{
	struct workspace_result	 res;

	CHECK(put("big", data, 2 * MIB, &res) == 0);
	CHECK(res.error == ENOSPC);
	CHECK(is_msg(res.msg, "big: workspace quota exceeded"));
	CHECK(absent("big"));
	/* The space is free again. */
	CHECK(put("after", data, 256 * KIB, &res) == 0);
	CHECK(res.error == 0 && res.bytes == 256 * KIB);
	return (1);
}

static int
t_get_dir(void)
{
	CHECK(get_refused("sub", "sub: is a directory"));
	CHECK(get_refused("sub/", "sub/: is a directory"));
	CHECK(put_refused("sub", "sub: is a directory"));
	return (1);
}

static int
t_missing(void)
{
	CHECK(put_refused("nodir/x", "nodir/x: parent directory does not "
	    "exist (put does not create directories)"));
	CHECK(absent("nodir"));
	CHECK(get_refused("nofile", "nofile: no such file or directory"));
	return (1);
}

static int
t_fifo(void)
{
	CHECK(get_refused("fifo", "fifo: is not a regular file"));
	CHECK(put_refused("fifo", "fifo: is not a regular file"));
	return (1);
}

static int
t_not_as_root(void)
{
	struct workspace_copy	 wc;
	char			 err[WORKSPACE_ERR_SIZE];
	int			 rfd;

	fill_copy(&wc, WORKSPACE_GET, "data.bin", 8, 1);
	wc.uid = 0;
	CHECK(workspace_copy_start(&wc, &rfd, err, sizeof(err)) == -1);
	CHECK(is_msg(err, "refusing to copy as uid 0 gid 64000"));
	return (1);
}

/* Files and links the sandbox might have made, or root put there. */
static int
populate(void)
{
	static const char	*links[][2] = {
		{ "/etc/passwd", "passwd" }, { "/etc", "etc" },
		{ "/proc/self/root", "procroot" }, { "..", "up" },
		{ "../canary", "canarylink" }, { "sub", "in" },
	};
	char			 p[256];
	size_t			 i;
	int			 fd;

	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (symlinkat(links[i][0], wsfd, links[i][1]) == -1)
			return (-1);
	if (mkdirat(wsfd, "sub", 0755) == -1 ||
	    fchownat(wsfd, "sub", SBX_UID, SBX_GID, 0) == -1 ||
	    mkfifoat(wsfd, "fifo", 0600) == -1 ||
	    fchownat(wsfd, "fifo", SBX_UID, SBX_GID, 0) == -1 ||
	    mkdirat(wsfd, "mproc", 0755) == -1 ||
	    wspath(p, sizeof(p), "mproc") == -1 ||
	    mount("proc", p, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	    NULL) == -1)
		return (-1);
	if ((fd = openat(wsfd, "secret", O_WRONLY | O_CREAT | O_CLOEXEC,
	    0)) == -1 || write(fd, "secret\n", 7) != 7 || fchmod(fd, 0) == -1)
		return (-1);
	close(fd);
	if ((fd = openat(wsfd, "groupfile", O_WRONLY | O_CREAT | O_CLOEXEC,
	    0)) == -1 || write(fd, "group\n", 6) != 6 ||
	    fchown(fd, 0, OTHER_GID) == -1 || fchmod(fd, 0040) == -1)
		return (-1);
	close(fd);
	if ((fd = openat(wsfd, "rootfile", O_WRONLY | O_CREAT | O_CLOEXEC,
	    0644)) == -1 || write(fd, "root\n", 5) != 5)
		return (-1);
	close(fd);
	return (0);
}

static int
setup(void)
{
	int	 fd;

	if (getrandom(data, sizeof(data), 0) != (ssize_t)sizeof(data) ||
	    stat("/etc/passwd", &passwd_st) == -1)
		return (-1);
	snprintf(base, sizeof(base), "/tmp/wstest.XXXXXX");
	if (mkdtemp(base) == NULL || chmod(base, 0755) == -1 ||
	    join(ws, sizeof(ws), base, "ws") == -1 ||
	    join(canary, sizeof(canary), base, "canary") == -1)
		return (-1);
	/* Writable by the sandbox uid: only a path that got out could. */
	if ((fd = open(canary, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) == -1 ||
	    write(fd, CANARY, strlen(CANARY)) != (ssize_t)strlen(CANARY) ||
	    fchown(fd, SBX_UID, SBX_GID) == -1)
		return (-1);
	close(fd);
	if (mkdir(ws, 0755) == -1 || mount("tmpfs", ws, "tmpfs",
	    MS_NOSUID | MS_NODEV, "size=1m,mode=0755,uid=64000,gid=64000") ==
	    -1)
		return (-1);
	if ((wsfd = open(ws, O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    setgroups(1, (gid_t[]){ OTHER_GID }) == -1)
		return (-1);
	return (populate());
}

static void
teardown(void)
{
	char	 p[256];

	if (wsfd != -1)
		close(wsfd);
	if (ws[0] != '\0') {
		if (wspath(p, sizeof(p), "mproc") == 0)
			umount2(p, MNT_DETACH);
		umount2(ws, MNT_DETACH);
		rmdir(ws);
	}
	if (canary[0] != '\0')
		unlink(canary);
	if (base[0] != '\0')
		rmdir(base);
}

static const struct {
	const char	 *name;
	int		(*fn)(void);
} tests[] = {
	{ "put and get move a 300 KiB random file intact", t_put_get_300k },
	{ "a put file is owned by the sandbox uid, with the mode asked",
	    t_put_owner },
	{ "a put replaces an existing file", t_put_replaces },
	{ "an empty file goes in and out", t_empty_file },
	{ "put from a pipe and get into a pipe", t_pipes },
	{ "get of a mode 0000 root file: permission denied", t_get_unreadable },
	{ "put over a root file: permission denied; get of it works",
	    t_put_unwritable },
	{ "the caller's supplementary groups are dropped", t_groups_dropped },
	{ "a daemon's capabilities are dropped, not only its uid",
	    t_caps_dropped },
	{ "../x refused", t_dotdot },
	{ "a/../../x refused", t_dotdot_inner },
	{ "x/.. refused", t_dotdot_last },
	{ "/etc/passwd refused: absolute", t_absolute },
	{ "a\\0b (len 3) refused: NUL byte", t_nul },
	{ "empty path refused", t_empty },
	{ "a path of PATH_MAX bytes refused", t_too_long },
	{ "... and ..x are ordinary names", t_dotdot_names_ok },
	{ "symlink to /etc/passwd as the last component refused",
	    t_link_passwd },
	{ "link/x with link -> /etc refused: escapes", t_link_etc },
	{ "symlink to /proc/self/root refused, as a file and a directory",
	    t_link_procroot },
	{ "a /proc magic link inside the workspace refused", t_magic_link },
	{ "a directory symlink pointing out refused; canary intact",
	    t_link_dir_out },
	{ "a directory symlink pointing inside works", t_link_dir_in },
	{ "2 MiB into a 1 MiB workspace: quota exceeded, no partial file",
	    t_quota },
	{ "get of a directory refused", t_get_dir },
	{ "missing parent or file: clear errors", t_missing },
	{ "a FIFO is refused without hanging", t_fifo },
	{ "never copies as root", t_not_as_root },
};

int
main(void)
{
	size_t	 i, n = sizeof(tests) / sizeof(tests[0]);
	int	 ok, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return (0);
	}
	if (setup() == -1) {
		printf("Bail out! setup: %s\n", strerror(errno));
		teardown();
		return (1);
	}
	printf("1..%zu\n", n);
	for (i = 0; i < n; i++) {
		ok = tests[i].fn() && outside_intact();
		printf("%sok %zu - %s\n", ok ? "" : "not ", i + 1,
		    tests[i].name);
		failed += !ok;
	}
	teardown();
	return (failed != 0);
}
