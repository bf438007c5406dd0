/*
 * netd: network identities and the nftables datapath.  Runs as _sbxnetd
 * in a chroot with CAP_NET_ADMIN only; talks to the master on fd 3.
 * Every request comes from runnerd through the master, which checked
 * it; netd checks it again (serve.c).
 */
#include <arpa/inet.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "log.h"
#include "netd.h"
#include "proc.h"
#include "serve.h"

static struct sandboxd_conf	*netd_conf;
static struct netd		*netd;
static struct netd_params	 netd_params;

/* The master's nf_tables socket, if it passed one (PROC_KEEP_FD). */
static void
netd_preinit(void)
{
	if (fcntl(PROC_KEEP_FD, F_GETFD) == -1) {
		log_warnx("%s: no nf_tables socket from the master: table "
		    "inet %s goes with netd", __func__, NETD_TABLE);
		return;
	}
	if (nft_owner_adopt(PROC_KEEP_FD) == -1)
		fatal("%s: fd %d", __func__, PROC_KEEP_FD);
	if (fcntl(PROC_KEEP_FD, F_SETFD, FD_CLOEXEC) == -1)
		fatal("%s: fcntl", __func__);
}

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
		hostfw_start();
	} else if (memcmp(&p, &netd_params, sizeof(p)) != 0)
		log_warnx("%s: subnet, interface-prefix, resolver and uplink "
		    "changes take effect when netd restarts", __func__);
	if (netd_conf != NULL)
		conf_free(netd_conf);
	netd_conf = conf;
	serve_conf(netd, netd_conf);
}

/*
 * The master's orderly stop, sent once runnerd has exited: the links,
 * then the table (netd_stop), then netd exits.  Status 3 tells the
 * master that the table was kept.
 */
static void
netd_stop_all(struct imsg *imsg)
{
	if (imsg_get_len(imsg) != 0 || imsg_get_fd(imsg) != -1)
		fatalx("%s: bad IMSG_NET_STOP", __func__);
	if (netd == NULL) {
		log_warnx("%s: never configured: table inet %s, if any, "
		    "kept", __func__, NETD_TABLE);
		exit(3);
	}
	exit(netd_stop(netd) == 0 ? 0 : 3);
}

static int
netd_dispatch_main(struct imsg *imsg)
{
	switch (imsg_get_type(imsg)) {
	case IMSG_NET_STOP:
		netd_stop_all(imsg);
		break;
	case IMSG_DNS_CHANNEL:
		dnsch_open(imsg_get_fd(imsg));
		break;
	default:
		return (-1);
	}
	return (0);
}

/* runnerd's requests, on our channel to it (lib/peerch.c). */
static int
netd_dispatch_peer(enum msg_prog peer, struct imsg *imsg)
{
	if (netd_conf == NULL)
		return (-1);
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
	.preinit = netd_preinit,
	.init = netd_init,
	.shutdown = netd_shutdown,
	.conf_apply = netd_conf_apply,
	.without = nft_without,
	.dispatch_main = netd_dispatch_main,
	.dispatch_peer = netd_dispatch_peer,
};

int
main(int argc, char *argv[])
{
	child_main(argc, argv, &netd_ops);
}
