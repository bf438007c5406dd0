/*
 * The programs and the channels between them (one socketpair each,
 * made by the master; sandboxctl connects to the control socket):
 *
 *                 sandboxctl
 *                     |  control socket
 *                 sandboxd (master, root)
 *        +-----------+-----+------+-----------+
 *        |           |            |           |
 *      netd ------ dnspind      envd       runnerd
 *        |  pin channel |         |           | | |
 *        |              +---------|-----------+ | |
 *        |                        +-------------+ |
 *        +----------------------------------------+
 *
 * Children talk to each other on their own channels (msg_direct
 * below, lib/peerch.c): a row whose sender and receiver are the two
 * ends of one travels on it.  The master relays only between
 * sandboxctl and the children (a client's requests to runnerd, the
 * answers back by peer id), checking against this table on the way
 * in; the receiver checks again.  lib/README walks a networked run.
 *
 * Adding a message: its enum value in sandboxd_imsg.h, one row below
 * (sorted by type, one line each), the handler at the receiving end.
 */
#include <stdio.h>
#include <string.h>

#include "conf.h"
#include "dns_msg.h"
#include "env_msg.h"
#include "fileop.h"
#include "log.h"
#include "msgtab.h"
#include "net_msg.h"
#include "sandboxd_imsg.h"
#include "sbx_msg.h"

/* A validator from a checker of one payload struct. */
#define CHECKER(name, type, fn)						\
static int								\
name(const void *d, size_t n, int fd, char *err, size_t len)		\
{									\
	return (fn((const type *)d, err, len));				\
}

CHECKER(v_create, struct sbx_create_req, sbx_check_create)
CHECKER(v_id_req, struct sbx_id_req, sbx_check_id_req)
CHECKER(v_exec, struct sbx_exec_req, sbx_check_exec)
CHECKER(v_run, struct sbx_run_req, sbx_check_run)
CHECKER(v_svc, struct svc_req, sbx_check_svc)
CHECKER(v_file, struct sbx_file_req, sbx_check_file)
CHECKER(v_stdio, struct sbx_stdio, sbx_check_stdio)
CHECKER(v_services, struct run_services, sbx_check_services)
CHECKER(v_fileop, struct sbx_fileop_req, sbx_check_fileop)
CHECKER(v_conf_global, struct conf_global_msg, conf_check_global)
CHECKER(v_policy, struct policy_msg, conf_check_policy)
CHECKER(v_net_rule, struct net_rule_msg, conf_check_net_rule)
CHECKER(v_upstream, struct upstream_msg, conf_check_upstream)
CHECKER(v_env_rule, struct env_rule_msg, conf_check_env_rule)
CHECKER(v_secret_rule, struct secret_rule_msg, conf_check_secret_rule)
CHECKER(v_fs_rule, struct fs_rule_msg, conf_check_fs_rule)
CHECKER(v_secret, struct secret_msg, conf_check_secret)
CHECKER(v_env_sandbox, struct env_sandbox, env_check_sandbox)
CHECKER(v_env_build, struct env_build_req, env_check_build)
CHECKER(v_env_abort, struct env_abort, env_check_abort)
CHECKER(v_env_health, struct env_health, env_check_health)
CHECKER(v_env_broker, struct env_broker, env_check_broker)
CHECKER(v_net_id, struct net_id, net_check_id)
CHECKER(v_net_ready, struct net_ready, net_check_ready)
CHECKER(v_net_sync, struct net_sync, net_check_sync)
CHECKER(v_net_info, struct sbx_net_info, net_check_info)
CHECKER(v_net_pins, struct sbx_net_pins, net_check_pins)
CHECKER(v_dns_socket, struct dns_socket, dns_check_socket)
CHECKER(v_dns_sandbox, struct dns_sandbox, dns_check_sandbox)
CHECKER(v_dns_pin_req, struct dns_pin_req, dns_check_pin_req)
CHECKER(v_dns_pin_ack, struct dns_pin_ack, dns_check_pin_ack)

