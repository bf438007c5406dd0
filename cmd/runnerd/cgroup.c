/*
 * A sandbox's cgroup: memory (with swap), pids and cpu limits, and the
 * freezer that gives sigall.c's sweeps a stable snapshot.  cgroup v2
 * when its top offers memory, pids and cpu; otherwise v1, with one
 * directory per controller.  The top is the cgroup delegated to us
 * when the master found one and moved the daemons into its leaf
 * (lib/cgroup_deleg.h): a sandbox then lives in <base>/sandboxes/<id>
 * and nothing outside <base> is touched.  Otherwise it is the
 * hierarchy's root, and a sandbox lives in <hierarchy>/sandboxd/<id>.
 */
#include <sys/types.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup_deleg.h"
#include "log.h"
#include "sandbox_int.h"

#define CG_BASE			"/sys/fs/cgroup"
#define CG_CPU_PERIOD		100000		/* microseconds: 100 ms */
#define CG_MAXDIRS		4

enum cg_version {
	CG_UNKNOWN = 0,
	CG_V1,
	CG_V2
};

enum cg_ctrl {			/* v1 hierarchies; v2 has one for all */
	CG_MEMORY = 0,
	CG_PIDS,
	CG_CPU,
	CG_FREEZER
};

static const char *const cg_v1names[CG_MAXDIRS] = {
	"memory", "pids", "cpu", "freezer"
};

static enum cg_version	 cg_version;
static char		 cg_v2top[512];	/* the root, or the delegated base */
static int		 cg_delegated;
static int		 cg_has_freezer;

static int
cg_is_fs(const char *path, long magic)
{
	struct statfs	 sf;

	return (statfs(path, &sf) == 0 && sf.f_type == magic);
}

static int
cg_read(const char *dir, const char *file, char *buf, size_t len)
{
	char	 path[CONF_PATH_SIZE];
	ssize_t	 n;
	int	 fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	n = read(fd, buf, len - 1);
	close(fd);
	if (n == -1)
		return (-1);
	buf[n] = '\0';
	return (0);
}

static int
cg_write(const char *dir, const char *file, const char *fmt, ...)
{
	char	 path[CONF_PATH_SIZE], buf[64];
	va_list	 ap;
	int	 fd, n, saved;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		return (-1);
	if (write(fd, buf, n) != n) {
		saved = errno;
		close(fd);
		errno = saved;
		return (-1);
	}
	return (close(fd));
}

/* Whether every word of want appears in the space-separated list. */
static int
cg_has_words(const char *list, const char *const *want, size_t n)
{
	const char	*p;
	size_t		 i, l;

	for (i = 0; i < n; i++) {
		l = strlen(want[i]);
		for (p = list; (p = strstr(p, want[i])) != NULL; p += l)
			if ((p == list || p[-1] == ' ') &&
			    (p[l] == ' ' || p[l] == '\n' || p[l] == '\0'))
				break;
		if (p == NULL)
			return (0);
	}
	return (1);
}

/*
 * v2's top: the delegated base where the master put us in its leaf,
 * else the hierarchy's root.  Usable when it offers all three.
 */
static int
cg_detect_v2(void)
{
	static const char *const need[] = { "memory", "pids", "cpu" };
	char	 buf[512];

	if (cgroup_deleg_find(CGROUP_PROC_SELF, cg_v2top,
	    sizeof(cg_v2top)) == CGD_PLACED)
		cg_delegated = 1;
	else if (cgroup_v2_mount(cg_v2top, sizeof(cg_v2top)) == -1)
		return (0);
	return (cg_read(cg_v2top, "cgroup.controllers", buf,
	    sizeof(buf)) == 0 && cg_has_words(buf, need, 3));
}

/* Each controller's v1 hierarchy id from /proc/cgroups; 0: none, v2. */
static int
cg_hierarchies(char names[][32], int *ids, int max)
{
	char	 buf[4096], *line, *save;
	int	 n = 0, id, enabled;

	if (cg_read("/proc", "cgroups", buf, sizeof(buf)) == -1)
		return (-1);
	for (line = strtok_r(buf, "\n", &save); line != NULL && n < max;
	    line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%31s %d %*d %d", names[n], &id,
		    &enabled) == 3 && names[n][0] != '#' && enabled)
			ids[n++] = id;
	return (n);
}

