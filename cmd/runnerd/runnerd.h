/* runnerd: shared state between its files. */
#ifndef RUNNERD_H
#define RUNNERD_H

#include <sys/tree.h>
#include <event.h>
#include <time.h>

#include "conf.h"
#include "imsgev.h"
#include "sandbox.h"
#include "sandboxd_imsg.h"

#define EXEC_DRAIN_MS		100	/* output still open after exit */
#define EXEC_ENV_WAIT_MS	60000	/* envd, netd, pid 1: a burst queues */
#define EXEC_ENV_MAX		(80 * 1024)	/* its strings, in all */
#define EXEC_READ_SIZE		65536
/*
 * A service's stderr has no cap: past this many messages queued for
 * the master, runnerd stops reading it for EXEC_PAUSE_MS, so a service
 * that writes faster than the master takes waits on its own pipe.
 */
#define EXEC_QUEUE_MAX		64
#define EXEC_PAUSE_MS		20

struct rsandbox;
struct execrec;

struct rstream {
	int		 fd;
	struct event	 ev;
	int		 open;
	uint32_t	 which;		/* enum sbx_stream */
	uint64_t	 cap;
	uint64_t	 produced;	/* everything read */
	uint64_t	 kept;		/* within the cap */
	size_t		 len;		/* bytes held in buf */
	char		 buf[SBX_OUTPUT_MAX];
};

enum abort_stage {
	ABORT_NONE = 0,
	ABORT_NOTIFY,		/* abort sent on the broker channel, grace */
	ABORT_TERM,		/* SIGTERM sent, grace running */
	ABORT_KILL		/* SIGKILL sent */
};

/* An exec waits for envd's environment before it starts. */
struct rexec_env {
	struct sbx_exec_req	*req;		/* as it came */
	char			*buf;		/* "K=V\0"... from envd */
	size_t			 len;
	uint32_t		 count;
	struct envbuf		*cached;	/* buf is its, not ours */
	struct event		 ev_wait;
	int			 ready;		/* waits for the network */
	int			 broker;	/* its channel end until then */
	int			 no_envd;	/* not sent: fails at once */
};

struct rexec {
	TAILQ_ENTRY(rexec)	 entry;
	struct rsandbox		*rs;
	uint32_t		 id;
	uint32_t		 peerid;	/* 0: nobody listens */
	char			 corr[CORR_ID_SIZE];
	pid_t			 pid;
	int			 exited;
	int			 wstatus;
	/* What it used, from pid 1 at its end. */
	struct sandbox_usage	 usage;
	struct timespec		 start;
	uint32_t		 timeout;
	struct rstream		 out[2];	/* stdout, stderr */
	struct event		 ev_timeout;
	struct event		 ev_abort;
	struct event		 ev_drain;
	struct rexec_env	*env;		/* not NULL until it starts */
	int			 stdio[2];	/* -i: the caller's, until then */
	enum abort_stage	 abort;
	uint32_t		 reason;	/* set by an abort */
	int			 finish_pending;	/* until SIGKILL */
	int			 service;	/* SBX_EXEC_SERVICE */
	struct event		 ev_resume;	/* reading again */
	struct execrec		*rec;		/* its record, execrec.c */
	int			 detached;	/* SBX_EXEC_DETACH */
	int			 group_only;	/* a kill of it alone */
	/* pid 1 is starting it: no pid yet, output not read yet. */
	int			 starting;
	struct sandbox_start	 spawn;
	struct event		 ev_spawn;
	int			 pipes[2];	/* read ends: stdout, stderr */
};

/* A sweep of signals over a sandbox's processes (sigall.c). */
enum sigall_step {
	SIGALL_IDLE = 0,
	SIGALL_FREEZING,	/* asked the freezer, waiting for it */
	SIGALL_REAPING		/* SIGKILL sent, waiting for the deaths */
};

struct rsigall {
	struct event		 ev;
	enum sigall_step	 step;
	int			 sig;		/* of the sweep under way */
	int			 frozen;	/* the freezer was asked */
	struct timespec		 t0;		/* of the step */
	int			 want_term;	/* sweeps to come */
	int			 want_kill;
};

