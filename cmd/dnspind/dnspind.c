/*
 * dnspind: the resolver that pins what it answers.  Runs as
 * _sbxdnspind in a chroot with no capabilities; talks to the master on
 * fd 3, from which it gets the resolver's sockets (only the master may
 * bind them), the sandboxes (from runnerd) and its channel to netd,
 * which pins (netdch.c).
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

struct sandboxd_conf	*dnspind_conf;

static void
dnspind_conf_apply(struct sandboxd_conf *conf)
{
	if (dnspind_conf != NULL)
		conf_free(dnspind_conf);
	cache_flush();
	dnspind_conf = conf;
}

/* From the master a malformed message means a bug or worse: stop. */
static void
dnspind_get(struct imsg *imsg, void *p, size_t len)
{
	if (imsg_get_data(imsg, p, len) == -1)
		fatalx("dnspind_dispatch_main: bad length for imsg %u",
		    imsg_get_type(imsg));
}

static void
dnspind_check(int rc, const char *err)
{
	if (rc == -1)
		fatalx("dnspind_dispatch_main: %s", err);
}

static int
dnspind_dispatch_main(struct imsg *imsg)
{
	struct dns_socket	 so;
	struct dns_sandbox	 sb;
	uint32_t		 type = imsg_get_type(imsg);
	int			 fd = imsg_get_fd(imsg);
	char			 err[128];

	if (dnspind_conf == NULL)
		fatalx("%s: request before any config", __func__);
	if ((fd != -1) != (type == IMSG_DNS_SOCKET ||
	    type == IMSG_DNS_CHANNEL))
		fatalx("%s: imsg %u with the wrong fd", __func__, type);
	switch (type) {
	case IMSG_DNS_SOCKET:
		dnspind_get(imsg, &so, sizeof(so));
		dnspind_check(dns_check_socket(&so, err, sizeof(err)), err);
		if (so.proto == IPPROTO_UDP)
			resolve_udp_socket(fd);
		else
			tcp_socket(fd);
		break;
	case IMSG_DNS_SANDBOX:
	case IMSG_DNS_SANDBOX_GONE:
		dnspind_get(imsg, &sb, sizeof(sb));
		dnspind_check(dns_check_sandbox(&sb, err, sizeof(err)), err);
		if (type == IMSG_DNS_SANDBOX) {
			sandboxes_add(&sb);
			resolve_known();
		} else
			sandboxes_del(sb.id);
		break;
	case IMSG_DNS_CHANNEL:
		if (imsg_get_len(imsg) != 0)
			fatalx("%s: bad IMSG_DNS_CHANNEL", __func__);
		netdch_open(fd);
		break;
	default:
		return (-1);
	}
	return (0);
}

static const struct child_ops dnspind_ops = {
	.name = "dnspind",
	.fdpass = 1,
	.conf_apply = dnspind_conf_apply,
	.dispatch_main = dnspind_dispatch_main,
};

int
main(int argc, char *argv[])
{
	child_main(argc, argv, &dnspind_ops);
}
