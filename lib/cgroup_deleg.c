/*
 * Finding a delegated cgroup v2 subtree and putting the daemons in its
 * leaf; see cgroup_deleg.h.  Used by the master (which moves) and by
 * runnerd (which builds the sandboxes' groups beside the leaf).
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <linux/magic.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup_deleg.h"

int
cgroup_v2_mount(char *buf, size_t len)
{
	static const char *const where[] = {
		CGROUP_MOUNT, CGROUP_MOUNT "/unified"
	};
	struct statfs	 sf;
	size_t		 i;

	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++)
		if (statfs(where[i], &sf) == 0 &&
		    sf.f_type == CGROUP2_SUPER_MAGIC &&
		    strlcpy(buf, where[i], len) < len)
			return (0);
	return (-1);
}

/* The path on the "0::" line: own cgroup v2, relative to the mount. */
int
cgroup_own_path(const char *procfile, char *buf, size_t len)
{
	char	 line[4096];
	FILE	*f;
	int	 rc = -1;

	if ((f = fopen(procfile, "re")) == NULL)
		return (-1);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "0::/", 4) != 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		/* A removed cgroup reads " (deleted)": no base there. */
		if (strstr(line, " (deleted)") == NULL &&
		    strstr(line, "/../") == NULL &&
		    strlcpy(buf, line + 3, len) < len)
			rc = 0;
		break;
	}
	fclose(f);
	return (rc);
}

static int
cg_marked(const char *dir)
{
	static const char *const names[] = {
		"trusted.delegate", "user.delegate"
	};
	char	 v[8];
	ssize_t	 n;
	size_t	 i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((n = getxattr(dir, names[i], v, sizeof(v))) == 1 &&
		    v[0] == '1')
			return (1);
	return (0);
}

enum cgroup_deleg
cgroup_deleg_find(const char *procfile, char *base, size_t len)
{
	char	 mnt[64], own[2048], dir[sizeof(mnt) + sizeof(own)], *slash;

	if (cgroup_v2_mount(mnt, sizeof(mnt)) == -1 ||
	    cgroup_own_path(procfile, own, sizeof(own)) == -1 ||
	    strcmp(own, "/") == 0)
		return (CGD_NONE);
	snprintf(dir, sizeof(dir), "%s%s", mnt, own);
	if (cg_marked(dir))
		return (strlcpy(base, dir, len) < len ? CGD_HELD : CGD_NONE);
	/* Only the leaf the master made, directly below the mark. */
	slash = strrchr(dir, '/');
	if (strcmp(slash + 1, CGROUP_DAEMONS) != 0 ||
	    slash - dir <= (ptrdiff_t)strlen(mnt))
		return (CGD_NONE);
	*slash = '\0';
	if (!cg_marked(dir))
		return (CGD_NONE);
	return (strlcpy(base, dir, len) < len ? CGD_PLACED : CGD_NONE);
}

int
cgroup_deleg_place(const char *base, char *err, size_t len)
{
	char	 dir[4096], procs[4096 + 16];
	int	 fd, saved;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", base,
	    CGROUP_DAEMONS) >= sizeof(dir)) {
		snprintf(err, len, "%s: %s: path too long", __func__, base);
		return (-1);
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	if ((mkdir(dir, 0755) == -1 && errno != EEXIST) ||
	    (fd = open(procs, O_WRONLY | O_CLOEXEC)) == -1) {
		snprintf(err, len, "%s: %s: %s", __func__, dir,
		    strerror(errno));
		return (-1);
	}
	if (write(fd, "0", 1) != 1) {
		saved = errno;
		close(fd);
		snprintf(err, len, "%s: %s: %s", __func__, procs,
		    strerror(saved));
		return (-1);
	}
	close(fd);
	return (0);
}
