/*
 * netd: network identities, links and the nftables datapath of the
 * sandboxes.  Everything goes through netlink (libmnl, libnftnl); netd
 * never runs nft(8), ip(8) or conntrack(8) and never enters another
 * namespace: what it needs of a sandbox's side arrives as an fd.
 *
 * Functions that can fail for one sandbox return -1 with errno set and
 * have logged why; only the start-up helpers kept for netd.c are fatal.
 */
#ifndef NETD_H
#define NETD_H

#include <sys/types.h>
#include <netinet/in.h>
#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "conf.h"

#define NETD_TABLE		"sandboxd"	/* table inet sandboxd */
#define NETD_ID_LEN		16		/* lowercase hex digits */
#define NETD_GUEST_IFNAME	"eth0"
#define NETD_PLEN		30
#define NETD_PLEN6		126
/*
 * The guest's IPv6 address is this /96 followed by its IPv4 address, so
 * a /30 of the node subnet is also a /126 here; masqueraded with the
 * subnet when an uplink is configured.
 */
#define NETD_V6_PREFIX		{ 0xfd, 0x73, 0x62, 0x78, 0, 0, 0, 0, \
				  0, 0, 0, 0 }
#define NETD_V6_PREFIX_LEN	96
/* The link group of retired links, deleted together by link_reap(). */
#define NETD_LINK_GRAVE		0x73627864

/* What netd takes from conf_global_msg. */
struct netd_params {
	struct in_addr	subnet;			/* network order */
	uint8_t		subnet_len;		/* 8 to 30 */
	struct in_addr	resolver;		/* DNS, on the host */
	char		ifprefix[CONF_IFPREFIX_SIZE];
	char		uplink[CONF_IFNAME_SIZE];	/* "" none */
};

/* A sandbox's network identity, all of it derived from its id. */
struct netd_ident {
	char		id[NETD_ID_LEN + 1];
	char		ifname[IFNAMSIZ];	/* host side */
	uint32_t	slot;			/* /30 index in the subnet */
	struct in_addr	net;			/* the /30 */
	struct in_addr	gw;			/* host side, first usable */
	struct in_addr	guest;			/* second usable */
	struct in6_addr	gw6, guest6;		/* the matching /126 */
	uint8_t		host_mac[6];
	uint8_t		guest_mac[6];
};

/* An address . port pin from dnspind. */
struct netd_pin {
	uint8_t		af;			/* AF_INET, AF_INET6 */
	uint8_t		proto;			/* IPPROTO_TCP, _UDP */
	uint16_t	port;			/* host order */
	union {
		struct in_addr	v4;
		struct in6_addr	v6;
	} addr;
	uint32_t	ttl;			/* seconds, > 0 */
};

/* Is this interface name owned by a live sandbox? */
typedef int	(*netd_owned_fn)(const char *ifname, void *arg);

/* params.c */
void		 netd_params_conf(struct netd_params *,
		    const struct conf_global_msg *);
void		 netd_v6_addr(struct in6_addr *, struct in_addr);
int		 netd_ifname_ours(const char *prefix, const char *ifname);

/* ident.c: the /30 pool, deterministic per id */
struct ident_pool;
struct ident_pool	*ident_pool_new(const struct netd_params *);
void			 ident_pool_free(struct ident_pool *);
int			 ident_valid_id(const char *);
/* Idempotent per id; ENOSPC when the subnet is full. */
int			 ident_acquire(struct ident_pool *, const char *,
			    struct netd_ident *);
/* Take exactly this slot and name (found in the kernel after a restart). */
int			 ident_adopt(struct ident_pool *, const char *,
			    uint32_t, const char *, struct netd_ident *);
int			 ident_release(struct ident_pool *, const char *);
const struct netd_ident	*ident_find(struct ident_pool *, const char *);
const struct netd_ident	*ident_find_ifname(struct ident_pool *,
			    const char *);
int			 ident_foreach(struct ident_pool *,
			    int (*)(const struct netd_ident *, void *), void *);
size_t			 ident_count(struct ident_pool *);
uint32_t		 ident_nslots(struct ident_pool *);
void			 ident_fill(const struct netd_params *, uint32_t,
			    struct netd_ident *);

