/*
 * netd's requests.  runnerd asks for a sandbox's network before it
 * builds the sandbox and takes it down when the sandbox goes; after
 * netd or runnerd (re)starts it says which sandboxes are live, and
 * netd removes everything of ours the kernel holds for any other.
 * Links and /30s of sandboxes gone are reaped in batches off the hot
 * path (netd_reap); their rules go at once.
 */
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/tree.h>
#include <linux/sockios.h>

#include <arpa/inet.h>
#include <errno.h>
#include <event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "log.h"
#include "msgtab.h"
#include "net_msg.h"
#include "peerch.h"
#include "serve.h"

#define SERVE_REAP_MS		200	/* after the first down, or a veth */
#define SERVE_REAP_BATCH	256	/* or at once, with this many */
#define SERVE_SHOW_SIZE		65536
#define SERVE_SHOW_MAX		(4 * 1024 * 1024)

/* A sandbox with a network, as runnerd last said. */
struct live {
	RB_ENTRY(live)	 entry;
	char		 id[SBX_ID_SIZE];
	uint8_t		 tap;
	uint8_t		 prepared;	/* a link ahead of demand, no rules */
};
RB_HEAD(lives, live);

static int	 live_cmp(struct live *, struct live *);
static void	 serve_reap_soon(void);
RB_PROTOTYPE(lives, live, entry, live_cmp)
RB_GENERATE(lives, live, entry, live_cmp)

static struct netd		*nd;
static struct sandboxd_conf	*conf;
static struct lives		 lives = RB_INITIALIZER(&lives);
static size_t			 nlives;
static int			 syncing;
static struct event		 ev_reap;
static size_t			 ndown;	/* since the last reap */

static int
live_cmp(struct live *a, struct live *b)
{
	return (strcmp(a->id, b->id));
}

static struct live *
live_find(const char *id)
{
	struct live	 key;

	strlcpy(key.id, id, sizeof(key.id));
	return (RB_FIND(lives, &lives, &key));
}

static void
live_add(const char *id, uint8_t tap, uint8_t prepared)
{
	struct live	*l;

	if ((l = live_find(id)) == NULL) {
		if ((l = calloc(1, sizeof(*l))) == NULL)
			fatal("%s", __func__);
		strlcpy(l->id, id, sizeof(l->id));
		RB_INSERT(lives, &lives, l);
		nlives++;
	}
	l->tap = tap;
	l->prepared = prepared;
}

static void
live_del(const char *id)
{
	struct live	*l;

	if ((l = live_find(id)) == NULL)
		return;
	RB_REMOVE(lives, &lives, l);
	free(l);
	nlives--;
}

static void
live_clear(void)
{
	struct live	*l;

	while ((l = RB_ROOT(&lives)) != NULL) {
		RB_REMOVE(lives, &lives, l);
		free(l);
	}
	nlives = 0;
}

void
serve_conf(struct netd *n, struct sandboxd_conf *c)
{
	nd = n;
	conf = c;
}

/*
 * runnerd's answers on our channel to it (none: runnerd is gone or
 * about to sync us anew, nobody waits); a client's through the master.
 */
static void
serve_send(uint32_t type, uint32_t peerid, const void *data, size_t len)
{
	if (type == IMSG_NET_READY || type == IMSG_NET_SHOWN) {
		if (peerch_send(MSG_RUNNERD, type, peerid, -1, data, len) ==
		    -1 && errno != EAGAIN)
			fatal("%s", __func__);
		return;
	}
	if (imsgev_compose(child_iev_main(), type, peerid, 0, -1, data,
	    len) == -1)
		fatal("%s", __func__);
}

static void
serve_result(uint32_t peerid, const char *corr, int error, const char *msg)
{
	struct ctl_result	 r;

	memset(&r, 0, sizeof(r));
	strlcpy(r.corr, corr, sizeof(r.corr));
	r.error = error;
	strlcpy(r.msg, msg, sizeof(r.msg));
	serve_send(IMSG_CTL_RESULT, peerid, &r, sizeof(r));
}

