/*
 * Inside the datapath: the sets of table inet sandboxd, their key
 * layouts and the registry of sandboxes this netd has programmed.
 *
 * Every key starts with the 16-byte interface name (zero padded, as
 * meta iifname loads it); each further field takes whole 32-bit
 * registers: an IPv4 address 4 bytes, IPv6 16, the protocol 1 byte and
 * the port 2 (network order), each zero padded to 4; a prefix length
 * is a host-order u32.
 */
#ifndef NETD_DP_H
#define NETD_DP_H

#include <sys/tree.h>

#include <time.h>

#include "netd.h"

enum dp_set {
	DS_COUNTERS,	/* ifname : counter -- the egress byte counter */
	DS_SRC4,	/* ifname . ipv4_addr -- the sandbox's own address */
	DS_SRC6,	/* ifname . ipv6_addr */
	DS_BLOCKED,	/* ifname -- block-all */
	DS_EGRESS,	/* ifname -- egress allow */
	DS_INBOUND,	/* ifname -- inbound allow from anywhere */
	DS_HOST4,	/* ifname . ipv4_addr . inet_proto . inet_service */
	DS_HOST6,	/* ifname . ipv6_addr . inet_proto . inet_service */
	DS_PIN4,	/* as host4, with timeouts: dnspind's pins */
	DS_PIN6,
	DS_CIDR4,	/* ifname . ipv4_addr . mark: network, prefix length */
	DS_CIDR6,
	DS_CIDR4U,	/* ifname -- has cidr4 elements */
	DS_CIDR6U,
	DS_FROM4,	/* as cidr4, inbound sources */
	DS_FROM6,
	DS_FROM4U,
	DS_FROM6U,
	DS_MAX
};

/*
 * In a list of deletions, a counter object of the table rather than an
 * element: its key is the interface name.  Sorts after every set.
 */
#define DP_OBJ_COUNTER	DS_MAX

struct dp_setdef {
	const char	*name;
	uint8_t		 klen;
	uint32_t	 ktype;		/* nft's datatype ids, for nft(8) */
	uint32_t	 flags;		/* NFT_SET_* */
};
extern const struct dp_setdef	dp_sets[DS_MAX];

#define DP_IFLEN	16
#define DP_KEY_MAX	40
struct dp_elem {
	uint8_t		 set;		/* enum dp_set */
	uint8_t		 klen;
	uint8_t		 key[DP_KEY_MAX];
	uint32_t	 ttl;		/* pins: seconds, to add */
	uint64_t	 expires;	/* pins: ms left, as dumped */
	uint64_t	 timeout_ms;	/* pins: to add, when not ttl */
};

struct dp_elems {
	struct dp_elem	*v;
	size_t		 n, cap;
};

struct dp_pin {
	RB_ENTRY(dp_pin)	 entry;
	struct dp_elem		 e;
	struct timespec		 expiry;	/* CLOCK_MONOTONIC */
};
RB_HEAD(dp_pins, dp_pin);

struct dp_name {			/* an allow name rule's port */
	uint8_t		 proto;
	uint16_t	 port;
};

struct dp_sbx {
	RB_ENTRY(dp_sbx)	 entry;
	struct netd_ident	 ident;
	struct dp_elem		*elems;		/* what the policy adds */
	size_t			 nelems;
	struct dp_name		*names;
	size_t			 nnames;
	struct conf_prefix	*cidrs;		/* allow cidr: pins may go there */
	size_t			 ncidrs;
	struct dp_pins		 pins;
	size_t			 npins;
	/*
	 * Live pins it may hold, its policy's network { pins }: the sets
	 * are shared and unbounded, and one sandbox resolving random names
	 * under a wildcard must not grow the kernel's memory without end.
	 */
	size_t			 pins_max;
	time_t			 pins_pruned;	/* monotonic second */
	char			 policy[CONF_NAME_SIZE];
};
RB_HEAD(dp_sbxs, dp_sbx);

/* A service's pins between two of its sandboxes (dp_pins_hold). */
struct dp_held {
	TAILQ_ENTRY(dp_held)	 entry;
	char			 id[NETD_ID_LEN + 1];
	char			 policy[CONF_NAME_SIZE];
	struct dp_pins		 pins;
	size_t			 npins;
};
TAILQ_HEAD(dp_helds, dp_held);

struct dp {
	struct netd_params	 p;
	struct nft_sock		*ns;
	struct nft_batch	*b;
	struct dp_sbxs		 sbxs;
	struct dp_helds		 held;
	size_t			 nheld;
	int			 destroy;	/* NFT_MSG_DESTROY* in use */
	struct dp_elems		 dels;		/* deleted by this attempt */
	struct dp_elems		 gone;		/* found absent meanwhile */
};

