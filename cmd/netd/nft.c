/*
 * The nf_tables netlink channel, through libmnl and libnftnl: batches
 * that the kernel applies all or nothing, and queries (get and dump).
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <net/if.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
#include <libnftnl/gen.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kfeat.h"
#include "log.h"
#include "netd.h"

/* The most one command may take; element lists are split to fit. */
#define NFT_CMD_ROOM	16384
/* A batch is sent in one sendmsg; nl_sockopts() raised the limit. */
#define NFT_BATCH_MAX	(3 * 1024 * 1024)

struct nft_sock {
	struct mnl_socket	*nl;
	uint32_t		 portid;
	uint32_t		 seq;
};

struct nft_batch {
	struct nft_sock		*ns;
	char			*buf;
	size_t			 len, cap;
	size_t			 cur;		/* offset of the open command */
	size_t			 last;		/* offset of the last command */
	int			 ncmd;
	int			 quiet;		/* an errno logged as debug */
};

static struct nft_sock	*nft_default;
static struct kfeat_nft	 nft_kf;
static int		 nft_kf_probed;
static int		 nft_kf_without_destroy;

/*
 * Testing: behave as on a kernel without the feature (nft-destroy: one
 * before Linux 6.3), whatever this one has.  Before the first batch.
 */
int
nft_without(const char *feature)
{
	if (strcmp(feature, "nft-destroy") != 0) {
		errno = EINVAL;
		return (-1);
	}
	nft_kf_without_destroy = 1;
	return (0);
}

/* What this kernel's nf_tables takes, probed once. */
const struct kfeat_nft *
nft_caps(void)
{
	if (nft_kf_probed)
		return (&nft_kf);
	kfeat_nft_probe(&nft_kf);
	nft_kf_probed = 1;
	if (nft_kf.destroy == KF_UNKNOWN)
		log_warnx("%s: cannot tell whether the kernel has "
		    "NFT_MSG_DESTROY (%s): doing without", __func__,
		    strerror(nft_kf.error));
	if (nft_kf_without_destroy)
		log_info("%s: NFT_MSG_DESTROY not used (-x nft-destroy)",
		    __func__);
	if (nft_kf_without_destroy)
		nft_kf.destroy = KF_NO;
	log_debug("%s: destroy %d, table owner %d, table persist %d",
	    __func__, nft_kf.destroy, nft_kf.owner, nft_kf.persist);
	return (&nft_kf);
}

int
nft_has_destroy(void)
{
	return (nft_caps()->destroy == KF_YES);
}