/* A string that must end inside its array. */
static int
v_nul(const char *s, size_t size, const char *what, char *err, size_t len)
{
	if (memchr(s, '\0', size) != NULL)
		return (0);
	snprintf(err, len, "%s not NUL-terminated", what);
	return (-1);
}

static int
v_ctl_request(const void *d, size_t n, int fd, char *err, size_t len)
{
	if (sbx_check_corr(((const struct ctl_request *)d)->corr,
	    CORR_ID_SIZE) == 0)
		return (0);
	snprintf(err, len, "malformed request");
	return (-1);
}

static int
v_ctl_result(const void *d, size_t n, int fd, char *err, size_t len)
{
	return (v_nul(((const struct ctl_result *)d)->msg, CTL_MSG_SIZE,
	    "result message", err, len));
}

static int
v_proc_status(const void *d, size_t n, int fd, char *err, size_t len)
{
	const struct ctl_proc_status	*ps = d;

	return (v_nul(ps->caps, sizeof(ps->caps), "caps", err, len) == -1 ||
	    v_nul(ps->name, sizeof(ps->name), "name", err, len) == -1 ||
	    v_nul(ps->user, sizeof(ps->user), "user", err, len) == -1 ||
	    v_nul(ps->root, sizeof(ps->root), "root", err, len) == -1 ?
	    -1 : 0);
}

static int
v_hostfw(const void *d, size_t n, int fd, char *err, size_t len)
{
	return (v_nul(((const struct net_hostfw *)d)->text, CTL_MSG_SIZE,
	    "host filter text", err, len));
}

static int
v_exec_start(const void *d, size_t n, int fd, char *err, size_t len)
{
	return (v_nul(((const struct sbx_exec_start *)d)->exec,
	    SBX_EXEC_ID_SIZE, "exec id", err, len));
}

/* Header, then exactly hdr.len bytes (the row bounds them). */
static int
v_output(const void *d, size_t n, int fd, char *err, size_t len)
{
	struct sbx_output_hdr	 hdr;

	memcpy(&hdr, d, sizeof(hdr));
	if (hdr.len == n - sizeof(hdr))
		return (0);
	snprintf(err, len, "output of %zu bytes says %u", n - sizeof(hdr),
	    hdr.len);
	return (-1);
}

static int
v_net_rules(const void *d, size_t n, int fd, char *err, size_t len)
{
	return (net_check_rules(d, n, err, len));
}

/* ps ID is the one list; the other exec ops name one exec. */
static int
v_exec_op(const void *d, size_t n, int fd, char *err, size_t len)
{
	const struct sbx_exec_op	*op = d;

	if (sbx_check_exec_op(op, err, len) == -1)
		return (-1);
	if (op->op != SBX_EXEC_OP_LIST)
		return (0);
	snprintf(err, len, "exec op LIST outside ps");
	return (-1);
}

static int
v_exec_ps(const void *d, size_t n, int fd, char *err, size_t len)
{
	const struct sbx_exec_op	*op = d;

	if (sbx_check_exec_op(op, err, len) == -1)
		return (-1);
	if (op->op == SBX_EXEC_OP_LIST)
		return (0);
	snprintf(err, len, "exec op %u in a ps", op->op);
	return (-1);
}

/*
 * A veth's setup comes with the netlink socket of its namespace, a
 * prepared one with none, a tap's with the /dev/net/tun the master
 * opened for runnerd (IMSG_NET_TUN).
 */
static int
v_net_setup(const void *d, size_t n, int fd, char *err, size_t len)
{
	const struct net_setup	*s = d;

	if (net_check_setup(s, err, len) == -1)
		return (-1);
	if (s->prepared && fd != -1) {
		snprintf(err, len, "a prepared setup with an fd");
		return (-1);
	}
	if (!s->prepared && fd == -1) {
		snprintf(err, len, "a %s setup without its %s", s->tap ?
		    "tap" : "veth", s->tap ? "tun" : "socket");
		return (-1);
	}
	return (0);
}

