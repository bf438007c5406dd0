/* The nf_tables netlink channel, through libmnl and libnftnl. */
#include <sys/socket.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include <libmnl/libmnl.h>
#include <libnftnl/gen.h>
#include <libnftnl/common.h>

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "log.h"
#include "netd.h"

static struct mnl_socket	*nl;
static uint32_t			 nl_portid;
static uint32_t			 nl_seq;

static int
nft_gen_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nftnl_gen	*gen;
	uint32_t		*id = arg;

	if ((gen = nftnl_gen_alloc()) == NULL)
		fatal("%s", __func__);
	if (nftnl_gen_nlmsg_parse(nlh, gen) < 0) {
		nftnl_gen_free(gen);
		return (MNL_CB_ERROR);
	}
	*id = nftnl_gen_get_u32(gen, NFTNL_GEN_ID);
	nftnl_gen_free(gen);
	return (MNL_CB_OK);
}

/* The ruleset generation; also proves CAP_NET_ADMIN works. */
uint32_t
nft_generation(void)
{
	char		 buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr	*nlh;
	uint32_t	 seq = ++nl_seq, id = 0;
	ssize_t		 n;

	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETGEN, AF_UNSPEC, NLM_F_ACK,
	    seq);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		fatal("%s: sendto", __func__);
	while ((n = mnl_socket_recvfrom(nl, buf, sizeof(buf))) > 0) {
		n = mnl_cb_run(buf, n, seq, nl_portid, nft_gen_cb, &id);
		if (n <= MNL_CB_STOP)
			break;
	}
	if (n == -1)
		fatal("%s: nf_tables", __func__);
	return (id);
}

void
nft_open(void)
{
	if ((nl = mnl_socket_open(NETLINK_NETFILTER)) == NULL)
		fatal("%s: mnl_socket_open", __func__);
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		fatal("%s: mnl_socket_bind", __func__);
	nl_portid = mnl_socket_get_portid(nl);
	nl_seq = time(NULL);
	log_debug("%s: nf_tables generation %u", __func__, nft_generation());
}
