/*
 * A tap sandbox's /dev/net/tun: only the master may open it.  runnerd
 * asks for one, gets it (or why not) back, and passes it on to netd
 * with the tap's setup on their own channel, in order with the rest
 * of what it tells netd of that sandbox.
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

void
tun_open(struct imsg *imsg)
{
	const struct net_id	*req = IMSG_PAYLOAD(imsg, struct net_id);
	struct net_ready	 r;
	int			 fd;

	memset(&r, 0, sizeof(r));
	strlcpy(r.id, req->id, sizeof(r.id));
	if ((fd = open(TUN_PATH, O_RDWR | O_CLOEXEC)) == -1) {
		r.error = errno;
		snprintf(r.msg, sizeof(r.msg), "%s: %s", TUN_PATH,
		    strerror(errno));
		log_warnx("%s: sandbox %s: %s", __func__, req->id, r.msg);
	}
	if (children_send(PROC_RUNNERD, IMSG_NET_TUN, fd, &r, sizeof(r)) ==
	    -1)
		log_warn("%s: to runnerd", __func__);
}