/* v1: mount hierarchy id under CG_BASE/name with all it carries. */
static int
cg_mount_v1(const char *name, int id, char names[][32], const int *ids,
    int n)
{
	char	 path[64], opts[256] = "";
	int	 i;

	for (i = 0; i < n; i++) {
		if (ids[i] != id)
			continue;
		if (opts[0] != '\0')
			strlcat(opts, ",", sizeof(opts));
		strlcat(opts, names[i], sizeof(opts));
	}
	snprintf(path, sizeof(path), CG_BASE "/%s", name);
	if (mkdirat(AT_FDCWD, path, 0755) == -1 && errno != EEXIST)
		return (-1);
	return (mount("cgroup", path, "cgroup", MS_NOSUID | MS_NODEV |
	    MS_NOEXEC, opts));
}

/*
 * `ip netns exec` (the regress suite, some service setups) gives its
 * command a fresh /sys with nothing mounted on /sys/fs/cgroup.  Only
 * then, mount the host's hierarchies there again, as /proc/cgroups
 * describes them, in what is then our own mount namespace.
 */
static int
cg_mount(char *err, size_t len)
{
	char	 names[32][32];
	int	 ids[32], n, i, j, v1 = 0;

	if (!cg_is_fs(CG_BASE, SYSFS_MAGIC))
		return (0);
	if ((n = cg_hierarchies(names, ids, 32)) == -1)
		return (sbx_fail(err, len, "%s: /proc/cgroups: %s", __func__,
		    strerror(errno)));
	for (i = 0; i < n; i++)
		for (j = CG_MEMORY; j <= CG_CPU; j++)
			if (strcmp(names[i], cg_v1names[j]) == 0 && ids[i] != 0)
				v1 = 1;
	if (!v1) {
		if (mount("cgroup2", CG_BASE, "cgroup2", MS_NOSUID | MS_NODEV |
		    MS_NOEXEC, NULL) == -1)
			return (sbx_fail(err, len, "%s: cgroup2: %s", __func__,
			    strerror(errno)));
		return (0);
	}
	if (mount("tmpfs", CG_BASE, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	    "size=64k,mode=0755") == -1)
		return (sbx_fail(err, len, "%s: tmpfs: %s", __func__,
		    strerror(errno)));
	for (i = 0; i < n; i++)
		for (j = 0; j < CG_MAXDIRS; j++)
			if (strcmp(names[i], cg_v1names[j]) == 0 &&
			    ids[i] != 0 &&
			    cg_mount_v1(names[i], ids[i], names, ids, n) == -1)
				return (sbx_fail(err, len, "%s: %s: %s",
				    __func__, names[i], strerror(errno)));
	return (0);
}

/* A service manager's cgroup that we leave: say so, once. */
static void
cg_warn_undelegated(void)
{
	char	 own[CONF_PATH_SIZE];

	if (!cg_delegated &&
	    cgroup_own_path(CGROUP_PROC_SELF, own, sizeof(own)) == 0 &&
	    strcmp(own, "/") != 0)
		log_warnx("cgroup %s is not delegated to us: sandboxes' "
		    "cgroups go under %s, outside it (Delegate=yes?)", own,
		    cg_v2top);
}

/*
 * Which cgroup version, and where: known to runnerd before it clones
 * a pid 1, which makes its own cgroup with what runnerd found.
 */
