/*
 * The IMSG_NET_* payloads are checked by the master before it relays
 * them and again by their receiver: exact sizes, NUL-terminated
 * strings, ids that are ids, identities that are well formed.
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <stdio.h>
#include <string.h>

#include "net_msg.h"
#include "sbx_msg.h"

static int
net_fail(char *err, size_t len, const char *what)
{
	snprintf(err, len, "malformed %s message", what);
	return (-1);
}

int
net_check_setup(const struct net_setup *m, char *err, size_t len)
{
	if (sbx_check_corr(m->corr, sizeof(m->corr)) == -1 ||
	    sbx_check_id(m->id, sizeof(m->id)) == -1 ||
	    memchr(m->policy, '\0', sizeof(m->policy)) == NULL ||
	    m->policy[0] == '\0' || m->tap > 1 || m->prepared > 1 ||
	    m->carry_pins > 1 || (m->tap && (m->prepared || m->carry_pins)))
		return (net_fail(err, len, "net setup"));
	return (0);
}

int
net_check_id(const struct net_id *m, char *err, size_t len)
{
	if (sbx_check_corr(m->corr, sizeof(m->corr)) == -1 ||
	    sbx_check_id(m->id, sizeof(m->id)) == -1 || m->hold_pins > 1)
		return (net_fail(err, len, "net id"));
	return (0);
}

/* An interface name: 1 to 15 of [a-z0-9], as netd makes them. */
int
net_check_ident(const struct net_ident *ni)
{
	size_t	 i, n;

	n = strnlen(ni->ifname, sizeof(ni->ifname));
	if (n == 0 || n == sizeof(ni->ifname))
		return (-1);
	for (i = 0; i < n; i++)
		if (strchr("abcdefghijklmnopqrstuvwxyz0123456789",
		    ni->ifname[i]) == NULL)
			return (-1);
	if (ni->plen > 32 || ni->plen6 > 128)
		return (-1);
	return (0);
}

int
net_check_ready(const struct net_ready *m, char *err, size_t len)
{
	if (sbx_check_id(m->id, sizeof(m->id)) == -1 || m->prepared > 1 ||
	    memchr(m->msg, '\0', sizeof(m->msg)) == NULL ||
	    (m->error == 0 && net_check_ident(&m->ident) == -1) ||
	    m->error < 0)
		return (net_fail(err, len, "net ready"));
	return (0);
}

int
net_check_sync(const struct net_sync *m, char *err, size_t len)
{
	if (net_check_setup(&m->setup, err, len) == -1 ||
	    net_check_ident(&m->ident) == -1)
		return (net_fail(err, len, "net sync"));
	return (0);
}

int
net_check_info(const struct sbx_net_info *m, char *err, size_t len)
{
	if (sbx_check_id(m->id, sizeof(m->id)) == -1 || m->tap > 1 ||
	    net_check_ident(&m->ident) == -1)
		return (net_fail(err, len, "net info"));
	return (0);
}

int
net_check_pins(const struct sbx_net_pins *m, char *err, size_t len)
{
	uint32_t	 i;

	if (m->count == 0 || m->count > SBX_NET_PINS_MAX)
		return (net_fail(err, len, "net pins"));
	for (i = 0; i < m->count; i++)
		if ((m->pins[i].af != AF_INET && m->pins[i].af != AF_INET6) ||
		    (m->pins[i].proto != IPPROTO_TCP &&
		    m->pins[i].proto != IPPROTO_UDP) || m->pins[i].port == 0)
			return (net_fail(err, len, "net pins"));
	return (0);
}

int
net_check_rules(const char *p, size_t n, char *err, size_t len)
{
	size_t	 i;

	if (n == 0 || n > SBX_OUTPUT_MAX)
		return (net_fail(err, len, "net rules"));
	for (i = 0; i < n; i++)
		if ((p[i] < ' ' || p[i] > '~') && p[i] != '\n' &&
		    p[i] != '\t')
			return (net_fail(err, len, "net rules"));
	return (0);
}
