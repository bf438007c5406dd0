/*
 * netd: network identities and the nftables datapath.  Runs as _sbxnetd
 * in a chroot with CAP_NET_ADMIN only; talks to the master on fd 3.
 * Every request comes from runnerd through the master, which checked
 * it; netd checks it again (serve.c).
 */
#include <arpa/inet.h>

#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "log.h"
#include "netd.h"
#include "serve.h"

static struct sandboxd_conf	*netd_conf;
static struct netd		*netd;
static struct netd_params	 netd_params;

static void
netd_init(void)
{
	nft_open();
}

/*
 * The first config sets netd up: the identity pool and the table, kept
 * with every sandbox's elements already in it (after a restart the
 * kernel still holds them; runnerd's sync says which are live).  The
 * subnet, prefix, resolver and uplink are fixed from then on.
 */
static void
netd_conf_apply(struct sandboxd_conf *conf)
{
	struct netd_params	 p;

	netd_params_conf(&p, &conf->global);
	if (netd == NULL) {
		if ((netd = netd_new(&p)) == NULL)
			fatalx("%s: cannot open the netlink channels",
			    __func__);
		if (netd_table_init(netd) == -1)
			fatalx("%s: cannot set up table inet %s", __func__,
			    NETD_TABLE);
		netd_params = p;
		log_info("table inet %s ready: subnet %s/%u", NETD_TABLE,
		    inet_ntoa(p.subnet), p.subnet_len);
	} else if (memcmp(&p, &netd_params, sizeof(p)) != 0)
		log_warnx("%s: subnet, interface-prefix, resolver and uplink "
		    "changes take effect when netd restarts", __func__);
	if (netd_conf != NULL)
		conf_free(netd_conf);
	netd_conf = conf;
	serve_conf(netd, netd_conf);
}

static int
netd_dispatch_main(struct imsg *imsg)
{
	if (netd_conf == NULL)
		fatalx("%s: request before any config", __func__);
	return (serve_dispatch(imsg));
}

static void
netd_shutdown(void)
{
	/* The datapath stays: sandboxes keep exactly their policy. */
	serve_shutdown();
}

static const struct child_ops netd_ops = {
	.name = "netd",
	.fdpass = 1,
	.init = netd_init,
	.shutdown = netd_shutdown,
	.conf_apply = netd_conf_apply,
	.without = nft_without,
	.dispatch_main = netd_dispatch_main,
};

int
main(int argc, char *argv[])
{
	child_main(argc, argv, &netd_ops);
}