/* A policy with a network block, or NULL and why. */
static const struct conf_policy *
serve_policy(const char *name, char *err, size_t len)
{
	struct conf_policy	*pol;

	if ((pol = conf_policy_find(conf, name)) == NULL)
		snprintf(err, len, "no such policy: %s", name);
	else if (!pol->m.has_network) {
		snprintf(err, len, "policy %s has no network block", name);
		pol = NULL;
	}
	return (pol);
}

/* A policy's rules for the datapath, in config order. */
static struct net_rule_msg *
serve_rules(const char *policy, size_t *n)
{
	struct conf_net_rule	*r;
	struct net_rule_msg	*v;
	size_t			 i = 0;

	*n = 0;
	TAILQ_FOREACH(r, &conf->net_rules, entry)
		if (strcmp(r->m.policy, policy) == 0)
			(*n)++;
	if (*n == 0)
		return (NULL);
	if ((v = calloc(*n, sizeof(*v))) == NULL)
		fatal("%s", __func__);
	TAILQ_FOREACH(r, &conf->net_rules, entry)
		if (strcmp(r->m.policy, policy) == 0)
			v[i++] = r->m;
	return (v);
}

/* A veth guest's IPv6 gateway is fe80::1; a tap's, its /126's first. */
static void
serve_ident(const struct netd_ident *ni, int tap, struct net_ident *o)
{
	memset(o, 0, sizeof(*o));
	strlcpy(o->ifname, ni->ifname, sizeof(o->ifname));
	o->slot = ni->slot;
	memcpy(o->guest, &ni->guest, sizeof(o->guest));
	memcpy(o->gateway, &ni->gw, sizeof(o->gateway));
	memcpy(o->guest6, &ni->guest6, sizeof(o->guest6));
	if (tap)
		memcpy(o->gateway6, &ni->gw6, sizeof(o->gateway6));
	else {
		o->gateway6[0] = 0xfe;
		o->gateway6[1] = 0x80;
		o->gateway6[15] = 1;
	}
	o->plen = NETD_PLEN;
	o->plen6 = NETD_PLEN6;
	memcpy(o->mac, ni->guest_mac, sizeof(o->mac));
}

/*
 * fd is a NETLINK_ROUTE socket opened in the sandbox's net namespace
 * (the namespace comes from it: netd never enters one) or, for a tap,
 * an open /dev/net/tun from the master.
 */
static void
serve_setup(const struct net_setup *m, int fd)
{
	const struct conf_policy	*pol;
	struct net_rule_msg		*rules = NULL;
	struct net_ready		 r;
	struct netd_ident		 ni;
	struct live			*l;
	size_t				 n;
	int				 nsfd = -1, rc = -1;

	memset(&r, 0, sizeof(r));
	strlcpy(r.id, m->id, sizeof(r.id));
	errno = 0;
	if ((pol = serve_policy(m->policy, r.msg, sizeof(r.msg))) == NULL) {
		r.error = ENOENT;
		goto done;
	}
	rules = serve_rules(pol->m.name, &n);
	if (m->prepared) {
		/* The link is there: the rules are all that is left. */
		if ((l = live_find(m->id)) == NULL || !l->prepared) {
			r.error = ENOENT;
			strlcpy(r.msg, "no network was prepared for it",
			    sizeof(r.msg));
			goto done;
		}
		rc = netd_sandbox_up(nd, m->id, &pol->m, rules, n, -1, -1,
		    &ni);
	} else if (m->tap)
		rc = netd_sandbox_tap(nd, m->id, &pol->m, rules, n, fd,
		    m->tap_uid, &ni);
	else if ((nsfd = ioctl(fd, SIOCGSKNS)) == -1)
		log_warn("%s: %s: the namespace of its socket", __func__,
		    m->id);
	else if ((rc = netd_sandbox_up(nd, m->id, &pol->m, rules, n, nsfd,
	    fd, &ni)) == 0)
		serve_reap_soon();	/* the veth's ff00::/8 route */
	if (rc == -1) {
		r.error = errno != 0 ? errno : EIO;
		snprintf(r.msg, sizeof(r.msg), "netd could not set it up: %s",
		    strerror(r.error));
	} else {
		if (!m->tap)
			netd_sandbox_carry_pins(nd, m->id, m->carry_pins);
		serve_ident(&ni, m->tap, &r.ident);
		live_add(m->id, m->tap, 0);
		log_debug("%s: %s: %s", __func__, m->id, ni.ifname);
	}
 done:
	if (nsfd != -1)
		close(nsfd);
	if (fd != -1)
		close(fd);
	free(rules);
	serve_send(IMSG_NET_READY, 0, &r, sizeof(r));
}

