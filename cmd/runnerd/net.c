/*
 * runnerd's side of netd.  A sandbox whose policy has a network block
 * asks netd for its network before it is built, handing over a
 * NETLINK_ROUTE socket opened inside the net namespace prepared for
 * it; netd works while runnerd builds, and the sandbox's execs (and a
 * create's reply) wait for its answer.  Everything goes through the
 * master, which checks it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "log.h"
#include "runnerd.h"

/* Between IMSG_NET_UP and IMSG_NET_DOWN. */
static int	 net_available;

static void
net_send(uint32_t type, uint32_t peerid, int fd, const void *data,
    size_t len)
{
	if (imsgev_compose(child_iev_main(), type, peerid, 0, fd, data,
	    len) == -1)
		log_warn("%s", __func__);
}

/*
 * Ask netd for the sandbox's network; *netns is the namespace the
 * sandbox is to be built in (-1 for none prepared: a tap sandbox's
 * own is loopback only).  -1 with err if it cannot have one now.
 */
int
net_begin(struct rsandbox *rs, const struct sbx_create_req *req,
    const struct policy_msg *pol, int *netns, char *err, size_t len)
{
	struct net_setup	 m;
	int			 rtnl = -1;

	*netns = -1;
	if (!pol->has_network) {
		if (!req->tap)
			return (0);
		snprintf(err, len, "policy %s has no network block, so no tap",
		    pol->name);
		return (-1);
	}
	if (!net_available) {
		snprintf(err, len, "netd is not running; try again");
		return (-1);
	}
	if (!req->tap && sandbox_net_take(netns, &rtnl, err, len) == -1)
		return (-1);
	memset(&m, 0, sizeof(m));
	strlcpy(m.corr, rs->corr, sizeof(m.corr));
	strlcpy(m.id, rs->sb.id, sizeof(m.id));
	strlcpy(m.policy, pol->name, sizeof(m.policy));
	m.tap = req->tap;
	m.tap_uid = req->tap_uid;
	net_send(IMSG_NET_SETUP, 0, rtnl, &m, sizeof(m));
	runnerd_flush();
	rs->net = RNET_PENDING;
	rs->tap = req->tap;
	rs->tap_uid = req->tap_uid;
	return (0);
}

/* The sandbox goes: so does its network, whatever state it was in. */
void
net_end(struct rsandbox *rs)
{
	struct net_id	 m;

	if (rs->net == RNET_NONE)
		return;
	memset(&m, 0, sizeof(m));
	strlcpy(m.corr, rs->corr, sizeof(m.corr));
	strlcpy(m.id, rs->sb.id, sizeof(m.id));
	net_send(IMSG_NET_TEARDOWN, 0, -1, &m, sizeof(m));
	rs->net = RNET_NONE;
}

void
net_ready(const struct net_ready *r)
{
	struct rsandbox	*rs;
	char		 a[16];

	if ((rs = runnerd_find(r->id)) == NULL || rs->net != RNET_PENDING)
		return;		/* gone meanwhile; its teardown went out */
	if (r->error != 0) {
		rs->net = RNET_NONE;
		log_warnx("sandbox %s: no network: %s", rs->sb.id, r->msg);
		runnerd_net_ready(rs, r->error, r->msg);
		return;
	}
	rs->net = RNET_UP;
	rs->net_ident = r->ident;
	snprintf(a, sizeof(a), "%u.%u.%u.%u", r->ident.guest[0],
	    r->ident.guest[1], r->ident.guest[2], r->ident.guest[3]);
	log_debug("sandbox %s: network up: %s %s", rs->sb.id,
	    r->ident.ifname, a);
	runnerd_net_ready(rs, 0, "");
}

/*
 * netd (re)started, or runnerd did: tell it which sandboxes are live
 * with what identity; it removes everything else of ours it finds.
 */
void
net_up(void)
{
	struct rsandbox	*rs;
	struct net_sync	 m;
	size_t		 n = 0;

	net_available = 1;
	RB_FOREACH(rs, rsandbox_tree, &rsandboxes) {
		if (rs->net != RNET_UP)
			continue;
		memset(&m, 0, sizeof(m));
		strlcpy(m.setup.corr, rs->corr, sizeof(m.setup.corr));
		strlcpy(m.setup.id, rs->sb.id, sizeof(m.setup.id));
		strlcpy(m.setup.policy, rs->sb.policy.name,
		    sizeof(m.setup.policy));
		m.setup.tap = rs->tap;
		m.setup.tap_uid = rs->tap_uid;
		m.ident = rs->net_ident;
		net_send(IMSG_NET_SYNC, 0, -1, &m, sizeof(m));
		n++;
	}
	net_send(IMSG_NET_SYNC_END, 0, -1, NULL, 0);
	log_info("netd is up: told it of %zu live sandboxes", n);
}

/* netd went away: what it was setting up will not come. */
void
net_down(void)
{
	struct rsandbox	*rs, *next;

	net_available = 0;
	RB_FOREACH_SAFE(rs, rsandbox_tree, &rsandboxes, next)
		if (rs->net == RNET_PENDING) {
			rs->net = RNET_NONE;
			runnerd_net_ready(rs, EAGAIN, "netd went away while "
			    "setting up the network; try again");
		}
}

/* netd tells the client the rest of show, and ends the reply. */
int
net_show(struct rsandbox *rs, uint32_t peerid, const char *corr)
{
	struct net_id	 m;

	if (rs->net != RNET_UP)
		return (-1);
	memset(&m, 0, sizeof(m));
	strlcpy(m.corr, corr, sizeof(m.corr));
	strlcpy(m.id, rs->sb.id, sizeof(m.id));
	net_send(IMSG_NET_SHOW, peerid, -1, &m, sizeof(m));
	return (0);
}