/* nl.c: what the netlink channels share */
struct nlmsghdr;
typedef int	(*nft_msg_fn)(const struct nlmsghdr *, void *);
void		 nl_sockopts(int);
int		 nl_error(const struct nlmsghdr *, const char **);
int		 nl_talk(int, void *, size_t, uint32_t, nft_msg_fn, void *,
		    const char *);
const char	*nl_lastwhy(void);

/* nft.c: the nf_tables netlink channel and its batches */
struct nft_sock;
struct nft_batch;
/* The libnftnl object a command carries, and so how its payload is built. */
enum nft_kind {
	NK_TABLE,	/* struct nftnl_table */
	NK_CHAIN,	/* struct nftnl_chain */
	NK_RULE,	/* struct nftnl_rule */
	NK_SET,		/* struct nftnl_set, the set itself */
	NK_ELEMS,	/* struct nftnl_set, its elements */
	NK_OBJ		/* struct nftnl_obj */
};
struct nft_sock	*nft_sock_open(void);
struct nft_sock	*nft_sock_owner(void);
int		 nft_owner_adopt(int);
uint32_t	 nft_table_flags(void);
struct nft_sock	*nft_sock_default(void);

/* hostfw.c: the host's other filters that drop by policy */
void		 hostfw_start(void);
void		 nft_sock_close(struct nft_sock *);
struct nft_batch *nft_batch_new(struct nft_sock *);
void		 nft_batch_free(struct nft_batch *);
void		 nft_batch_reset(struct nft_batch *);
struct nlmsghdr	*nft_batch_msg(struct nft_batch *, uint16_t, uint16_t);
void		 nft_batch_next(struct nft_batch *);
int		 nft_batch_put(struct nft_batch *, uint16_t, uint16_t,
		    enum nft_kind, void *);
int		 nft_batch_count(struct nft_batch *);
size_t		 nft_batch_size(struct nft_batch *);
void		 nft_batch_quiet(struct nft_batch *, int);
int		 nft_batch_commit(struct nft_batch *, const char *);
int		 nft_query(struct nft_sock *, struct nlmsghdr *, nft_msg_fn,
		    void *);
int		 nft_get(struct nft_sock *, uint16_t, uint16_t, enum nft_kind,
		    void *, nft_msg_fn, void *);
uint32_t	 nft_sock_seq(struct nft_sock *);
/* What the kernel's nf_tables takes (kfeat.h), probed on first use. */
struct kfeat_nft;
const struct kfeat_nft *nft_caps(void);
int		 nft_has_destroy(void);
/* Testing: -x nft-destroy does without NFT_MSG_DESTROY* on any kernel. */
int		 nft_without(const char *);
/* The daemon's start-up probe, as before: fatal if nf_tables is closed. */
void		 nft_open(void);
uint32_t	 nft_generation(void);

/* datapath.c, dp_*.c: table inet sandboxd */
struct dp;
struct dp	*dp_open(const struct netd_params *);
void		 dp_close(struct dp *);
/* Table, sets, chains and rules; idempotent, keeps sandboxes' state. */
int		 dp_init(struct dp *);
int		 dp_drop(struct dp *);
/* Add or update one sandbox: one batch, all or nothing. */
int		 dp_sandbox_add(struct dp *, const struct netd_ident *,
		    const struct policy_msg *, const struct net_rule_msg *,
		    size_t);
/* Remove everything of one sandbox; fine if it is already gone. */
int		 dp_sandbox_del(struct dp *, const char *);
int		 dp_sandbox_known(struct dp *, const char *);
/*
 * A service's sandbox goes (before dp_sandbox_del): its pins wait,
 * out of the kernel, for the service's next sandbox of the same id.
 */
void		 dp_pins_hold(struct dp *, const char *, const char *);
/*
 * That next sandbox is added: carry, under the same policy, the pins
 * still unexpired whose port its policy names, for their time left;
 * else they are forgotten.
 */
void		 dp_pins_carry(struct dp *, const char *, const char *, int);
/* Admit address . port for ttl; a repeat restarts the ttl. */
int		 dp_pin_add(struct dp *, const char *,
		    const struct netd_pin *);
int		 dp_pin_batch(struct dp *, const char *,
		    const struct netd_pin *, size_t);
