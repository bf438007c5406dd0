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
 * Creating a sandbox, over the socket that becomes runnerd's line to
 * its pid 1: runnerd sends single bytes (SBX_SYNC_*, in this order)
 * when pid 1 may go on, pid 1 answers with one sbx_report.
 */
#define SBX_SYNC_MOUNT		'm'	/* root dir made; + the workspace */
#define SBX_SYNC_GO		'g'	/* runnerd has read the report */

enum sbx_report_type {
	SBX_REPORT_ERROR = 1,	/* msg says why; pid 1 exits */
	SBX_REPORT_READY	/* built and dropped */
};

/* READY comes with the broker's listening socket (SCM_RIGHTS). */
struct sbx_report {
	int			 type;
	char			 msg[SBX_MSG_SIZE];
};

/*
 * Then pid 1 is the sandbox's zygote (sandbox_zygote.c).  runnerd sends
 * a zyg_req with SCM_RIGHTS: a reply socket, then the stdio fds the
 * request names.  pid 1 forks; the child reports ZYG_STARTED on the
 * reply socket (runnerd, with SO_PASSCRED, learns its host pid from the
 * credentials the kernel attaches), takes its fds and cwd and execs;
 * runnerd reads until EOF, which CLOEXEC brings at the exec.  What
 * fails before the exec comes back as one ZYG_FAILED.  When an exec
 * ends, pid 1 sends a zyg_exit on the sandbox's socket.
 */
#define ZYG_MAGIC		0x7a796731	/* "zyg1" */
#define ZYG_REQ_MAX		98304	/* a zyg_req with its strings */
#define ZYG_ARGS_MAX		4096	/* argv and envp entries together */
#define ZYG_EXECS_MAX		1024	/* live execs a sandbox */

#define ZYG_FD_STDIN		0x01	/* absent ones become /dev/null */
#define ZYG_FD_STDOUT		0x02
#define ZYG_FD_STDERR		0x04
#define ZYG_FD_EXTRA		0x08	/* becomes fd 3 */
#define ZYG_FD_ALL		0x0f
#define ZYG_NFDS		5	/* the reply socket and four */

struct zyg_req {
	uint32_t		 magic;
	uint32_t		 fds;		/* ZYG_FD_* */
	uint64_t		 token;
	uint32_t		 argc;
	uint32_t		 envc;
	/* Then cwd, argv[], envp[], each NUL-terminated; nothing else. */
};

enum zyg_reply_type {
	ZYG_STARTED = 1,	/* from the child: its credentials */
	ZYG_FAILED		/* from pid 1 or the child: err, stage */
};

enum zyg_stage {
	ZYG_S_REQUEST = 1,	/* pid 1 refused a malformed request */
	ZYG_S_FULL,		/* ZYG_EXECS_MAX execs live */
	ZYG_S_FORK,
	ZYG_S_FDS,
	ZYG_S_SETSID,
	ZYG_S_NOFILE,
	ZYG_S_CWD,		/* arg: the cwd */
	ZYG_S_EXEC,		/* arg: the path */
	ZYG_S_NOTFOUND		/* arg: the command; err EACCES or 0 */
};

struct zyg_reply {
	uint32_t		 type;		/* zyg_reply_type */
	uint32_t		 stage;		/* zyg_stage */
	int32_t			 err;		/* errno */
	char			 arg[SBX_MSG_SIZE];
};

struct zyg_exit {
	uint64_t		 token;
	int32_t			 wstatus;
	uint32_t		 pad;
	/* wait4's rusage of the exec, its waited-for children included */
	uint64_t		 utime_us;
	uint64_t		 stime_us;
	uint64_t		 maxrss_kb;
};

/*
 * What pid 1 hands its zygote, with mem: ZYG_MEM_SIZE bytes of scratch,
 * right above its stack, whose top ZYG_ARGS_SIZE bytes are the command
 * line /proc shows.
 */
