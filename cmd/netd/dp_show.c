/*
 * A sandbox's effective rules, read back from the kernel's sets and
 * written as the per-sandbox chains they are equivalent to: what
 * sandboxctl show prints.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <net/if.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "dp.h"

struct dp_view {
	char		 ifname[IFNAMSIZ];
	struct dp_elem	*v[DS_MAX];
	size_t		 n[DS_MAX];
	int		 err;
};

struct dp_out {
	char		*buf;
	size_t		 size, off;
};

static void __attribute__((format(printf, 2, 3)))
dp_out(struct dp_out *o, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->off, o->off < o->size ? o->size - o->off :
	    0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->off += n;
}

static int
dp_view_elem(struct dp *dp, const struct dp_elem *e, void *arg)
{
	struct dp_view	*w = arg;
	struct dp_elem	*v;
	char		 ifname[IFNAMSIZ];

	dp_elem_ifname(e, ifname);
	if (strcmp(ifname, w->ifname) != 0)
		return (0);
	if ((v = reallocarray(w->v[e->set], w->n[e->set] + 1,
	    sizeof(*v))) == NULL)
		return (-1);
	v[w->n[e->set]++] = *e;
	w->v[e->set] = v;
	return (0);
}

static const char *
dp_addr(int af, const uint8_t *a, char *buf, size_t len)
{
	if (inet_ntop(af, a, buf, len) == NULL)
		strlcpy(buf, "?", len);
	return (buf);
}

static const char *
dp_proto(uint8_t p)
{
	return (p == IPPROTO_TCP ? "tcp" : p == IPPROTO_UDP ? "udp" : "?");
}

/*
 * An element of a host, pin, cidr or from set, read from its key: past
 * the interface name the address, then a register each for protocol
 * and port (host, pin) or one for the prefix length (cidr, from).
 */
struct dp_key {
	int		 af;
	const uint8_t	*addr;
	uint8_t		 proto;
	uint16_t	 port;		/* host order */
	uint32_t	 plen;
};

static void
dp_key(const struct dp_elem *e, struct dp_key *k)
{
	const uint8_t	*next;
	uint16_t	 port;
	int		 v4 = e->set == DS_HOST4 || e->set == DS_PIN4 ||
			    e->set == DS_CIDR4 || e->set == DS_FROM4;

	memset(k, 0, sizeof(*k));
	k->af = v4 ? AF_INET : AF_INET6;
	k->addr = e->key + DP_IFLEN;
	next = k->addr + (v4 ? 4 : 16);
	if (e->set == DS_CIDR4 || e->set == DS_CIDR6 ||
	    e->set == DS_FROM4 || e->set == DS_FROM6)
		memcpy(&k->plen, next, sizeof(k->plen));
	else {
		k->proto = next[0];
		memcpy(&port, next + 4, sizeof(port));
		k->port = ntohs(port);
	}
}

/* ip daddr A tcp dport N accept, from host or pin elements */
static void
dp_show_ports(struct dp_out *o, const struct dp_view *w, int set)
{
	char		 a[INET6_ADDRSTRLEN];
	struct dp_key	 k;
	size_t		 i;

	for (i = 0; i < w->n[set]; i++) {
		dp_key(&w->v[set][i], &k);
		dp_out(o, "\t\t%s daddr %s %s dport %u accept",
		    k.af == AF_INET ? "ip" : "ip6",
		    dp_addr(k.af, k.addr, a, sizeof(a)), dp_proto(k.proto),
		    k.port);
		if (set == DS_PIN4 || set == DS_PIN6)
			dp_out(o, " # pin, expires in %llu.%03llus",
			    (unsigned long long)w->v[set][i].expires / 1000,
			    (unsigned long long)w->v[set][i].expires % 1000);
		dp_out(o, "\n");
	}
}

