/*
 * Labels: short, printable and unambiguous in a table, a JSON string
 * or a shell word, so that a filter matches exactly what was set.
 */
#include <stdio.h>
#include <string.h>

#include "label.h"
#include "sandboxd_imsg.h"

static int
label_key_char(int c, int first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return (1);
	return (!first && (c == '.' || c == '-' || c == '_' || c == '/'));
}

static int
label_value_char(int c)
{
	return (label_key_char(c, 0) || c == ':' || c == '@' || c == '+' ||
	    c == ',' || c == '=');
}

int
label_check(const char *s, char *err, size_t len)
{
	const char	*eq, *p;

	if ((eq = strchr(s, '=')) == NULL || eq == s) {
		snprintf(err, len, "label %.80s: want KEY=VALUE", s);
		return (-1);
	}
	if (eq - s > LABEL_KEY_MAX || strlen(eq + 1) > LABEL_VALUE_MAX) {
		snprintf(err, len, "label %.80s: a key has at most %d bytes, "
		    "a value at most %d", s, LABEL_KEY_MAX, LABEL_VALUE_MAX);
		return (-1);
	}
	for (p = s; p < eq; p++)
		if (!label_key_char((unsigned char)*p, p == s))
			goto bad;
	for (p = eq + 1; *p != '\0'; p++)
		if (!label_value_char((unsigned char)*p))
			goto bad;
	return (0);
 bad:
	snprintf(err, len, "label %.80s: a key is letters, digits and . - _ "
	    "/ (a letter or digit first); a value also : @ + , =", s);
	return (-1);
}

/* The key of a "KEY=VALUE", for comparison: its length. */
static size_t
label_keylen(const char *s)
{
	return (strcspn(s, "="));
}

const char *
label_get(const char *buf, uint32_t n, const char *key)
{
	size_t		 klen = strlen(key);
	uint32_t	 i;

	for (i = 0; i < n; i++, buf += strlen(buf) + 1)
		if (label_keylen(buf) == klen && strncmp(buf, key, klen) == 0)
			return (buf + klen + 1);
	return (NULL);
}

int
label_add(char *buf, uint32_t *n, uint32_t *used, const char *s, char *err,
    size_t len)
{
	char		 key[LABEL_KEY_MAX + 1];
	size_t		 slen = strlen(s) + 1;

	if (label_check(s, err, len) == -1)
		return (-1);
	snprintf(key, sizeof(key), "%.*s", (int)label_keylen(s), s);
	if (label_get(buf, *n, key) != NULL) {
		snprintf(err, len, "label %s given twice", key);
		return (-1);
	}
	if (*n >= LABEL_MAX || *used + slen > SBX_LABELS_SIZE) {
		snprintf(err, len, "too many labels: at most %d, %d bytes "
		    "together", LABEL_MAX, SBX_LABELS_SIZE);
		return (-1);
	}
	memcpy(buf + *used, s, slen);
	*used += slen;
	(*n)++;
	return (0);
}

int
label_check_set(const char *buf, size_t size, uint32_t n, uint32_t used)
{
	char		 copy[SBX_LABELS_SIZE], err[128];
	const char	*p = buf, *nul;
	uint32_t	 i, cn = 0, cused = 0;

	if (n > LABEL_MAX || used > size || used > sizeof(copy) ||
	    (n == 0 && used != 0))
		return (-1);
	for (i = 0; i < n; i++) {
		if ((nul = memchr(p, '\0', buf + used - p)) == NULL)
			return (-1);
		if (label_add(copy, &cn, &cused, p, err, sizeof(err)) == -1)
			return (-1);
		p = nul + 1;
	}
	return (p == buf + used ? 0 : -1);
}
