/*
 * dnspind: the resolver that pins what it answers.  Runs as
 * _sbxdnspind in a chroot with no capabilities; talks to the master on
 * fd 3, from which it gets the resolver's sockets (only the master may
 * bind them) and its channels: to runnerd, which tells it of the
 * sandboxes (lib/peerch.c), and to netd, which pins (netdch.c).
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "dns_msg.h"
#include "dnspind.h"
#include "log.h"
#include "msgtab.h"

struct sandboxd_conf	*dnspind_conf;

static void
dnspind_conf_apply(struct sandboxd_conf *conf)
{
	if (dnspind_conf != NULL)
		conf_free(dnspind_conf);
	cache_flush();
	dnspind_conf = conf;
}

/* Checked against the table (lib/msgtab.c) by child.c first. */
static int
dnspind_dispatch_main(struct imsg *imsg)
{
	if (dnspind_conf == NULL)
		fatalx("%s: request before any config", __func__);
	switch (imsg_get_type(imsg)) {
	case IMSG_DNS_SOCKET:
		if (IMSG_PAYLOAD(imsg, struct dns_socket)->proto ==
		    IPPROTO_UDP)
			resolve_udp_socket(imsg_get_fd(imsg));
		else
			tcp_socket(imsg_get_fd(imsg));
		break;
	case IMSG_DNS_CHANNEL:
		netdch_open(imsg_get_fd(imsg));
		break;
	default:
		return (-1);
	}
	return (0);
}

/*
 * runnerd's news of the sandboxes, on our channel to it, checked
 * against the table by peerch.c first.  A new runnerd (or channel)
 * announces every sandbox again: each replaces what we had of it, and
 * those not announced by DNS_SYNC_END are forgotten.
 */
static int
dnspind_dispatch_runnerd(enum msg_prog peer, struct imsg *imsg)
{
	const struct dns_sandbox	*sb;
	uint32_t			 type = imsg_get_type(imsg);

	if (dnspind_conf == NULL)
		return (-1);
	switch (type) {
	case IMSG_DNS_SANDBOX:
	case IMSG_DNS_SANDBOX_GONE:
		sb = IMSG_PAYLOAD(imsg, struct dns_sandbox);
		if (type == IMSG_DNS_SANDBOX) {
			sandboxes_add(sb);
			resolve_known();
		} else
			sandboxes_del(sb->id);
		break;
	case IMSG_DNS_SYNC_END:
		sandboxes_resync_end();
		break;
	default:
		return (-1);
	}
	return (0);
}

/* A new channel to runnerd (the only peer we take one from): resync. */
static void
dnspind_runnerd_up(enum msg_prog peer)
{
	if (peer == MSG_RUNNERD)
		sandboxes_resync();
}

static const struct child_ops dnspind_ops = {
	.name = "dnspind",
	.fdpass = 1,
	.conf_apply = dnspind_conf_apply,
	.dispatch_main = dnspind_dispatch_main,
	.dispatch_peer = dnspind_dispatch_runnerd,
	.peer_up = dnspind_runnerd_up,
};

int
main(int argc, char *argv[])
{
	child_main(argc, argv, &dnspind_ops);
}
