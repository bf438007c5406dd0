/*
 * The minimal root of a sandbox, built by its pid 1 in its own mount
 * namespace: a small tmpfs holding read-only binds of the system
 * directories (the host's or the policy's root), a synthesized /etc,
 * a fresh /proc, a minimal /dev, a /tmp and the workspace, plus the
 * policy's read and write binds.  Only /workspace, /tmp, /dev/shm and
 * write binds are writable; nothing is setuid and only the device
 * binds honour device nodes.  Then pivot_root, and the host is gone.
 *
 * Binds use the new mount API: open_tree clones the source, its
 * attributes are set recursively, and move_mount attaches it to a
 * target opened beneath the new root with RESOLVE_IN_ROOT, so that a
 * symlink in the tree (the host's /lib64, say) can never send a mount
 * out of it.
 */
#include <sys/types.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <arpa/inet.h>
#include <linux/openat2.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sandbox_int.h"
#include "sandboxd_imsg.h"

#define MNT_RO		0x01
#define MNT_DEV		0x02	/* device nodes allowed */
#define MNT_NOEXEC	0x04

/* Enough for /etc's few small files and the mount points. */
#define MNT_ROOT_OPTS	"size=1m,nr_inodes=1024,mode=0755"
#define MNT_DEV_OPTS	"size=64k,nr_inodes=64,mode=0755"
#define MNT_BROKER_BACKLOG	16

static const char *const mnt_sysdirs[] = {
	"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32"
};

static const char *const mnt_devices[] = {
	"null", "zero", "full", "random", "urandom", "tty"
};

static const struct {
	const char	*name;
	const char	*target;
} mnt_devlinks[] = {
	{ "fd", "/proc/self/fd" }, { "stdin", "/proc/self/fd/0" },
	{ "stdout", "/proc/self/fd/1" }, { "stderr", "/proc/self/fd/2" },
	{ "ptmx", "pts/ptmx" }
};

/* A path beneath the new root, never outside it. */
static int
mnt_open_in(int rootfd, const char *rel, int flags)
{
	struct open_how	 how;

	memset(&how, 0, sizeof(how));
	how.flags = flags | O_CLOEXEC;
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
	return (syscall(SYS_openat2, rootfd, rel, &how, sizeof(how)));
}

/* mkdir or create rel (parents must exist), beneath the new root. */
static int
mnt_create_in(int rootfd, const char *rel, int dir)
{
	char		 parent[CONF_PATH_SIZE];
	const char	*base;
	char		*slash;
	int		 pfd, fd, rc;

	strlcpy(parent, rel, sizeof(parent));
	if ((slash = strrchr(parent, '/')) == NULL) {
		base = rel;
		strlcpy(parent, ".", sizeof(parent));
	} else {
		*slash = '\0';
		base = rel + (slash - parent) + 1;
	}
	if ((pfd = mnt_open_in(rootfd, parent, O_PATH | O_DIRECTORY)) == -1)
		return (-1);
	if (dir)
		rc = mkdirat(pfd, base, 0755);
	else if ((fd = openat(pfd, base, O_WRONLY | O_CREAT | O_EXCL |
	    O_CLOEXEC, 0644)) != -1)
		rc = close(fd);
	else
		rc = -1;
	if (rc == -1 && errno == EEXIST)
		rc = 0;
	close(pfd);
	return (rc);
}

/* mkdir -p beneath the new root, then the last component as asked. */
static int
mnt_mkpath_in(int rootfd, const char *rel, int dir, char *err, size_t len)
{
	char	 buf[CONF_PATH_SIZE], *p;

	if (strlcpy(buf, rel, sizeof(buf)) >= sizeof(buf))
		return (sbx_fail(err, len, "%s: %s: path too long", __func__,
		    rel));
	for (p = buf; (p = strchr(p + 1, '/')) != NULL; *p = '/') {
		*p = '\0';
		if (mnt_create_in(rootfd, buf, 1) == -1)
			return (sbx_fail(err, len, "%s: /%s: %s", __func__,
			    buf, strerror(errno)));
	}
	if (mnt_create_in(rootfd, rel, dir) == -1)
		return (sbx_fail(err, len, "%s: /%s: %s", __func__, rel,
		    strerror(errno)));
	return (0);
}

/*
 * Attach tree, a detached mount (open_tree's clone), at rel beneath the
 * new root: nosuid always, read-only, nodev and noexec as flags say.
 */