int
cgroup_detect(char *err, size_t len)
{
	char	 path[64];
	int	 i;

	if (cg_version != CG_UNKNOWN)
		return (0);
	if (cg_mount(err, len) == -1)
		return (-1);
	if (cg_detect_v2()) {
		cg_version = CG_V2;
		cg_has_freezer = 1;
		log_info("cgroup v2 under %s%s", cg_v2top,
		    cg_delegated ? ", delegated" : "");
		cg_warn_undelegated();
		return (0);
	}
	for (i = CG_MEMORY; i <= CG_CPU; i++) {
		snprintf(path, sizeof(path), CG_BASE "/%s", cg_v1names[i]);
		if (cg_is_fs(path, CGROUP_SUPER_MAGIC))
			continue;
		if (cg_delegated)
			return (sbx_fail(err, len, "%s: delegated cgroup %s "
			    "lacks the memory, pids or cpu controller",
			    __func__, cg_v2top));
		return (sbx_fail(err, len, "%s: no cgroup with the memory, "
		    "pids and cpu controllers (v2 root or v1 %s)", __func__,
		    path));
	}
	cg_has_freezer = cg_is_fs(CG_BASE "/freezer", CGROUP_SUPER_MAGIC);
	cg_version = CG_V1;
	/* A hybrid host's v2 has no controllers: v1 as without systemd. */
	log_info("cgroup v1 under " CG_BASE "%s", cg_delegated ?
	    ", the delegated v2 group having no controllers" : "");
	return (0);
}

static int
cg_ndirs(void)
{
	if (cg_version == CG_V2)
		return (1);
	return (cg_has_freezer ? CG_FREEZER + 1 : CG_CPU + 1);
}

/*
 * The parent group of this instance's sandboxes: "sandboxes" in a
 * delegated cgroup, "sandboxd" at a hierarchy's root; followed, for any
 * state directory but the default, by "-<hash>", so that two instances
 * (a test suite beside a production daemon) never reconcile away each
 * other's sandboxes.
 */
static char	 cg_suffix[16];

