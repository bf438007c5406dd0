/*
 * dnspind's messages from runnerd pass through the master like envd's
 * and netd's: runnerd tells it of sandboxes, each message checked here
 * first.  Pins go from dnspind to netd, and their acks back, on a
 * channel of their own that the master makes: a socketpair, one end to
 * each, made again whenever either of them (re)starts.  netd checks
 * every request on it as the master checks what it relays.
 */
#include <sys/socket.h>

#include <unistd.h>

#include "dns_msg.h"
#include "log.h"
#include "sandboxd.h"

static int
relay_dns_check(struct imsg *imsg, int fd, char *err, size_t len)
{
	size_t		 n = imsg_get_len(imsg);
	const void	*d = imsg->data;

	if (fd != -1)
		return (-1);
	switch (imsg_get_type(imsg)) {
	case IMSG_DNS_SANDBOX:
	case IMSG_DNS_SANDBOX_GONE:
		return (n != sizeof(struct dns_sandbox) ? -1 :
		    dns_check_sandbox(d, err, len));
	}
	return (-1);
}

int
relay_dns(struct imsg *imsg)
{
	uint32_t	 type = imsg_get_type(imsg);
	int		 fd = imsg_get_fd(imsg);
	char		 err[128] = "";

	if (relay_dns_check(imsg, fd, err, sizeof(err)) == -1) {
		log_warnx("%s: type %u: %s", __func__, type,
		    err[0] != '\0' ? err : "bad length or fd");
		if (fd != -1)
			close(fd);
		return (-1);
	}
	(void)children_send(PROC_DNSPIND, type, -1, imsg->data,
	    imsg_get_len(imsg));
	return (0);
}

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
