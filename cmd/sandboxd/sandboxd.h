/* The master: shared state between its files. */
#ifndef SANDBOXD_H
#define SANDBOXD_H

#include <sys/types.h>
#include <stdint.h>
#include <time.h>

#include "conf.h"
#include "imsgev.h"
#include "msgtab.h"
#include "proc.h"
#include "sandboxd_imsg.h"

/* A crash loop: this many restarts within the window gives up. */
#define CHILD_RESTART_MAX	5
#define CHILD_RESTART_WINDOW	300	/* seconds */
#define CHILD_BACKOFF_MIN_MS	250
#define CHILD_BACKOFF_MAX_MS	30000
#define CHILD_STABLE_SECS	60	/* up this long: backoff resets */
#define CHILD_STOP_WAIT_MS	5000

/* Services (services.c): their runnerd peerids are from here up. */
#define SVC_PEER_BASE		0x80000000U
#define SVC_BACKOFF_BASE_MS	250
#define SVC_BACKOFF_CAP_MS	30000
#define SVC_STABLE_SECS		60	/* up this long: backoff resets */
#define SVC_TAIL_SIZE		2048	/* of stderr, for the crash line */
#define SVC_TAIL_LINES		5
#define SVC_DRAIN_BUF		16384
#define SVC_DRAIN_READS		8	/* per turn of the event loop */

struct child {
	enum proc_id		 id;
	const struct proc_spec	*spec;
	pid_t			 pid;
	struct imsgev		 iev;
	int			 iev_open;
	enum proc_state		 state;
	uint32_t		 restarts;
	time_t			 started;	/* monotonic seconds */
	time_t			 crashes[CHILD_RESTART_MAX];
	unsigned int		 ncrashes;	/* ring index */
	unsigned int		 backoff_step;
	struct event		 ev_restart;
	uint64_t		 conf_generation;
	/* watchdog.c: the last ping sent and answered */
	uint64_t		 ping_seq;
	uint64_t		 pong_seq;
	uint64_t		 ping_sent_ms;	/* monotonic */
	int			 hung;		/* a ping went unanswered */
	uint32_t		 load;		/* from its last pong */
	int			 exit_status;	/* last exit; -1 if killed */
};

struct sandboxd {
	struct sandboxd_conf	*conf;
	const char		*conffile;
	const char		*sockpath;	/* -s, else the config's */
	int			 debug;
	int			 verbose;
	const char		*without;	/* -x: testing only */
	int			 nft_fd;	/* owns table inet sandboxd */
	struct net_hostfw	 hostfw;	/* netd's latest finding */
	int			 shutting_down;
	uint64_t		 generation;
	time_t			 started;
	struct child		 children[PROC_MAX];
};

extern struct sandboxd	*sbx;

/* sandboxd.c */
time_t	 monotime(void);
void	 corr_new(char *, size_t);
struct sandboxd_conf *sandboxd_load(const char *, char *, size_t);

/* reload.c */
int	 reload_start(const char *, char *, size_t, uint64_t *);
void	 reload_check(void);

/* notify.c: what a service manager hears (sd_notify) */
void	 notify_init(void);
void	 notify_children(void);
void	 notify_child_failed(struct child *);
void	 notify_status(void);
void	 notify_reloading(void);
void	 notify_reloaded(void);
void	 notify_stopping(void);

/* watchdog.c */
uint64_t monotime_ms(void);
void	 watchdog_init(void);
void	 watchdog_reset(struct child *);
int	 watchdog_pong(struct child *, struct imsg *);

/* nftown.c */
int	 nftown_open(void);

/* idrange.c */
int	 idrange_check(uint32_t, uint32_t, char *, size_t);
void	 idrange_watch_start(void);

/* children.c */
void	 children_start(void);
void	 children_reap(void);
void	 children_stop(int);
void	 children_send_conf(void);
void	 children_send_verbose(int);
void	 children_retry_failed(void);
int	 children_send(enum proc_id, uint32_t, int, const void *, size_t);
int	 children_send_runnerd(uint32_t, uint32_t, int, const void *, size_t);
int	 children_send_peer(enum proc_id, uint32_t, uint32_t, int,
	    const void *, size_t);
int	 children_running(enum proc_id);

/* channels.c */
void	 channels_make(enum proc_id);
void	 channels_dropped(enum proc_id, struct imsg *);

/* resolver.c */
void	 resolver_open(const struct conf_global_msg *);
void	 resolver_close(void);
void	 resolver_send(void);

/* tun.c */
void	 tun_open(struct imsg *);

/* control.c */
int	 control_init(const char *, const char *);
void	 control_listen(void);
void	 control_cleanup(const char *);
void	 control_relay(uint32_t, uint32_t, const void *, size_t);
void	 control_runnerd_gone(void);
void	 control_send_fd(uint32_t, uint32_t, int, const void *, size_t);
void	 control_set_attached(uint32_t, int);
void	 control_reload_done(uint64_t, int, const char *);

/* services.c, svc_*.c */
void	 services_conf(struct sandboxd_conf *, struct sandboxd_conf *);
void	 services_kick(void);
void	 services_runnerd_up(void);
void	 services_runnerd_gone(void);
void	 services_reply(uint32_t, uint32_t, const void *, size_t);
void	 services_health(const char *);
void	 services_request(uint32_t, struct svc_req *);
void	 services_status(uint32_t);
void	 services_detach(uint32_t);
void	 services_client_gone(uint32_t);
void	 services_count(uint32_t *, uint32_t *);

/* secrets.c: fill conf->secrets from its secrets file. */
int	 secrets_load(struct sandboxd_conf *, char *, size_t);

/* status.c */
void	 status_fill(struct ctl_proc_status *, const char *, pid_t);

#endif
