/*
 * dnspind's messages pass through the master like envd's and netd's:
 * runnerd tells it of sandboxes, it asks netd for pins and netd
 * acknowledges them.  Each is checked here first; a pin that cannot
 * reach netd is answered here, so no answer waits for nobody.
 */
#include <errno.h>
#include <string.h>
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
	case IMSG_DNS_PIN:
		return (n != sizeof(struct dns_pin_req) ? -1 :
		    dns_check_pin_req(d, err, len));
	case IMSG_DNS_PINNED:
		return (n != sizeof(struct dns_pin_ack) ? -1 :
		    dns_check_pin_ack(d, err, len));
	}
	return (-1);
}

int
relay_dns(struct imsg *imsg)
{
	const struct dns_pin_req	*req;
	struct dns_pin_ack		 ack;
	uint32_t			 type = imsg_get_type(imsg);
	int				 fd = imsg_get_fd(imsg);
	char				 err[128] = "";
	enum proc_id			 to;
	uint32_t			 i;

	if (relay_dns_check(imsg, fd, err, sizeof(err)) == -1) {
		log_warnx("%s: type %u: %s", __func__, type,
		    err[0] != '\0' ? err : "bad length or fd");
		if (fd != -1)
			close(fd);
		return (-1);
	}
	to = type == IMSG_DNS_PIN ? PROC_NETD : PROC_DNSPIND;
	if (children_send(to, type, -1, imsg->data, imsg_get_len(imsg)) ==
	    -1 && errno == EAGAIN && type == IMSG_DNS_PIN) {
		req = imsg->data;
		memset(&ack, 0, sizeof(ack));
		ack.nanswers = req->nanswers;
		memcpy(ack.answers, req->answers, sizeof(ack.answers));
		for (i = 0; i < ack.nanswers; i++)
			ack.answers[i].error = EAGAIN;
		children_send(PROC_DNSPIND, IMSG_DNS_PINNED, -1, &ack,
		    sizeof(ack));
	}
	return (0);
}