/* The tun with success, none with an error; no identity yet. */
static int
v_net_tun(const void *d, size_t n, int fd, char *err, size_t len)
{
	const struct net_ready	*r = d;

	if (sbx_check_id(r->id, sizeof(r->id)) == -1 || r->error < 0 ||
	    r->prepared != 0 || v_nul(r->msg, sizeof(r->msg), "tun error",
	    err, len) == -1) {
		snprintf(err, len, "malformed tun answer");
		return (-1);
	}
	if ((r->error == 0) == (fd != -1))
		return (0);
	snprintf(err, len, "tun with error %d %s an fd", r->error,
	    fd == -1 ? "without" : "with");
	return (-1);
}

static int
v_env_chunk(const void *d, size_t n, int fd, char *err, size_t len)
{
	struct env_chunk_hdr	 h;

	memcpy(&h, d, sizeof(h));
	return (env_check_chunk(&h, (const char *)d + sizeof(h),
	    n - sizeof(h), err, len));
}

/* A channel end with success, none with an error. */
static int
v_env_ready(const void *d, size_t n, int fd, char *err, size_t len)
{
	const struct env_ready	*r = d;

	if (env_check_ready(r, err, len) == -1)
		return (-1);
	if ((r->error == 0) == (fd != -1))
		return (0);
	snprintf(err, len, "env ready with error %d %s a channel end",
	    r->error, fd == -1 ? "without" : "with");
	return (-1);
}

/* One child, named as a bit; the receiver checks it is a channel of its. */
static int
v_peer_channel(const void *d, size_t n, int fd, char *err, size_t len)
{
	uint32_t	 p = ((const struct peer_channel *)d)->peer;

	if ((p & MSG_CHILDREN) != 0 && (p & (p - 1)) == 0)
		return (0);
	snprintf(err, len, "peer %#x is not one child", p);
	return (-1);
}

#define R(t)		IMSG_##t, #t
#define FIX(s)		sizeof(struct s), sizeof(struct s)
#define UPTO(s, n)	sizeof(struct s), sizeof(struct s) + (n)
#define NONE		0, 0
#define CTL		MSG_CTL
#define MST		MSG_MASTER
#define NET		MSG_NETD
#define ENV		MSG_ENVD
#define RUN		MSG_RUNNERD
#define DNS		MSG_DNSPIND
#define KIDS		MSG_CHILDREN
#define NEVER		MSG_FD_NEVER
#define MUST		MSG_FD_MUST
#define MAY		MSG_FD_MAY

