/*
 * runnerd and netd talk through the master like runnerd and envd do:
 * each message is checked against the table (lib/msgtab.c) in
 * children.c before it is passed on.  The master adds what only it may open (a
 * tap's /dev/net/tun) and answers what cannot be delivered because
 * netd is down, so no create or show waits for nobody.  netd's part
 * of `sandboxctl show` goes straight to the client that asked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "msgtab.h"
#include "sandboxd.h"

#define TUN_PATH	"/dev/net/tun"

static void
relay_net_unavailable(uint32_t type, uint32_t peerid, const void *data,
    const char *why)
{
	const struct net_setup	*s = data;
	const struct net_id	*i = data;
	struct net_ready	 r;
	struct ctl_result	 res;

	if (type == IMSG_NET_SETUP || type == IMSG_NET_PREPARE) {
		memset(&r, 0, sizeof(r));
		strlcpy(r.id, type == IMSG_NET_SETUP ? s->id : i->id,
		    sizeof(r.id));
		r.prepared = type == IMSG_NET_PREPARE;
		r.error = EAGAIN;
		strlcpy(r.msg, why, sizeof(r.msg));
		children_send(PROC_RUNNERD, IMSG_NET_READY, -1, &r, sizeof(r));
	} else if (type == IMSG_NET_SHOW) {
		memset(&res, 0, sizeof(res));
		strlcpy(res.corr, i->corr, sizeof(res.corr));
		res.error = EAGAIN;
		strlcpy(res.msg, why, sizeof(res.msg));
		control_relay(peerid, IMSG_CTL_RESULT, &res, sizeof(res));
	}
	/* A teardown or sync netd misses is made good by the next sync. */
}

/*
 * From runnerd, for netd, checked against the table by the caller.  A
 * tap's setup comes without an fd: the master adds /dev/net/tun.
 */
int
relay_net(struct imsg *imsg)
{
	const struct net_setup	*s = imsg->data;
	uint32_t		 type = imsg_get_type(imsg);
	uint32_t		 peerid = imsg_get_peerid(imsg);
	int			 fd = imsg_get_fd(imsg);
	char			 err[128];

	if (type == IMSG_NET_SETUP && s->tap && fd != -1) {
		log_warnx("%s: a tap's setup with an fd", __func__);
		close(fd);
		return (-1);
	}
	if (type == IMSG_NET_SETUP && s->tap &&
	    (fd = open(TUN_PATH, O_RDWR | O_CLOEXEC)) == -1) {
		snprintf(err, sizeof(err), "%s: %s", TUN_PATH,
		    strerror(errno));
		log_warnx("%s: %s", __func__, err);
		relay_net_unavailable(type, peerid, imsg->data, err);
		return (0);
	}
	if (children_send_peer(PROC_NETD, type, peerid, fd, imsg->data,
	    imsg_get_len(imsg)) == -1 && errno == EAGAIN)
		relay_net_unavailable(type, peerid, imsg->data,
		    "netd is not running; try again");
	return (0);
}

/* From netd: the host's other filters, kept for sandboxctl status. */
void
relay_net_hostfw(struct imsg *imsg)
{
	sbx->hostfw = *IMSG_PAYLOAD(imsg, struct net_hostfw);
}
