/*
 * A service's standard input and output: two pipes whose far ends go to
 * runnerd as for sandboxctl -i (services.c says why the master holds the
 * near ends), the drain that reads and drops its output while nobody is
 * attached, service attach and detach, and the tail of its stderr that
 * the crash audit line quotes.
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "services.h"

void
svc_close_stdio(struct service *s)
{
	if (s->ev_out_set) {
		event_del(&s->ev_out);
		s->ev_out_set = 0;
	}
	if (s->in_w != -1)
		close(s->in_w);
	if (s->out_r != -1)
		close(s->out_r);
	s->in_w = s->out_r = -1;
	/* A client still attached talks to an instance that is gone. */
	s->attached = 0;
}

/*
 * Nobody attached: its output is read and dropped, only counted; a few
 * reads a turn, so a service that writes without end starves no one.
 */
static void
svc_drain(int fd, short event, void *arg)
{
	struct service	*s = arg;
	char		 buf[SVC_DRAIN_BUF];
	ssize_t		 n;
	int		 i;

	for (i = 0; i < SVC_DRAIN_READS &&
	    (n = read(fd, buf, sizeof(buf))) > 0; i++)
		s->dropped += n;
	if (i == SVC_DRAIN_READS)
		return;
	if (n == 0 || (n == -1 && errno != EAGAIN && errno != EINTR)) {
		event_del(&s->ev_out);
		s->ev_out_set = 0;
	}
}

void
svc_drain_start(struct service *s)
{
	if (s->out_r == -1 || s->ev_out_set)
		return;
	event_set(&s->ev_out, s->out_r, EV_READ | EV_PERSIST, svc_drain, s);
	event_add(&s->ev_out, NULL);
	s->ev_out_set = 1;
}

/* Both pipes, their far ends to runnerd; -1 if that cannot be. */
int
svc_open_stdio(struct service *s)
{
	struct sbx_stdio	 m;
	int			 in[2], out[2];

	if (pipe2(in, O_CLOEXEC) == -1)
		return (-1);
	if (pipe2(out, O_CLOEXEC) == -1) {
		close(in[0]);
		close(in[1]);
		return (-1);
	}
	s->in_w = in[1];
	s->out_r = out[0];
	fcntl(s->out_r, F_SETFL, O_NONBLOCK);
	memset(&m, 0, sizeof(m));
	strlcpy(m.corr, s->corr, sizeof(m.corr));
	m.which = SBX_STDIO_IN;
	if (children_send_runnerd(IMSG_RUN_STDIO, s->peerid, in[0], &m,
	    sizeof(m)) == -1) {
		close(out[1]);
		return (-1);
	}
	m.which = SBX_STDIO_OUT;
	if (children_send_runnerd(IMSG_RUN_STDIO, s->peerid, out[1], &m,
	    sizeof(m)) == -1)
		return (-1);
	return (0);
}

/* The last lines of its stderr, for the crash audit line. */
json_t *
svc_tail_lines(struct service *s)
{
	json_t		*a;
	const char	*p, *end = s->tail + s->tail_len, *nl;
	int		 skip, n = 0;

	if ((a = json_array()) == NULL)
		fatalx("%s", __func__);
	for (p = s->tail; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', end - p)) == NULL)
			nl = end;
		n++;
	}
	skip = n > SVC_TAIL_LINES ? n - SVC_TAIL_LINES : 0;
	for (p = s->tail; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', end - p)) == NULL)
			nl = end;
		if (skip-- > 0)
			continue;
		json_array_append_new(a, json_stringn_nocheck(p, nl - p));
	}
	return (a);
}

void
svc_tail_add(struct service *s, const char *data, size_t len)
{
	size_t	 keep;

	if (len >= sizeof(s->tail)) {
		data += len - sizeof(s->tail);
		len = sizeof(s->tail);
	}
	if (s->tail_len + len > sizeof(s->tail)) {
		keep = sizeof(s->tail) - len;
		memmove(s->tail, s->tail + s->tail_len - keep, keep);
		s->tail_len = keep;
	}
	memcpy(s->tail + s->tail_len, data, len);
	s->tail_len += len;
}

/* attach: copies of our ends of its stdio, then we stop reading. */
void
svc_req_attach(uint32_t client, struct svc_req *req, struct service *s)
{
	struct sbx_stdio	 m;
	int			 fd;

	if (!s->instance || s->in_w == -1) {
		svc_result(client, req->corr, ENOENT, "service %s is not "
		    "running", s->name);
		return;
	}
	if (s->attached != 0) {
		svc_result(client, req->corr, EBUSY, "service %s has a client "
		    "attached already; one at a time", s->name);
		return;
	}
	memset(&m, 0, sizeof(m));
	strlcpy(m.corr, req->corr, sizeof(m.corr));
	for (m.which = SBX_STDIO_IN; m.which <= SBX_STDIO_OUT; m.which++) {
		if ((fd = dup(m.which == SBX_STDIO_IN ? s->in_w :
		    s->out_r)) == -1) {
			svc_result(client, req->corr, errno, "dup: %s",
			    strerror(errno));
			return;
		}
		control_send_fd(client, IMSG_CTL_STDIO, fd, &m, sizeof(m));
	}
	if (s->ev_out_set) {
		event_del(&s->ev_out);
		s->ev_out_set = 0;
	}
	s->attached = client;
	control_set_attached(client, 1);
	log_info("service %s: client %u attached", s->name, client);
	/* Nothing for its stdout: the bytes that follow are the service's. */
	svc_result(client, req->corr, 0, "%s", "");
}

/* The attached client's connection closed: we drain again. */
void
services_detach(uint32_t client)
{
	struct service	*s;

	TAILQ_FOREACH(s, &services, entry)
		if (s->attached == client) {
			s->attached = 0;
			log_info("service %s: client %u detached", s->name,
			    client);
			svc_drain_start(s);
		}
}