/* type, from, to, payload min, max, fd, validator: sorted by type */
const struct msg_row msg_table[] = {
{ R(CTL_STATUS), CTL, MST, FIX(ctl_request), NEVER, v_ctl_request },
{ R(CTL_RELOAD), CTL, MST, FIX(ctl_request), NEVER, v_ctl_request },
{ R(CTL_LOG_VERBOSE), CTL, MST, FIX(ctl_request), NEVER, v_ctl_request },
{ R(CTL_CREATE), CTL, MST, FIX(sbx_create_req), NEVER, v_create },
{ R(CTL_EXEC), CTL, MST, FIX(sbx_exec_req), NEVER, v_exec },
{ R(CTL_KILL), CTL, MST, FIX(sbx_id_req), NEVER, v_id_req },
{ R(CTL_DESTROY), CTL, MST, FIX(sbx_id_req), NEVER, v_id_req },
{ R(CTL_PS), CTL, MST, FIX(ctl_request), NEVER, v_ctl_request },
{ R(CTL_SHOW), CTL, MST, FIX(sbx_id_req), NEVER, v_id_req },
{ R(CTL_PUT), CTL, MST, FIX(sbx_file_req), MUST, v_file },
{ R(CTL_GET), CTL, MST, FIX(sbx_file_req), MUST, v_file },
{ R(CTL_RUN), CTL, MST, FIX(sbx_run_req), NEVER, v_run },
{ R(CTL_STDIO), CTL|MST, MST|CTL, FIX(sbx_stdio), MUST, v_stdio },
{ R(CTL_SERVICE), CTL, MST, FIX(svc_req), NEVER, v_svc },
{ R(CTL_PAUSE), CTL, MST, FIX(sbx_id_req), NEVER, v_id_req },
{ R(CTL_RESUME), CTL, MST, FIX(sbx_id_req), NEVER, v_id_req },
{ R(CTL_EXEC_OP), CTL, MST, FIX(sbx_exec_op), NEVER, v_exec_op },
{ R(CTL_EXEC_PS), CTL, MST, FIX(sbx_exec_op), NEVER, v_exec_ps },
{ R(CTL_FILEOP), CTL, MST, FIX(sbx_fileop_req), MUST, v_fileop },
{ R(CTL_PROC_STATUS), MST, CTL, FIX(ctl_proc_status), NEVER, v_proc_status },
{ R(CTL_RESULT), MST|RUN|NET, CTL, FIX(ctl_result), NEVER, v_ctl_result },
{ R(CTL_SANDBOX), RUN, CTL, FIX(sbx_info), NEVER, NULL },
{ R(CTL_EXEC_START), RUN, CTL, FIX(sbx_exec_start), NEVER, v_exec_start },
{ R(CTL_OUTPUT), RUN, CTL, UPTO(sbx_output_hdr, SBX_OUTPUT_MAX), NEVER, v_output },
{ R(CTL_EXEC_RESULT), RUN, CTL, FIX(sbx_exec_result), NEVER, NULL },
{ R(CTL_NET_INFO), NET, CTL, FIX(sbx_net_info), NEVER, v_net_info },
{ R(CTL_NET_RULES), NET, CTL, 1, SBX_OUTPUT_MAX, NEVER, v_net_rules },
{ R(CTL_NET_PINS), NET, CTL, FIX(sbx_net_pins), NEVER, v_net_pins },
{ R(CTL_SERVICE_INFO), MST, CTL, FIX(svc_info), NEVER, NULL },
{ R(CTL_HOSTFW), MST, CTL, FIX(net_hostfw), NEVER, v_hostfw },
{ R(CTL_EXEC_INFO), RUN, CTL, FIX(sbx_exec_info), NEVER, NULL },
{ R(RECONF_CONF), MST, KIDS, FIX(conf_global_msg), NEVER, v_conf_global },
{ R(RECONF_POLICY), MST, KIDS, FIX(policy_msg), NEVER, v_policy },
{ R(RECONF_NET_RULE), MST, NET|DNS, FIX(net_rule_msg), NEVER, v_net_rule },
{ R(RECONF_UPSTREAM), MST, DNS, FIX(upstream_msg), NEVER, v_upstream },
{ R(RECONF_ENV_RULE), MST, ENV, FIX(env_rule_msg), NEVER, v_env_rule },
{ R(RECONF_SECRET_RULE), MST, ENV, FIX(secret_rule_msg), NEVER, v_secret_rule },
{ R(RECONF_FS_RULE), MST, RUN, FIX(fs_rule_msg), NEVER, v_fs_rule },
{ R(RECONF_SECRET), MST, ENV, FIX(secret_msg), NEVER, v_secret },
{ R(RECONF_END), MST, KIDS, NONE, NEVER, NULL },
{ R(RECONF_DONE), KIDS, MST, FIX(reconf_done), NEVER, NULL },
{ R(RUN_CREATE), MST, RUN, FIX(sbx_create_req), NEVER, v_create },
{ R(RUN_EXEC), MST, RUN, FIX(sbx_exec_req), NEVER, v_exec },
{ R(RUN_KILL), MST, RUN, FIX(sbx_id_req), NEVER, v_id_req },
{ R(RUN_DESTROY), MST, RUN, FIX(sbx_id_req), NEVER, v_id_req },
{ R(RUN_PS), MST, RUN, FIX(ctl_request), NEVER, v_ctl_request },
{ R(RUN_SHOW), MST, RUN, FIX(sbx_id_req), NEVER, v_id_req },
{ R(RUN_PUT), MST, RUN, FIX(sbx_file_req), MUST, v_file },
{ R(RUN_GET), MST, RUN, FIX(sbx_file_req), MUST, v_file },
{ R(RUN_CLIENT_GONE), MST, RUN, NONE, NEVER, NULL },
{ R(RUN_RUN), MST, RUN, FIX(sbx_run_req), NEVER, v_run },
{ R(RUN_STDIO), MST, RUN, FIX(sbx_stdio), MUST, v_stdio },
{ R(RUN_SERVICES), MST, RUN, FIX(run_services), NEVER, v_services },
{ R(RUN_PAUSE), MST, RUN, FIX(sbx_id_req), NEVER, v_id_req },
{ R(RUN_RESUME), MST, RUN, FIX(sbx_id_req), NEVER, v_id_req },
{ R(RUN_EXEC_OP), MST, RUN, FIX(sbx_exec_op), NEVER, v_exec_op },
{ R(RUN_EXEC_PS), MST, RUN, FIX(sbx_exec_op), NEVER, v_exec_ps },
{ R(RUN_FILEOP), MST, RUN, FIX(sbx_fileop_req), MUST, v_fileop },
{ R(LOG_VERBOSE), MST, KIDS, sizeof(int), sizeof(int), NEVER, NULL },
{ R(PROC_READY), KIDS, MST, NONE, NEVER, NULL },
{ R(PROC_PING), MST, KIDS, FIX(proc_ping), NEVER, NULL },
{ R(PROC_PONG), KIDS, MST, FIX(proc_pong), NEVER, NULL },
{ R(ENV_SANDBOX), RUN, ENV, FIX(env_sandbox), MUST, v_env_sandbox },
{ R(ENV_SANDBOX_GONE), RUN, ENV, FIX(env_sandbox), NEVER, v_env_sandbox },
{ R(ENV_BUILD), RUN, ENV, FIX(env_build_req), NEVER, v_env_build },
{ R(ENV_ABORT), RUN, ENV, FIX(env_abort), NEVER, v_env_abort },
{ R(ENV_CHUNK), ENV, RUN, UPTO(env_chunk_hdr, ENV_CHUNK_MAX), NEVER, v_env_chunk },
{ R(ENV_READY), ENV, RUN, FIX(env_ready), MAY, v_env_ready },
{ R(ENV_HEALTH), ENV, MST, FIX(env_health), NEVER, v_env_health },
{ R(ENV_BROKER), RUN, ENV, FIX(env_broker), MUST, v_env_broker },
{ R(NET_SETUP), RUN, NET, FIX(net_setup), MAY, v_net_setup },
{ R(NET_TEARDOWN), RUN, NET, FIX(net_id), NEVER, v_net_id },
{ R(NET_SYNC), RUN, NET, FIX(net_sync), NEVER, v_net_sync },
{ R(NET_SYNC_END), RUN, NET, NONE, NEVER, NULL },
{ R(NET_SHOW), RUN, NET, FIX(net_id), NEVER, v_net_id },
{ R(NET_PREPARE), RUN, NET, FIX(net_id), MUST, v_net_id },
{ R(NET_READY), NET, RUN, FIX(net_ready), NEVER, v_net_ready },
{ R(NET_HOSTFW), NET, MST, FIX(net_hostfw), NEVER, v_hostfw },
{ R(NET_STOP), MST, NET, NONE, NEVER, NULL },
{ R(NET_TUN_OPEN), RUN, MST, FIX(net_id), NEVER, v_net_id },
{ R(NET_TUN), MST, RUN, FIX(net_ready), MAY, v_net_tun },
{ R(NET_SHOWN), NET, RUN, FIX(net_id), NEVER, v_net_id },
{ R(DNS_SOCKET), MST, DNS, FIX(dns_socket), MUST, v_dns_socket },
{ R(DNS_SANDBOX), RUN, DNS, FIX(dns_sandbox), NEVER, v_dns_sandbox },
{ R(DNS_SANDBOX_GONE), RUN, DNS, FIX(dns_sandbox), NEVER, v_dns_sandbox },
{ R(DNS_PIN), DNS, NET, FIX(dns_pin_req), NEVER, v_dns_pin_req },
{ R(DNS_PINNED), NET, DNS, FIX(dns_pin_ack), NEVER, v_dns_pin_ack },
{ R(DNS_CHANNEL), MST, NET|DNS, NONE, MUST, NULL },
{ R(DNS_SYNC_END), RUN, DNS, NONE, NEVER, NULL },
{ R(PEER_CHANNEL), MST, KIDS, FIX(peer_channel), MUST, v_peer_channel },
{ R(PEER_DROPPED), KIDS, MST, FIX(peer_channel), NEVER, v_peer_channel },
};
const size_t	msg_table_len = sizeof(msg_table) / sizeof(msg_table[0]);

