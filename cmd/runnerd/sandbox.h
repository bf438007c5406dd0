/*
 * The sandbox core of runnerd: build a sandbox's namespaces, root,
 * cgroup and identity; start processes inside it; signal and destroy
 * it.  runnerd.c drives it; nothing here talks imsg.
 */
#ifndef RUNNERD_SANDBOX_H
#define RUNNERD_SANDBOX_H

#include <sys/types.h>
#include <sys/queue.h>
#include <stdint.h>
#include <time.h>

#include "conf.h"
#include "sandboxd_imsg.h"

#define SANDBOX_ID_SIZE		SBX_ID_SIZE	/* 16 hex digits */
#define SANDBOX_CGROUP_NAME	"sandboxd"
#define SANDBOX_CGROUP_DELEGATED "sandboxes"	/* under a delegated base */
/* How long the kernel gets to empty a sandbox before we complain. */
#define SBX_KILL_WAIT_MS	2000

/* What a sandbox is built from; the caller owns everything in it. */
struct sandbox_spec {
	const char		*id;		/* 16 hex digits */
	const struct policy_msg	*policy;
	const struct fs_rule_msg *fs_rules;	/* this policy's, in order */
	size_t			 nfs_rules;
	const char		*state_dir;	/* e.g. /var/lib/sandboxd */
	uid_t			 uid;		/* unique among live sandboxes */
	gid_t			 gid;
	struct in_addr		 resolver;	/* for /etc/resolv.conf */
	int			 netns;		/* from sandbox_net_take, or -1 */
	/*
	 * A service's kept workspace (keep-workspace): its place between
	 * two sandboxes, and whether one is mounted there to move in
	 * (else a fresh one is made); NULL for a workspace of its own.
	 */
	const char		*ws_keep;
	int			 ws_held;
};

/* What an ended exec used, as wait4(2) saw it in pid 1. */
struct sandbox_usage {
	uint64_t		 utime_us;
	uint64_t		 stime_us;
	uint64_t		 maxrss_kb;
};

/* An exec that sandbox_spawn started and pid 1 has not reported ended. */
struct sandbox_live {
	uint64_t		 token;		/* names it to pid 1 */
	pid_t			 pid;		/* host pid; 0 while it starts */
	int			 ended;		/* pid 1 reported it meanwhile */
	int			 wstatus;
	struct sandbox_usage	 usage;		/* with its end */
};

/*
 * An exec on its way, from the request to pid 1 to the exec: the
 * caller watches fd for reading, and calls sandbox_spawn_step when it
 * is readable or SANDBOX_SPAWN_SLICE_MS have passed.
 */
#define SANDBOX_SPAWN_SLICE_MS	100
struct sandbox_start {
	uint64_t		 token;
	int			 fd;		/* the reply socket; -1 done */
	pid_t			 pid;		/* host pid, once it reported */
	int			 failed;	/* err is set */
	struct timespec		 t0;
	/* Once started: it ended before sandbox_spawn_step returned. */
	int			 ended;
	int			 wstatus;
	struct sandbox_usage	 usage;
};

struct sandbox {
	char			 id[SANDBOX_ID_SIZE];
	struct policy_msg	 policy;	/* a copy, fixed at creation */
	struct fs_rule_msg	*fs_rules;	/* a copy too: exec rules */
	size_t			 nfs_rules;
	uid_t			 uid;
	gid_t			 gid;
	pid_t			 init_pid;	/* host pid of the sandbox's pid 1 */
	int			 init_pidfd;
	int			 sock;		/* to pid 1: execs, ends */
	int			 workspace_fd;	/* O_PATH|O_DIRECTORY, host side */
	int			 broker_fd;	/* listening at ENV_BROKER_PATH */
	uint64_t		 next_token;
	struct sandbox_live	*live;		/* execs not reported ended */
	size_t			 nlive;
	size_t			 maxlive;	/* allocated */
	char			 dir[CONF_PATH_SIZE];	/* state_dir/<id> */
	char			 workspace[CONF_PATH_SIZE];	/* host path */
	/* Where its workspace goes at the end instead of away; "" none. */
	char			 ws_keep[CONF_PATH_SIZE];
	uint64_t		 oom_kills_seen;	/* at last check */
	int			 paused;	/* frozen until resumed */
	int			 cgroup_busy;	/* left to sandbox_cgroup_retry */
	/* Of the exec sandbox_events_read reports: valid in its cb. */
	struct sandbox_usage	 usage;
	/*
	 * Why the last sandbox_spawn failed: ENOENT the command was not
	 * found, EACCES or ENOEXEC it could not be executed, 0 otherwise.
	 */
	int			 spawn_errno;
	/* Free for the caller (runnerd.c). */
	void			*owner;
};

/* An exec inside a sandbox.  fds are the caller's; -1 = /dev/null. */
struct sandbox_exec_spec {
	char *const		*argv;
	char *const		*envp;
	const char		*cwd;		/* in the sandbox; NULL = /workspace */
	int			 fd_stdin;
	int			 fd_stdout;
	int			 fd_stderr;
	int			 fd_extra;	/* becomes fd 3 if != -1 (broker) */
};

/*
 * Returns 0, or -1 with a reason in err; a failed create leaves nothing.
 * A sandbox holds four fds (init_pidfd, sock, workspace_fd, broker_fd:
 * the listening socket of its broker channel, for envd) and pid 1,
 * a child of the caller that only sandbox_destroy may reap.
 */
int	sandbox_create(struct sandbox *, const struct sandbox_spec *,
	    char *, size_t);
int	sandbox_create_begin(struct sandbox *, const struct sandbox_spec *,
	    char *, size_t);
