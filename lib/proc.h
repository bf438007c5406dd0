/* The cooperating processes, how they are started and how they drop. */
#ifndef SANDBOXD_PROC_H
#define SANDBOXD_PROC_H

#include <sys/types.h>
#include <stddef.h>

#define PROC_CHROOT		"/var/empty"
#define PROC_PARENT_FD		3	/* a child's end of its socketpair */

/* Which parts of the config a child is sent. */
#define CONF_PART_NET		0x01	/* net rules */
#define CONF_PART_DNS		0x02	/* upstreams, name rules */
#define CONF_PART_ENV		0x04	/* env and secret rules */
#define CONF_PART_FS		0x08	/* filesystem rules */
#define CONF_PART_SECRETS	0x10	/* the secrets' values */

struct proc_spec {
	const char	*name;
	const char	*user;		/* NULL: stays uid 0 */
	const char	*chroot;	/* NULL: keeps / */
	const int	*caps;		/* kept: effective, permitted, bounding */
	size_t		 ncaps;
	int		 keepenv;	/* inherits the master's environment */
	int		 fdpass;	/* sends the master fds */
	unsigned int	 conf_parts;
};

enum proc_id {
	PROC_NETD = 0,
	PROC_ENVD,
	PROC_RUNNERD,
	PROC_DNSPIND,
	PROC_MAX
};

extern const struct proc_spec proc_specs[PROC_MAX];

const struct proc_spec	*proc_spec_find(const char *);
/* Find the program beside or below the running master. */
int	 proc_exec_path(const char *, char *, size_t);
/* Fork and exec a child; *fd is the master's end (nonblocking). */
/* without: NULL, or a kernel feature to do without (-x, testing). */
pid_t	 proc_start(const struct proc_spec *, const char *, int, int,
	    const char *, int *);

/* privdrop.c: chroot, ids, capabilities, NO_NEW_PRIVS; fatal on failure. */
void	 priv_drop(const struct proc_spec *);
void	 priv_no_new_privs(void);
/* seccomp_daemon.c: the daemon's own allow-list; fatal on failure. */
void	 seccomp_daemon_apply(const char *);

#endif