/* Some of the pins of one answer, for one sandbox. */
struct dp_pin_group {
	const char		*ifname;
	const struct netd_pin	*pins;
	size_t			 n;
	int			 error;		/* out; in: skip it */
};
int		 dp_pin_groups(struct dp *, struct dp_pin_group *, size_t);
int		 dp_counter_read(struct dp *, const char *, uint64_t *,
		    uint64_t *);
/* The sandbox's effective rules in nft syntax, as the kernel holds them. */
int		 dp_show(struct dp *, const char *, char *, size_t);
typedef void	(*dp_pin_fn)(int, const uint8_t *, uint8_t, uint16_t,
		    uint64_t, void *);
int		 dp_show_pins(struct dp *, const char *, dp_pin_fn, void *);
/*
 * Remove elements and counters of names not owned; for sandboxes this
 * dp knows, also elements their policy no longer has.
 */
int		 dp_reconcile(struct dp *, netd_owned_fn, void *);

/* link.c: veth and tap through rtnetlink */
struct rtnl;
struct rtnl	*rtnl_open(void);
struct rtnl	*rtnl_fdopen(int);	/* borrows the fd */
void		 rtnl_close(struct rtnl *);
/* Host side and a guest end named eth0 created inside netnsfd; index. */
int		 link_veth_add(struct rtnl *, const struct netd_ident *, int);
/* The host side's ff00::/8 route, once the kernel has made it. */
int		 link_mroute_del(struct rtnl *, int, const char *);
/* Guest address, eth0 and lo up, default routes; a socket from inside. */
int		 link_guest_setup(struct rtnl *, const struct netd_ident *);
/* A persistent tap owned by uid, on an already open /dev/net/tun fd. */
int		 link_tap_add(struct rtnl *, const struct netd_ident *, int,
		    uid_t);
int		 link_del(struct rtnl *, const char *);	/* 0 if absent */
/* Into the graveyard group; link_reap() deletes the group at once. */
int		 link_retire(struct rtnl *, const char *);
int		 link_reap(struct rtnl *);
typedef int	(*link_fn)(const char *, int, const struct in_addr *, void *);
/* Links named <prefix><8 hex> of kind veth or tun, with their v4 address. */
int		 link_foreach_ours(struct rtnl *, const char *, link_fn,
		    void *);

/* ct.c: conntrack through ctnetlink */
struct ct_addr {
	uint8_t		 af;
	uint8_t		 addr[16];
};
/* Delete every entry with one of these addresses; one table walk. */
int		 ct_flush(const struct ct_addr *, size_t);
int		 ct_count_addr(int, const void *);

/* sandbox.c: identity, link and datapath together */
struct netd;
struct netd	*netd_new(const struct netd_params *);
void		 netd_free(struct netd *);
struct dp	*netd_dp(struct netd *);
struct ident_pool *netd_pool(struct netd *);
int		 netd_table_init(struct netd *);
/*
 * Bring a sandbox's network up.  netnsfd and guestfd (a NETLINK_ROUTE
 * socket opened inside that netns) may be -1 for the datapath alone.
 */
int		 netd_sandbox_up(struct netd *, const char *,
		    const struct policy_msg *, const struct net_rule_msg *,
		    size_t, int, int, struct netd_ident *);
int		 netd_sandbox_prepare(struct netd *, const char *, int, int,
		    struct netd_ident *);
int		 netd_sandbox_tap(struct netd *, const char *,
		    const struct policy_msg *, const struct net_rule_msg *,
		    size_t, int, uid_t, struct netd_ident *);
/*
 * The datapath at once: the sandbox has no network from here on.  Its
 * link and /30 wait for netd_reap(), off the hot path.
 */
int		 netd_sandbox_down(struct netd *, const char *);
/* Around down and up: a service's pins across its restart (dp_pins_*). */
void		 netd_sandbox_hold_pins(struct netd *, const char *);
void		 netd_sandbox_carry_pins(struct netd *, const char *, int);
/*
 * For every sandbox down since: the links in one request, then their
 * conntrack entries, then the /30s are free again.  Also the ff00::/8
 * routes of the veths made since (link_mroute_del), as a spare's
 * setup does too.
 */
int		 netd_reap(struct netd *);
int		 netd_stop(struct netd *);
/* Elements, counters and links of ours that no owned name holds. */
int		 netd_reconcile(struct netd *, netd_owned_fn, void *);

#endif
