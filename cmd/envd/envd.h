/* envd: shared state between its files. */
#ifndef ENVD_H
#define ENVD_H

#include <sys/queue.h>
#include <sys/tree.h>
#include <event.h>
#include <time.h>

#include "conf.h"
#include "sandboxd_imsg.h"

#define BROKER_FRAME_MAX	65536	/* a request body, in bytes */
#define BROKER_HEADER_MAX	1024	/* a frame's header block */
#define BROKER_OUT_HIGH		(256 * 1024)	/* stop reading past this */
/*
 * A client that does not read its answers: past BROKER_OUT_HIGH with
 * no byte written for BROKER_STALL_SECONDS, or past BROKER_OUT_MAX at
 * all (answers and abort notices pushed to it), it is dropped at once.
 */
#define BROKER_OUT_MAX		(1024 * 1024)
#define BROKER_OUT_MAX_TEXT	"1 MiB"
#define BROKER_STALL_SECONDS	10
#define BROKER_STALL_TEXT	"10 seconds"
#define BROKER_FRAMES_PER_TURN	16	/* then other clients go first */
#define BROKER_FRAME_TIMEOUT	60	/* seconds for one frame to arrive */
#define BROKER_CONNS_MAX	64	/* per sandbox, exec channels too */
#define HEALTH_FORWARD_MS	500	/* at most one health per sandbox */

struct esandbox;

/* One client on a broker channel: the socket path or an exec's fd 3. */
struct bconn {
	TAILQ_ENTRY(bconn)	 entry;
	struct esandbox		*sb;
	int			 fd;
	uint32_t		 exec_id;	/* 0: came by the socket path */
	struct evbuffer		*in;
	struct evbuffer		*out;
	struct event		 ev_read;
	struct event		 ev_write;
	struct event		 ev_more;	/* frames left for later */
	struct event		 ev_frame;	/* a frame too slow to come */
	struct event		 ev_stall;	/* answers left unread */
	int			 reading;
	int			 closing;	/* flush, then close */
};

struct exposed {
	TAILQ_ENTRY(exposed)	 entry;
	char			 name[CONF_SECRET_SIZE];
};

struct esandbox {
	RB_ENTRY(esandbox)	 entry;
	char			 id[SBX_ID_SIZE];
	char			 policy[CONF_NAME_SIZE];
	char			 corr[CORR_ID_SIZE];	/* of its creation */
	int			 listen_fd;
	struct event		 ev_listen;
	TAILQ_HEAD(, bconn)	 conns;
	int			 nconns;
	TAILQ_HEAD(, exposed)	 exposed;	/* by secrets.expose */
	struct timespec		 last_health;	/* last one forwarded */
};

RB_HEAD(esandbox_tree, esandbox);
RB_PROTOTYPE(esandbox_tree, esandbox, entry, esandbox_cmp);

extern struct sandboxd_conf	*envd_conf;
extern struct esandbox_tree	 esandboxes;

/* envd.c */
struct esandbox	*envd_sandbox(const char *, const char *, const char *);
void		 envd_send(uint32_t, int, const void *, size_t);
void		 envd_send_master(uint32_t, const void *, size_t);

/* env_build.c: the environment of one exec, sent as chunks and READY. */
void	 env_snapshot(char **);
void	 env_build(struct esandbox *, struct env_build_req *);

/* broker.c: connections, frames, back-pressure. */
void	 broker_listen(struct esandbox *, int);
struct bconn *broker_conn_new(struct esandbox *, int, uint32_t);
void	 broker_sandbox_free(struct esandbox *);
void	 broker_send(struct bconn *, const char *, size_t);
void	 broker_abort(struct esandbox *, const struct env_abort *);

/* rpc.c: JSON-RPC 2.0 requests, checked against the policy, audited. */
void	 rpc_handle(struct bconn *, const char *, size_t);
void	 rpc_error(struct bconn *, int, const char *);
int	 rpc_permitted(const char *, const char *, int);

#endif