static int
mnt_attach(int rootfd, int tree, const char *what, const char *dst,
    int flags, char *err, size_t len)
{
	struct mount_attr	 ma;
	int			 tfd = -1, rc = -1;

	memset(&ma, 0, sizeof(ma));
	ma.attr_set = MOUNT_ATTR_NOSUID;
	if (flags & MNT_RO)
		ma.attr_set |= MOUNT_ATTR_RDONLY;
	if (!(flags & MNT_DEV))
		ma.attr_set |= MOUNT_ATTR_NODEV;
	if (flags & MNT_NOEXEC)
		ma.attr_set |= MOUNT_ATTR_NOEXEC;
	if (mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &ma,
	    sizeof(ma)) == -1)
		sbx_fail(err, len, "%s: %s: mount_setattr: %s", __func__, what,
		    strerror(errno));
	else if ((tfd = mnt_open_in(rootfd, dst, O_PATH)) == -1)
		sbx_fail(err, len, "%s: /%s: %s", __func__, dst,
		    strerror(errno));
	else if (move_mount(tree, "", tfd, "", MOVE_MOUNT_F_EMPTY_PATH |
	    MOVE_MOUNT_T_EMPTY_PATH) == -1)
		sbx_fail(err, len, "%s: %s on /%s: %s", __func__, what, dst,
		    strerror(errno));
	else
		rc = 0;
	if (tfd != -1)
		close(tfd);
	return (rc);
}

static int
mnt_bind(int rootfd, const char *src, const char *dst, int flags,
    char *err, size_t len)
{
	int	 tree, rc;

	if ((tree = open_tree(AT_FDCWD, src, OPEN_TREE_CLONE |
	    OPEN_TREE_CLOEXEC | AT_RECURSIVE)) == -1)
		return (sbx_fail(err, len, "%s: %s: %s", __func__, src,
		    strerror(errno)));
	rc = mnt_attach(rootfd, tree, src, dst, flags, err, len);
	close(tree);
	return (rc);
}

/* A fresh filesystem at root/rel, a directory we just made. */
static int
mnt_fresh(const char *root, const char *rel, const char *type,
    unsigned long flags, const char *opts, char *err, size_t len)
{
	char	 path[CONF_PATH_SIZE];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (mount(type, path, type, flags, opts) == -1)
		return (sbx_fail(err, len, "%s: %s on /%s: %s", __func__, type,
		    rel, strerror(errno)));
	return (0);
}

static int
mnt_remount_ro(const char *root, const char *rel, unsigned long flags,
    char *err, size_t len)
{
	char	 path[CONF_PATH_SIZE];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | flags,
	    NULL) == -1)
		return (sbx_fail(err, len, "%s: /%s: %s", __func__, rel,
		    strerror(errno)));
	return (0);
}

/* The host's system directories, or the policy root's, as they are. */
static int
mnt_system(int rootfd, const char *base, char *err, size_t len)
{
	struct stat	 st;
	char		 src[CONF_PATH_SIZE], link[PATH_MAX];
	ssize_t		 n;
	size_t		 i;

	for (i = 0; i < sizeof(mnt_sysdirs) / sizeof(*mnt_sysdirs); i++) {
		snprintf(src, sizeof(src), "%s/%s", base, mnt_sysdirs[i]);
		if (fstatat(AT_FDCWD, src, &st, AT_SYMLINK_NOFOLLOW) == -1) {
			if (errno == ENOENT && i > 0)
				continue;
			return (sbx_fail(err, len, "%s: %s: %s", __func__, src,
			    strerror(errno)));
		}
		if (S_ISLNK(st.st_mode)) {
			if ((n = readlinkat(AT_FDCWD, src, link,
			    sizeof(link) - 1)) == -1)
				return (sbx_fail(err, len, "%s: %s: %s",
				    __func__, src, strerror(errno)));
			link[n] = '\0';
			if (symlinkat(link, rootfd, mnt_sysdirs[i]) == -1)
				return (sbx_fail(err, len, "%s: /%s: %s",
				    __func__, mnt_sysdirs[i], strerror(errno)));
		} else if (S_ISDIR(st.st_mode)) {
			if (mkdirat(rootfd, mnt_sysdirs[i], 0755) == -1)
				return (sbx_fail(err, len, "%s: /%s: %s",
				    __func__, mnt_sysdirs[i], strerror(errno)));
			if (mnt_bind(rootfd, src, mnt_sysdirs[i], MNT_RO, err,
			    len) == -1)
				return (-1);
		}
	}
	return (0);
}

