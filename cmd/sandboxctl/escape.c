/*
 * What a sandbox writes reaches the operator's terminal through
 * sandboxctl: escape sequences in it could retitle the window, rewrite
 * what was shown, or worse, depending on the terminal.  When the output
 * is a terminal, and -r did not ask for raw bytes, control characters
 * other than newline and tab, C1 controls, the bidirectional overrides
 * and ill-formed UTF-8 are written as \xNN escapes (or \u{NNNN}).  Only
 * for the eye: a backslash is not escaped, so -r or -j give the exact
 * bytes.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "utf8.h"

#include "sandboxctl.h"

int	 raw_output;

int
esc_wanted(int fd)
{
	return (!raw_output && isatty(fd));
}

static void
esc_write_all(int fd, const char *p, size_t len)
{
	ssize_t	 n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			ctl_fail_errno("failed", "write");
		}
		p += n;
		len -= n;
	}
}

/* The code point of the well-formed sequence s[0..n). */
static unsigned long
esc_codepoint(const unsigned char *s, size_t n)
{
	unsigned long	 c;
	size_t		 i;

	if (n == 1)
		return (s[0]);
	c = s[0] & (0xff >> (n + 1));
	for (i = 1; i < n; i++)
		c = (c << 6) | (s[i] & 0x3f);
	return (c);
}

/* Shown as is: printable, or a newline or tab. */
static int
esc_harmless(unsigned long c)
{
	if (c == '\n' || c == '\t')
		return (1);
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
		return (0);
	/* Bidirectional embeddings, overrides and isolates. */
	if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
		return (0);
	return (1);
}

/* How many bytes a sequence starting with lead would take, or 0. */
static size_t
esc_lead_len(unsigned char lead)
{
	if (lead >= 0xc2 && lead <= 0xdf)
		return (2);
	if (lead >= 0xe0 && lead <= 0xef)
		return (3);
	if (lead >= 0xf0 && lead <= 0xf4)
		return (4);
	return (0);
}

/* 1 if p[0..len) could begin a sequence that the next chunk ends. */
static int
esc_cut(const unsigned char *p, size_t len)
{
	size_t	 i;

	if (esc_lead_len(p[0]) <= len)
		return (0);
	for (i = 1; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return (0);
	return (1);
}

/*
 * The escaped form of p[0..len) into out (4 * len + 1 bytes: no escape
 * is longer than 4 bytes per byte it stands for); a sequence cut by the
 * chunk's end is kept in st for the next one.
 */
static size_t
esc_chunk(struct esc_state *st, const unsigned char *p, size_t len,
    char *out)
{
	char	*o = out;
	size_t	 i, n;

	for (i = 0; i < len; i += n) {
		n = utf8_seqlen((const char *)p + i, len - i);
		if (n == 0 && esc_cut(p + i, len - i)) {
			memcpy(st->carry, p + i, len - i);
			st->ncarry = len - i;
			break;
		}
		if (n == 0) {
			o += sprintf(o, "\\x%02x", p[i]);
			n = 1;
		} else if (esc_harmless(esc_codepoint(p + i, n))) {
			memcpy(o, p + i, n);
			o += n;
		} else if (n == 1)
			o += sprintf(o, "\\x%02x", p[i]);
		else
			o += sprintf(o, "\\u{%04lx}", esc_codepoint(p + i, n));
	}
	return (o - out);
}

void
esc_write(int fd, struct esc_state *st, const char *data, size_t len)
{
	unsigned char	*in;
	char		*out;
	size_t		 n;

	if (!esc_wanted(fd)) {
		esc_write_all(fd, data, len);
		return;
	}
	if ((in = malloc(st->ncarry + len)) == NULL ||
	    (out = malloc(4 * (st->ncarry + len) + 16)) == NULL)
		ctl_fail_errno("failed", "memory");
	memcpy(in, st->carry, st->ncarry);
	memcpy(in + st->ncarry, data, len);
	n = st->ncarry + len;
	st->ncarry = 0;
	esc_write_all(fd, out, esc_chunk(st, in, n, out));
	free(in);
	free(out);
}

/* What is still carried, at the end: escaped as the bytes it is. */
void
esc_flush(int fd, struct esc_state *st)
{
	char	 out[4 * sizeof(st->carry) + 1];
	size_t	 i, n = 0;

	for (i = 0; i < st->ncarry; i++)
		n += sprintf(out + n, "\\x%02x", st->carry[i]);
	st->ncarry = 0;
	esc_write_all(fd, out, n);
}
