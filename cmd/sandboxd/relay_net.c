/*
 * runnerd and netd talk through the master like runnerd and envd do:
 * each message is checked here before it is passed on, with the fd it
 * must or must not carry.  The master adds what only it may open (a
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
#include "net_msg.h"
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

static int
relay_net_check(struct imsg *imsg, int fd, char *err, size_t len)
{
	size_t		 n = imsg_get_len(imsg);
	const void	*d = imsg->data;

#define EXACT(type)	(n == sizeof(type) ? 0 : -1)
	switch (imsg_get_type(imsg)) {
	case IMSG_NET_SETUP:
		if (EXACT(struct net_setup) == -1 ||
		    net_check_setup(d, err, len) == -1)
			return (-1);
		/* A veth comes with its netlink socket, unless prepared. */
		return ((((const struct net_setup *)d)->tap == 0 &&
		    ((const struct net_setup *)d)->prepared == 0) ==
		    (fd != -1) ? 0 : -1);
	case IMSG_NET_PREPARE:
		return (fd == -1 || EXACT(struct net_id) == -1 ? -1 :
		    net_check_id(d, err, len));
	case IMSG_NET_TEARDOWN:
	case IMSG_NET_SHOW:
		return (fd != -1 || EXACT(struct net_id) == -1 ? -1 :
		    net_check_id(d, err, len));
	case IMSG_NET_SYNC:
		return (fd != -1 || EXACT(struct net_sync) == -1 ? -1 :
		    net_check_sync(d, err, len));
	case IMSG_NET_SYNC_END:
		return (fd != -1 || n != 0 ? -1 : 0);
	case IMSG_NET_READY:
		return (fd != -1 || EXACT(struct net_ready) == -1 ? -1 :
		    net_check_ready(d, err, len));
	case IMSG_CTL_NET_INFO:
		return (fd != -1 || EXACT(struct sbx_net_info) == -1 ? -1 :
		    net_check_info(d, err, len));
	case IMSG_CTL_NET_RULES:
		return (fd != -1 ? -1 : net_check_rules(d, n, err, len));
	case IMSG_CTL_NET_PINS:
		return (fd != -1 || EXACT(struct sbx_net_pins) == -1 ? -1 :
		    net_check_pins(d, err, len));
	case IMSG_CTL_RESULT:
		return (fd != -1 || EXACT(struct ctl_result) == -1 ||
		    memchr(((const struct ctl_result *)d)->msg, '\0',
		    CTL_MSG_SIZE) == NULL ? -1 : 0);
	}
#undef EXACT
	return (-1);
}

static int
relay_net_bad(struct imsg *imsg, int fd, const char *err)
{
	log_warnx("relay_net: type %u: %s", imsg_get_type(imsg),
	    err[0] != '\0' ? err : "bad length or fd");
	if (fd != -1)
		close(fd);
	return (-1);
}

/* From runnerd, for netd. */
int
relay_net(struct imsg *imsg)
{
	uint32_t	 type = imsg_get_type(imsg);
	uint32_t	 peerid = imsg_get_peerid(imsg);
	int		 fd = imsg_get_fd(imsg);
	char		 err[128] = "";

	if (relay_net_check(imsg, fd, err, sizeof(err)) == -1)
		return (relay_net_bad(imsg, fd, err));
	if (type == IMSG_NET_SETUP &&
	    ((const struct net_setup *)imsg->data)->tap &&
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
int
relay_net_hostfw(struct imsg *imsg)
{
	struct net_hostfw	 hf;

	if (imsg_get_data(imsg, &hf, sizeof(hf)) == -1 ||
	    memchr(hf.text, '\0', sizeof(hf.text)) == NULL)
		return (-1);
	sbx->hostfw = hf;
	return (0);
}

/* From netd: setup answers for runnerd, show replies for a client. */
int
relay_net_reply(struct imsg *imsg)
{
	uint32_t	 type = imsg_get_type(imsg);
	int		 fd = imsg_get_fd(imsg);
	char		 err[128] = "";

	if (relay_net_check(imsg, fd, err, sizeof(err)) == -1)
		return (relay_net_bad(imsg, fd, err));
	if (type == IMSG_NET_READY)
		children_send(PROC_RUNNERD, type, -1, imsg->data,
		    imsg_get_len(imsg));
	else
		control_relay(imsg_get_peerid(imsg), type, imsg->data,
		    imsg_get_len(imsg));
	return (0);
}