/* A veth for the next sandbox, in the net namespace runnerd has ready. */
static void
serve_prepare(const struct net_id *m, int fd)
{
	struct net_ready	 r;
	struct netd_ident	 ni;
	int			 nsfd = -1;

	memset(&r, 0, sizeof(r));
	strlcpy(r.id, m->id, sizeof(r.id));
	r.prepared = 1;
	errno = 0;
	if (live_find(m->id) != NULL)
		errno = EEXIST;
	else if ((nsfd = ioctl(fd, SIOCGSKNS)) == -1)
		log_warn("%s: %s: the namespace of its socket", __func__,
		    m->id);
	else if (netd_sandbox_prepare(nd, m->id, nsfd, fd, &ni) == 0) {
		serve_reap_soon();	/* the veth's ff00::/8 route */
		serve_ident(&ni, 0, &r.ident);
		live_add(m->id, 0, 1);
	}
	if (r.ident.ifname[0] == '\0') {
		r.error = errno != 0 ? errno : EIO;
		snprintf(r.msg, sizeof(r.msg), "netd could not prepare it: %s",
		    strerror(r.error));
	}
	if (nsfd != -1)
		close(nsfd);
	close(fd);
	serve_send(IMSG_NET_READY, 0, &r, sizeof(r));
}

static void
serve_reap(int fd, short event, void *arg)
{
	struct timeval	 tv = { 1, 0 };

	ndown = 0;
	if (netd_reap(nd) == -1)
		evtimer_add(&ev_reap, &tv);
}

/* A reap soon, unless one is due already. */
static void
serve_reap_soon(void)
{
	struct timeval	 tv = { 0, SERVE_REAP_MS * 1000 };

	if (!evtimer_initialized(&ev_reap))
		evtimer_set(&ev_reap, serve_reap, NULL);
	if (!evtimer_pending(&ev_reap, NULL))
		evtimer_add(&ev_reap, &tv);
}

static void
serve_teardown(const struct net_id *m)
{
	live_del(m->id);
	if (m->hold_pins)
		netd_sandbox_hold_pins(nd, m->id);
	if (netd_sandbox_down(nd, m->id) == -1) {
		if (errno != ENOENT)
			log_warn("%s: %s", __func__, m->id);
		return;
	}
	if (++ndown >= SERVE_REAP_BATCH)
		serve_reap(-1, 0, NULL);
	else
		serve_reap_soon();
}

/* A live sandbox after a restart: its identity as it was, its rules. */
static void
serve_sync(const struct net_sync *m)
{
	const struct conf_policy	*pol;
	struct net_rule_msg		*rules;
	struct netd_ident		 ni;
	char				 err[CTL_MSG_SIZE];
	size_t				 n;

	if (!syncing) {
		live_clear();
		syncing = 1;
	}
	if ((pol = serve_policy(m->setup.policy, err, sizeof(err))) == NULL) {
		log_warnx("%s: sandbox %s: %s: it loses its network",
		    __func__, m->setup.id, err);
		return;
	}
	if (!netd_ifname_ours(conf->global.ifprefix, m->ident.ifname) ||
	    ident_adopt(netd_pool(nd), m->setup.id, m->ident.slot,
	    m->ident.ifname, &ni) == -1) {
		log_warnx("%s: sandbox %s: cannot take back %s: it loses "
		    "its network", __func__, m->setup.id, m->ident.ifname);
		return;
	}
	rules = serve_rules(pol->m.name, &n);
	if (dp_sandbox_add(netd_dp(nd), &ni, &pol->m, rules, n) == -1)
		log_warnx("%s: sandbox %s: its rules could not be set again",
		    __func__, m->setup.id);
	else
		live_add(m->setup.id, m->setup.tap, 0);
	free(rules);
}