const struct msg_row *
msg_row(uint32_t type)
{
	size_t	 lo = 0, hi = msg_table_len, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (msg_table[mid].type == type)
			return (&msg_table[mid]);
		if (msg_table[mid].type < type)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (NULL);
}

const char *
msg_name(uint32_t type)
{
	const struct msg_row	*r = msg_row(type);

	return (r != NULL ? r->name : "unknown");
}

const char *
msg_prog_name(enum msg_prog p)
{
	switch (p) {
	case MSG_CTL:
		return ("sandboxctl");
	case MSG_MASTER:
		return ("sandboxd");
	case MSG_NETD:
		return ("netd");
	case MSG_ENVD:
		return ("envd");
	case MSG_RUNNERD:
		return ("runnerd");
	case MSG_DNSPIND:
		return ("dnspind");
	}
	return ("?");
}

enum msg_prog
msg_prog_of(enum proc_id id)
{
	switch (id) {
	case PROC_NETD:
		return (MSG_NETD);
	case PROC_ENVD:
		return (MSG_ENVD);
	case PROC_RUNNERD:
		return (MSG_RUNNERD);
	case PROC_DNSPIND:
		return (MSG_DNSPIND);
	default:
		break;
	}
	fatalx("%s: no program %d", __func__, (int)id);
}

