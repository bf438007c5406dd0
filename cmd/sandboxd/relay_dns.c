/*
 * dnspind's messages from runnerd pass through the master like envd's
 * and netd's (children.c relays them by the table).  Pins go from
 * dnspind to netd, and their acks back, on a channel of their own that
 * the master makes: a socketpair, one end to each, made again whenever
 * either of them (re)starts.  Both check what comes on it against the
 * table too.
 */
#include <sys/socket.h>

#include <unistd.h>

#include "log.h"
#include "sandboxd.h"

/*
 * netd and dnspind both running (one of them just started): a new
 * channel between them.  Each drops the one it had; one that misses
 * its end (gone again meanwhile) leaves the other an end whose peer
 * is closed, which it sees as the channel gone.
 */
void
relay_dns_channel(void)
{
	int	 sp[2];

	if (!children_running(PROC_NETD) || !children_running(PROC_DNSPIND))
		return;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0, sp) == -1) {
		log_warn("%s: socketpair: no pins until a restart", __func__);
		return;
	}
	if (children_send(PROC_NETD, IMSG_DNS_CHANNEL, sp[0], NULL, 0) == -1)
		log_warn("%s: to netd", __func__);
	if (children_send(PROC_DNSPIND, IMSG_DNS_CHANNEL, sp[1], NULL, 0) ==
	    -1)
		log_warn("%s: to dnspind", __func__);
	log_debug("%s: a new channel between netd and dnspind", __func__);
}