/*
 * Its lifecycle (lifecycle.c): time to live, idle limit, labels and
 * pause.  Deadlines are on CLOCK_MONOTONIC; while paused, what was left
 * of each clock is kept instead, and no timer runs.
 */
struct rlife_held;

struct rlife {
	uint32_t		 ttl;		/* seconds, 0 = none */
	uint32_t		 idle;		/* seconds, 0 = none */
	struct event		 ev_ttl;
	struct event		 ev_idle;
	int			 set;		/* the events are initialised */
	int			 idle_on;	/* ev_idle counts */
	struct timespec		 ttl_end;
	struct timespec		 idle_end;
	struct timespec		 ttl_left;	/* while paused */
	struct timespec		 idle_left;
	struct rlife_held	*held;		/* exec timers, while paused */
	size_t			 nheld;
	struct event		 ev_pause;	/* watches a freeze (FREEZING) */
	struct timespec		 pause_t0;
	uint32_t		 pause_peer;
	char			 pause_corr[CORR_ID_SIZE];
	uint32_t		 nlabels;
	uint32_t		 labels_len;
	char			 labels[SBX_LABELS_SIZE];
};

/* A sandbox's network, set up by netd (netd(8), Identities). */
enum rnet_state {
	RNET_NONE = 0,		/* no network block, or gone */
	RNET_PENDING,		/* asked netd, no answer yet */
	RNET_UP
};

/* Where a sandbox is in its life: the machine of state.c. */
enum rstate {
	RS_NEW = 0,		/* its id, uid and policy; nothing built */
	RS_SPARE_BUILDING,	/* built ahead: pid 1 has not reported */
	RS_SPARE,		/* built ahead, waiting to be taken */
	RS_BUILDING,		/* a client's: pid 1 has not reported */
	RS_NET_WAIT,		/* built; netd has not answered */
	RS_LIVE,		/* execs start */
	RS_FREEZING,		/* pause asked, not every task stopped */
	RS_PAUSED,
	RS_DYING,		/* pid 1 killed, in the graveyard */
	RS_UNMOUNTING,		/* buried; the unmounter works on it */
	RS_CGROUP_RETRY,	/* its cgroup still busy (cgretry.c) */
	RS_GONE,		/* freed */
	RS_NSTATES
};

struct rsandbox {
	RB_ENTRY(rsandbox)	 entry;
	/* In the graveyard (DYING), or going (UNMOUNTING, CGROUP_RETRY). */
	TAILQ_ENTRY(rsandbox)	 grave;
	struct event		 ev_grave;	/* its pid 1 is dead */
	int			 grave_copiers;	/* pid 1 dead, copiers not */
	enum rstate		 state;		/* only rstate_set changes it */
	enum rstate		 died_from;	/* the state before DYING */
	int			 run_once;	/* sandboxctl run */
	char			 run_corr[CORR_ID_SIZE];
	char			 corr[CORR_ID_SIZE];	/* of its creation */
	struct sandbox		 sb;
	uint32_t		 owner;		/* peerid of its creator */
	int			 ephemeral;
	int			 failed;	/* an exec failed: keep-failed */
	time_t			 created;
	uint32_t		 next_exec;
	TAILQ_HEAD(, rexec)	 execs;
	struct event		 ev_events;	/* sandbox_events_fd */
	int			 ev_events_set;
	enum rnet_state		 net;
	uint8_t			 tap;
	uint32_t		 tap_uid;
	struct net_ident	 net_ident;	/* valid once RNET_UP */
	int			 prebuilt;	/* taken from spare.c */
	int			 spare_net;	/* built around a lent veth */
	/* pid 1 starts one exec at a time; the others wait their turn. */
	struct rexec		*starting;
	struct event		 ev_turn;	/* the next, after a cancel */
	struct rsigall		 sig;
	int			 create_pending;	/* its reply waits */
	uint32_t		 create_peerid;	/* for the network */
	char			 service[CONF_NAME_SIZE];	/* "" none */
	struct svcws		*svcws;		/* its kept workspace */
	TAILQ_HEAD(, execrec)	 recs;		/* execs, live and kept */
	uint32_t		 nrecs_done;	/* of them, finished */
	struct rlife		 life;
};

