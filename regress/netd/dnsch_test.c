/*
 * netd's end of the channel from dnspind (cmd/netd/dnsch.c), driven
 * through a real socketpair as a compromised dnspind would drive it:
 * a good pin request is done and acknowledged; one of the wrong type
 * or length, or that dns_check_pin_req refuses, is dropped and the
 * channel stays for the next; a broken stream (a length below the
 * header, an fd) closes the channel.  netd never exits on any of them.
 * The datapath is stubbed: serve_pin counts and echoes.  Prints TAP.
 */
#include "../../cmd/netd/dnsch.c"

#include <sys/socket.h>

#include <err.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>

#include "../lib/chpeer.h"
#include "../lib/tap.h"

static int	 npins;

void
serve_pin(const struct dns_pin_req *m, struct dns_pin_ack *ack)
{
	memset(ack, 0, sizeof(*ack));
	ack->nanswers = m->nanswers;
	memcpy(ack->answers, m->answers, sizeof(ack->answers));
	npins++;
}

static void
good_req(struct dns_pin_req *r, uint64_t token)
{
	memset(r, 0, sizeof(*r));
	r->nanswers = 1;
	r->count = 1;
	r->answers[0].token = token;
	strlcpy(r->answers[0].id, "0123456789abcdef",
	    sizeof(r->answers[0].id));
	r->pins[0].af = AF_INET;
	r->pins[0].proto = IPPROTO_TCP;
	r->pins[0].port = 80;
	r->pins[0].ttl = 60;
	r->pins[0].addr[0] = 10;
}

/* The ack for token, if one came: 1, 0 if none, -1 on EOF. */
static int
got_ack(uint64_t token)
{
	struct pollfd		 pfd = { chpeer.fd, POLLIN, 0 };
	struct dns_pin_ack	 ack;
	struct imsg		 imsg;
	ssize_t			 n;
	int			 r = 0;

	if (poll(&pfd, 1, 100) != 1)
		return (0);
	if ((n = imsg_read(&chpeer)) == 0)
		return (-1);
	if (n == -1)
		err(1, "read");
	while (imsg_get(&chpeer, &imsg) == 1) {
		if (imsg_get_type(&imsg) == IMSG_DNS_PINNED &&
		    imsg_get_data(&imsg, &ack, sizeof(ack)) == 0 &&
		    ack.nanswers == 1 && ack.answers[0].token == token &&
		    ack.answers[0].error == 0)
			r = 1;
		imsg_free(&imsg);
	}
	return (r);
}

/* A request that must be dropped, and the channel kept. */
static void
dropped(const char *what, uint32_t type, const void *data, size_t len,
    uint64_t next)
{
	struct dns_pin_req	 r;
	int			 before = npins;

	chpeer_send(type, -1, data, len);
	ok(got_ack(0) == 0 && npins == before && dns_open,
	    "%s: dropped, not done, the channel kept", what);
	good_req(&r, next);
	chpeer_send(IMSG_DNS_PIN, -1, &r, sizeof(r));
	ok(got_ack(next) == 1 && npins == before + 1,
	    "and the next good request is acknowledged");
}

int
main(void)
{
	struct dns_pin_req	 r;
	struct imsg_hdr		 h;
	int			 fd;

	log_procinit("netd");
	log_init(1, LOG_DAEMON);
	event_init();
	dnsch_open(chpeer_pair());

	good_req(&r, 1);
	chpeer_send(IMSG_DNS_PIN, -1, &r, sizeof(r));
	ok(got_ack(1) == 1 && npins == 1,
	    "a good pin request is done and acknowledged");

	dropped("a request one byte short", IMSG_DNS_PIN, &r, sizeof(r) - 1,
	    2);
	dropped("a request of another type", IMSG_DNS_PINNED, &r, sizeof(r),
	    3);
	dropped("a request with no payload", IMSG_DNS_PIN, NULL, 0, 4);
	good_req(&r, 5);
	r.count = 0;
	dropped("no pins", IMSG_DNS_PIN, &r, sizeof(r), 6);
	good_req(&r, 7);
	r.count = DNS_PIN_MAX + 1;
	dropped("more pins than a request holds", IMSG_DNS_PIN, &r,
	    sizeof(r), 8);
	good_req(&r, 9);
	r.nanswers = DNS_PIN_ANSWERS + 1;
	dropped("more answers than a request holds", IMSG_DNS_PIN, &r,
	    sizeof(r), 10);
	good_req(&r, 11);
	r.pins[0].answer = 1;
	dropped("a pin of no answer", IMSG_DNS_PIN, &r, sizeof(r), 12);
	good_req(&r, 13);
	r.pins[0].af = AF_UNIX;
	dropped("a pin of another family", IMSG_DNS_PIN, &r, sizeof(r), 14);
	good_req(&r, 15);
	r.pins[0].proto = IPPROTO_ICMP;
	dropped("a pin of another protocol", IMSG_DNS_PIN, &r, sizeof(r),
	    16);
	good_req(&r, 17);
	r.pins[0].port = 0;
	dropped("port 0", IMSG_DNS_PIN, &r, sizeof(r), 18);
	good_req(&r, 19);
	r.pins[0].ttl = 0;
	dropped("TTL 0", IMSG_DNS_PIN, &r, sizeof(r), 20);
	good_req(&r, 21);
	strlcpy(r.answers[0].id, "../../etc", sizeof(r.answers[0].id));
	dropped("a sandbox id that is not one", IMSG_DNS_PIN, &r, sizeof(r),
	    22);
	good_req(&r, 23);
	memset(r.answers[0].id, 'a', sizeof(r.answers[0].id));
	dropped("a sandbox id without its NUL", IMSG_DNS_PIN, &r, sizeof(r),
	    24);

	/* An fd: the stream is no longer to be trusted. */
	if ((fd = open("/dev/null", O_RDONLY)) == -1)
		err(1, "/dev/null");
	good_req(&r, 25);
	chpeer_send(IMSG_DNS_PIN, fd, &r, sizeof(r));
	ok(!dns_open && got_ack(25) == -1,
	    "a request with an fd closes the channel, unanswered");

	/* Framing: a length below the header's. */
	dnsch_open(chpeer_pair());
	good_req(&r, 26);
	chpeer_send(IMSG_DNS_PIN, -1, &r, sizeof(r));
	ok(got_ack(26) == 1, "a new channel: acknowledged");
	memset(&h, 0, sizeof(h));
	h.type = IMSG_DNS_PIN;
	h.len = 3;
	if (write(chpeer.fd, &h, sizeof(h)) != sizeof(h))
		err(1, "write");
	chpeer_spin();
	ok(!dns_open && got_ack(0) == -1,
	    "a header with a length below its own closes the channel");
	printf("1..%d\n", tap_n);
	return (tap_failed != 0);
}
