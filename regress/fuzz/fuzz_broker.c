/*
 * libFuzzer target for envd's broker: the input is what a sandboxed
 * client sends on its channel, through a real socket, the frame reader
 * and the JSON-RPC handler, against a policy that permits one secret of
 * two.  Every answer must be a well-formed frame, no answer may hold
 * the unpermitted secret's value, and the connection must end.
 */
#include <sys/socket.h>

#include <err.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <event.h>
#include <jansson.h>

#include "envd.h"
#include "log.h"

#define DENIED_VALUE	"fuzz-denied-value"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct sandboxd_conf	*envd_conf;
struct esandbox_tree	 esandboxes = RB_INITIALIZER(&esandboxes);

static int
esandbox_cmp(struct esandbox *a, struct esandbox *b)
{
	return (strcmp(a->id, b->id));
}

RB_GENERATE(esandbox_tree, esandbox, entry, esandbox_cmp);

/* health goes to the master; here it must at least be well formed. */
void
envd_send_master(uint32_t type, const void *data, size_t len)
{
	const struct env_health	*h = data;

	if (type != IMSG_ENV_HEALTH || len != sizeof(*h) ||
	    memchr(h->id, '\0', sizeof(h->id)) == NULL)
		abort();
}

static void
add_secret(const char *name, const char *value, int permit)
{
	struct conf_secret	*s;
	struct conf_secret_rule	*r;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		err(1, NULL);
	strlcpy(s->m.name, name, sizeof(s->m.name));
	strlcpy(s->m.value, value, sizeof(s->m.value));
	TAILQ_INSERT_TAIL(&envd_conf->secrets, s, entry);
	if (!permit)
		return;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		err(1, NULL);
	r->m.type = SECRET_RULE_PERMIT;
	strlcpy(r->m.policy, "p", sizeof(r->m.policy));
	strlcpy(r->m.name, name, sizeof(r->m.name));
	TAILQ_INSERT_TAIL(&envd_conf->secret_rules, r, entry);
}

static void
setup(void)
{
	log_init(0, LOG_DAEMON);
	event_init();
	json_object_seed(1);
	if ((envd_conf = conf_new()) == NULL)
		err(1, NULL);
	add_secret("GOOD", "fuzz-good-value", 1);
	add_secret("BAD", DENIED_VALUE, 0);
}

static size_t
count_denied(const char *buf, size_t len)
{
	const char	*p = buf, *end = buf + len;
	size_t		 n = 0, vlen = strlen(DENIED_VALUE);

	while ((p = memmem(p, end - p, DENIED_VALUE, vlen)) != NULL) {
		n++;
		p += vlen;
	}
	return (n);
}

/*
 * The answers: whole frames of JSON objects, and the denied value no
 * more often than the client itself sent it (an id is echoed back).
 */
static void
check_answers(const char *buf, size_t len, const uint8_t *in, size_t inlen)
{
	const char	*p = buf, *end = buf + len, *hdr;
	json_t		*j;
	size_t		 n;

	if (count_denied(buf, len) > count_denied((const char *)in, inlen))
		abort();
	while (p < end) {
		if ((hdr = memmem(p, end - p, "\r\n\r\n", 4)) == NULL ||
		    strncmp(p, "Content-Length: ", 16) != 0)
			abort();
		n = strtoul(p + 16, NULL, 10);
		p = hdr + 4;
		if (n > (size_t)(end - p))
			abort();
		if ((j = json_loadb(p, n, 0, NULL)) == NULL ||
		    !json_is_object(j))
			abort();
		json_decref(j);
		p += n;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int	 ready;
	static char	 out[1 << 20];
	struct esandbox	*sb;
	size_t		 got = 0;
	ssize_t		 n;
	int		 sp[2], i;

	if (!ready) {
		setup();
		ready = 1;
	}
	if (size > 128 * 1024)
		return (0);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == -1)
		err(1, "socketpair");
	if ((sb = calloc(1, sizeof(*sb))) == NULL)
		err(1, NULL);
	strlcpy(sb->id, "00000000000000f0", sizeof(sb->id));
	strlcpy(sb->policy, "p", sizeof(sb->policy));
	sb->listen_fd = -1;
	TAILQ_INIT(&sb->conns);
	TAILQ_INIT(&sb->exposed);
	broker_conn_new(sb, sp[0], 1);
	/* Feed and drain until envd is done with it: it closes, or waits. */
	if (write(sp[1], data, size) != (ssize_t)size)
		err(1, "write");
	shutdown(sp[1], SHUT_WR);
	for (i = 0; i < 10000 && !TAILQ_EMPTY(&sb->conns); i++) {
		event_loop(EVLOOP_NONBLOCK);
		while ((n = recv(sp[1], out + got, sizeof(out) - got,
		    MSG_DONTWAIT)) > 0)
			got += n;
		if (got == sizeof(out))
			abort();
	}
	if (!TAILQ_EMPTY(&sb->conns))
		abort();
	while ((n = recv(sp[1], out + got, sizeof(out) - got,
	    MSG_DONTWAIT)) > 0)
		got += n;
	check_answers(out, got, data, size);
	close(sp[1]);
	broker_sandbox_free(sb);
	return (0);
}
