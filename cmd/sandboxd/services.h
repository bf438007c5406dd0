/*
 * Inside the master's services (services.c and svc_*.c): one struct
 * service per supervised service, all on one list.  sandboxd.h has what
 * the rest of the master calls; this is what the service files share.
 */
#ifndef SANDBOXD_SERVICES_H
#define SANDBOXD_SERVICES_H

#include <sys/queue.h>

#include <event.h>
#include <jansson.h>

#include "sandboxd.h"
#include "sbx_msg.h"

struct service {
	TAILQ_ENTRY(service)	 entry;
	char			 name[SVC_NAME_SIZE];
	char			 policy[CONF_NAME_SIZE];
	struct sbx_exec_req	*exec;		/* argv and env */
	int			 declared;
	int			 gone;		/* removed once stopped */
	uint32_t		 peerid;
	char			 id[SBX_ID_SIZE];	/* from the name */
	enum svc_state		 state;
	char			 corr[CORR_ID_SIZE];	/* this instance's */
	int			 instance;	/* runnerd has one */
	int			 have_result;
	struct sbx_exec_result	 result;
	char			 start_err[CTL_MSG_SIZE];
	pid_t			 pid;
	uint32_t		 starts, restarts;
	time_t			 started;	/* monotonic */
	time_t			 restart_times[CONF_RESTART_MAX];
	unsigned int		 nrestart_times;	/* ring index */
	unsigned int		 backoff_step;
	uint32_t		 backoff_ms;
	struct event		 ev_restart;
	struct event		 ev_watchdog;
	int			 watchdog_fired;
	char			 kill_corr[CORR_ID_SIZE];
	int			 stop_requested;
	int			 start_after_stop;
	int			 carry;		/* the next start is a restart */
	uint32_t		 waiter;	/* a client waiting on a stop */
	char			 waiter_corr[CORR_ID_SIZE];
	int			 in_w, out_r;	/* our ends of its stdio */
	struct event		 ev_out;
	int			 ev_out_set;
	uint32_t		 attached;	/* control client, 0 none */
	uint64_t		 dropped;
	char			 tail[SVC_TAIL_SIZE];	/* of its stderr */
	size_t			 tail_len;
	char			 reason[CTL_MSG_SIZE];
};
TAILQ_HEAD(services, service);
extern struct services	 services;

/* services.c: the list, and each instance's life */
void		 svc_audit(struct service *, const char *, json_t *);
struct service	*svc_find(const char *);
const struct policy_msg *svc_policy(struct service *);
struct service	*svc_new(const char *, const char *, struct sbx_exec_req *,
		    int);
void		 svc_start_instance(struct service *);
void		 svc_kill(struct service *);
int		 svc_stop(struct service *);
void		 svc_stopped(struct service *);
void		 svc_send_kept(void);

/* svc_ctl.c: sandboxctl service requests */
void		 svc_result(uint32_t, const char *, int, const char *, ...)
		    __attribute__((format(printf, 4, 5)));

/* svc_restart.c: the end of an instance, restarts, the watchdog */
int		 svc_end_reason(struct service *, char *, size_t);
void		 svc_schedule(struct service *, const struct policy_msg *);
void		 svc_restart_cb(int, short, void *);
void		 svc_watchdog_arm(struct service *);
void		 svc_watchdog_cb(int, short, void *);

/* svc_stdio.c: its pipes, the drain, attach, its stderr's tail */
int		 svc_open_stdio(struct service *);
void		 svc_close_stdio(struct service *);
void		 svc_drain_start(struct service *);
void		 svc_tail_add(struct service *, const char *, size_t);
json_t		*svc_tail_lines(struct service *);
void		 svc_req_attach(uint32_t, struct svc_req *, struct service *);

#endif