RB_HEAD(rsandbox_tree, rsandbox);
RB_PROTOTYPE(rsandbox_tree, rsandbox, entry, rsandbox_cmp);

extern struct rsandbox_tree	 rsandboxes;
extern struct sandboxd_conf	*runnerd_conf;

/* runnerd.c */
void	 runnerd_reply(uint32_t, uint32_t, const void *, size_t);
void	 runnerd_result(uint32_t, const char *, int, const char *, ...)
	    __attribute__((format(printf, 4, 5)));
void	 runnerd_result_fail(uint32_t, const char *, int, uint32_t,
	    const char *);
struct rsandbox *runnerd_find(const char *);
void	 runnerd_id_freed(const char *);
int	 runnerd_ready(const struct rsandbox *);
void	 runnerd_exec_done(struct rsandbox *);
void	 runnerd_exec_failed(struct rsandbox *);
void	 runnerd_copiers_reaped(struct rsandbox *);
int	 runnerd_env_send(uint32_t, int, const void *, size_t);
void	 runnerd_flush(void);

void	 runnerd_net_ready(struct rsandbox *, int, const char *);
void	 runnerd_new_id(char *);
int	 runnerd_build(struct rsandbox *, struct conf_policy *, int, char *,
	    size_t);

void	 runnerd_retire(struct rsandbox *, uint32_t, const char *);
void	 runnerd_teardown(struct rsandbox *);

/* state.c: the sandbox's lifecycle as a state machine */
const char *rstate_name(enum rstate);
int	 rstate_allowed(enum rstate, enum rstate);
void	 rstate_set(struct rsandbox *, enum rstate);
int	 rstate_up(const struct rsandbox *);
int	 rstate_paused(const struct rsandbox *);
int	 rstate_ending(const struct rsandbox *);
int	 rstate_spare(const struct rsandbox *);

/* lifecycle.c: ttl, idle, labels, pause and resume */
void	 life_begin(struct rsandbox *, const struct sbx_create_req *);
void	 life_end(struct rsandbox *);
void	 life_activity(struct rsandbox *);
int	 life_exec_refused(struct rsandbox *, const char *, uint32_t);
int	 life_kill_refused(struct rsandbox *, const char *, uint32_t);
void	 life_pause(struct rsandbox *, const char *, uint32_t);
void	 life_resume(struct rsandbox *, const char *, uint32_t);
void	 life_info(struct rsandbox *, struct sbx_info *);

/* spare.c: sandboxes built ahead of demand */
struct rsandbox *spare_take(const struct conf_policy *,
	    const struct sbx_create_req *);
void	 spare_soon(void);
void	 spare_drop(void);
void	 spare_drop_net(void);
size_t	 spare_net_count(void);
void	 spare_conf(void);

/* envcache.c: environments envd built that the next exec may have */
struct envbuf {
	unsigned int	 refs;		/* the cache's slot, execs */
	size_t		 len;
	uint32_t	 count;
	char		 data[];	/* "K=V\0"... */
};
struct envbuf	*envcache_get(const char *);
void	 envbuf_unref(struct envbuf *);
void	 envcache_put(const char *, uint64_t, const char *, size_t,
	    uint32_t);
void	 envcache_drop(void);

/* net.c: runnerd's side of netd */
int	 net_begin(struct rsandbox *, const struct sbx_create_req *,
	    const struct policy_msg *, int *, char *, size_t);
void	 net_end(struct rsandbox *);
void	 net_ready(const struct net_ready *);
void	 net_tun(const struct net_ready *, int);
void	 net_up(void);
void	 net_down(void);
void	 net_show(struct rsandbox *, uint32_t, const char *);
void	 net_shown(const struct net_id *, uint32_t);
void	 net_prepare(void);
void	 net_dns_up(void);
void	 net_prepare_soon(void);
int	 net_claim(const struct policy_msg *, const struct sbx_create_req *,
	    char *);