static int
mnt_write_file(int dirfd, const char *name, const char *text, char *err,
    size_t len)
{
	size_t	 n = strlen(text);
	int	 fd;

	if ((fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0644)) == -1)
		return (sbx_fail(err, len, "%s: /etc/%s: %s", __func__, name,
		    strerror(errno)));
	if (write(fd, text, n) != (ssize_t)n) {
		close(fd);
		return (sbx_fail(err, len, "%s: /etc/%s: short write",
		    __func__, name));
	}
	close(fd);
	return (0);
}

/* Nothing of the host's /etc but what these lines make up. */
static int
mnt_etc_files(int etcfd, const struct sandbox_spec *spec, char *err,
    size_t len)
{
	char	 buf[512], host[64], ns[INET_ADDRSTRLEN];

	sbx_hostname(spec->id, host, sizeof(host));
	snprintf(buf, sizeof(buf), "root:x:0:0:root:/root:/bin/sh\n"
	    "sandbox:x:%u:%u:sandbox:/workspace:/bin/sh\n",
	    (unsigned int)spec->uid, (unsigned int)spec->gid);
	if (mnt_write_file(etcfd, "passwd", buf, err, len) == -1)
		return (-1);
	snprintf(buf, sizeof(buf), "root:x:0:\nsandbox:x:%u:\n",
	    (unsigned int)spec->gid);
	if (mnt_write_file(etcfd, "group", buf, err, len) == -1)
		return (-1);
	snprintf(buf, sizeof(buf), "127.0.0.1\tlocalhost\n"
	    "::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\t%s\n", host);
	if (mnt_write_file(etcfd, "hosts", buf, err, len) == -1)
		return (-1);
	snprintf(buf, sizeof(buf), "%s\n", host);
	if (mnt_write_file(etcfd, "hostname", buf, err, len) == -1)
		return (-1);
	buf[0] = '\0';
	if (spec->resolver.s_addr != INADDR_ANY &&
	    inet_ntop(AF_INET, &spec->resolver, ns, sizeof(ns)) != NULL)
		snprintf(buf, sizeof(buf), "nameserver %s\n", ns);
	if (mnt_write_file(etcfd, "resolv.conf", buf, err, len) == -1)
		return (-1);
	return (mnt_write_file(etcfd, "nsswitch.conf", "passwd: files\n"
	    "group: files\nshadow: files\nhosts: files dns\n"
	    "networks: files\nprotocols: files\nservices: files\n", err,
	    len));
}

/* What programs need from a real /etc: libraries, alternatives, CAs, java. */
static int
mnt_etc_binds(int rootfd, const char *base, char *err, size_t len)
{
	static const struct {
		const char	*rel;
		int		 dir;
	} b[] = {
		{ "etc/ld.so.cache", 0 }, { "etc/alternatives", 1 },
		{ "etc/ssl/certs", 1 },
		/* nsswitch.conf's files for getservbyname, getprotobyname. */
		{ "etc/services", 0 }, { "etc/protocols", 0 },
		/* Debian's JRE reads java.security, jvm.cfg from here. */
		{ "etc/java-17-openjdk", 1 }
	};
	struct stat	 st;
	char		 src[CONF_PATH_SIZE];
	size_t		 i;

	for (i = 0; i < sizeof(b) / sizeof(*b); i++) {
		snprintf(src, sizeof(src), "%s/%s", base, b[i].rel);
		if (stat(src, &st) == -1 || (S_ISDIR(st.st_mode) != b[i].dir))
			continue;
		if (mnt_mkpath_in(rootfd, b[i].rel, b[i].dir, err, len) == -1 ||
		    mnt_bind(rootfd, src, b[i].rel, MNT_RO, err, len) == -1)
			return (-1);
	}
	return (0);
}

