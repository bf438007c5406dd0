/*
 * netd: network identities and the nftables datapath.  Runs as _sbxnetd
 * in a chroot with CAP_NET_ADMIN only; talks to the master on fd 3.
 */
#include <stdlib.h>

#include "child.h"
#include "log.h"
#include "netd.h"

static struct sandboxd_conf	*netd_conf;

static void
netd_init(void)
{
	nft_open();
}

static void
netd_conf_apply(struct sandboxd_conf *conf)
{
	if (netd_conf != NULL)
		conf_free(netd_conf);
	netd_conf = conf;
}

static int
netd_dispatch_main(struct imsg *imsg)
{
	return (-1);
}

static const struct child_ops netd_ops = {
	.name = "netd",
	.init = netd_init,
	.conf_apply = netd_conf_apply,
	.dispatch_main = netd_dispatch_main,
};

int
main(int argc, char *argv[])
{
	child_main(argc, argv, &netd_ops);
}
