/*
 * The name allowlist.  Patterns are the names of `allow name` rules as
 * lib/conf.c checked them: lowercase LDH names, or "*.D".  An exact
 * pattern matches the same name in any case, with or without a
 * trailing dot.  "*.D" matches by the anchor rule only: at least one
 * non-empty label, then ".D" ending the name; never D itself, never
 * "notD", never "D.evil.com".
 */
#include <string.h>

#include "dns.h"

static int
lower(int c)
{
	return (c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

static int
same(const char *a, const char *b, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
			return (0);
	return (1);
}

/* The length of s without one trailing dot. */
static size_t
name_len(const char *s)
{
	size_t	 n = strlen(s);

	return (n > 0 && s[n - 1] == '.' ? n - 1 : n);
}

/* No empty label: not "", ".a", "a..b" nor (after one is cut) "a.". */
static int
name_ok(const char *s, size_t n)
{
	size_t	 i;

	if (n == 0 || s[0] == '.' || s[n - 1] == '.')
		return (0);
	for (i = 1; i < n; i++)
		if (s[i] == '.' && s[i - 1] == '.')
			return (0);
	return (1);
}

/* Whether name matches pattern, exact or "*.D". */
int
dns_name_match(const char *pattern, const char *name)
{
	size_t		 pl = name_len(pattern), nl = name_len(name), dl;
	const char	*d;

	if (!name_ok(name, nl) || pl == 0)
		return (0);
	if (pl >= 2 && pattern[0] == '*' && pattern[1] == '.') {
		d = pattern + 2;
		dl = pl - 2;
		/* "x.D" at the least; name_ok makes x a whole label. */
		if (dl == 0 || nl < dl + 2 || name[nl - dl - 1] != '.')
			return (0);
		return (same(name + nl - dl, d, dl));
	}
	return (nl == pl && same(name, pattern, nl));
}

static int
port_cmp(const struct dns_port *a, uint16_t port, uint8_t proto)
{
	if (a->port != port)
		return (a->port < port ? -1 : 1);
	if (a->proto != proto)
		return (a->proto < proto ? -1 : 1);
	return (0);
}

/*
 * The union of the ports of every name rule that matches name, sorted
 * by port then protocol, into out.  Rules of other types are skipped
 * and the policy field is not looked at: pass one policy's rules.  The
 * count, or -1 if more than outmax (nrules is always enough).
 */
ssize_t
dns_name_ports(const struct net_rule_msg *rules, size_t nrules,
    const char *name, struct dns_port *out, size_t outmax)
{
	size_t	 i, j, n = 0;
	int	 c = 1;

	for (i = 0; i < nrules; i++) {
		if (rules[i].type != NET_RULE_NAME ||
		    !dns_name_match(rules[i].name, name))
			continue;
		for (j = 0; j < n; j++)
			if ((c = port_cmp(&out[j], rules[i].port,
			    rules[i].proto)) >= 0)
				break;
		if (j < n && c == 0)
			continue;
		if (n == outmax)
			return (-1);
		memmove(&out[j + 1], &out[j], (n - j) * sizeof(*out));
		out[j].port = rules[i].port;
		out[j].proto = rules[i].proto;
		n++;
	}
	return (n);
}