static int
mnt_etc(int rootfd, const struct sandbox_spec *spec, const char *base,
    char *err, size_t len)
{
	int	 etcfd, rc;

	if (mkdirat(rootfd, "etc", 0755) == -1 ||
	    (etcfd = openat(rootfd, "etc", O_PATH | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		return (sbx_fail(err, len, "%s: /etc: %s", __func__,
		    strerror(errno)));
	rc = mnt_etc_files(etcfd, spec, err, len);
	close(etcfd);
	if (rc == -1)
		return (-1);
	return (mnt_etc_binds(rootfd, base, err, len));
}

static int
mnt_dev_nodes(int rootfd, char *err, size_t len)
{
	char	 src[64], dst[64];
	size_t	 i;

	for (i = 0; i < sizeof(mnt_devices) / sizeof(*mnt_devices); i++) {
		snprintf(src, sizeof(src), "/dev/%s", mnt_devices[i]);
		snprintf(dst, sizeof(dst), "dev/%s", mnt_devices[i]);
		if (mnt_create_in(rootfd, dst, 0) == -1)
			return (sbx_fail(err, len, "%s: /%s: %s", __func__, dst,
			    strerror(errno)));
		if (mnt_bind(rootfd, src, dst, MNT_DEV | MNT_NOEXEC, err,
		    len) == -1)
			return (-1);
	}
	return (0);
}

/* A tmpfs with six device binds, a few links, shm and its own ptys. */
static int
mnt_dev(const char *root, int rootfd, const struct policy_msg *p,
    char *err, size_t len)
{
	char	 opts[64];
	size_t	 i;
	int	 devfd;

	if (mkdirat(rootfd, "dev", 0755) == -1)
		return (sbx_fail(err, len, "%s: /dev: %s", __func__,
		    strerror(errno)));
	if (mnt_fresh(root, "dev", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	    MNT_DEV_OPTS, err, len) == -1 ||
	    mnt_dev_nodes(rootfd, err, len) == -1)
		return (-1);
	if ((devfd = mnt_open_in(rootfd, "dev", O_PATH | O_DIRECTORY)) == -1)
		return (sbx_fail(err, len, "%s: /dev: %s", __func__,
		    strerror(errno)));
	for (i = 0; i < sizeof(mnt_devlinks) / sizeof(*mnt_devlinks); i++)
		if (symlinkat(mnt_devlinks[i].target, devfd,
		    mnt_devlinks[i].name) == -1)
			break;
	if (i < sizeof(mnt_devlinks) / sizeof(*mnt_devlinks) ||
	    mkdirat(devfd, "shm", 0755) == -1 ||
	    mkdirat(devfd, "pts", 0755) == -1) {
		sbx_fail(err, len, "%s: %s", __func__, strerror(errno));
		close(devfd);
		return (-1);
	}
	close(devfd);
	snprintf(opts, sizeof(opts), "size=%llu,mode=1777",
	    (unsigned long long)p->tmp_size);
	if (mnt_fresh(root, "dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, opts,
	    err, len) == -1 ||
	    mnt_fresh(root, "dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
	    "newinstance,ptmxmode=0666,mode=0620", err, len) == -1)
		return (-1);
	return (mnt_remount_ro(root, "dev", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	    err, len));
}

static int
mnt_rule_ok(const char *path)
{
	static const char *const synthesized[] = { "/proc", "/dev" };
	size_t	 i, n;

	if (strcmp(path, "/") == 0)
		return (0);
	for (i = 0; i < sizeof(synthesized) / sizeof(*synthesized); i++) {
		n = strlen(synthesized[i]);
		if (strncmp(path, synthesized[i], n) == 0 &&
		    (path[n] == '\0' || path[n] == '/'))
			return (0);
	}
	return (1);
}

/* read "/p": the host's /p read-only at /p; write "/p": writable. */
static int
mnt_rules(int rootfd, const struct fs_rule_msg *r, size_t n, char *err,
    size_t len)
{
	struct stat	 st;
	size_t		 i;

	for (i = 0; i < n; i++) {
		if (r[i].type != FS_RULE_READ && r[i].type != FS_RULE_WRITE)
			continue;
		if (!mnt_rule_ok(r[i].path))
			return (sbx_fail(err, len, "%s: %s cannot be bound "
			    "into a sandbox", __func__, r[i].path));
		if (stat(r[i].path, &st) == -1)
			return (sbx_fail(err, len, "%s: %s: %s", __func__,
			    r[i].path, strerror(errno)));
		if (mnt_mkpath_in(rootfd, r[i].path + 1, S_ISDIR(st.st_mode),
		    err, len) == -1 ||
		    mnt_bind(rootfd, r[i].path, r[i].path + 1,
		    r[i].type == FS_RULE_READ ? MNT_RO : 0, err, len) == -1)
			return (-1);
	}
	return (0);
}

static int
mnt_pivot(int rootfd, char *err, size_t len)
{
	/* pivot_root(".", "."): the old root lands on top; detach it. */
	if (fchdir(rootfd) == -1 || syscall(SYS_pivot_root, ".", ".") == -1 ||
	    umount2(".", MNT_DETACH) == -1 || chdir("/") == -1)
		return (sbx_fail(err, len, "%s: %s", __func__,
		    strerror(errno)));
	return (0);
}

/*
 * The broker channel's socket, bound in the root while it is writable:
 * root-owned directories, a socket anyone inside may connect to.  envd
 * accepts on it; a connection can only come from this sandbox.
 */
static int
mnt_broker(int rootfd, int *broker, char *err, size_t len)
{
	struct sockaddr_un	 sun;
	const char		*rel = ENV_BROKER_PATH + 1;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strlcpy(sun.sun_path, rel, sizeof(sun.sun_path));
	if (mkdirat(rootfd, "run", 0755) == -1 ||
	    mkdirat(rootfd, "run/sandboxd", 0755) == -1 ||
	    fchdir(rootfd) == -1)
		return (sbx_fail(err, len, "%s: %s", __func__,
		    strerror(errno)));
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return (sbx_fail(err, len, "%s: socket: %s", __func__,
		    strerror(errno)));
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    fchmodat(rootfd, rel, 0666, 0) == -1 ||
	    listen(fd, MNT_BROKER_BACKLOG) == -1) {
		close(fd);
		return (sbx_fail(err, len, "%s: %s: %s", __func__,
		    ENV_BROKER_PATH, strerror(errno)));
	}
	*broker = fd;
	return (0);
}

static int
mnt_populate(const struct sandbox_spec *spec, const char *root, int rootfd,
    int ws, int *broker, char *err, size_t len)
{
	const struct policy_msg	*p = spec->policy;
	char			 opts[64];

	if (mnt_system(rootfd, p->root, err, len) == -1 ||
	    mnt_etc(rootfd, spec, p->root, err, len) == -1)
		return (-1);
	if (mkdirat(rootfd, "proc", 0755) == -1 ||
	    mkdirat(rootfd, "tmp", 0755) == -1 ||
	    mkdirat(rootfd, "workspace", 0755) == -1)
		return (sbx_fail(err, len, "%s: %s", __func__,
		    strerror(errno)));
	if (mnt_fresh(root, "proc", "proc", MS_RDONLY | MS_NOSUID | MS_NODEV |
	    MS_NOEXEC, NULL, err, len) == -1 ||
	    mnt_dev(root, rootfd, p, err, len) == -1)
		return (-1);
	snprintf(opts, sizeof(opts), "size=%llu,mode=1777",
	    (unsigned long long)p->tmp_size);
	if (mnt_fresh(root, "tmp", "tmpfs", MS_NOSUID | MS_NODEV, opts, err,
	    len) == -1 ||
	    mnt_attach(rootfd, ws, "the workspace", "workspace", 0, err,
	    len) == -1 ||
	    mnt_rules(rootfd, spec->fs_rules, spec->nfs_rules, err,
	    len) == -1 ||
	    mnt_broker(rootfd, broker, err, len) == -1)
		return (-1);
	return (mnt_remount_ro(root, "", MS_NOSUID | MS_NODEV, err, len));
}

int
mounts_build_child(const struct sandbox_spec *spec, const char *root,
    int ws, int *broker, char *err, size_t len)
{
	int	 rootfd, rc;

	/* Nothing we mount may propagate back to the host, nor in. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1)
		return (sbx_fail(err, len, "%s: make / private: %s", __func__,
		    strerror(errno)));
	if (mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV,
	    MNT_ROOT_OPTS) == -1)
		return (sbx_fail(err, len, "%s: tmpfs on %s: %s", __func__,
		    root, strerror(errno)));
	if ((rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1)
		return (sbx_fail(err, len, "%s: %s: %s", __func__, root,
		    strerror(errno)));
	rc = mnt_populate(spec, root, rootfd, ws, broker, err, len);
	if (rc == 0)
		rc = mnt_pivot(rootfd, err, len);
	close(rootfd);
	return (rc);
}

/*
 * The mount namespace that each pid 1 copies for its own (runnerd(8),
 * Creating a sandbox): a copy of runnerd's, made once, without the
 * workspaces.
 * A copy of runnerd's own would hold every live sandbox's workspace
 * mount, and copying it, then detaching the old root after
 * pivot_root, would cost each create time in proportion to the
 * sandboxes alive.  Here state_dir is its top mount alone, where pid
 * 1 finds the directory for its root; the workspace comes to pid 1 as
 * a detached mount (open_tree) instead.  The host's mounts stay slaves
 * of runnerd's, so that what is mounted or unmounted on a shared mount
 * of the host later shows in sandboxes made later, as it would in a
 * copy of runnerd's.
 */
static int	 mnt_template = -1;

static int
mnt_template_trim(const char *state_dir, char *err, size_t len)
{
	int	 tree, rc = -1;

	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) == -1)
		return (sbx_fail(err, len, "%s: make / a slave: %s", __func__,
		    strerror(errno)));
	if ((tree = open_tree(AT_FDCWD, state_dir, OPEN_TREE_CLONE |
	    OPEN_TREE_CLOEXEC)) == -1)
		return (sbx_fail(err, len, "%s: %s: %s", __func__, state_dir,
		    strerror(errno)));
	if (umount2(state_dir, MNT_DETACH) == -1)
		sbx_fail(err, len, "%s: umount %s: %s", __func__, state_dir,
		    strerror(errno));
	else if (move_mount(tree, "", AT_FDCWD, state_dir,
	    MOVE_MOUNT_F_EMPTY_PATH) == -1)
		sbx_fail(err, len, "%s: %s: move_mount: %s", __func__,
		    state_dir, strerror(errno));
	else
		rc = 0;
	close(tree);
	return (rc);
}

/* Made by runnerd in a namespace of its own, then back to its own. */
static int
mnt_template_make(const char *state_dir, char *err, size_t len)
{
	int	 self, cwd, fd = -1;

	if ((self = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC)) == -1)
		return (sbx_fail(err, len, "%s: /proc/self/ns/mnt: %s",
		    __func__, strerror(errno)));
	if ((cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1) {
		sbx_fail(err, len, "%s: cwd: %s", __func__, strerror(errno));
		close(self);
		return (-1);
	}
	if (unshare(CLONE_NEWNS) == -1)
		sbx_fail(err, len, "%s: unshare: %s", __func__,
		    strerror(errno));
	else if (mnt_template_trim(state_dir, err, len) == 0 &&
	    (fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC)) == -1)
		sbx_fail(err, len, "%s: /proc/self/ns/mnt: %s", __func__,
		    strerror(errno));
	/* setns(2) to a mount namespace moves the cwd to its root. */
	if (setns(self, CLONE_NEWNS) == -1 || fchdir(cwd) == -1)
		fatal("%s: back to runnerd's mount namespace", __func__);
	close(self);
	close(cwd);
	if (fd == -1)
		return (-1);
	if (mnt_template != -1)
		close(mnt_template);
	mnt_template = fd;
	return (0);
}