struct nft_sock *
nft_sock_open(void)
{
	struct nft_sock	*ns;

	if ((ns = calloc(1, sizeof(*ns))) == NULL)
		return (NULL);
	if ((ns->nl = mnl_socket_open2(NETLINK_NETFILTER, SOCK_CLOEXEC)) ==
	    NULL) {
		log_warn("%s: mnl_socket_open", __func__);
		free(ns);
		return (NULL);
	}
	if (mnl_socket_bind(ns->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		log_warn("%s: mnl_socket_bind", __func__);
		mnl_socket_close(ns->nl);
		free(ns);
		return (NULL);
	}
	nl_sockopts(mnl_socket_get_fd(ns->nl));
	ns->portid = mnl_socket_get_portid(ns->nl);
	ns->seq = time(NULL);
	return (ns);
}

void
nft_sock_close(struct nft_sock *ns)
{
	if (ns == NULL)
		return;
	mnl_socket_close(ns->nl);
	free(ns);
}

uint32_t
nft_sock_seq(struct nft_sock *ns)
{
	return (++ns->seq);
}

static int
nft_batch_room(struct nft_batch *b)
{
	char	*p;
	size_t	 cap;

	if (b->cap - b->len >= NFT_CMD_ROOM)
		return (0);
	cap = b->cap * 2;
	if ((p = realloc(b->buf, cap)) == NULL)
		return (-1);
	b->buf = p;
	b->cap = cap;
	return (0);
}

struct nft_batch *
nft_batch_new(struct nft_sock *ns)
{
	struct nft_batch	*b;

	if ((b = calloc(1, sizeof(*b))) == NULL)
		return (NULL);
	b->cap = 4 * NFT_CMD_ROOM;
	if ((b->buf = calloc(1, b->cap)) == NULL) {
		free(b);
		return (NULL);
	}
	b->ns = ns;
	nft_batch_reset(b);
	return (b);
}

void
nft_batch_free(struct nft_batch *b)
{
	if (b == NULL)
		return;
	free(b->buf);
	free(b);
}

void
nft_batch_reset(struct nft_batch *b)
{
	struct nlmsghdr	*nlh;

	b->len = 0;
	b->ncmd = 0;
	b->quiet = 0;
	nlh = nftnl_batch_begin(b->buf, nft_sock_seq(b->ns));
	b->len = NLMSG_ALIGN(nlh->nlmsg_len);
}

/* Open a command; fill its payload, then nft_batch_next(). */
struct nlmsghdr *
nft_batch_msg(struct nft_batch *b, uint16_t type, uint16_t flags)
{
	/* The NFT_MSG_DESTROY* types, 26 to 31, from Linux 6.3 on. */
	if (type >= 26 && type <= 31 && !nft_has_destroy())
		fatalx("%s: message type %u on a kernel without it", __func__,
		    type);
	if (nft_batch_room(b) == -1)
		return (NULL);
	b->cur = b->len;
	return (nftnl_nlmsg_build_hdr(b->buf + b->len, type, NFPROTO_INET,
	    flags, nft_sock_seq(b->ns)));
}

void
nft_batch_next(struct nft_batch *b)
{
	struct nlmsghdr	*nlh = (struct nlmsghdr *)(b->buf + b->cur);

	b->last = b->cur;
	b->len += NLMSG_ALIGN(nlh->nlmsg_len);
	b->ncmd++;
}

static void
nft_payload(struct nlmsghdr *nlh, enum nft_kind k, void *o)
{
	switch (k) {
	case NK_TABLE:
		nftnl_table_nlmsg_build_payload(nlh, o);
		break;
	case NK_CHAIN:
		nftnl_chain_nlmsg_build_payload(nlh, o);
		break;
	case NK_RULE:
		nftnl_rule_nlmsg_build_payload(nlh, o);
		break;
	case NK_SET:
		nftnl_set_nlmsg_build_payload(nlh, o);
		break;
	case NK_ELEMS:
		nftnl_set_elems_nlmsg_build_payload(nlh, o);
		break;
	case NK_OBJ:
		nftnl_obj_nlmsg_build_payload(nlh, o);
		break;
	}
}

static void
nft_kind_free(enum nft_kind k, void *o)
{
	switch (k) {
	case NK_TABLE:
		nftnl_table_free(o);
		break;
	case NK_CHAIN:
		nftnl_chain_free(o);
		break;
	case NK_RULE:
		nftnl_rule_free(o);
		break;
	case NK_SET:
	case NK_ELEMS:
		nftnl_set_free(o);
		break;
	case NK_OBJ:
		nftnl_obj_free(o);
		break;
	}
}

/*
 * One command of the batch, its payload built from o, a libnftnl
 * object of kind k; o is freed, whether or not the command fitted.
 */
int
nft_batch_put(struct nft_batch *b, uint16_t type, uint16_t flags,
    enum nft_kind k, void *o)
{
	struct nlmsghdr	*nlh;

	if ((nlh = nft_batch_msg(b, type, flags)) != NULL) {
		nft_payload(nlh, k, o);
		nft_batch_next(b);
	}
	nft_kind_free(k, o);
	return (nlh == NULL ? -1 : 0);
}

int
nft_batch_count(struct nft_batch *b)
{
	return (b->ncmd);
}

size_t
nft_batch_size(struct nft_batch *b)
{
	return (b->len);
}

/* Until the next reset, errors err are the caller's to report. */
void
nft_batch_quiet(struct nft_batch *b, int err)
{
	b->quiet = err;
}

/* Read what the kernel queued while it ran the batch in our sendmsg. */
static int
nft_batch_replies(struct nft_batch *b, uint32_t lastseq, const char *who)
{
	static char		 rbuf[65536];
	struct nlmsghdr		*nlh;
	const char		*why;
	ssize_t			 r;
	int			 n;
	int			 fd = mnl_socket_get_fd(b->ns->nl), err = 0;
	int			 acked = 0, e;

	for (;;) {
		r = recv(fd, rbuf, sizeof(rbuf), MSG_DONTWAIT);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (r == -1) {
			log_warn("%s: %s: recv", __func__, who);
			return (errno);
		}
		n = r;
		for (nlh = (struct nlmsghdr *)rbuf; mnl_nlmsg_ok(nlh, n);
		    nlh = mnl_nlmsg_next(nlh, &n)) {
			if (nlh->nlmsg_type != NLMSG_ERROR)
				continue;
			if ((e = nl_error(nlh, &why)) == 0) {
				if (nlh->nlmsg_seq == lastseq)
					acked = 1;
				continue;
			}
			if (err == 0)
				err = e;
			if (e == b->quiet)
				log_debug("%s: %s: command %u: %s", __func__,
				    who, nlh->nlmsg_seq - (lastseq - b->ncmd) -
				    1, strerror(e));
			else
				log_warnx("%s: %s: command %u: %s%s%s",
				    __func__, who, nlh->nlmsg_seq -
				    (lastseq - b->ncmd) - 1, strerror(e),
				    *why ? ": " : "", why);
		}
	}
	if (err == 0 && !acked) {
		log_warnx("%s: %s: no acknowledgement", __func__, who);
		err = EPROTO;
	}
	return (err);
}

/*
 * Send the batch; on return the kernel has applied all of it or none.
 * Only the last command asks for an ack: errors are always reported,
 * so one ack confirms the whole batch without one reply per command.
 */
int
nft_batch_commit(struct nft_batch *b, const char *who)
{
	struct nlmsghdr	*nlh;
	uint32_t	 lastseq;
	int		 err;

	if (b->ncmd == 0) {
		nft_batch_reset(b);
		return (0);
	}
	nlh = (struct nlmsghdr *)(b->buf + b->last);
	nlh->nlmsg_flags |= NLM_F_ACK;
	lastseq = nlh->nlmsg_seq;
	if (nft_batch_room(b) == -1) {
		log_warn("%s: %s", __func__, who);
		nft_batch_reset(b);
		return (-1);
	}
	nlh = nftnl_batch_end(b->buf + b->len, nft_sock_seq(b->ns));
	b->len += NLMSG_ALIGN(nlh->nlmsg_len);
	if (mnl_socket_sendto(b->ns->nl, b->buf, b->len) < 0) {
		err = errno;
		log_warn("%s: %s: sendto %zu bytes", __func__, who, b->len);
		nft_batch_reset(b);
		errno = err;
		return (-1);
	}
	err = nft_batch_replies(b, lastseq, who);
	nft_batch_reset(b);
	if (err != 0) {
		errno = err;
		return (-1);
	}
	return (0);
}

/*
 * A get or dump: send req, hand every reply to cb.  ENOENT from the
 * kernel is returned as such and not logged: callers ask for objects
 * that may be gone.
 */
int
nft_query(struct nft_sock *ns, struct nlmsghdr *req, nft_msg_fn cb,
    void *arg)
{
	static char	 rbuf[65536];
	struct nlmsghdr	*nlh;
	const char	*why;
	ssize_t		 r;
	int		 n;
	uint32_t	 seq = req->nlmsg_seq;
	int		 err = 0, e;

	req->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(ns->nl, req, req->nlmsg_len) < 0) {
		log_warn("%s: sendto", __func__);
		return (-1);
	}
	for (;;) {
		if ((r = mnl_socket_recvfrom(ns->nl, rbuf, sizeof(rbuf))) ==
		    -1) {
			if (errno == EINTR)
				continue;
			log_warn("%s: recv", __func__);
			return (-1);
		}
		n = r;
		for (nlh = (struct nlmsghdr *)rbuf; mnl_nlmsg_ok(nlh, n);
		    nlh = mnl_nlmsg_next(nlh, &n)) {
			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_DONE)
				goto done;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				if ((e = nl_error(nlh, &why)) != 0 &&
				    e != ENOENT)
					log_warnx("%s: %s%s%s", __func__,
					    strerror(e), *why ? ": " : "",
					    why);
				if (err == 0)
					err = e;
				goto done;
			}
			if (cb(nlh, arg) == -1 && err == 0)
				err = errno ? errno : EIO;
		}
	}
 done:
	if (err != 0) {
		errno = err;
		return (-1);
	}
	return (0);
}

