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
 * The walk dns_name_get() and dns_name_copy() share: the labels of the
 * name at start, one after the other, compression pointers followed
 * under the rules above.
 */
struct dns_walk {
	const uint8_t	*msg;
	size_t		 len;
	size_t		 pos;		/* the current label's length byte */
	size_t		 seg;		/* the start of the current run */
	size_t		 end;		/* past the first pointer, if any */
	unsigned int	 hops;
	int		 flags;
};

static void
dns_walk_start(struct dns_walk *w, const uint8_t *msg, size_t len,
    size_t start, int flags)
{
	w->msg = msg;
	w->len = len;
	w->pos = w->seg = start;
	w->end = 0;
	w->hops = 0;
	w->flags = flags;
}

/*
 * The length of the next label, whose bytes follow w->pos (0: the root,
 * the name's end), past any pointers; DNS_OK or an error.
 */
static int
dns_walk_label(struct dns_walk *w, uint8_t *lab)
{
	size_t	 ptr;
	uint8_t	 c;

	for (;;) {
		if (w->pos >= w->len)
			return (DNS_E_NAME_TRUNC);
		if (((c = w->msg[w->pos]) & 0xc0) != 0xc0)
			break;
		if (w->flags & DNS_NAME_NOPTR)
			return (DNS_E_PTR_QUERY);
		if (w->pos + 1 >= w->len)
			return (DNS_E_NAME_TRUNC);
		ptr = (size_t)(c & 0x3f) << 8 | w->msg[w->pos + 1];
		if (ptr >= w->seg || ptr < DNS_HDR_LEN)
			return (DNS_E_PTR);
		if (++w->hops > DNS_PTR_HOPS)
			return (DNS_E_PTR_HOPS);
		if (w->end == 0)
			w->end = w->pos + 2;
		w->pos = w->seg = ptr;
	}
	if (c > DNS_LABEL_MAX)
		return (DNS_E_LABEL);
	if (c != 0 && c >= w->len - w->pos)
		return (DNS_E_NAME_TRUNC);
	*lab = c;
	return (DNS_OK);
}

/* Where the name ends in the message, once the root label is read. */
static size_t
dns_walk_end(const struct dns_walk *w)
{
	return (w->end != 0 ? w->end : w->pos + 1);
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
	struct dns_walk	 w;
	size_t		 n = 0, i;
	int		 clean = 1, e;
	uint8_t		 c;

	dns_walk_start(&w, msg, len, *off, flags);
	for (;;) {
		if ((e = dns_walk_label(&w, &c)) != DNS_OK)
			return (e);
		if (c == 0)
			break;
		if (n + (n > 0) + c > DNS_NAME_MAX)
			return (DNS_E_NAME_LEN);
		if (n > 0)
			out[n++] = '.';
		for (i = 1; i <= c; i++)
			clean &= label_char(msg[w.pos + i], &out[n++]);
		w.pos += 1 + c;
	}
	out[n] = '\0';
	*off = dns_walk_end(&w);
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
	struct dns_walk	 w;
	size_t		 n = 0;
	int		 e;
	uint8_t		 c;

	dns_walk_start(&w, msg, len, *off, 0);
	for (;;) {
		if ((e = dns_walk_label(&w, &c)) != DNS_OK)
			return (e);
		/* 255 on the wire: the 253 dotted and two length bytes. */
		if (n + 1 + c > DNS_NAME_MAX + 2)
			return (DNS_E_NAME_LEN);
		if (outsz - *outoff < n + 1 + c)
			return (DNS_E_SIZE);
		memcpy(out + *outoff + n, msg + w.pos, 1 + c);
		n += 1 + c;
		if (c == 0)
			break;
		w.pos += 1 + c;
	}
	*outoff += n;
	*off = dns_walk_end(&w);
	return (DNS_OK);
}
