/* Strict UTF-8 validation, as RFC 3629 defines the encoding. */
#include "utf8.h"

size_t
utf8_seqlen(const char *str, size_t len)
{
	const unsigned char	*s = (const unsigned char *)str;
	unsigned char		 lo = 0x80, hi = 0xbf;
	size_t			 n, k;

	if (len == 0)
		return (0);
	if (s[0] < 0x80)
		return (1);
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* overlong */
		if (s[0] == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		if (s[0] == 0xf0)
			lo = 0x90;	/* overlong */
		if (s[0] == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else
		return (0);
	if (n > len || s[1] < lo || s[1] > hi)
		return (0);
	for (k = 2; k < n; k++)
		if ((s[k] & 0xc0) != 0x80)
			return (0);
	return (n);
}

int
utf8_valid(const char *s, size_t len)
{
	size_t	 n;

	while (len > 0) {
		if ((n = utf8_seqlen(s, len)) == 0)
			return (0);
		s += n;
		len -= n;
	}
	return (1);
}