static int
serve_owned(const char *ifname, void *arg)
{
	const struct netd_ident	*ni;

	ni = ident_find_ifname(netd_pool(nd), ifname);
	return (ni != NULL && live_find(ni->id) != NULL);
}

static void
serve_sync_end(void)
{
	if (!syncing)
		live_clear();
	syncing = 0;
	if (netd_reconcile(nd, serve_owned, NULL) == -1)
		log_warnx("%s: reconcile incomplete; the next sync retries",
		    __func__);
	log_info("in sync with runnerd: %zu live sandboxes with a network",
	    nlives);
}

/*
 * dnspind's pins of several answers (a request dnsch.c checked), in one
 * netlink batch; each answer is acknowledged on its own in ack, and
 * released by dnspind when it is.  The datapath refuses a port that no
 * allow name rule of the sandbox names.
 */
void
serve_pin(const struct dns_pin_req *m, struct dns_pin_ack *ack)
{
	const struct netd_ident	*ni;
	struct dp_pin_group	 g[DNS_PIN_ANSWERS];
	struct netd_pin		 pins[DNS_PIN_MAX];
	struct live		*l;
	const struct dns_pin	*p;
	uint32_t		 a, i, n = 0;

	memset(ack, 0, sizeof(*ack));
	memset(g, 0, sizeof(g));
	memset(pins, 0, sizeof(pins));
	ack->nanswers = m->nanswers;
	memcpy(ack->answers, m->answers, sizeof(ack->answers));
	for (a = 0; a < m->nanswers; a++) {
		g[a].pins = &pins[n];
		for (i = 0; i < m->count; i++) {
			if ((p = &m->pins[i])->answer != a)
				continue;
			pins[n].af = p->af;
			pins[n].proto = p->proto;
			pins[n].port = p->port;
			pins[n].ttl = p->ttl;
			memcpy(&pins[n++].addr, p->addr, p->af == AF_INET ?
			    4 : 16);
			g[a].n++;
		}
		if ((l = live_find(m->answers[a].id)) == NULL || l->prepared ||
		    (ni = ident_find(netd_pool(nd), m->answers[a].id)) == NULL)
			g[a].error = ENOENT;
		else
			g[a].ifname = ni->ifname;
	}
	(void)dp_pin_groups(netd_dp(nd), g, m->nanswers);
	for (a = 0; a < m->nanswers; a++)
		ack->answers[a].error = g[a].error;
}

/* Pins for show, SBX_NET_PINS_MAX to a message. */
struct serve_pins {
	uint32_t		peerid;
	struct sbx_net_pins	m;
};

static void
serve_pins_flush(struct serve_pins *sp)
{
	if (sp->m.count == 0)
		return;
	serve_send(IMSG_CTL_NET_PINS, sp->peerid, &sp->m, sizeof(sp->m));
	memset(&sp->m, 0, sizeof(sp->m));
}

static void
serve_pin_show(int af, const uint8_t *addr, uint8_t proto, uint16_t port,
    uint64_t ms, void *arg)
{
	struct serve_pins	*sp = arg;
	struct sbx_net_pin	*p;

	if (port == 0 || (proto != IPPROTO_TCP && proto != IPPROTO_UDP))
		return;
	p = &sp->m.pins[sp->m.count++];
	p->af = af;
	p->proto = proto;
	p->port = port;
	p->expires_ms = ms;
	memcpy(p->addr, addr, af == AF_INET ? 4 : 16);
	if (sp->m.count == SBX_NET_PINS_MAX)
		serve_pins_flush(sp);
}

