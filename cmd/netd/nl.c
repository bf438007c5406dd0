/* What the netlink channels (nf_tables, rtnetlink, ctnetlink) share. */
#include <sys/socket.h>
#include <netinet/in.h>
#include <net/if.h>
#include <linux/netlink.h>

#include <libmnl/libmnl.h>

#include <errno.h>
#include <string.h>

#include "log.h"
#include "netd.h"

#define NL_BUFSIZE	(4 * 1024 * 1024)

static char	nl_why[256];

/* The kernel's explanation of the last error nl_talk() saw, or "". */
const char *
nl_lastwhy(void)
{
	return (nl_why);
}

/*
 * Errors carry the kernel's reason (extended ack) but not a copy of the
 * request; big buffers so that a large batch or dump is not cut short.
 */
void
nl_sockopts(int fd)
{
	int	 one = 1, size = NL_BUFSIZE;

	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one,
	    sizeof(one)) == -1)
		log_debug("%s: NETLINK_EXT_ACK: %s", __func__, strerror(errno));
	if (setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one,
	    sizeof(one)) == -1)
		log_debug("%s: NETLINK_CAP_ACK: %s", __func__, strerror(errno));
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
	    sizeof(size)) == -1)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size,
		    sizeof(size));
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size,
	    sizeof(size)) == -1)
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size,
		    sizeof(size));
}

/*
 * The errno of an NLMSG_ERROR (0 for an ack) and the kernel's
 * explanation, if it gave one, in *why.
 */
int
nl_error(const struct nlmsghdr *nlh, const char **why)
{
	const struct nlmsgerr	*err;
	const struct nlattr	*attr;
	size_t			 off;

	*why = "";
	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*err)))
		return (EBADMSG);
	err = mnl_nlmsg_get_payload(nlh);
	if (err->error == 0 || !(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return (-err->error);
	off = sizeof(*err);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	mnl_attr_for_each(attr, nlh, off) {
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			*why = mnl_attr_get_str(attr);
	}
	return (-err->error);
}

/*
 * Send one buffer of requests on a plain netlink fd and read until the
 * ack of the last one; cb sees every other reply.  The first error
 * wins.  Used for rtnetlink and ctnetlink, where requests are few.
 */
int
nl_talk(int fd, void *buf, size_t len, uint32_t lastseq, nft_msg_fn cb,
    void *arg, const char *who)
{
	static char		 rbuf[65536];
	struct nlmsghdr		*nlh;
	const char		*why;
	ssize_t			 r;
	int			 n;
	struct sockaddr_nl	 kernel = { .nl_family = AF_NETLINK };
	int			 err = 0, done = 0, e;

	nl_why[0] = '\0';
	if (sendto(fd, buf, len, 0, (struct sockaddr *)&kernel,
	    sizeof(kernel)) == -1) {
		log_warn("%s: %s: send", __func__, who);
		return (-1);
	}
	while (!done) {
		if ((r = recv(fd, rbuf, sizeof(rbuf), 0)) == -1) {
			if (errno == EINTR)
				continue;
			log_warn("%s: %s: recv", __func__, who);
			return (-1);
		}
		n = r;
		for (nlh = (struct nlmsghdr *)rbuf; mnl_nlmsg_ok(nlh, n);
		    nlh = mnl_nlmsg_next(nlh, &n)) {
			if (nlh->nlmsg_type == NLMSG_DONE) {
				if (nlh->nlmsg_seq == lastseq)
					done = 1;
				continue;
			}
			if (nlh->nlmsg_type != NLMSG_ERROR) {
				if (cb != NULL && cb(nlh, arg) == -1 &&
				    err == 0)
					err = errno ? errno : EIO;
				continue;
			}
			if ((e = nl_error(nlh, &why)) != 0 && err == 0) {
				err = e;
				strlcpy(nl_why, why, sizeof(nl_why));
				/* The caller decides whether it matters. */
				log_debug("%s: %s: %s%s%s", __func__, who,
				    strerror(e), *why ? ": " : "", why);
			}
			if (nlh->nlmsg_seq == lastseq)
				done = 1;
		}
	}
	if (err != 0) {
		errno = err;
		return (-1);
	}
	return (0);
}
