/*
 * The cgroup v2 subtree a service manager delegated to sandboxd:
 * systemd's Delegate=yes marks a unit's cgroup with the trusted.delegate
 * (and, from 251, user.delegate) xattr.  The master moves itself into
 * the leaf CGROUP_DAEMONS before it starts any child, so that the
 * delegated cgroup holds no process and can pass controllers on to
 * the sandboxes' groups beside it (cgroup v2's no-internal-processes
 * rule).  runnerd finds the same base from its own cgroup, that leaf.
 */
#ifndef SANDBOXD_CGROUP_DELEG_H
#define SANDBOXD_CGROUP_DELEG_H

#include <stddef.h>

#define CGROUP_MOUNT		"/sys/fs/cgroup"
#define CGROUP_DAEMONS		"daemons"
#define CGROUP_PROC_SELF	"/proc/self/cgroup"

enum cgroup_deleg {
	CGD_NONE = 0,		/* not delegated: the hierarchy's root */
	CGD_HELD,		/* own cgroup is the delegated base */
	CGD_PLACED		/* own cgroup is base/CGROUP_DAEMONS */
};

/* Where cgroup v2 is mounted (pure or hybrid layout); -1: nowhere. */
int	 cgroup_v2_mount(char *, size_t);
/* From a /proc/PID/cgroup file: own v2 cgroup, below the mount. */
int	 cgroup_own_path(const char *, char *, size_t);
/* From a /proc/PID/cgroup file: the delegated base, if there is one. */
enum cgroup_deleg cgroup_deleg_find(const char *, char *, size_t);
/* Move the calling process into base/CGROUP_DAEMONS. */
int	 cgroup_deleg_place(const char *, char *, size_t);

#endif