/*
 * A run of elements for one batch: a slice of what a scan doomed, all
 * seen in the kernel just now, or pins to add again (dp_build_repin).
 */
struct dp_slice {
	const struct dp_elem	*v;
	size_t			 n;
};

typedef int	(*dp_elem_fn)(struct dp *, const struct dp_elem *, void *);
/* Fills the open batch; run again if the batch must be retried. */
typedef int	(*dp_build_fn)(struct dp *, void *);

/* What a deletion removes, for dp_del_op(). */
enum dp_del_kind {
	DD_TABLE,
	DD_CHAIN,
	DD_RULE,
	DD_SETELEM,
	DD_OBJ
};

/* Whether the caller knows that what it deletes exists (dp_put_dels). */
#define DP_ASK		0	/* netd's registry says, else the kernel */
#define DP_SEEN		1	/* just dumped from the kernel */

/* The nat chain, made only with an uplink. */
#define DP_NAT_CHAIN	"postrouting"

/* datapath.c: the table, its sets and chains */
struct nftnl_set *dp_set_new(int);
int		 dp_exists(struct dp *, uint16_t, enum nft_kind, void *);

/* dp_elem.c: element and counter commands, dumps */
int		 dp_put_elems(struct dp *, uint16_t, uint16_t,
		    const struct dp_elem *, size_t);
int		 dp_put_counter(struct dp *, uint16_t, uint16_t,
		    const char *);
int		 dp_dump_set(struct dp *, int, dp_elem_fn, void *);
int		 dp_dump_counters(struct dp *,
		    int (*)(struct dp *, const char *, uint64_t, uint64_t,
		    void *), void *);
void		 dp_elem_ifname(const struct dp_elem *, char *);
int		 dp_elem_present(struct dp *, const struct dp_elem *);

/* dp_rule.c: the chains' rules */
struct nftnl_rule *dp_rule_new(const char *);
int		 dp_put_rules(struct dp *);

/* dp_del.c: deletions, with or without NFT_MSG_DESTROY* */
uint16_t	 dp_del_op(const struct dp *, enum dp_del_kind);
int		 dp_put_dels(struct dp *, const struct dp_elem *, size_t, int);
int		 dp_commit(struct dp *, const char *, dp_build_fn, void *);
void		 dp_del_free(struct dp *);

/* dp_policy.c: a policy's elements */
uint8_t		*dp_key_start(struct dp_elem *, int, const char *);
uint8_t		*dp_key_addr(uint8_t *, int, const void *);
void		 dp_key_port(uint8_t *, uint8_t, uint16_t);
struct dp_elem	*dp_elems_add(struct dp_elems *);
int		 dp_policy_elems(const struct netd_ident *,
		    const struct policy_msg *, const struct net_rule_msg *,
		    size_t, struct dp_elems *);
int		 dp_policy_names(const struct net_rule_msg *, size_t,
		    struct dp_name **, size_t *);
int		 dp_policy_cidrs(const struct net_rule_msg *, size_t,
		    struct conf_prefix **, size_t *);

/* dp_sandbox.c: the registry of sandboxes, their addition and removal */
RB_PROTOTYPE(dp_sbxs, dp_sbx, entry, dp_sbx_cmp)
int		 dp_elem_cmp(const struct dp_elem *, const struct dp_elem *);
int		 dp_elem_qcmp(const void *, const void *);
int		 dp_elem_known(struct dp *, const struct dp_elem *,
		    const struct timespec *);
struct dp_sbx	*dp_sbx_find(struct dp *, const char *);
void		 dp_sbx_free(struct dp *, struct dp_sbx *);
void		 dp_sbx_free_all(struct dp *);
int		 dp_sandbox_del_known(struct dp *, struct dp_sbx *);

/* dp_pin.c: pins, checked against the policy and counted */
RB_PROTOTYPE(dp_pins, dp_pin, entry, dp_pin_cmp)
int		 dp_pin_elem(const struct netd_pin *, const char *,
		    struct dp_elem *);
int		 dp_pin_named(const struct dp_name *, size_t,
		    const struct dp_elem *);
const struct addrclass_range *dp_pin_blocked(const struct conf_prefix *,
		    size_t, const struct dp_elem *);
int		 dp_pin_allowed(const struct dp_sbx *, const struct dp_elem *);
void		 dp_pins_renamed(struct dp_sbx *);
int		 dp_put_pins_del(struct dp *, struct dp_sbx *);
void		 dp_pins_prune(struct dp_sbx *, const struct timespec *);
int		 dp_pins_note(struct dp_sbx *, const struct dp_elem *, uint64_t,
		    const struct timespec *);
int		 dp_build_repin(struct dp *, void *);

/* dp_held.c: a service's pins across its restart */
void		 dp_held_free_all(struct dp *);

#endif
