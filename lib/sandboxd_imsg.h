/*
 * Every message type exchanged between sandboxd's processes and with
 * sandboxctl, and every payload struct that is not a config struct
 * (those live in conf.h).  Payloads are fixed-size; strings are
 * NUL-terminated within their arrays and receivers check that.
 */
#ifndef SANDBOXD_IMSG_TYPES_H
#define SANDBOXD_IMSG_TYPES_H

#include <stdint.h>

#include "conf.h"

enum imsg_type {
	IMSG_NONE = 0,

	/* sandboxctl -> master */
	IMSG_CTL_STATUS = 100,		/* struct ctl_request */
	IMSG_CTL_RELOAD,		/* struct ctl_request */
	IMSG_CTL_LOG_VERBOSE,		/* struct ctl_request, arg 0/1 */
	/* master -> sandboxctl */
	IMSG_CTL_PROC_STATUS,		/* struct ctl_proc_status */
	IMSG_CTL_RESULT,		/* struct ctl_result; ends a reply */

	/* master -> child, the config as one transaction */
	IMSG_RECONF_CONF = 200,		/* struct conf_global_msg */
	IMSG_RECONF_POLICY,		/* struct policy_msg */
	IMSG_RECONF_NET_RULE,		/* struct net_rule_msg */
	IMSG_RECONF_UPSTREAM,		/* struct upstream_msg */
	IMSG_RECONF_ENV_RULE,		/* struct env_rule_msg */
	IMSG_RECONF_SECRET_RULE,	/* struct secret_rule_msg */
	IMSG_RECONF_FS_RULE,		/* struct fs_rule_msg */
	IMSG_RECONF_END,		/* no payload */
	/* child -> master */
	IMSG_RECONF_DONE,		/* struct reconf_done */

	/* master -> child */
	IMSG_LOG_VERBOSE = 300,		/* int */
	/* child -> master, once privileges are dropped */
	IMSG_PROC_READY			/* no payload */
};

#define CTL_MSG_SIZE		256
#define PROC_NAME_SIZE		16
#define PROC_USER_SIZE		33

struct ctl_request {
	char		corr[CORR_ID_SIZE];	/* "" = let the master pick */
	int32_t		arg;
};

struct ctl_result {
	char		corr[CORR_ID_SIZE];
	int32_t		error;			/* 0 = success */
	char		msg[CTL_MSG_SIZE];
};

enum seccomp_mode {
	SECCOMP_MODE_NONE = 0,
	SECCOMP_MODE_STRICT_ = 1,
	SECCOMP_MODE_FILTER_ = 2
};

struct ctl_proc_status {
	char		name[PROC_NAME_SIZE];
	int32_t		pid;			/* 0 while not running */
	uint32_t	uid;
	char		user[PROC_USER_SIZE];
	uint64_t	cap_eff;
	uint64_t	cap_bnd;
	uint32_t	seccomp;		/* /proc Seccomp: 0, 1, 2 */
	uint32_t	nonewprivs;
	uint32_t	restarts;
	uint32_t	state;			/* enum proc_state */
	int64_t		uptime;			/* seconds */
	uint64_t	conf_generation;	/* last acknowledged */
	char		root[CONF_PATH_SIZE];	/* its / as seen by the master */
};

enum proc_state {
	PROC_STATE_RUNNING = 1,
	PROC_STATE_STARTING,		/* spawned, not yet ready */
	PROC_STATE_BACKOFF,		/* waiting to be restarted */
	PROC_STATE_FAILED,		/* gave up: crash loop */
	PROC_STATE_SELF			/* the master itself */
};

struct reconf_done {
	uint64_t	generation;
	uint32_t	policies;
	uint32_t	rules;
};

#endif
