/*
 * The -j event stream, version JSON_VERSION: one object a line, each
 * with "v", "event" and "ts" first (sandboxctl(8), JSON OUTPUT).  An
 * exec's output is carried exactly: "data" for valid UTF-8, "data_b64"
 * for anything else, and a character cut between two chunks is held
 * back until its end arrives, so that the events concatenated give the
 * bytes the command wrote.
 */
#include <sys/time.h>

#include <err.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sbx_msg.h"
#include "utf8.h"

#include "sandboxctl.h"

FILE	*json_out;

/* RFC 3339, UTC, microseconds. */
static json_t *
jev_ts(void)
{
	struct timeval	 tv;
	struct tm	 tm;
	char		 buf[64];
	size_t		 n;

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	n = strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, sizeof(buf) - n, ".%06ldZ", (long)tv.tv_usec);
	return (json_string(buf));
}

/* o's members after v, event and ts; o is taken. */
void
json_emit(json_t *o)
{
	json_t	*e;

	if (o == NULL)
		errx(125, "%s: an event could not be built", __func__);
	if ((e = json_object()) == NULL)
		err(125, NULL);
	json_object_set_new(e, "v", json_integer(JSON_VERSION));
	json_object_set(e, "event", json_object_get(o, "event"));
	json_object_set_new(e, "ts", jev_ts());
	json_object_update(e, o);
	json_decref(o);
	if (json_out == NULL)
		json_out = stdout;
	if (json_dumpf(e, json_out, JSON_COMPACT) == -1 ||
	    fputc('\n', json_out) == EOF || fflush(json_out) == EOF)
		err(125, "write");
	json_decref(e);
}

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static json_t *
jev_b64(const unsigned char *p, size_t len)
{
	json_t		*s;
	char		*out, *o;
	uint32_t	 v;
	size_t		 i;

	if ((out = o = malloc((len + 2) / 3 * 4 + 1)) == NULL)
		err(125, NULL);
	for (i = 0; i + 2 < len; i += 3) {
		v = p[i] << 16 | p[i + 1] << 8 | p[i + 2];
		*o++ = b64[v >> 18];
		*o++ = b64[(v >> 12) & 63];
		*o++ = b64[(v >> 6) & 63];
		*o++ = b64[v & 63];
	}
	if (len - i == 1) {
		v = p[i] << 16;
		*o++ = b64[v >> 18];
		*o++ = b64[(v >> 12) & 63];
		*o++ = '=';
		*o++ = '=';
	} else if (len - i == 2) {
		v = p[i] << 16 | p[i + 1] << 8;
		*o++ = b64[v >> 18];
		*o++ = b64[(v >> 12) & 63];
		*o++ = b64[(v >> 6) & 63];
		*o++ = '=';
	}
	*o = '\0';
	s = json_string(out);
	free(out);
	return (s);
}

/* How long a sequence led by c is, or 0 if c cannot lead one. */
static size_t
jev_lead_len(unsigned char c)
{
	if (c < 0x80)
		return (1);
	if (c >= 0xc2 && c <= 0xdf)
		return (2);
	if (c >= 0xe0 && c <= 0xef)
		return (3);
	if (c >= 0xf0 && c <= 0xf4)
		return (4);
	return (0);
}

/*
 * The bytes of p[0..len) that are well-formed UTF-8 up to a tail that
 * may be the start of a character the next chunk ends: *keep is that
 * tail's length.  Returns 0 if the chunk is not such UTF-8.
 */
static int
jev_utf8(const unsigned char *p, size_t len, size_t *keep)
{
	size_t	 i, n, want, j;

	*keep = 0;
	for (i = 0; i < len; i += n) {
		if ((n = utf8_seqlen((const char *)p + i, len - i)) != 0)
			continue;
		want = jev_lead_len(p[i]);
		if (want <= len - i)
			return (0);
		for (j = i + 1; j < len; j++)
			if ((p[j] & 0xc0) != 0x80)
				return (0);
		*keep = len - i;
		return (1);
	}
	return (1);
}

static void
jev_output_event(const struct jev_stream *js, const unsigned char *p,
    size_t len, int b64only)
{
	json_t	*o, *d = NULL;
	char	 xid[SBX_EXEC_ID_SIZE];

	if (len == 0)
		return;
	if (!b64only)
		d = json_stringn((const char *)p, len);
	o = json_pack("{s:s, s:s, s:I, s:s}", "event", "output", "id",
	    js->id, "exec", (json_int_t)js->exec, "stream", js->stream);
	if (o == NULL)
		errx(125, "%s: an event could not be built", __func__);
	if (js->exec != 0) {
		sbx_format_exec_id(xid, js->id, js->exec);
		json_object_set_new(o, "exec_id", json_string(xid));
	}
	if (d != NULL)
		json_object_set_new(o, "data", d);
	else
		json_object_set_new(o, "data_b64", jev_b64(p, len));
	json_emit(o);
}

/* A chunk of a stream: what is whole goes now, a cut tail waits. */
void
jev_output(struct jev_stream *js, const char *data, size_t len)
{
	unsigned char	*buf;
	size_t		 n = js->ncarry + len, keep;

	if ((buf = malloc(n)) == NULL)
		err(125, NULL);
	memcpy(buf, js->carry, js->ncarry);
	memcpy(buf + js->ncarry, data, len);
	js->ncarry = 0;
	if (!jev_utf8(buf, n, &keep))
		jev_output_event(js, buf, n, 1);
	else {
		jev_output_event(js, buf, n - keep, 0);
		memcpy(js->carry, buf + n - keep, keep);
		js->ncarry = keep;
	}
	free(buf);
}

/* The stream is over: a tail that never got its end, as it is. */
void
jev_output_end(struct jev_stream *js)
{
	jev_output_event(js, js->carry, js->ncarry, 1);
	js->ncarry = 0;
}

/* The error event, with a stable code (see sandboxctl(8)). */
void
jev_error(const char *code, int error, const char *corr, const char *msg)
{
	json_t	*o;

	o = json_pack("{s:s, s:s, s:s, s:i}", "event", "error", "code", code,
	    "message", msg, "errno", error);
	if (o != NULL && corr != NULL && corr[0] != '\0')
		json_object_set_new(o, "corr", json_string(corr));
	json_emit(o);
}

/*
 * An error of sandboxctl itself, or one that ends the connection:
 * an error event with -j, a line on standard error without; 125.
 */
__attribute__((noreturn))
static void
ctl_fail_with(const char *code, int error, const char *msg)
{
	if (json)
		jev_error(code, error, NULL, msg);
	else
		fprintf(stderr, "sandboxctl: %s\n", msg);
	/* The command had ended (run lost its last reply): its exit stays. */
	if (ctl_last.have_exec_result) {
		show_exec_end();
		exit(ctl_last.exit_status);
	}
	exit(125);
}

void
ctl_fail(const char *code, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ctl_fail_with(code, 0, msg);
}

/* The same, with errno's text after the message and in the event. */
void
ctl_fail_errno(const char *code, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[1024];
	int	 saved = errno;
	size_t	 n;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	n = strlen(msg);
	snprintf(msg + n, sizeof(msg) - n, ": %s", strerror(saved));
	ctl_fail_with(code, saved, msg);
}
