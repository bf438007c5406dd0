/*
 * The audit lines: one per refusal and per pin, names only, never
 * more.  Written out here rather than built with jansson: a line per
 * pin is on the path of every answer, and an object, a sorted dump and
 * their allocations cost more than the rest of the answer's own work.
 * The output is what jansson's compact, key-sorted dump gives.
 *
 * Lines are kept in a buffer and logged together (log_lines: one write
 * in the foreground) at the end of the turn of the event loop, when
 * the buffer is full, and before anything they speak of happens: the
 * resolver flushes them before it sends pins to netd and before any
 * answer leaves (audit_flush).  A crash loses only lines of pins not
 * yet asked for and of answers not yet sent.
 */
#include <sys/types.h>

#include <event.h>
#include <stdio.h>
#include <syslog.h>
#include <string.h>

#include "dnspind.h"
#include "log.h"

#define AUDIT_LINE_MAX	2048
#define AUDIT_BUF	32768	/* lines kept for one write */

static char		 abuf[AUDIT_BUF];
static size_t		 alen;
static struct turnend	 aflush = TURNEND_INITIALIZER(audit_flush);

struct audit_buf {
	char	 s[AUDIT_LINE_MAX];
	size_t	 len;
	int	 over;
};

static void
audit_put(struct audit_buf *b, const char *s, size_t n)
{
	if (b->over || n >= sizeof(b->s) - b->len) {
		b->over = 1;
		return;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
}

/*
 * A JSON string: quotes, backslashes and control bytes escaped, the
 * rest as it is (names are printable ASCII: dns_wire.c).
 */
static void
audit_str(struct audit_buf *b, const char *s)
{
	char		 esc[8];
	unsigned char	 c;
	size_t		 run;

	audit_put(b, "\"", 1);
	while (*s != '\0') {
		for (run = 0; (c = s[run]) != '\0' && c >= 0x20 &&
		    c != '"' && c != '\\'; run++)
			;
		audit_put(b, s, run);
		if ((c = s[run]) == '\0')
			break;
		switch (c) {
		case '"':
		case '\\':
			esc[0] = '\\';
			esc[1] = c;
			audit_put(b, esc, 2);
			break;
		case '\b':
			audit_put(b, "\\b", 2);
			break;
		case '\f':
			audit_put(b, "\\f", 2);
			break;
		case '\n':
			audit_put(b, "\\n", 2);
			break;
		case '\r':
			audit_put(b, "\\r", 2);
			break;
		case '\t':
			audit_put(b, "\\t", 2);
			break;
		default:
			snprintf(esc, sizeof(esc), "\\u%04X", c);
			audit_put(b, esc, 6);
		}
		s += run + 1;
	}
	audit_put(b, "\"", 1);
}

/*
 * The line's JSON into out (size bytes, NUL-terminated); its length, or
 * -1 if it does not fit.
 */
ssize_t
audit_format(char *out, size_t size, const char *event, const char *sandbox,
    const char *name, const char *detail)
{
	struct audit_buf	 b;

	b.len = 0;
	b.over = 0;
	audit_put(&b, "{\"audit\":", 9);
	audit_str(&b, event);
	audit_put(&b, ",\"detail\":", 10);
	audit_str(&b, detail);
	audit_put(&b, ",\"name\":", 8);
	audit_str(&b, name);
	audit_put(&b, ",\"sandbox\":", 11);
	audit_str(&b, sandbox);
	audit_put(&b, "}", 1);
	if (b.over || b.len >= size)
		return (-1);
	memcpy(out, b.s, b.len);
	out[b.len] = '\0';
	return (b.len);
}

/* Every line kept, logged now. */
void
audit_flush(void)
{
	if (alen == 0)
		return;
	log_lines(LOG_INFO, abuf, alen);
	alen = 0;
}

void
audit_log(const char *event, const char *sandbox, const char *name,
    const char *detail)
{
	char	 line[AUDIT_LINE_MAX];
	int	 n;

	if (audit_format(line, sizeof(line), event, sandbox, name, detail) ==
	    -1)
		fatalx("%s: an audit line longer than %d bytes", __func__,
		    AUDIT_LINE_MAX);
	if (alen + sizeof("audit \n") + strlen(line) > sizeof(abuf))
		audit_flush();
	n = snprintf(abuf + alen, sizeof(abuf) - alen, "audit %s\n", line);
	alen += n;
	turnend_arm(&aflush);
}