/* ip daddr|saddr NET/LEN accept, from cidr or from elements */
static void
dp_show_prefixes(struct dp_out *o, const struct dp_view *w, int set,
    int users, const char *dir)
{
	char		 a[INET6_ADDRSTRLEN];
	struct dp_key	 k;
	size_t		 i;

	for (i = 0; i < w->n[set]; i++) {
		dp_key(&w->v[set][i], &k);
		dp_out(o, "\t\t%s %s %s/%u accept%s\n",
		    k.af == AF_INET ? "ip" : "ip6", dir,
		    dp_addr(k.af, k.addr, a, sizeof(a)), k.plen,
		    w->n[users] ? "" : " # inactive: no users element");
	}
}

/* The head every chain shares; 0 if the chain ends there. */
static int
dp_show_head(struct dp_out *o, const struct dp_view *w, const char *dir)
{
	char	 a[INET6_ADDRSTRLEN];

	if (w->n[DS_SRC4])
		dp_out(o, "\t\tip %s != %s drop\n", dir, dp_addr(AF_INET,
		    w->v[DS_SRC4][0].key + DP_IFLEN, a, sizeof(a)));
	else
		dp_out(o, "\t\tmeta nfproto ipv4 drop # no address\n");
	if (w->n[DS_SRC6])
		dp_out(o, "\t\tip6 %s != %s drop\n", dir, dp_addr(AF_INET6,
		    w->v[DS_SRC6][0].key + DP_IFLEN, a, sizeof(a)));
	else
		dp_out(o, "\t\tmeta nfproto ipv6 drop # no address\n");
	if (w->n[DS_BLOCKED]) {
		dp_out(o, "\t\tdrop # block-all\n\t}\n");
		return (0);
	}
	dp_out(o, "\t\tct state established,related accept\n");
	return (1);
}

static void
dp_show_egress(struct dp_out *o, const struct dp_view *w)
{
	dp_out(o, "\tchain %s_egress {\n\t\t# forward: iifname \"%s\"\n",
	    w->ifname, w->ifname);
	if (!dp_show_head(o, w, "saddr"))
		return;
	dp_show_ports(o, w, DS_HOST4);
	dp_show_ports(o, w, DS_HOST6);
	dp_show_ports(o, w, DS_PIN4);
	dp_show_ports(o, w, DS_PIN6);
	dp_show_prefixes(o, w, DS_CIDR4, DS_CIDR4U, "daddr");
	dp_show_prefixes(o, w, DS_CIDR6, DS_CIDR6U, "daddr");
	if (w->n[DS_EGRESS]) {
		dp_out(o, "\t\tip daddr != { 10.0.0.0/8, 172.16.0.0/12, "
		    "192.168.0.0/16, 169.254.0.0/16 } accept\n");
		dp_out(o, "\t\tip6 daddr != { fc00::/7, fe80::/10 } "
		    "accept\n");
	}
	dp_out(o, "\t\tdrop\n\t}\n");
}

static void
dp_show_ingress(struct dp_out *o, const struct dp_view *w)
{
	dp_out(o, "\tchain %s_ingress {\n\t\t# forward, output: oifname "
	    "\"%s\"\n", w->ifname, w->ifname);
	if (!dp_show_head(o, w, "daddr"))
		return;
	if (w->n[DS_INBOUND])
		dp_out(o, "\t\taccept\n");
	dp_show_prefixes(o, w, DS_FROM4, DS_FROM4U, "saddr");
	dp_show_prefixes(o, w, DS_FROM6, DS_FROM6U, "saddr");
	dp_out(o, "\t\tdrop\n\t}\n");
}

static void
dp_show_host(struct dp_out *o, struct dp *dp, const struct dp_view *w)
{
	char	 r[INET_ADDRSTRLEN];

	dp_out(o, "\tchain %s_host {\n\t\t# input: iifname \"%s\"\n",
	    w->ifname, w->ifname);
	if (!dp_show_head(o, w, "saddr"))
		return;
	dp_addr(AF_INET, (const uint8_t *)&dp->p.resolver, r, sizeof(r));
	dp_out(o, "\t\tip daddr %s udp dport 53 accept\n", r);
	dp_out(o, "\t\tip daddr %s tcp dport 53 accept\n", r);
	dp_out(o, "\t\tdrop\n\t}\n");
}

