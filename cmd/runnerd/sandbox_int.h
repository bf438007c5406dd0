/*
 * What the files behind sandbox.h share.  Names ending in _child run
 * in a process that is about to become (part of) a sandbox; everything
 * else runs in runnerd.
 */
#ifndef RUNNERD_SANDBOX_INT_H
#define RUNNERD_SANDBOX_INT_H

#include <sys/types.h>
#include <stdint.h>
#include <time.h>

#include "sandbox.h"

#define SBX_MSG_SIZE		256
#define SBX_DEFAULT_PATH	"/usr/local/bin:/usr/bin:/bin"

/*
 * What a child tells runnerd over its CLOEXEC report pipe: one struct
 * per write, smaller than PIPE_BUF so that writes never interleave.
 */
enum sbx_report_type {
	SBX_REPORT_ERROR = 1,	/* msg says why; the writer exits */
	SBX_REPORT_READY,	/* pid 1: built and dropped; nsh valid */
	SBX_REPORT_PID		/* spawn helper: the exec child's pid */
};

struct sbx_report {
	int			 type;
	pid_t			 pid;
	char			 msg[SBX_MSG_SIZE];
	struct sandbox_nsh	 nsh[SANDBOX_NS_MAX];
};

/* sandbox.c */
int	 sbx_fail(char *, size_t, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	 sbx_report_error(int, const char *);
void	 sbx_sleep_ms(unsigned int);
long	 sbx_elapsed_ms(const struct timespec *);
int	 sbx_hostname(const char *, char *, size_t);

/* sandbox_init.c: pid 1; never returns. */
struct init_args {
	const struct sandbox_spec	*spec;
	const char			*root;		/* state_dir/<id>/root */
	const char			*workspace;	/* host side */
	int				 sync_fd;	/* runnerd -> pid 1 */
	int				 report_fd;	/* pid 1 -> runnerd */
};
__attribute__((noreturn))
void	 init_main_child(const struct init_args *);

/* sandbox_ident.c: signals, fds and identity of a sandboxed process. */
#define IDENT_KEEP_MAX		8
void	 ident_reset_signals_child(void);
int	 ident_keep_fds_child(const int *, size_t, char *, size_t);
int	 ident_drop_child(uid_t, gid_t, char *, size_t);

/* mounts.c: the minimal root, built by pid 1 before pivot_root. */
int	 mounts_build_child(const struct sandbox_spec *, const char *,
	    const char *, char *, size_t);
int	 mounts_state_prepare(const char *, char *, size_t);

/* cgroup.c */
int	 cgroup_create(const char *, const struct policy_msg *, char *,
	    size_t);
int	 cgroup_attach(const char *, pid_t, char *, size_t);
int	 cgroup_procs(const char *, pid_t **, size_t *);
int	 cgroup_freeze(const char *, int);
int	 cgroup_oom_kills(const char *, uint64_t *);
int	 cgroup_remove(const char *, unsigned int);
void	 cgroup_reconcile(void);
void	 cgroup_set_instance(const char *);
void	 cgroup_remove_instance(void);

/* landlock.c: the exec allowlist, in the exec child. */
int	 landlock_exec_child(const struct fs_rule_msg *, size_t, char *,
	    size_t);

/* sandbox_seccomp.c */
int	 sbx_seccomp_prepare(char *, size_t);
int	 sbx_seccomp_load_child(char *, size_t);

#endif
