/*
 * Every message type exchanged between sandboxd's processes and with
 * sandboxctl, and every payload struct that is not a config struct
 * (those live in conf.h).  Payloads are fixed-size; strings are
 * NUL-terminated within their arrays and receivers check that.  Each
 * type has one row in lib/msgtab.c: who sends and receives it, its
 * length, fd and validator; a new type needs its row there.
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
	IMSG_CTL_CREATE,		/* struct sbx_create_req */
	IMSG_CTL_EXEC,			/* struct sbx_exec_req */
	IMSG_CTL_KILL,			/* struct sbx_id_req */
	IMSG_CTL_DESTROY,		/* struct sbx_id_req */
	IMSG_CTL_PS,			/* struct ctl_request */
	IMSG_CTL_SHOW,			/* struct sbx_id_req */
	IMSG_CTL_PUT,			/* struct sbx_file_req + fd */
	IMSG_CTL_GET,			/* struct sbx_file_req + fd */
	IMSG_CTL_RUN,			/* struct sbx_run_req */
	IMSG_CTL_STDIO,			/* struct sbx_stdio + fd */
	IMSG_CTL_SERVICE,		/* struct svc_req */
	IMSG_CTL_PAUSE = 120,		/* struct sbx_id_req */
	IMSG_CTL_RESUME,		/* struct sbx_id_req */
	/* detached execs: attach, wait, kill one; list a sandbox's */
	IMSG_CTL_EXEC_OP = 130,		/* struct sbx_exec_op */
	IMSG_CTL_EXEC_PS,		/* struct sbx_exec_op, op LIST */
	IMSG_CTL_FILEOP = 140,		/* struct sbx_fileop_req + socket */
	/* master -> sandboxctl; runnerd's replies are relayed as they are */
	IMSG_CTL_PROC_STATUS = 150,	/* struct ctl_proc_status */
	IMSG_CTL_RESULT,		/* struct ctl_result; ends a reply */
	IMSG_CTL_SANDBOX,		/* struct sbx_info */
	IMSG_CTL_EXEC_START,		/* struct sbx_exec_start */
	IMSG_CTL_OUTPUT,		/* struct sbx_output_hdr + bytes */
	IMSG_CTL_EXEC_RESULT,		/* struct sbx_exec_result */
	/* netd -> master -> sandboxctl, for show; a RESULT ends them */
	IMSG_CTL_NET_INFO,		/* struct sbx_net_info */
	IMSG_CTL_NET_RULES,		/* text, 1 to SBX_OUTPUT_MAX bytes */
	IMSG_CTL_NET_PINS,		/* struct sbx_net_pins */
	/* master -> sandboxctl: service rows; attach: two CTL_STDIO */
	IMSG_CTL_SERVICE_INFO,		/* struct svc_info */
	/* master -> sandboxctl, in status: what netd found */
	IMSG_CTL_HOSTFW,		/* struct net_hostfw */
	/* runnerd -> master -> sandboxctl: ps ID, one per exec */
	IMSG_CTL_EXEC_INFO = 190,	/* struct sbx_exec_info */

	/* master -> child, the config as one transaction */
	IMSG_RECONF_CONF = 200,		/* struct conf_global_msg */
	IMSG_RECONF_POLICY,		/* struct policy_msg */
	IMSG_RECONF_NET_RULE,		/* struct net_rule_msg */
	IMSG_RECONF_UPSTREAM,		/* struct upstream_msg */
	IMSG_RECONF_ENV_RULE,		/* struct env_rule_msg */
	IMSG_RECONF_SECRET_RULE,	/* struct secret_rule_msg */
	IMSG_RECONF_FS_RULE,		/* struct fs_rule_msg */
	IMSG_RECONF_SECRET,		/* struct secret_msg: envd only */
	IMSG_RECONF_END,		/* no payload */
	/* child -> master */
	IMSG_RECONF_DONE,		/* struct reconf_done */

	/* master -> runnerd; peerid names the control client */
	IMSG_RUN_CREATE = 250,		/* struct sbx_create_req */
	IMSG_RUN_EXEC,			/* struct sbx_exec_req */
	IMSG_RUN_KILL,			/* struct sbx_id_req */
	IMSG_RUN_DESTROY,		/* struct sbx_id_req */
	IMSG_RUN_PS,			/* struct ctl_request */
	IMSG_RUN_SHOW,			/* struct sbx_id_req */
	IMSG_RUN_PUT,			/* struct sbx_file_req + fd */
	IMSG_RUN_GET,			/* struct sbx_file_req + fd */
	IMSG_RUN_CLIENT_GONE,		/* no payload: peerid went away */
	IMSG_RUN_RUN,			/* struct sbx_run_req */
	IMSG_RUN_STDIO,			/* struct sbx_stdio + fd; no reply */
	IMSG_RUN_SERVICES,		/* struct run_services; no reply */
	IMSG_RUN_PAUSE = 270,		/* struct sbx_id_req */
	IMSG_RUN_RESUME,		/* struct sbx_id_req */
	IMSG_RUN_EXEC_OP = 280,		/* struct sbx_exec_op */
	IMSG_RUN_EXEC_PS,		/* struct sbx_exec_op */
	IMSG_RUN_FILEOP = 290,		/* struct sbx_fileop_req + socket */

	/* master -> child */
	IMSG_LOG_VERBOSE = 300,		/* int */
	/* child -> master, once privileges are dropped */
	IMSG_PROC_READY,		/* no payload */
	/* master -> child: are you there?  Only under a service manager */
	IMSG_PROC_PING,			/* struct proc_ping */
	/* child -> master, at once */
	IMSG_PROC_PONG,			/* struct proc_pong */

	/* runnerd -> envd, on their channel (lib/peerch.c) */
	IMSG_ENV_SANDBOX = 350,		/* struct env_sandbox + listening fd */
	IMSG_ENV_SANDBOX_GONE,		/* struct env_sandbox */
	IMSG_ENV_BUILD,			/* struct env_build_req */
	IMSG_ENV_ABORT,			/* struct env_abort */
	/* envd -> runnerd, the same way */
	IMSG_ENV_CHUNK,			/* struct env_chunk_hdr + strings */
	IMSG_ENV_READY,			/* struct env_ready + channel fd */
	/* envd -> master: a sandbox said it is alive (the watchdog) */
	IMSG_ENV_HEALTH,		/* struct env_health */
	/* runnerd -> envd: an exec's broker channel, its environment known */
	IMSG_ENV_BROKER,		/* struct env_broker + channel fd */

	/* runnerd -> netd, on their channel (lib/peerch.c) */
	IMSG_NET_SETUP = 400,		/* struct net_setup + fd, see there */
	IMSG_NET_TEARDOWN,		/* struct net_id */
	IMSG_NET_SYNC,			/* struct net_sync: one live sandbox */
	IMSG_NET_SYNC_END,		/* no payload: reconcile now */
	IMSG_NET_SHOW,			/* struct net_id; peerid: the client */
	IMSG_NET_PREPARE,		/* struct net_id + NETLINK_ROUTE socket */
	/* netd -> runnerd, the same way */
	IMSG_NET_READY,			/* struct net_ready */
	/* netd -> master: the host's other filters, at start, on change */
	IMSG_NET_HOSTFW,		/* struct net_hostfw */
	/* master -> netd, orderly stop only: links, then the table */
	IMSG_NET_STOP,			/* no payload */
	/* runnerd -> master: a tap's /dev/net/tun, for its NET_SETUP */
	IMSG_NET_TUN_OPEN,		/* struct net_id */
	/* master -> runnerd: it, or why not (error set, no fd) */
	IMSG_NET_TUN,			/* struct net_ready + the tun fd */
	/* netd -> runnerd: a NET_SHOW answered; peerid: the client */
	IMSG_NET_SHOWN,			/* struct net_id */

	/* master -> dnspind */
	IMSG_DNS_SOCKET = 450,		/* struct dns_socket + bound socket */
	/* runnerd -> dnspind, on their channel (lib/peerch.c) */
	IMSG_DNS_SANDBOX,		/* struct dns_sandbox: its network is up */
	IMSG_DNS_SANDBOX_GONE,		/* struct dns_sandbox */
	/* dnspind -> netd, and the answer back, on their own channel */
	IMSG_DNS_PIN,			/* struct dns_pin_req */
	IMSG_DNS_PINNED,		/* struct dns_pin_ack */
	/*
	 * master -> netd and dnspind, no payload: one end each of a new
	 * socketpair, their channel, made when both are running (again)
	 */
	IMSG_DNS_CHANNEL,
	/* runnerd -> dnspind: every live sandbox announced; forget the rest */
	IMSG_DNS_SYNC_END,		/* no payload */

	/*
	 * master -> child: one end of a new socketpair to another child
	 * (lib/peerch.c), made whenever both run (again)
	 */
	IMSG_PEER_CHANNEL = 500,	/* struct peer_channel + its end */
	/* child -> master: it closed its channel to a peer that broke it */
	IMSG_PEER_DROPPED		/* struct peer_channel */
};