/* netd's part of `sandboxctl show`; the reply ends here. */
static void
serve_show(const struct net_id *m, uint32_t peerid)
{
	const struct netd_ident	*ni;
	struct sbx_net_info	 info;
	struct serve_pins	 sp;
	struct live		*l;
	char			*buf = NULL, *nbuf;
	size_t			 size = SERVE_SHOW_SIZE, off, chunk;
	int			 rc = -1;

	if ((l = live_find(m->id)) == NULL || l->prepared ||
	    (ni = ident_find(netd_pool(nd), m->id)) == NULL) {
		serve_result(peerid, m->corr, ENOENT, "netd holds no network "
		    "for this sandbox");
		return;
	}
	memset(&info, 0, sizeof(info));
	strlcpy(info.id, m->id, sizeof(info.id));
	info.tap = l->tap;
	serve_ident(ni, l->tap, &info.ident);
	memcpy(info.resolver, &conf->global.resolver.addr.v4,
	    sizeof(info.resolver));
	(void)dp_counter_read(netd_dp(nd), ni->ifname, &info.packets,
	    &info.bytes);
	serve_send(IMSG_CTL_NET_INFO, peerid, &info, sizeof(info));
	memset(&sp, 0, sizeof(sp));
	sp.peerid = peerid;
	if (dp_show_pins(netd_dp(nd), ni->ifname, serve_pin_show, &sp) == -1)
		log_warn("%s: %s: pins", __func__, m->id);
	serve_pins_flush(&sp);
	for (;;) {
		if ((nbuf = realloc(buf, size)) == NULL)
			fatal("%s", __func__);
		buf = nbuf;
		if ((rc = dp_show(netd_dp(nd), ni->ifname, buf, size)) != -1 ||
		    errno != ENOSPC || size >= SERVE_SHOW_MAX)
			break;
		size *= 4;
	}
	if (rc == -1) {
		serve_result(peerid, m->corr, errno, "netd cannot read the "
		    "rules back from the kernel");
		free(buf);
		return;
	}
	for (off = 0; off < (size_t)rc; off += chunk) {
		chunk = (size_t)rc - off;
		if (chunk > SBX_OUTPUT_MAX)
			chunk = SBX_OUTPUT_MAX;
		serve_send(IMSG_CTL_NET_RULES, peerid, buf + off, chunk);
	}
	free(buf);
	serve_result(peerid, m->corr, 0, "");
}

/*
 * From runnerd on our channel, checked against the table (lib/msgtab.c)
 * by peerch.c first: every unprepared setup comes with an fd, a tap's
 * being the master's /dev/net/tun that runnerd passes on.
 */
int
serve_dispatch(struct imsg *imsg)
{
	struct net_setup	*setup;
	struct net_id		*id;
	uint32_t		 type = imsg_get_type(imsg);

	switch (type) {
	case IMSG_NET_SETUP:
		setup = IMSG_PAYLOAD(imsg, struct net_setup);
		if ((imsg->fd == -1) != (setup->prepared != 0))
			return (-1);
		serve_setup(setup, imsg_get_fd(imsg));
		break;
	case IMSG_NET_PREPARE:
		serve_prepare(IMSG_PAYLOAD(imsg, struct net_id),
		    imsg_get_fd(imsg));
		break;
	case IMSG_NET_TEARDOWN:
	case IMSG_NET_SHOW:
		id = IMSG_PAYLOAD(imsg, struct net_id);
		if (type == IMSG_NET_TEARDOWN)
			serve_teardown(id);
		else {
			serve_show(id, imsg_get_peerid(imsg));
			/* runnerd ends it for us if we die before this. */
			serve_send(IMSG_NET_SHOWN, imsg_get_peerid(imsg), id,
			    sizeof(*id));
		}
		break;
	case IMSG_NET_SYNC:
		serve_sync(IMSG_PAYLOAD(imsg, struct net_sync));
		break;
	case IMSG_NET_SYNC_END:
		serve_sync_end();
		break;
	default:
		return (-1);
	}
	return (0);
}

/* A clean stop: what is down is reaped; the live keep their network. */
void
serve_shutdown(void)
{
	if (nd != NULL)
		(void)netd_reap(nd);
}
