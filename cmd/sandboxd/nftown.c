/*
 * The nf_tables socket that owns table inet sandboxd.  The master
 * opens it once and keeps it for its whole life; each netd gets it at
 * exec (PROC_KEEP_FD) and programs the table through it.  The kernel
 * lets only this socket change or delete an owned table, and releases
 * the table when the socket closes: held here, it outlives every netd
 * crash and restart.  The master never reads or writes it.
 */
#include <sys/socket.h>
#include <linux/netlink.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sandboxd.h"

/* -1 if the kernel has no nf_tables netlink: netd will say more. */
int
nftown_open(void)
{
	struct sockaddr_nl	 sa;
	int			 fd;

	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_NETFILTER)) == -1) {
		log_warn("%s: socket", __func__);
		return (-1);
	}
	/* Bound now: the port id is the table's owner, for good. */
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == -1) {
		log_warn("%s: bind", __func__);
		close(fd);
		return (-1);
	}
	return (fd);
}