/* The template for pid 1 to enter before it makes its own, or -1. */
int
mounts_template(void)
{
	return (mnt_template);
}

/*
 * runnerd's side: state_dir becomes a private mount of its own, so
 * that workspace mounts neither propagate to the host's other mount
 * namespaces nor refuse MS_MOVE (keep-failed) under a shared parent.
 * It holds only mount points and the tmpfs workspaces on them, nothing
 * that outlives a boot, so the mount is a tmpfs: making and removing a
 * sandbox's three directories on the disk's filesystem cost a create
 * and a destroy about a millisecond of runnerd's time between them.  A
 * state_dir that is a mount already (a previous runnerd's, with kept
 * workspaces in it, or the operator's) is used as it is.
 */
int
mounts_state_prepare(const char *state_dir, char *err, size_t len)
{
	static char	 done[CONF_PATH_SIZE];
	struct statx	 stx;

	if (strcmp(done, state_dir) == 0)
		return (0);
	if (statx(AT_FDCWD, state_dir, 0, STATX_BASIC_STATS, &stx) == -1)
		return (sbx_fail(err, len, "%s: %s: %s", __func__, state_dir,
		    strerror(errno)));
	if (!(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) &&
	    mount("sandboxd", state_dir, "tmpfs", MS_NOSUID | MS_NODEV |
	    MS_NOEXEC, "mode=0700,size=1m,nr_inodes=1m") == -1)
		return (sbx_fail(err, len, "%s: tmpfs on %s: %s", __func__,
		    state_dir, strerror(errno)));
	if (mount(NULL, state_dir, NULL, MS_PRIVATE, NULL) == -1)
		return (sbx_fail(err, len, "%s: make %s private: %s", __func__,
		    state_dir, strerror(errno)));
	/* Without it pid 1 copies runnerd's namespace: slower, not worse. */
	if (mnt_template_make(state_dir, err, len) == -1)
		log_warnx("%s", err);
	strlcpy(done, state_dir, sizeof(done));
	return (0);
}