void	 net_spare_drop(int);
int	 net_spare_ready(void);
int	 net_spare_lend(char *, int *);
void	 net_spare_release(const char *);
void	 net_begin_spare(struct rsandbox *);

/* exec.c */
int	 exec_start(struct rsandbox *, struct sbx_exec_req *, uint32_t);
void	 exec_env_chunk(const struct env_chunk_hdr *, const char *);
void	 exec_env_ready(const struct env_ready *, int);
void	 exec_env_down(void);
void	 exec_sandbox_ready(struct rsandbox *);
void	 exec_net_failed(struct rsandbox *, int, const char *);
void	 exec_discard(struct rsandbox *);
void	 exec_abort(struct rexec *, uint32_t);
void	 exec_kill_now(struct rsandbox *);
void	 exec_client_gone(uint32_t);
int	 exec_count(struct rsandbox *);
void	 exec_killed(struct rsandbox *);

/* sigall.c: signalling a sandbox's processes without waiting */
void	 sigall_send(struct rsandbox *, int);
int	 sigall_killing(const struct rsandbox *);
void	 sigall_cancel(struct rsandbox *);

/* execrec.c: exec ids, kept output, attach, wait, per-exec kill */
#define EXEC_ATTACH_MAX		16	/* clients on one exec at once */
void	 execrec_new(struct rexec *, const struct sbx_exec_req *);
void	 execrec_started(struct rexec *, struct sbx_exec_start *);
void	 execrec_output(struct rexec *, uint32_t, const char *, size_t);
void	 execrec_finished(struct rexec *, struct sbx_exec_result *);
void	 execrec_discard(struct rexec *);
void	 execrec_forget_all(struct rsandbox *);
void	 execrec_client_gone(uint32_t);
void	 execrec_request(struct rsandbox *, const struct sbx_exec_op *,
	    uint32_t);
int	 exec_signal(struct rexec *, int);

/* stdio.c */
void	 stdio_put(uint32_t, uint32_t, int);
int	 stdio_take(uint32_t, int [2], char *, size_t);
void	 stdio_client_gone(uint32_t);

/* files.c */
void	 files_start(struct rsandbox *, struct sbx_file_req *, int, int,
	    uint32_t);
struct sbx_fileop_req;
void	 files_start_op(struct rsandbox *, const struct sbx_fileop_req *,
	    int, uint32_t);
void	 files_reap(void);
int	 files_left(struct rsandbox *);
void	 files_kill(struct rsandbox *);
void	 files_wait_killed(void);

/* fileops.c: ls, stat, mkdir, rm, put -r, get -r, in the copier */
struct workspace_copy;
struct workspace_result;
void	 fileops_work(const struct workspace_copy *,
	    struct workspace_result *);

/* uid.c */
void	 uid_reset(const struct conf_global_msg *);
int	 uid_alloc(const struct conf_global_msg *, uid_t *);
void	 uid_free(const struct conf_global_msg *, uid_t);
int	 uid_reserve(const struct conf_global_msg *, uid_t);

/* svcws.c: kept workspaces of services */
struct svcws;
int	 svcws_claim(struct rsandbox *, const struct sbx_create_req *,
	    const struct policy_msg *, uid_t *);
void	 svcws_spec(struct rsandbox *, struct sandbox_spec *);
int	 svcws_release(struct rsandbox *);
void	 svcws_services(const struct run_services *);
void	 svcws_conf(const struct conf_global_msg *);
void	 svcws_reconcile(const char *);
void	 svcws_shutdown(void);

/* cgretry.c: cgroups still busy at a teardown, removed from a timer. */
void	 cgretry_destroy(struct sandbox *, int);
void	 cgretry_add(const char *);
int	 cgretry_pending(const char *);
void	 cgretry_flush(void);

#endif
