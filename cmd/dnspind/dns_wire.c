/*
 * Names on the wire.  A name is decoded to lowercase dotted form
 * without the trailing dot ("" for the root), never longer than
 * DNS_NAME_MAX.
 *
 * Compression: every pointer must point into the message body (past the
 * header) and strictly below the start of the run of labels it ends, so
 * each jump lands lower than the last and no name can loop; a loop
 * always shows up as such a pointer.  DNS_PTR_HOPS bounds the work.
 *
 * A label may not hold a '.', a space, a control or a non-ASCII byte:
 * dotted form could not tell "a.b" as one label from two, and no name
 * that a policy can list has one.  Such a name still has its extent
 * found, so that a caller may skip the record it owns.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dns.h"

static int
label_char(uint8_t c, char *out)
{
	if (c >= 'A' && c <= 'Z') {
		*out = c - 'A' + 'a';
		return (1);
	}
	if (c <= ' ' || c >= 0x7f || c == '.') {
		*out = '?';
		return (0);
	}
	*out = c;
	return (1);
}

/*
 * The name at *off into out (DNS_NAME_MAX + 1 bytes).  On DNS_OK or
 * DNS_E_NAME_CHAR, *off is past the name where it starts in the
 * message; on other errors *off is unchanged.
 */
int
dns_name_get(const uint8_t *msg, size_t len, size_t *off, int flags,
    char *out)
{
	size_t		 pos = *off, seg = *off, end = 0, n = 0, ptr, i;
	unsigned int	 hops = 0;
	int		 clean = 1;
	uint8_t		 c;

	for (;;) {
		if (pos >= len)
			return (DNS_E_NAME_TRUNC);
		c = msg[pos];
		if ((c & 0xc0) == 0xc0) {
			if (flags & DNS_NAME_NOPTR)
				return (DNS_E_PTR_QUERY);
			if (pos + 1 >= len)
				return (DNS_E_NAME_TRUNC);
			ptr = (size_t)(c & 0x3f) << 8 | msg[pos + 1];
			if (ptr >= seg || ptr < DNS_HDR_LEN)
				return (DNS_E_PTR);
			if (++hops > DNS_PTR_HOPS)
				return (DNS_E_PTR_HOPS);
			if (end == 0)
				end = pos + 2;
			pos = seg = ptr;
			continue;
		}
		if (c > DNS_LABEL_MAX)
			return (DNS_E_LABEL);
		if (c == 0)
			break;
		if (c >= len - pos)
			return (DNS_E_NAME_TRUNC);
		if (n + (n > 0) + c > DNS_NAME_MAX)
			return (DNS_E_NAME_LEN);
		if (n > 0)
			out[n++] = '.';
		for (i = 1; i <= c; i++)
			clean &= label_char(msg[pos + i], &out[n++]);
		pos += 1 + c;
	}
	out[n] = '\0';
	*off = end != 0 ? end : pos + 1;
	return (clean ? DNS_OK : DNS_E_NAME_CHAR);
}

/*
 * The name at *off as uncompressed wire labels, bytes as they are, at
 * out + *outoff (outsz in all); *off past the name where it starts, and
 * *outoff past what was written.  Checked as dns_name_get() does.
 */
int
dns_name_copy(const uint8_t *msg, size_t len, size_t *off, uint8_t *out,
    size_t outsz, size_t *outoff)
{
	size_t		 pos = *off, seg = *off, end = 0, n = 0, ptr;
	unsigned int	 hops = 0;
	uint8_t		 c;

	for (;;) {
		if (pos >= len)
			return (DNS_E_NAME_TRUNC);
		c = msg[pos];
		if ((c & 0xc0) == 0xc0) {
			if (pos + 1 >= len)
				return (DNS_E_NAME_TRUNC);
			ptr = (size_t)(c & 0x3f) << 8 | msg[pos + 1];
			if (ptr >= seg || ptr < DNS_HDR_LEN)
				return (DNS_E_PTR);
			if (++hops > DNS_PTR_HOPS)
				return (DNS_E_PTR_HOPS);
			if (end == 0)
				end = pos + 2;
			pos = seg = ptr;
			continue;
		}
		if (c > DNS_LABEL_MAX)
			return (DNS_E_LABEL);
		if (c != 0 && c >= len - pos)
			return (DNS_E_NAME_TRUNC);
		/* 255 on the wire: the 253 dotted and two length bytes. */
		if (n + 1 + c > DNS_NAME_MAX + 2)
			return (DNS_E_NAME_LEN);
		if (outsz - *outoff < n + 1 + c)
			return (DNS_E_SIZE);
		memcpy(out + *outoff + n, msg + pos, 1 + c);
		n += 1 + c;
		if (c == 0)
			break;
		pos += 1 + c;
	}
	*outoff += n;
	*off = end != 0 ? end : pos + 1;
	return (DNS_OK);
}