#define CTL_MSG_SIZE		256
#define PROC_NAME_SIZE		16
#define PROC_USER_SIZE		33
#define PROC_CAPS_SIZE		1024

struct ctl_request {
	char		corr[CORR_ID_SIZE];	/* "" = let the master pick */
	int32_t		arg;
};

/* What kind of failure a ctl_result is, beyond its errno. */
enum ctl_fail {
	CTL_FAIL_OTHER = 0,	/* as error says */
	CTL_FAIL_NOCMD,		/* the command was not found: 127 */
	CTL_FAIL_NOEXEC,	/* found, could not be executed: 126 */
	CTL_FAIL_LIMIT,		/* a limit of sandboxd was reached */
	CTL_FAIL_NET		/* show: netd cannot tell the network */
};

struct ctl_result {
	char		corr[CORR_ID_SIZE];
	int32_t		error;			/* 0 = success */
	char		msg[CTL_MSG_SIZE];
	uint32_t	fail;			/* enum ctl_fail */
};

enum seccomp_mode {
	SECCOMP_MODE_NONE = 0,
	SECCOMP_MODE_STRICT_ = 1,
	SECCOMP_MODE_FILTER_ = 2
};

/* A base chain of another table that drops by policy; "" none. */
struct net_hostfw {
	char		text[CTL_MSG_SIZE];	/* NUL-terminated */
};