int	sandbox_create_finish(struct sandbox *, char *, size_t);
/*
 * As sandbox_create_finish, but a failure only kills pid 1 and leaves
 * the rest to sandbox_destroy, for a caller that waits for pid 1's end
 * on its pidfd instead of in the teardown.
 */
int	sandbox_create_check(struct sandbox *, char *, size_t);
/*
 * Start argv inside the sandbox as its uid, with every restriction of
 * process 1 (runnerd(8), Running a command): pid 1 forks it.
 * sandbox_spawn_begin sends the request and returns 0 at once, or -1
 * with err.  sandbox_spawn_step
 * never blocks: 1 while the exec is on its way, 0 once it has exec'd
 * (st->pid is its host pid), -1 with err if it never will (no such
 * command, bad cwd, stopped, no exec in time ...).  It is not the
 * caller's child: its end comes through sandbox_events_read, or, if
 * it came already, in st->ended.  sandbox_spawn_cancel forgets one
 * still on its way (killing it); every start must end in one of them
 * before sandbox_destroy.
 */
int	sandbox_spawn_begin(struct sandbox *, const struct sandbox_exec_spec *,
	    struct sandbox_start *, char *, size_t);
int	sandbox_spawn_step(struct sandbox *, struct sandbox_start *, char *,
	    size_t);
void	sandbox_spawn_cancel(struct sandbox *, struct sandbox_start *);
/* Readable when sandbox_events_read has something to say. */
int	sandbox_events_fd(struct sandbox *);
/*
 * Call cb(sb, host pid, wait status, arg) for each spawned exec that
 * has ended, without blocking.  Returns 0, or -1 once pid 1 is gone:
 * then every exec still live was reported killed by SIGKILL, and the
 * fd stays readable (EOF) until sandbox_destroy.  cb may start and
 * abort execs and read events again, but not destroy the sandbox.
 */
int	sandbox_events_read(struct sandbox *,
	    void (*)(struct sandbox *, pid_t, int, void *), void *);
/*
 * Signal every process in the sandbox but its pid 1; returns how many.
 * For a stable snapshot (nobody forks between the read of the cgroup
 * and the signal) the caller freezes the sandbox first: sandbox_freeze
 * asks, sandbox_frozen says when every task has stopped, which takes
 * the tasks' own CPU time.  None of them waits.
 */
int	sandbox_signal_procs(struct sandbox *, int);
int	sandbox_freeze(struct sandbox *, int);
int	sandbox_frozen(struct sandbox *);
/*
 * sandbox_group.c: the processes of one process group in it.  The
 * freezer is asked, not waited for: its snapshot holds for tasks that
 * have stopped by the walk.
 */
int	sandbox_signal_group(struct sandbox *, pid_t, int);
int	sandbox_group_nprocs(struct sandbox *, pid_t);
/*
 * Pause: ask the freezer to stop every process of the sandbox (cgroup
 * v2 or v1), pid 1 too; 0, or -1 with err.  sandbox_pause_done says
 * when they all have; a caller giving up resumes.  Resume thaws.
 * Kill: SIGKILL to every process while frozen, then thaw, so none runs
 * again.
 */
int	sandbox_pause_begin(struct sandbox *, char *, size_t);
int	sandbox_pause_done(struct sandbox *);
int	sandbox_resume(struct sandbox *, char *, size_t);
void	sandbox_kill_paused(struct sandbox *);
/* Processes in the sandbox, pid 1 excluded. */
int	sandbox_nprocs(struct sandbox *);
/* 1 if the memory limit killed something since the last call. */
int	sandbox_oom_killed(struct sandbox *);
/*
 * Kill everything, unmount, remove cgroups and directories.  keep: move
 * the workspace to state_dir/kept/<id> instead of removing it; ws_keep,
 * when set, wins: the workspace moves there, for the next sandbox.  Never
 * blocks on anything but the kernel; errors are logged, not returned.
 * Every exec of the sandbox is dead when it returns; none is reported.
 */
void	sandbox_destroy(struct sandbox *, int);
/*
 * From now on sandbox_destroy tries its cgroups once instead of waiting
 * up to SBX_KILL_WAIT_MS for their last tasks: one still busy sets
 * cgroup_busy, and the caller calls sandbox_cgroup_retry(id, 0) later,
 * for as long as it returns 1 (killing what is left each time), or
 * waits up to wait_ms in it.
 */
void	sandbox_cgroup_nowait(void);
int	sandbox_cgroup_retry(const char *, unsigned int);
/*
 * For a sandbox with a network: a new net namespace (for the spec) and
 * a NETLINK_ROUTE socket opened inside it (for netd).  The caller owns
 * both.
 */
int	sandbox_net_take(int *, int *, char *, size_t);
/* SIGKILL to pid 1, without waiting; sandbox_destroy still follows. */
void	sandbox_kill(struct sandbox *);
/*
 * sandbox_unmount.c: a destroyed sandbox's workspace unmounted and its
 * directories removed by a child process forked on demand, off the
 * caller's libevent loop (umount waits for an RCU grace period).  After
 * sandbox_unmount_init, sandbox_destroy queues them there, and
 * freed(id, busy) is called from the loop once they are gone (busy: its
 * cgroup still had tasks, the caller retries it); until then
 * sandbox_unmount_pending(id) is 1.  Without init, a queue full or a
 * kept workspace, sandbox_destroy does it all itself.
 * sandbox_unmount_stop waits (bounded) for what is queued.
 */
void	sandbox_unmount_init(void (*)(const char *, int));
int	sandbox_unmount_queue(const char *, const char *);
int	sandbox_unmount_pending(const char *);
void	sandbox_unmount_stop(void);
/* At runnerd start: remove what a previous runnerd left behind. */
void	sandbox_reconcile(const char *);
/* At a clean stop, after every sandbox is destroyed. */
void	sandbox_shutdown(void);

#endif