void
cgroup_set_instance(const char *state_dir)
{
	uint32_t	 h = 2166136261u;	/* FNV-1a */
	const char	*p;

	if (strcmp(state_dir, "/var/lib/sandboxd") == 0) {
		cg_suffix[0] = '\0';
		return;
	}
	for (p = state_dir; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	snprintf(cg_suffix, sizeof(cg_suffix), "-%08x", h);
}

/* Directory i of a sandbox; id NULL: the instance's parent. */
static void
cg_dir(int i, const char *id, char *buf, size_t len)
{
	const char	*top = cg_v2top, *group = SANDBOX_CGROUP_NAME;
	char		 v1top[64];

	if (cg_version == CG_V1) {
		snprintf(v1top, sizeof(v1top), CG_BASE "/%s", cg_v1names[i]);
		top = v1top;
	} else if (cg_delegated)
		group = SANDBOX_CGROUP_DELEGATED;
	if (id == NULL)
		snprintf(buf, len, "%s/%s%s", top, group, cg_suffix);
	else
		snprintf(buf, len, "%s/%s%s/%s", top, group, cg_suffix, id);
}

/*
 * v2: a child sees a controller only if every parent passes it on.  In
 * a delegated cgroup that is the base, which the master left empty
 * (no-internal-processes: a cgroup with processes cannot pass any).
 */
static int
cg_v2_enable(char *err, size_t len)
{
	char	 dir[CONF_PATH_SIZE];

	if (cg_write(cg_v2top, "cgroup.subtree_control",
	    "+memory +pids +cpu") == -1)
		return (sbx_fail(err, len, "%s: %s/cgroup.subtree_control: "
		    "%s%s", __func__, cg_v2top, strerror(errno),
		    errno == EBUSY ? " (processes in it?)" : ""));
	cg_dir(0, NULL, dir, sizeof(dir));
	if ((mkdirat(AT_FDCWD, dir, 0755) == -1 && errno != EEXIST) ||
	    cg_write(dir, "cgroup.subtree_control", "+memory +pids +cpu") ==
	    -1)
		return (sbx_fail(err, len, "%s: %s: %s", __func__, dir,
		    strerror(errno)));
	return (0);
}

/*
 * A new cgroup's period is the kernel's default, ours: written only if
 * not.  Each write of a CFS bandwidth file walks every cpu cgroup of
 * the host (tg_set_cfs_bandwidth), a cost that grows with the live
 * sandboxes; the read costs nothing.
 */
static int
cg_period_v1(const char *dir)
{
	char	 buf[32];

	if (cg_read(dir, "cpu.cfs_period_us", buf, sizeof(buf)) == 0 &&
	    strtoul(buf, NULL, 10) == CG_CPU_PERIOD)
		return (0);
	return (cg_write(dir, "cpu.cfs_period_us", "%u", CG_CPU_PERIOD));
}

static int
cg_limits_v1(const char *id, const struct policy_msg *p)
{
	char	 dir[CONF_PATH_SIZE];

	cg_dir(CG_MEMORY, id, dir, sizeof(dir));
	if (cg_write(dir, "memory.limit_in_bytes", "%llu",
	    (unsigned long long)p->memory) == -1)
		return (-1);
	/* With swap accounting, memory plus swap is held to the same. */
	if (cg_write(dir, "memory.memsw.limit_in_bytes", "%llu",
	    (unsigned long long)p->memory) == -1 && errno != ENOENT)
		return (-1);
	cg_dir(CG_PIDS, id, dir, sizeof(dir));
	if (cg_write(dir, "pids.max", "%u", p->pids) == -1)
		return (-1);
	cg_dir(CG_CPU, id, dir, sizeof(dir));
	if (cg_period_v1(dir) == -1 ||
	    cg_write(dir, "cpu.cfs_quota_us", "%llu",
	    (unsigned long long)p->cpu_percent * CG_CPU_PERIOD / 100) == -1)
		return (-1);
	return (0);
}

static int
cg_limits_v2(const char *id, const struct policy_msg *p)
{
	char	 dir[CONF_PATH_SIZE];

	cg_dir(0, id, dir, sizeof(dir));
	if (cg_write(dir, "memory.max", "%llu",
	    (unsigned long long)p->memory) == -1)
		return (-1);
	/* No swap at all, so that it cannot stretch the memory limit. */
	if (cg_write(dir, "memory.swap.max", "0") == -1 && errno != ENOENT)
		return (-1);
	if (cg_write(dir, "pids.max", "%u", p->pids) == -1 ||
	    cg_write(dir, "cpu.max", "%llu %u",
	    (unsigned long long)p->cpu_percent * CG_CPU_PERIOD / 100,
	    CG_CPU_PERIOD) == -1)
		return (-1);
	return (0);
}

static int
cg_mkdirs(const char *id, char *err, size_t len)
{
	char	 dir[CONF_PATH_SIZE];
	int	 i;

	for (i = 0; i < cg_ndirs(); i++) {
		cg_dir(i, NULL, dir, sizeof(dir));
		if (mkdirat(AT_FDCWD, dir, 0755) == -1 && errno != EEXIST)
			break;
		cg_dir(i, id, dir, sizeof(dir));
		if (mkdirat(AT_FDCWD, dir, 0755) == -1)
			break;
	}
	if (i == cg_ndirs())
		return (0);
	sbx_fail(err, len, "%s: %s: %s", __func__, dir, strerror(errno));
	while (--i >= 0) {
		cg_dir(i, id, dir, sizeof(dir));
		unlinkat(AT_FDCWD, dir, AT_REMOVEDIR);
	}
	return (-1);
}

int
cgroup_create(const char *id, const struct policy_msg *p, char *err,
    size_t len)
{
	int	 rc;

	if (cgroup_detect(err, len) == -1)
		return (-1);
	if (cg_version == CG_V2 && cg_v2_enable(err, len) == -1)
		return (-1);
	if (cg_mkdirs(id, err, len) == -1)
		return (-1);
	rc = cg_version == CG_V2 ? cg_limits_v2(id, p) : cg_limits_v1(id, p);
	if (rc == -1) {
		sbx_fail(err, len, "%s: limits of %s: %s", __func__, id,
		    strerror(errno));
		cgroup_remove(id, 0);
	}
	return (rc);
}

/*
 * The sandbox's cgroup.procs files, opened for pid 1 to write "0" to:
 * the move is pid 1's, and so is the wait it can mean (sandbox.c).
 */
int
cgroup_procs_open(const char *id, int fds[CGROUP_MAX_DIRS], char *err,
    size_t len)
{
	char	 dir[CONF_PATH_SIZE], path[CONF_PATH_SIZE];
	int	 i, n;

	if (cgroup_detect(err, len) == -1)
		return (-1);
	for (n = 0; n < cg_ndirs(); n++) {
		cg_dir(n, id, dir, sizeof(dir));
		fds[n] = -1;
		if ((size_t)snprintf(path, sizeof(path), "%s/cgroup.procs",
		    dir) >= sizeof(path))
			errno = ENAMETOOLONG;
		else
			fds[n] = open(path, O_WRONLY | O_CLOEXEC);
		if (fds[n] == -1) {
			sbx_fail(err, len, "%s: %s: %s", __func__, path,
			    strerror(errno));
			for (i = 0; i < n; i++)
				close(fds[i]);
			return (-1);
		}
	}
	return (n);
}

/* In pid 1: into each of them, then closed. */
int
cgroup_enter(const int *fds, int n, char *err, size_t len)
{
	int	 i, rc = 0;

	for (i = 0; i < n; i++) {
		if (rc == 0 && write(fds[i], "0", 1) != 1)
			rc = sbx_fail(err, len, "%s: cgroup.procs: %s",
			    __func__, strerror(errno));
		close(fds[i]);
	}
	return (rc);
}

static int
cg_procs_dir(const char *dir, pid_t **pidsp, size_t *np)
{
	char	 path[CONF_PATH_SIZE], *buf = NULL, *nbuf, *p, *q;
	size_t	 size = 0, used = 0, n = 0;
	ssize_t	 r;
	long	 v;
	int	 fd;

	*pidsp = NULL;
	*np = 0;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	for (r = 0;;) {
		if (size - used < 4096) {
			if ((nbuf = realloc(buf, size + 8192)) == NULL)
				break;
			buf = nbuf;
			size += 8192;
		}
		if ((r = read(fd, buf + used, size - used - 1)) <= 0)
			break;
		used += r;
	}
	close(fd);
	/* One pid per line, each at least two bytes long. */
	if (r != 0 || (*pidsp = calloc(used / 2 + 1, sizeof(pid_t))) == NULL) {
		free(buf);
		return (-1);
	}
	buf[used] = '\0';
	for (p = buf; (v = strtol(p, &q, 10)) > 0 && q != p; p = q)
		(*pidsp)[n++] = (pid_t)v;
	free(buf);
	*np = n;
	return (0);
}

/* Every process in the sandbox, by host pid; the caller frees. */
int
cgroup_procs(const char *id, pid_t **pidsp, size_t *np)
{
	char	 dir[CONF_PATH_SIZE];

	if (cg_version == CG_UNKNOWN)
		return (-1);
	cg_dir(0, id, dir, sizeof(dir));
	return (cg_procs_dir(dir, pidsp, np));
}

static int
cg_frozen(const char *dir)
{
	char	 buf[512];

	if (cg_version == CG_V2)
		return (cg_read(dir, "cgroup.events", buf, sizeof(buf)) == 0 &&
		    strstr(buf, "frozen 1") != NULL);
	return (cg_read(dir, "freezer.state", buf, sizeof(buf)) == 0 &&
	    strncmp(buf, "FROZEN", 6) == 0);
}

/*
 * Ask the freezer to stop (on) or thaw the sandbox's tasks; stopping
 * takes the tasks' own time, which cgroup_frozen says is over.
 */
int
cgroup_freeze(const char *id, int on)
{
	char	 dir[CONF_PATH_SIZE];

	if (cg_version == CG_UNKNOWN || !cg_has_freezer)
		return (-1);
	cg_dir(cg_version == CG_V2 ? 0 : CG_FREEZER, id, dir, sizeof(dir));
	if (cg_version == CG_V2)
		return (cg_write(dir, "cgroup.freeze", on ? "1" : "0"));
	return (cg_write(dir, "freezer.state", on ? "FROZEN" : "THAWED"));
}

int
cgroup_frozen(const char *id)
{
	char	 dir[CONF_PATH_SIZE];

	if (cg_version == CG_UNKNOWN || !cg_has_freezer)
		return (0);
	cg_dir(cg_version == CG_V2 ? 0 : CG_FREEZER, id, dir, sizeof(dir));
	return (cg_frozen(dir));
}

int
cgroup_oom_kills(const char *id, uint64_t *n)
{
	char	 dir[CONF_PATH_SIZE], buf[1024], *p;

	if (cg_version == CG_UNKNOWN)
		return (-1);
	cg_dir(cg_version == CG_V2 ? 0 : CG_MEMORY, id, dir, sizeof(dir));
	if (cg_read(dir, cg_version == CG_V2 ? "memory.events" :
	    "memory.oom_control", buf, sizeof(buf)) == -1 ||
	    (p = strstr(buf, "oom_kill ")) == NULL)
		return (-1);
	*n = strtoull(p + strlen("oom_kill "), NULL, 10);
	return (0);
}

static void
cg_kill_dir(const char *dir)
{
	pid_t	*pids;
	size_t	 i, n;

	if (cg_procs_dir(dir, &pids, &n) == -1)
		return;
	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	free(pids);
}

/* Whether directory i can freeze: the v2 one, or v1's freezer. */
static int
cg_freezable(int i)
{
	return (cg_has_freezer && (cg_version == CG_V2 || i == CG_FREEZER));
}

/*
 * rmdir, killing whatever is still inside, for at most wait_ms: 0 gone,
 * 1 still busy, -1 error.  With wait_ms 0, one try: the caller retries.
 */
static int
cg_remove_dir(const char *dir, int thaw, unsigned int wait_ms)
{
	struct timespec	 t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (unlinkat(AT_FDCWD, dir, AT_REMOVEDIR) == 0 ||
		    errno == ENOENT)
			return (0);
		if (errno != EBUSY) {
			log_warn("%s: %s", __func__, dir);
			return (-1);
		}
		/* A frozen task dies only once thawed. */
		if (thaw)
			cg_write(dir, cg_version == CG_V2 ? "cgroup.freeze" :
			    "freezer.state", cg_version == CG_V2 ? "0" :
			    "THAWED");
		cg_kill_dir(dir);
		if (wait_ms == 0)
			return (1);
		if (sbx_elapsed_ms(&t0) >= wait_ms) {
			log_warnx("%s: %s: still busy", __func__, dir);
			return (1);
		}
		sbx_sleep_ms(1);
	}
}

