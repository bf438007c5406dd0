/*
 * The resolver address (dnspind(8), Queries): the master puts it on lo
 * and binds UDP and TCP port 53 there, since dnspind holds no
 * privilege to do either; dnspind gets copies of the two sockets each
 * time it starts.  A resolver that cannot be bound is logged and names
 * do not resolve; the rest of the suite works on.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sandboxd.h"

#define RESOLVER_PORT	53
#define RESOLVER_RCVBUF	(4 * 1024 * 1024)
#define RESOLVER_LO	1		/* the loopback interface's index */

static int	resolver_fds[2] = { -1, -1 };	/* UDP, TCP */

/* addr/32 on lo, if it is not there yet. */
static int
resolver_addr(struct in_addr addr)
{
	char			 buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket	*nl;
	struct nlmsghdr		*nlh;
	struct ifaddrmsg	*ifa;
	int			 rc = -1;

	if ((nl = mnl_socket_open(NETLINK_ROUTE)) == NULL)
		return (-1);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWADDR;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE |
	    NLM_F_REPLACE;
	nlh->nlmsg_seq = 1;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = AF_INET;
	ifa->ifa_prefixlen = 32;
	ifa->ifa_scope = RT_SCOPE_HOST;
	ifa->ifa_index = RESOLVER_LO;
	mnl_attr_put(nlh, IFA_LOCAL, sizeof(addr), &addr);
	mnl_attr_put(nlh, IFA_ADDRESS, sizeof(addr), &addr);
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) == 0 &&
	    mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) >= 0) {
		ssize_t	 n = mnl_socket_recvfrom(nl, buf, sizeof(buf));

		if (n >= 0 && mnl_cb_run(buf, n, 1, mnl_socket_get_portid(nl),
		    NULL, NULL) >= 0)
			rc = 0;
	}
	mnl_socket_close(nl);
	return (rc);
}

static int
resolver_bind(struct in_addr addr, int type)
{
	struct sockaddr_in	 sin;
	int			 fd, on = 1, rcvbuf = RESOLVER_RCVBUF;

	if ((fd = socket(AF_INET, type | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) == -1)
		return (-1);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(RESOLVER_PORT);
	sin.sin_addr = addr;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) == -1 ||
	    bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    (type == SOCK_STREAM && listen(fd, 128) == -1)) {
		close(fd);
		return (-1);
	}
	/*
	 * Every sandbox's queries share this one socket: the default
	 * buffer holds some 256 datagrams, fewer than a burst of them.
	 */
	if (type == SOCK_DGRAM && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE,
	    &rcvbuf, sizeof(rcvbuf)) == -1)
		log_warn("%s: SO_RCVBUFFORCE", __func__);
	return (fd);
}

void
resolver_open(const struct conf_global_msg *g)
{
	struct in_addr	 addr = g->resolver.addr.v4;
	char		 a[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &addr, a, sizeof(a));
	if (resolver_addr(addr) == -1)
		log_warn("%s: %s on lo", __func__, a);
	if ((resolver_fds[0] = resolver_bind(addr, SOCK_DGRAM)) == -1 ||
	    (resolver_fds[1] = resolver_bind(addr, SOCK_STREAM)) == -1) {
		log_warn("%s: %s port %d: names will not resolve", __func__,
		    a, RESOLVER_PORT);
		resolver_close();
		return;
	}
	log_info("resolver on %s port %d", a, RESOLVER_PORT);
}

void
resolver_close(void)
{
	int	 i;

	for (i = 0; i < 2; i++)
		if (resolver_fds[i] != -1) {
			close(resolver_fds[i]);
			resolver_fds[i] = -1;
		}
}

/* Copies of both sockets for a dnspind that has just started. */
void
resolver_send(void)
{
	struct dns_socket	 m;
	int			 i, fd;

	for (i = 0; i < 2; i++) {
		if (resolver_fds[i] == -1)
			continue;
		if ((fd = dup(resolver_fds[i])) == -1) {
			log_warn("%s: dup", __func__);
			continue;
		}
		memset(&m, 0, sizeof(m));
		m.proto = i == 0 ? IPPROTO_UDP : IPPROTO_TCP;
		children_send(PROC_DNSPIND, IMSG_DNS_SOCKET, fd, &m, sizeof(m));
	}
}