static void
dp_show_ident(struct dp_out *o, const struct netd_ident *ni)
{
	char		 g[INET_ADDRSTRLEN], gw[INET_ADDRSTRLEN];
	char		 g6[INET6_ADDRSTRLEN];
	const uint8_t	*m = ni->guest_mac;

	inet_ntop(AF_INET, &ni->guest, g, sizeof(g));
	inet_ntop(AF_INET, &ni->gw, gw, sizeof(gw));
	inet_ntop(AF_INET6, &ni->guest6, g6, sizeof(g6));
	dp_out(o, "# sandbox %s interface %s\n", ni->id, ni->ifname);
	dp_out(o, "# guest %s/%d gateway %s mac "
	    "%02x:%02x:%02x:%02x:%02x:%02x\n", g, NETD_PLEN, gw,
	    m[0], m[1], m[2], m[3], m[4], m[5]);
	dp_out(o, "# guest %s/%d\n", g6, NETD_PLEN6);
}

/*
 * Render into buf (NUL-terminated); the length, or -1 with ENOENT if
 * the kernel holds nothing of this sandbox, ENOSPC if buf is too small.
 */
int
dp_show(struct dp *dp, const char *ifname, char *buf, size_t size)
{
	struct dp_view	 w;
	struct dp_out	 o = { buf, size, 0 };
	struct dp_sbx	*sbx;
	uint64_t	 pkts, bytes;
	size_t		 total = 0;
	int		 set, rc = 0, ctr;

	memset(&w, 0, sizeof(w));
	strlcpy(w.ifname, ifname, sizeof(w.ifname));
	for (set = 0; set < DS_MAX && rc == 0; set++) {
		rc = dp_dump_set(dp, set, dp_view_elem, &w);
		total += w.n[set];
	}
	ctr = rc == 0 && dp_counter_read(dp, ifname, &pkts, &bytes) == 0;
	if (rc == 0 && total == 0 && !ctr) {
		errno = ENOENT;
		rc = -1;
	}
	if (rc == 0) {
		if (size > 0)
			buf[0] = '\0';
		if ((sbx = dp_sbx_find(dp, ifname)) != NULL)
			dp_show_ident(&o, &sbx->ident);
		dp_out(&o, "table inet %s {\n", NETD_TABLE);
		dp_show_egress(&o, &w);
		dp_show_ingress(&o, &w);
		dp_show_host(&o, dp, &w);
		if (ctr)
			dp_out(&o, "\tcounter %s {\n\t\tpackets %llu bytes "
			    "%llu\n\t}\n", ifname, (unsigned long long)pkts,
			    (unsigned long long)bytes);
		dp_out(&o, "}\n");
	}
	for (set = 0; set < DS_MAX; set++)
		free(w.v[set]);
	if (rc == 0 && o.off >= size) {
		errno = ENOSPC;
		rc = -1;
	}
	return (rc == 0 ? (int)o.off : -1);
}

/*
 * A sandbox's live pins as the kernel holds them, with the time each
 * has left: fn(af, addr, proto, port (host order), ms, arg) for each.
 */
int
dp_show_pins(struct dp *dp, const char *ifname, dp_pin_fn fn, void *arg)
{
	static const int sets[] = { DS_PIN4, DS_PIN6 };
	struct dp_view	 w;
	struct dp_key	 k;
	size_t		 i, j;
	int		 rc = 0;

	memset(&w, 0, sizeof(w));
	strlcpy(w.ifname, ifname, sizeof(w.ifname));
	for (j = 0; j < 2 && rc == 0; j++)
		rc = dp_dump_set(dp, sets[j], dp_view_elem, &w);
	for (j = 0; j < 2 && rc == 0; j++) {
		for (i = 0; i < w.n[sets[j]]; i++) {
			dp_key(&w.v[sets[j]][i], &k);
			fn(k.af, k.addr, k.proto, k.port,
			    w.v[sets[j]][i].expires, arg);
		}
	}
	for (j = 0; j < DS_MAX; j++)
		free(w.v[j]);
	return (rc);
}