/*
 * The channels between two children, each a socketpair the master makes
 * when both run and hands one end to each (IMSG_PEER_CHANNEL, or
 * IMSG_DNS_CHANNEL for the pin channel).  A row whose sender and
 * receiver are the two ends of one travels on it; every other row
 * travels on a channel to or from the master.
 */
static const unsigned int	 msg_direct[] = {
	MSG_NETD | MSG_DNSPIND,		/* cmd/netd/dnsch.c */
	MSG_RUNNERD | MSG_ENVD,		/* lib/peerch.c from here on */
	MSG_RUNNERD | MSG_NETD,
	MSG_RUNNERD | MSG_DNSPIND,
};

int
msg_channel(unsigned int a, unsigned int b)
{
	unsigned int	 ab = a | b;
	size_t		 i;

	if (a == b)
		return (0);
	if ((ab & MSG_MASTER) != 0)
		return (1);
	for (i = 0; i < sizeof(msg_direct) / sizeof(msg_direct[0]); i++)
		if (ab == msg_direct[i])
			return (1);
	return (0);
}

/* Whether two children have a channel made by lib/peerch.c. */
int
msg_peer_channel(unsigned int a, unsigned int b)
{
	return ((a & MSG_CHILDREN) && (b & MSG_CHILDREN) &&
	    (a | b) != (MSG_NETD | MSG_DNSPIND) && msg_channel(a, b));
}