/* nft_query() of a get or dump of o, as nft_batch_put() takes it. */
int
nft_get(struct nft_sock *ns, uint16_t type, uint16_t flags, enum nft_kind k,
    void *o, nft_msg_fn cb, void *arg)
{
	char		 buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr	*nlh;

	nlh = nftnl_nlmsg_build_hdr(buf, type, NFPROTO_INET, flags,
	    nft_sock_seq(ns));
	nft_payload(nlh, k, o);
	nft_kind_free(k, o);
	return (nft_query(ns, nlh, cb, arg));
}

static int
nft_gen_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nftnl_gen	*gen;
	uint32_t		*id = arg;

	if ((gen = nftnl_gen_alloc()) == NULL)
		fatal("%s", __func__);
	if (nftnl_gen_nlmsg_parse(nlh, gen) < 0) {
		nftnl_gen_free(gen);
		return (-1);
	}
	*id = nftnl_gen_get_u32(gen, NFTNL_GEN_ID);
	nftnl_gen_free(gen);
	return (0);
}

/* The ruleset generation; also proves CAP_NET_ADMIN works. */
uint32_t
nft_generation(void)
{
	char		 buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr	*nlh;
	uint32_t	 id = 0;

	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETGEN, AF_UNSPEC, 0,
	    nft_sock_seq(nft_default));
	if (nft_query(nft_default, nlh, nft_gen_cb, &id) == -1)
		fatal("%s: nf_tables", __func__);
	return (id);
}

void
nft_open(void)
{
	if ((nft_default = nft_sock_open()) == NULL)
		fatalx("%s: cannot open nf_tables", __func__);
	log_debug("%s: nf_tables generation %u", __func__, nft_generation());
}