#define ZYG_MEM_SIZE		(256 * 1024)
#define ZYG_STACK_SIZE		(16 * 1024)
#define ZYG_ARGS_SIZE		16
#define ZYG_RANGES_MAX		24

struct zyg_range {
	unsigned long		 lo, hi;
	int			 zero;		/* madvise, not munmap */
};

struct zyg_params {
	int			 sock;		/* to runnerd */
	int			 sigfd;		/* signalfd for SIGCHLD */
	int			 devnull;	/* for an exec's absent stdio */
	uint64_t		 nofile;	/* RLIMIT_NOFILE of an exec */
	struct zyg_range	 unmap[ZYG_RANGES_MAX];	/* all but the code, */
	size_t			 nunmap;	/* stack and mem */
};

/* sandbox.c */
int	 sbx_fail(char *, size_t, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	 sbx_sleep_ms(unsigned int);
long	 sbx_elapsed_ms(const struct timespec *);
int	 sbx_hostname(const char *, char *, size_t);
int	 sbx_lo_up(char *, size_t);
/* One message with n (at most ZYG_NFDS) fds; what sendmsg returns. */
ssize_t	 sbx_send_fds(int, const void *, size_t, const int *, int, int);

/* sandbox_init.c: pid 1; never returns. */
struct init_args {
	const struct sandbox_spec	*spec;
	const char			*root;		/* state_dir/<id>/root */
	int				 sock;		/* to runnerd */
	int				 netns;		/* made ahead, or -1 */
	int				 mntns;		/* mounts_template() */
};
__attribute__((noreturn))
void	 init_main_child(const struct init_args *);

/*
 * sandbox_zygote.c: pid 1 once it is built, on the stack below mem;
 * never returns.
 */
__attribute__((noreturn))
void	 zygote_start_child(const struct zyg_params *, char *);
__attribute__((noreturn))
void	 zygote_main_child(const struct zyg_params *, char *);

/* sandbox_ident.c: signals, fds and identity of a sandboxed process. */
#define IDENT_KEEP_MAX		8
void	 ident_reset_signals_child(void);
int	 ident_keep_fds_child(const int *, size_t, char *, size_t);
int	 ident_drop_child(uid_t, gid_t, char *, size_t);

/*
 * mounts.c: the minimal root, built by pid 1 before pivot_root; *broker
 * is the listening socket bound at ENV_BROKER_PATH in it.
 */
int	 mounts_build_child(const struct sandbox_spec *, const char *, int,
	    int *, char *, size_t);
int	 mounts_state_prepare(const char *, char *, size_t);
int	 mounts_template(void);

/* cgroup.c */
int	 cgroup_detect(char *, size_t);
int	 cgroup_create(const char *, const struct policy_msg *, char *,
	    size_t);
#define CGROUP_MAX_DIRS	4	/* memory, pids, cpu, freezer */
int	 cgroup_procs_open(const char *, int [CGROUP_MAX_DIRS], char *,
	    size_t);
int	 cgroup_enter(const int *, int, char *, size_t);
int	 cgroup_procs(const char *, pid_t **, size_t *);
int	 cgroup_freeze(const char *, int);
int	 cgroup_frozen(const char *);
int	 cgroup_oom_kills(const char *, uint64_t *);
int	 cgroup_remove(const char *, unsigned int);
void	 cgroup_reconcile(void);
void	 cgroup_set_instance(const char *);
void	 cgroup_remove_instance(void);

/* landlock.c: the sandbox's domain and exec allowlist, on pid 1. */
int	 landlock_exec_child(const struct fs_rule_msg *, size_t, char *,
	    size_t);
int	 landlock_memfd_noexec_child(const struct fs_rule_msg *, size_t,
	    int *, char *, size_t);

/* sandbox_seccomp.c */
int	 sbx_seccomp_prepare(char *, size_t);
int	 sbx_seccomp_load_child(int, char *, size_t);

#endif