/* Whether self may take fds from peer on their channel. */
int
msg_fds_from(enum msg_prog self, enum msg_prog peer)
{
	size_t	 i;

	for (i = 0; i < msg_table_len; i++)
		if ((msg_table[i].from & peer) && (msg_table[i].to & self) &&
		    msg_table[i].fd != MSG_FD_NEVER)
			return (1);
	return (0);
}

/* Some receiver of the row that prog has no channel to. */
int
msg_relayed(const struct msg_row *r, enum msg_prog prog)
{
	unsigned int	 bit;

	if (prog == MSG_MASTER)
		return (0);
	for (bit = 1; bit <= MSG_DNSPIND; bit <<= 1)
		if ((r->to & bit) && !msg_channel(prog, bit))
			return (1);
	return (0);
}

/* Some sender other than the master with no channel to prog. */
static int
msg_relayed_to(const struct msg_row *r, enum msg_prog prog)
{
	unsigned int	 bit;

	for (bit = 1; bit <= MSG_DNSPIND; bit <<= 1)
		if (bit != MSG_MASTER && (r->from & bit) &&
		    !msg_channel(bit, prog))
			return (1);
	return (0);
}

enum msg_prog
msg_receiver(const struct msg_row *r)
{
	if (r->to == 0 || (r->to & (r->to - 1)) != 0)
		return (0);
	return ((enum msg_prog)r->to);
}

/* May this row come to self from peer, directly or through the master? */
static int
msg_path_ok(const struct msg_row *r, enum msg_prog self, enum msg_prog peer)
{
	if ((r->from & peer) && (r->to & self) && msg_channel(peer, self))
		return (1);
	/* The master on the way: from a sender, or to a receiver. */
	if (self == MSG_MASTER && (r->from & peer) && msg_relayed(r, peer))
		return (1);
	if (peer == MSG_MASTER && (r->to & self) && msg_relayed_to(r, self))
		return (1);
	return (0);
}

int
imsg_check(enum msg_prog self, enum msg_prog peer, const struct imsg *imsg,
    char *err, size_t len)
{
	const struct msg_row	*r;
	uint32_t		 type = imsg->hdr.type;
	size_t			 n = imsg->datalen;
	int			 fd = imsg->fd;

	if (len > 0)
		err[0] = '\0';
	if ((r = msg_row(type)) == NULL) {
		snprintf(err, len, "unknown message type %u", type);
		return (-1);
	}
	if (!msg_path_ok(r, self, peer)) {
		snprintf(err, len, "%s from %s is not for %s", r->name,
		    msg_prog_name(peer), msg_prog_name(self));
		return (-1);
	}
	if (n < r->min || n > r->max) {
		if (r->min == r->max)
			snprintf(err, len, "%s of %zu bytes, not %zu",
			    r->name, n, r->min);
		else
			snprintf(err, len, "%s of %zu bytes, not %zu to %zu",
			    r->name, n, r->min, r->max);
		return (-1);
	}
	if ((r->fd == MSG_FD_NEVER && fd != -1) ||
	    (r->fd == MSG_FD_MUST && fd == -1)) {
		snprintf(err, len, "%s %s an fd", r->name,
		    fd == -1 ? "without" : "with");
		return (-1);
	}
	if (r->check != NULL && r->check(imsg->data, n, fd, err, len) == -1) {
		/* Checkers that say nothing still get a reason. */
		if (len > 0 && err[0] == '\0')
			snprintf(err, len, "malformed %s", r->name);
		return (-1);
	}
	return (0);
}

void *
imsg_payload(const struct imsg *imsg, size_t size, const char *caller)
{
	if (imsg->datalen < size || (size > 0 && imsg->data == NULL))
		fatalx("%s: %s of %zu bytes, want %zu: not checked?", caller,
		    msg_name(imsg->hdr.type), imsg->datalen, size);
	return (imsg->data);
}