struct ctl_proc_status {
	char		name[PROC_NAME_SIZE];
	int32_t		pid;			/* 0 while not running */
	uint32_t	uid;
	char		user[PROC_USER_SIZE];
	uint64_t	cap_eff;
	uint64_t	cap_bnd;
	char		caps[PROC_CAPS_SIZE];	/* cap_eff by name */
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

#define SBX_ID_SIZE		17	/* 16 hex digits */
#define SVC_NAME_SIZE		CONF_NAME_SIZE
#define SBX_EXEC_ARGS_SIZE	12288	/* argv then env, NUL-separated */
#define SBX_OUTPUT_MAX		8192	/* bytes after sbx_output_hdr */
#define SBX_LABELS_SIZE		1024	/* a sandbox's labels, packed */
/* An exec's id: its sandbox's, a dot, its number there in decimal. */
#define SBX_EXEC_ID_SIZE	(SBX_ID_SIZE + 11)

struct sbx_create_req {
	char		corr[CORR_ID_SIZE];
	char		policy[CONF_NAME_SIZE];	/* "" = "default" */
	uint8_t		ephemeral;	/* destroyed when its client goes */
	uint8_t		tap;		/* a tap device instead of a veth */
	/*
	 * Set by the master: the next sandbox of a service that was
	 * running; its kept workspace and its DNS pins carry over.
	 */
	uint8_t		restart;
	uint8_t		pad;
	uint32_t	tap_uid;	/* set by the master: the caller's */
	/* Set by the master for a service's sandboxes, "" otherwise. */
	char		service[CONF_NAME_SIZE];
	char		want_id[SBX_ID_SIZE];	/* this id, not a new one */
	/* Seconds; 0 = the policy's default (which may be none). */
	uint32_t	ttl;		/* destroyed this long after creation */
	uint32_t	idle;		/* ... after this long with no exec */
	/* "KEY=VALUE\0" nlabels times, labels_len bytes (lib/label.h). */
	uint32_t	nlabels;
	uint32_t	labels_len;
	char		labels[SBX_LABELS_SIZE];
};

/*
 * The services whose kept workspace (keep-workspace) runnerd is to
 * keep: every other one goes, now or when its sandbox does.
 */
struct run_services {
	uint32_t	count;
	char		ids[CONF_SERVICES_MAX][SBX_ID_SIZE];
};

struct sbx_id_req {
	char		corr[CORR_ID_SIZE];
	char		id[SBX_ID_SIZE];
};

/*
 * args holds argc strings of argv, then envc strings of "K=V", each
 * NUL-terminated, args_len bytes in all; receivers check exactly that.
 */
struct sbx_exec_req {
	char		corr[CORR_ID_SIZE];
	char		id[SBX_ID_SIZE];
	uint32_t	timeout;	/* seconds; 0 = the policy's default */
	uint32_t	flags;		/* SBX_EXEC_* */
	char		cwd[CONF_PATH_SIZE];	/* "" = /workspace */
	uint32_t	argc;
	uint32_t	envc;
	uint32_t	args_len;
	char		args[SBX_EXEC_ARGS_SIZE];
};

/*
 * -i: the command's standard input and output are the caller's own,
 * sent just before the request as two IMSG_CTL_STDIO.
 */
#define SBX_EXEC_INTERACTIVE	0x01
/*
 * Set by the master alone, for a service: no timeout, and stderr is
 * streamed without a cap (the master keeps only its tail).
 */
#define SBX_EXEC_SERVICE	0x02
/*
 * -d: the exec outlives its client; the reply is EXEC_START then a
 * RESULT, and its output is kept for attach (cmd/runnerd/execrec.c).
 */
#define SBX_EXEC_DETACH		0x04

enum sbx_stdio_which {
	SBX_STDIO_IN = 0,
	SBX_STDIO_OUT = 1
};

struct sbx_stdio {
	char		corr[CORR_ID_SIZE];
	uint32_t	which;		/* enum sbx_stdio_which */
};

/*
 * create, exec and destroy in one request (sandboxctl run): the reply
 * is SANDBOX, EXEC_START, OUTPUT..., EXEC_RESULT, then a RESULT once
 * the sandbox is destroyed.  exec.id is ignored.
 */
struct sbx_run_req {
	struct sbx_create_req	create;
	struct sbx_exec_req	exec;
};

struct sbx_file_req {
	char		corr[CORR_ID_SIZE];
	char		id[SBX_ID_SIZE];
	char		path[CONF_PATH_SIZE];
	uint32_t	pathlen;	/* as sent, so a NUL inside shows */
	uint32_t	mode;		/* put: mode of a new file */
};

#define NET_IFNAME_SIZE		16	/* IFNAMSIZ */

/* The identity netd gave a sandbox, as far as anyone else needs it. */
struct net_ident {
	char		ifname[NET_IFNAME_SIZE];	/* host side */
	uint32_t	slot;		/* the /30's index in the subnet */
	uint8_t		guest[4];	/* network order */
	uint8_t		gateway[4];
	uint8_t		guest6[16];
	uint8_t		gateway6[16];
	uint8_t		plen;		/* 30 */
	uint8_t		plen6;		/* 126 */
	uint8_t		mac[6];		/* the guest's */
};

struct sbx_info {
	char		id[SBX_ID_SIZE];
	char		policy[CONF_NAME_SIZE];
	uint32_t	uid;
	int32_t		init_pid;
	int64_t		created;	/* unix time */
	uint32_t	execs;		/* running now */
	uint32_t	procs;		/* processes but pid 1 */
	uint8_t		ephemeral;
	uint8_t		net;		/* enum sbx_net, once it is up */
	uint8_t		paused;		/* sandboxctl pause */
	uint8_t		pad;
	uint64_t	memory;
	uint32_t	pids;
	uint32_t	cpu_percent;
	uint32_t	timeout;
	uint32_t	timeout_max;
	uint64_t	stdout_cap;
	uint64_t	stderr_cap;
	uint64_t	workspace;
	char		workspace_path[CONF_PATH_SIZE];	/* host side */
	char		service[CONF_NAME_SIZE];	/* "" if none */
	struct net_ident net_ident;	/* valid unless SBX_NET_NONE */
	uint32_t	ttl;		/* seconds, 0 = none */
	uint32_t	idle;		/* seconds, 0 = none */
	int64_t		ttl_left;	/* seconds, -1 = none */
	int64_t		idle_left;	/* seconds, -1 = not counting */
	uint32_t	nlabels;	/* as in sbx_create_req */
	uint32_t	labels_len;
	char		labels[SBX_LABELS_SIZE];
};

enum sbx_net {
	SBX_NET_NONE = 0,
	SBX_NET_VETH,
	SBX_NET_TAP
};

struct sbx_exec_start {
	char		id[SBX_ID_SIZE];
	uint32_t	exec_id;
	int32_t		pid;		/* host pid */
	uint32_t	timeout;	/* seconds */
	char		exec[SBX_EXEC_ID_SIZE];	/* "<id>.<exec_id>" */
	uint8_t		detached;
	uint8_t		replay;		/* attach: kept output follows */
	uint8_t		pad[2];
	int64_t		started;	/* unix time */
};

enum sbx_stream {
	SBX_STDOUT = 1,
	SBX_STDERR = 2
};

struct sbx_output_hdr {
	char		id[SBX_ID_SIZE];
	uint32_t	exec_id;
	uint32_t	stream;		/* enum sbx_stream */
	uint32_t	len;		/* bytes that follow */
};

enum sbx_reason {
	SBX_REASON_EXIT = 1,	/* exited or died of a signal by itself */
	SBX_REASON_TIMEOUT,
	SBX_REASON_KILLED,	/* sandboxctl kill, destroy, client gone */
	SBX_REASON_LIMIT	/* memory, file size or cpu limit */
};

struct sbx_exec_result {
	char		id[SBX_ID_SIZE];
	uint32_t	exec_id;
	int32_t		status;		/* exit status, or -1 */
	int32_t		signal;		/* terminating signal, or 0 */
	uint32_t	reason;		/* enum sbx_reason */
	uint8_t		truncated_stdout;
	uint8_t		truncated_stderr;
	uint8_t		pad[2];
	uint64_t	duration_us;
	uint64_t	bytes_stdout;	/* produced, capped or not */
	uint64_t	bytes_stderr;
	/* wait4's rusage of the command, its waited-for children with it */
	uint64_t	utime_us;
	uint64_t	stime_us;
	uint64_t	maxrss_kb;	/* peak resident set */
	char		exec[SBX_EXEC_ID_SIZE];	/* "<id>.<exec_id>" */
};

/* What to do with one exec (or, LIST, with a sandbox's execs). */
enum sbx_exec_opcode {
	SBX_EXEC_OP_ATTACH = 1,	/* replay kept output, follow, result */
	SBX_EXEC_OP_WAIT,	/* the result only */
	SBX_EXEC_OP_SIGNAL,	/* TERM: the abort sequence */
	SBX_EXEC_OP_LIST	/* exec_id 0: an EXEC_INFO per exec */
};

/* Starts as struct sbx_id_req does. */
struct sbx_exec_op {
	char		corr[CORR_ID_SIZE];
	char		id[SBX_ID_SIZE];	/* the sandbox */
	uint32_t	exec_id;	/* 0 for LIST */
	uint32_t	op;		/* enum sbx_exec_opcode */
	int32_t		signal;		/* SIGNAL: 1 to 64; else 0 */
	uint32_t	pad;
};

enum sbx_exec_state {
	SBX_EXEC_STARTING = 1,	/* waiting for its environment */
	SBX_EXEC_RUNNING,
	SBX_EXEC_DONE		/* see reason, status, signal */
};

struct sbx_exec_info {
	char		id[SBX_ID_SIZE];
	char		exec[SBX_EXEC_ID_SIZE];
	uint32_t	exec_id;
	uint32_t	state;		/* enum sbx_exec_state */
	int32_t		pid;		/* host pid, 0 before it starts */
	int32_t		status;		/* DONE: as in sbx_exec_result */
	int32_t		signal;
	uint32_t	reason;		/* DONE: enum sbx_reason */
	uint8_t		detached;
	uint8_t		truncated_stdout;
	uint8_t		truncated_stderr;
	uint8_t		attached;	/* clients attached or waiting */
	uint32_t	pad;
	int64_t		started;	/* unix time */
	int64_t		ended;		/* unix time, 0 until DONE */
	uint64_t	bytes_stdout;	/* produced so far */
	uint64_t	bytes_stderr;
	char		command[CTL_MSG_SIZE];	/* argv, shortened */
};

/*
 * The broker channel: a listening socket at ENV_BROKER_PATH inside each
 * sandbox, and one connected socket per exec on fd ENV_BROKER_FD; envd
 * serves both.
 */
#define ENV_BROKER_FD		3
#define ENV_BROKER_PATH		"/run/sandboxd/broker.sock"
#define ENV_BROKER_FD_VAR	"SANDBOXD_BROKER_FD"
#define ENV_BROKER_PATH_VAR	"SANDBOXD_BROKER"
#define ENV_CHUNK_MAX		8192	/* bytes after env_chunk_hdr */

/* A sandbox envd serves; GONE carries no fd. */
struct env_sandbox {
	char		corr[CORR_ID_SIZE];
	char		id[SBX_ID_SIZE];
	char		policy[CONF_NAME_SIZE];
};

/* The environment of one exec; env holds its -e strings as in exec. */
struct env_build_req {
	char		corr[CORR_ID_SIZE];
	char		id[SBX_ID_SIZE];
	char		policy[CONF_NAME_SIZE];
	uint32_t	exec_id;
	uint32_t	envc;
	uint32_t	env_len;
	char		env[SBX_EXEC_ARGS_SIZE];
};

/* First step of the abort sequence: tell the sandbox on its channels. */
struct env_abort {
	char		id[SBX_ID_SIZE];
	uint32_t	exec_id;
	uint32_t	reason;		/* enum sbx_reason */
	uint32_t	grace_ms;
};

/* A health notification from a sandbox's broker channel. */
struct env_health {
	char		id[SBX_ID_SIZE];
};

/* count "K=V" strings, each NUL-terminated, len bytes in all. */
struct env_chunk_hdr {
	char		id[SBX_ID_SIZE];
	uint32_t	exec_id;
	uint32_t	count;
	uint32_t	len;
};

/* Ends a build: the chunks sent add up to envc strings, env_len bytes. */
struct env_ready {
	char		id[SBX_ID_SIZE];
	uint32_t	exec_id;
	int32_t		error;		/* 0: the exec's channel end comes */
	uint32_t	envc;
	uint32_t	env_len;
	char		msg[CTL_MSG_SIZE];
	uint32_t	flags;		/* ENV_READY_* */
	uint64_t	conf_gen;	/* envd's config generation */
};
/* Policy and config alone made it: no -e, no exposed secret, no skip. */
#define ENV_READY_REUSABLE	0x1

/*
 * The broker channel of an exec whose environment runnerd had already
 * (an earlier exec's, ENV_READY_REUSABLE, the same config generation).
 */
struct env_broker {
	char		corr[CORR_ID_SIZE];
	char		id[SBX_ID_SIZE];
	char		policy[CONF_NAME_SIZE];
	uint32_t	exec_id;
};

/*
 * A sandbox's network.  A veth comes with a NETLINK_ROUTE socket opened
 * inside the sandbox's net namespace (netd finds the namespace from it
 * and configures the guest end through it); a tap comes without one
 * and the master adds an open /dev/net/tun.
 */
struct net_setup {
	char		corr[CORR_ID_SIZE];
	char		id[SBX_ID_SIZE];
	char		policy[CONF_NAME_SIZE];
	uint8_t		tap;
	uint8_t		prepared;	/* its link came with NET_PREPARE */
	/* A service's next sandbox: the pins the last one left, if any. */
	uint8_t		carry_pins;
	uint8_t		pad;
	uint32_t	tap_uid;	/* owner of the tap */
};

struct net_id {
	char		corr[CORR_ID_SIZE];
	char		id[SBX_ID_SIZE];
	/* TEARDOWN of a service's sandbox: netd holds its pins a while. */
	uint8_t		hold_pins;
	uint8_t		pad[3];
};

/*
 * The answer to a setup, or with prepared set to a prepare: a veth made
 * ahead of demand in a spare net namespace, no rules yet, for the next
 * sandbox, whose id runnerd picked ahead too.
 */
struct net_ready {
	char		id[SBX_ID_SIZE];
	uint8_t		prepared;
	uint8_t		pad[3];
	int32_t		error;		/* 0: up, ident is valid */
	char		msg[CTL_MSG_SIZE];
	struct net_ident ident;
};

/* On a new channel to netd: a live sandbox, with what netd gave it. */
struct net_sync {
	struct net_setup setup;
	struct net_ident ident;
};

struct sbx_net_info {
	char		id[SBX_ID_SIZE];
	uint8_t		tap;
	uint8_t		pad[3];
	struct net_ident ident;
	uint8_t		resolver[4];
	uint64_t	packets;	/* egress, the named counter */
	uint64_t	bytes;
};

#define SBX_NET_PINS_MAX	64

/* A live pin as the kernel holds it, for show. */
struct sbx_net_pin {
	uint8_t		af;		/* AF_INET, AF_INET6 */
	uint8_t		proto;		/* IPPROTO_TCP, IPPROTO_UDP */
	uint16_t	port;		/* host order */
	uint32_t	pad;
	uint64_t	expires_ms;	/* time left */
	uint8_t		addr[16];	/* 4 used for AF_INET */
};

/* Some of a sandbox's pins; as many messages as it takes. */
struct sbx_net_pins {
	uint32_t	count;		/* 1 to SBX_NET_PINS_MAX */
	uint32_t	pad;
	struct sbx_net_pin pins[SBX_NET_PINS_MAX];
};

/* The resolver's listening sockets, which only the master may bind. */
struct dns_socket {
	uint32_t	proto;		/* IPPROTO_UDP or IPPROTO_TCP */
};

/* A sandbox dnspind answers: queries from its addresses are its. */
struct dns_sandbox {
	char		id[SBX_ID_SIZE];
	char		policy[CONF_NAME_SIZE];
	uint8_t		guest[4];	/* network order */
	uint8_t		guest6[16];
};

#define DNS_PIN_MAX		256	/* pins in one request */
#define DNS_PIN_ANSWERS		32	/* answers in one request */

/* address . proto . port, for ttl seconds (the floor applied). */
struct dns_pin {
	uint8_t		af;		/* AF_INET, AF_INET6 */
	uint8_t		proto;		/* IPPROTO_TCP, IPPROTO_UDP */
	uint16_t	port;		/* host order */
	uint32_t	ttl;
	uint8_t		addr[16];	/* 4 used for AF_INET */
	uint8_t		answer;		/* its index in answers[] */
	uint8_t		pad[3];
};

/* An answer whose pins a request carries (some or all of them). */
struct dns_pin_answer {
	uint64_t	token;		/* dnspind's, echoed */
	char		id[SBX_ID_SIZE];
	int32_t		error;		/* ack: 0 if every pin of it is in */
};

/*
 * The pins of the answers ready in one turn of dnspind's loop, for one
 * netlink batch; an answer is released when each request that carries
 * some of its pins is acknowledged for it.
 */
struct dns_pin_req {
	uint32_t		nanswers;	/* 1 to DNS_PIN_ANSWERS */
	uint32_t		count;		/* 1 to DNS_PIN_MAX */
	struct dns_pin_answer	answers[DNS_PIN_ANSWERS];
	struct dns_pin		pins[DNS_PIN_MAX];
};

struct dns_pin_ack {
	uint32_t		nanswers;	/* as in the request */
	uint32_t		pad;
	struct dns_pin_answer	answers[DNS_PIN_ANSWERS];
};

/* sandboxctl service ...: one request, its op says which. */
enum svc_op {
	SVC_OP_START = 1,	/* exec holds the command, or argc 0 */
	SVC_OP_STOP,
	SVC_OP_RESTART,
	SVC_OP_STATUS,
	SVC_OP_LIST,
	SVC_OP_ATTACH
};

struct svc_req {
	char		corr[CORR_ID_SIZE];
	uint32_t	op;		/* enum svc_op */
	char		name[SVC_NAME_SIZE];	/* "" for LIST */
	char		policy[CONF_NAME_SIZE];	/* START; "" = "default" */
	struct sbx_exec_req exec;	/* START: id, corr unused */
};

enum svc_state {
	SVC_STATE_WAITING = 1,	/* for runnerd and the others */
	SVC_STATE_STARTING,	/* its sandbox is being made */
	SVC_STATE_RUNNING,
	SVC_STATE_STOPPING,	/* the abort sequence is under way */
	SVC_STATE_BACKOFF,	/* restarting after a delay */
	SVC_STATE_STOPPED,	/* by sandboxctl, or it exited as allowed */
	SVC_STATE_FAILED	/* gave up; reason says why */
};

struct svc_info {
	char		name[SVC_NAME_SIZE];
	char		policy[CONF_NAME_SIZE];
	char		sandbox[SBX_ID_SIZE];	/* "" while none */
	uint32_t	state;		/* enum svc_state */
	uint8_t		declared;	/* in sandboxd.conf */
	uint8_t		attached;	/* a client has its stdio */
	uint8_t		restart;	/* enum policy_restart */
	uint8_t		pad;
	int32_t		pid;		/* of the command, 0 if none */
	uint32_t	starts;		/* instances started */
	uint32_t	restarts;	/* of them, by the policy */
	uint32_t	restart_max;
	uint32_t	restart_window;	/* seconds */
	uint32_t	watchdog;	/* seconds, 0 = none */
	uint32_t	backoff_ms;	/* the delay now waited, if BACKOFF */
	int64_t		uptime;		/* of this instance, seconds */
	uint64_t	dropped;	/* stdout bytes, nobody attached */
	char		command[CTL_MSG_SIZE];	/* argv, shortened */
	char		reason[CTL_MSG_SIZE];	/* of the last end */
};

struct reconf_done {
	uint64_t	generation;
	uint32_t	policies;
	uint32_t	rules;
};

/* The master's liveness check of a child (cmd/sandboxd/watchdog.c). */
struct proc_ping {
	uint64_t	seq;
};

/* A direct channel's other end: an enum msg_prog bit (lib/msgtab.h). */
struct peer_channel {
	uint32_t	peer;
	uint32_t	pad;
};

struct proc_pong {
	uint64_t	seq;		/* the ping's */
	uint32_t	load;		/* runnerd: live sandboxes; others 0 */
	uint32_t	pad;
};

#endif
