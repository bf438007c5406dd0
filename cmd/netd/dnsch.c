/*
 * The channel from dnspind: its pin requests, and netd's acks back,
 * without the master in between (it makes the channel, a socketpair,
 * and gives each of us an end; a new one replaces the old whenever
 * either restarts).  dnspind is the less trusted side, exposed to
 * sandboxes and upstreams: every request is checked here as the master
 * checks what it relays, and a malformed one is dropped, logged, with
 * the channel kept; one that breaks the stream itself (its framing, an
 * fd) closes the channel.  The datapath checks each pin again.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "dns_msg.h"
#include "imsgev.h"
#include "log.h"
#include "msgtab.h"
#include "serve.h"

static struct imsgev	 iev_dns;
static int		 dns_open;

static void
dnsch_close(const char *why)
{
	if (!dns_open)
		return;
	log_info("%s: the channel to dnspind: %s", __func__, why);
	imsgev_del(&iev_dns);
	close(iev_dns.ibuf.fd);
	imsg_clear(&iev_dns.ibuf);
	dns_open = 0;
}

/* One message: a pin request, checked, done and acknowledged. */
static int
dnsch_imsg(struct imsg *imsg, void *arg)
{
	struct dns_pin_ack	 ack;
	char			 err[160];

	if (imsg_check(MSG_NETD, MSG_DNSPIND, imsg, err, sizeof(err)) ==
	    -1) {
		log_warnx("%s: from dnspind: %s: dropped", __func__, err);
		return (0);
	}
	serve_pin(IMSG_PAYLOAD(imsg, struct dns_pin_req), &ack);
	if (imsgev_compose(&iev_dns, IMSG_DNS_PINNED, 0, 0, -1, &ack,
	    sizeof(ack)) == -1) {
		dnsch_close(strerror(errno));
		return (-1);
	}
	return (0);
}

static void
dnsch_dispatch(int fd, short event, void *arg)
{
	if (imsgev_dispatch(&iev_dns, event, dnsch_imsg, NULL) == 0)
		return;
	if (errno == EBADMSG)
		log_warnx("%s: a malformed message from dnspind", __func__);
	else if (errno != 0)
		log_warn("%s: from dnspind", __func__);
	dnsch_close(errno == 0 ? "closed by dnspind" : "closed");
}

/* A new channel from the master: the old one, if any, is done with. */
void
dnsch_open(int fd)
{
	if (dns_open)
		dnsch_close("replaced by a new one");
	imsgev_init(&iev_dns, fd, dnsch_dispatch, &iev_dns);
	dns_open = 1;
	log_debug("%s: a channel to dnspind", __func__);
}
