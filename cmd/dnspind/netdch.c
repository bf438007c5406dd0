/*
 * The channel to netd: pin requests out, acks back, without the master
 * in between (it makes the channel, a socketpair, and gives each of us
 * an end; a new one replaces the old whenever either restarts).  When
 * the channel goes, so do the acks of what was sent on it: every
 * answer waiting for one fails at once (resolve_netd_gone), and a
 * request with no channel to go on fails the same way, so that no
 * answer waits for nobody.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "dns_msg.h"
#include "dnspind.h"
#include "imsgev.h"
#include "log.h"
#include "msgtab.h"

static struct imsgev	 iev_netd;
static int		 netd_open;

static void
netdch_close(const char *why)
{
	if (!netd_open)
		return;
	log_info("%s: the channel to netd: %s", __func__, why);
	imsgev_del(&iev_netd);
	close(iev_netd.ibuf.fd);
	imsg_clear(&iev_netd.ibuf);
	netd_open = 0;
	resolve_netd_gone();
}

/* An ack, checked; anything else is dropped, logged. */
static int
netdch_imsg(struct imsg *imsg, void *arg)
{
	char	 err[160];

	if (imsg_check(MSG_DNSPIND, MSG_NETD, imsg, err, sizeof(err)) ==
	    -1) {
		log_warnx("%s: from netd: %s: dropped", __func__, err);
		return (0);
	}
	resolve_pinned(IMSG_PAYLOAD(imsg, struct dns_pin_ack));
	return (0);
}

static void
netdch_dispatch(int fd, short event, void *arg)
{
	if (imsgev_dispatch(&iev_netd, event, netdch_imsg, NULL) == 0)
		return;
	if (errno == EBADMSG)
		log_warnx("%s: a malformed message from netd", __func__);
	else if (errno != 0)
		log_warn("%s: from netd", __func__);
	netdch_close(errno == 0 ? "closed by netd" : "closed");
}

/* A new channel from the master: the old one, if any, is done with. */
void
netdch_open(int fd)
{
	netdch_close("replaced by a new one");
	imsgev_init(&iev_netd, fd, netdch_dispatch, &iev_netd);
	netd_open = 1;
	log_debug("%s: a channel to netd", __func__);
}

/* -1 if there is no channel to send it on. */
int
netdch_send(const struct dns_pin_req *req)
{
	if (!netd_open)
		return (-1);
	if (imsgev_compose(&iev_netd, IMSG_DNS_PIN, 0, 0, -1, req,
	    sizeof(*req)) == -1) {
		log_warn("%s", __func__);
		return (-1);
	}
	return (0);
}