/*
 * Freezer first: a task frozen there would block every other rmdir.
 * 0 all gone, 1 some still busy after wait_ms, -1 an error.
 */
int
cgroup_remove(const char *id, unsigned int wait_ms)
{
	char	 dir[CONF_PATH_SIZE];
	int	 i, r, rc = 0;

	if (cg_version == CG_UNKNOWN)
		return (0);
	for (i = cg_ndirs() - 1; i >= 0; i--) {
		cg_dir(i, id, dir, sizeof(dir));
		if ((r = cg_remove_dir(dir, cg_freezable(i), wait_ms)) == -1)
			rc = -1;
		else if (r == 1 && rc == 0)
			rc = 1;
	}
	return (rc);
}

/* At a clean stop: the instance's own parent groups, once empty. */
void
cgroup_remove_instance(void)
{
	char	 dir[CONF_PATH_SIZE];
	int	 i;

	if (cg_version == CG_UNKNOWN)
		return;
	for (i = cg_ndirs() - 1; i >= 0; i--) {
		cg_dir(i, NULL, dir, sizeof(dir));
		if (unlinkat(AT_FDCWD, dir, AT_REMOVEDIR) == -1 &&
		    errno != ENOENT)
			log_warn("%s: %s", __func__, dir);
	}
}

/* Every sandbox of a previous runnerd: its processes, then its dirs. */
void
cgroup_reconcile(void)
{
	struct dirent	*de;
	DIR		*d;
	char		 parent[CONF_PATH_SIZE], dir[CONF_PATH_SIZE * 2];
	char		 err[SBX_MSG_SIZE];
	int		 i;

	if (cgroup_detect(err, sizeof(err)) == -1) {
		log_warnx("%s", err);
		return;
	}
	for (i = cg_ndirs() - 1; i >= 0; i--) {
		cg_dir(i, NULL, parent, sizeof(parent));
		if ((d = opendir(parent)) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			if (de->d_type != DT_DIR || de->d_name[0] == '.')
				continue;
			snprintf(dir, sizeof(dir), "%s/%s", parent, de->d_name);
			if (cg_remove_dir(dir, cg_freezable(i), 2000) == 0)
				log_info("removed leftover cgroup %s", dir);
		}
		closedir(d);
	}
}
