/*
 * A sandbox's network as `show` prints it: the identity (what a VMM
 * needs for a tap), the egress counter, the live pins with the time
 * each has left, then the rules netd read back from the kernel, in nft
 * syntax.  With -j it is one "sandbox.network" object, the pins as an
 * array and the rules text included.  If netd cannot answer, a line (an
 * object with "available": false) says so.
 */
#include <arpa/inet.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_msg.h"
#include "sandboxctl.h"

static json_t	*net_json;
static char	*net_rules;
static size_t	 net_rules_len;
static json_t	*net_pins;
static size_t	 net_npins;
static int	 net_rules_begun;

static void
net_addr(int af, const void *a, char *buf, size_t len)
{
	if (inet_ntop(af, a, buf, len) == NULL)
		strlcpy(buf, "?", len);
}

static void
net_mac(const uint8_t *m, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
	    m[3], m[4], m[5]);
}

/* The identity's fields, for both ps/show -j and the network object. */
json_t *
net_ident_json(const struct net_ident *ni, int tap)
{
	char	 g[INET6_ADDRSTRLEN], gw[INET6_ADDRSTRLEN];
	char	 g6[INET6_ADDRSTRLEN], gw6[INET6_ADDRSTRLEN], mac[18];

	net_addr(AF_INET, ni->guest, g, sizeof(g));
	net_addr(AF_INET, ni->gateway, gw, sizeof(gw));
	net_addr(AF_INET6, ni->guest6, g6, sizeof(g6));
	net_addr(AF_INET6, ni->gateway6, gw6, sizeof(gw6));
	net_mac(ni->mac, mac, sizeof(mac));
	return (json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:i, s:s}",
	    "kind", tap ? "tap" : "veth", "interface", ni->ifname,
	    "guest", g, "gateway", gw, "prefix", ni->plen, "guest6", g6,
	    "gateway6", gw6, "prefix6", ni->plen6, "mac", mac));
}

void
show_net_info(const struct sbx_net_info *m)
{
	const struct net_ident	*ni = &m->ident;
	char			 g[INET6_ADDRSTRLEN], gw[INET6_ADDRSTRLEN];
	char			 r[INET6_ADDRSTRLEN], mac[18];
	char			 why[64];

	if (net_check_info(m, why, sizeof(why)) == -1)
		ctl_fail("protocol", "%s", why);
	net_addr(AF_INET, m->resolver, r, sizeof(r));
	if (json) {
		json_decref(net_json);
		net_json = net_ident_json(ni, m->tap);
		json_object_set_new(net_json, "event",
		    json_string("sandbox.network"));
		json_object_set_new(net_json, "id", json_string(m->id));
		json_object_set_new(net_json, "resolver", json_string(r));
		json_object_set_new(net_json, "packets",
		    json_integer((json_int_t)m->packets));
		json_object_set_new(net_json, "bytes",
		    json_integer((json_int_t)m->bytes));
		return;
	}
	net_mac(ni->mac, mac, sizeof(mac));
	printf("network:        %s %s\n", m->tap ? "tap" : "veth",
	    ni->ifname);
	net_addr(AF_INET, ni->guest, g, sizeof(g));
	net_addr(AF_INET, ni->gateway, gw, sizeof(gw));
	printf("guest:          %s/%u gateway %s mac %s\n", g, ni->plen, gw,
	    mac);
	net_addr(AF_INET6, ni->guest6, g, sizeof(g));
	net_addr(AF_INET6, ni->gateway6, gw, sizeof(gw));
	printf("guest6:         %s/%u gateway %s\n", g, ni->plen6, gw);
	printf("resolver:       %s\n", r);
	printf("egress:         %llu packets, %llu bytes\n",
	    (unsigned long long)m->packets, (unsigned long long)m->bytes);
}

/* Pins come after the info and before the rules, if there are any. */
void
show_net_pins(const struct sbx_net_pins *m)
{
	const struct sbx_net_pin	*p;
	char				 a[INET6_ADDRSTRLEN], why[64];
	const char			*proto;
	uint32_t			 i;

	if (net_check_pins(m, why, sizeof(why)) == -1)
		ctl_fail("protocol", "%s", why);
	if (json && net_pins == NULL && (net_pins = json_array()) == NULL)
		ctl_fail("failed", "json");
	for (i = 0; i < m->count; i++) {
		p = &m->pins[i];
		net_addr(p->af, p->addr, a, sizeof(a));
		proto = p->proto == IPPROTO_TCP ? "tcp" : "udp";
		if (json) {
			json_array_append_new(net_pins, json_pack("{s:s, s:s, "
			    "s:i, s:I}", "address", a, "proto", proto, "port",
			    (int)p->port, "expires_ms",
			    (json_int_t)p->expires_ms));
			continue;
		}
		if (net_npins == 0)
			printf("pins:\n");
		printf("\t%s %s %u expires in %llu.%03llus\n", a, proto,
		    p->port, (unsigned long long)p->expires_ms / 1000,
		    (unsigned long long)p->expires_ms % 1000);
		net_npins++;
	}
}

void
show_net_rules(const char *p, size_t n)
{
	char	 why[64];
	char	*v;

	if (net_check_rules(p, n, why, sizeof(why)) == -1)
		ctl_fail("protocol", "%s", why);
	if (!json) {
		if (!net_rules_begun) {
			if (net_npins == 0)
				printf("pins:           none\n");
			printf("rules:\n");
			net_rules_begun = 1;
		}
		fwrite(p, 1, n, stdout);
		return;
	}
	if ((v = realloc(net_rules, net_rules_len + n + 1)) == NULL)
		ctl_fail_errno("failed", "memory");
	net_rules = v;
	memcpy(net_rules + net_rules_len, p, n);
	net_rules_len += n;
	net_rules[net_rules_len] = '\0';
}

static void
net_forget(void)
{
	json_decref(net_json);
	net_json = NULL;
	json_decref(net_pins);
	net_pins = NULL;
	free(net_rules);
	net_rules = NULL;
	net_rules_len = 0;
}

/*
 * show of a sandbox whose network netd cannot read back now (it died
 * or is restarting): said, never left out as if it had none.  What a
 * netd that died midway sent is not passed off as whole.
 */
void
show_net_unavailable(const char *id, const char *why)
{
	net_forget();
	if (!json) {
		printf("network:        unavailable: %s\n", why);
		return;
	}
	json_emit(json_pack("{s:s, s:s, s:b, s:s}", "event",
	    "sandbox.network", "id", id, "available", 0, "net_error", why));
}

/* With -j, the network object goes out whole before the result. */
void
show_net_flush(void)
{
	if (net_json == NULL)
		return;
	json_object_set_new(net_json, "pins", net_pins != NULL ? net_pins :
	    json_array());
	net_pins = NULL;
	json_object_set_new(net_json, "rules", json_string(net_rules != NULL ?
	    net_rules : ""));
	json_object_set_new(net_json, "available", json_true());
	json_emit(net_json);
	net_json = NULL;
	net_forget();
}
