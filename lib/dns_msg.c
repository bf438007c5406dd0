/*
 * The IMSG_DNS_* payloads are checked by the master before it relays
 * them and again by their receiver; pin requests, which go from
 * dnspind to netd on a channel of their own, by netd alone.
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <stdio.h>
#include <string.h>

#include "dns_msg.h"
#include "sbx_msg.h"

static int
dns_fail(char *err, size_t len, const char *what)
{
	snprintf(err, len, "malformed %s message", what);
	return (-1);
}

int
dns_check_socket(const struct dns_socket *m, char *err, size_t len)
{
	if (m->proto != IPPROTO_UDP && m->proto != IPPROTO_TCP)
		return (dns_fail(err, len, "dns socket"));
	return (0);
}

int
dns_check_sandbox(const struct dns_sandbox *m, char *err, size_t len)
{
	if (sbx_check_id(m->id, sizeof(m->id)) == -1 ||
	    memchr(m->policy, '\0', sizeof(m->policy)) == NULL ||
	    m->policy[0] == '\0')
		return (dns_fail(err, len, "dns sandbox"));
	return (0);
}

static int
dns_check_answers(const struct dns_pin_answer *a, uint32_t n)
{
	uint32_t	 i;

	if (n == 0 || n > DNS_PIN_ANSWERS)
		return (-1);
	for (i = 0; i < n; i++)
		if (sbx_check_id(a[i].id, sizeof(a[i].id)) == -1 ||
		    a[i].error < 0)
			return (-1);
	return (0);
}

/* Every pin well formed and of an answer; every answer with a pin. */
int
dns_check_pin_req(const struct dns_pin_req *m, char *err, size_t len)
{
	uint8_t		 has[DNS_PIN_ANSWERS];
	uint32_t	 i;

	if (dns_check_answers(m->answers, m->nanswers) == -1 ||
	    m->count == 0 || m->count > DNS_PIN_MAX)
		return (dns_fail(err, len, "dns pin"));
	memset(has, 0, sizeof(has));
	for (i = 0; i < m->count; i++) {
		if ((m->pins[i].af != AF_INET && m->pins[i].af != AF_INET6) ||
		    (m->pins[i].proto != IPPROTO_TCP &&
		    m->pins[i].proto != IPPROTO_UDP) ||
		    m->pins[i].port == 0 || m->pins[i].ttl == 0 ||
		    m->pins[i].answer >= m->nanswers)
			return (dns_fail(err, len, "dns pin"));
		has[m->pins[i].answer] = 1;
	}
	for (i = 0; i < m->nanswers; i++)
		if (!has[i])
			return (dns_fail(err, len, "dns pin"));
	return (0);
}

int
dns_check_pin_ack(const struct dns_pin_ack *m, char *err, size_t len)
{
	if (dns_check_answers(m->answers, m->nanswers) == -1)
		return (dns_fail(err, len, "dns pin ack"));
	return (0);
}
