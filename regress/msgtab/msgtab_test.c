/*
 * The message table (lib/msgtab.c): sorted, sane bounds, and
 * imsg_check refusing what the table does not allow next to a twin
 * that passes.  With -n it prints the table's names, one a line, for
 * msgtab.t to hold against the enum.  Prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msgtab.h"
#include "sandboxd_imsg.h"

static int	 ntests, nfailed;

static void
ok(int cond, const char *name, const char *err)
{
	ntests++;
	if (!cond)
		nfailed++;
	printf("%sok %d - %s%s%s\n", cond ? "" : "not ", ntests, name,
	    err != NULL && err[0] != '\0' ? ": " : "",
	    err != NULL ? err : "");
}

static struct imsg
mk(uint32_t type, void *data, size_t len, int fd)
{
	struct imsg	 imsg;

	memset(&imsg, 0, sizeof(imsg));
	imsg.hdr.type = type;
	imsg.data = data;
	imsg.datalen = len;
	imsg.fd = fd;
	return (imsg);
}

/* Expect pass (1) or refusal (0). */
static void
expect(int pass, const char *name, enum msg_prog self, enum msg_prog peer,
    uint32_t type, void *data, size_t len, int fd)
{
	struct imsg	 imsg = mk(type, data, len, fd);
	char		 err[128];
	int		 rc;

	rc = imsg_check(self, peer, &imsg, err, sizeof(err));
	ok((rc == 0) == pass && (pass || err[0] != '\0'), name,
	    rc == 0 ? "" : err);
}

/*
 * A message a child sends that the master passes on (no row of it
 * for the master itself) must name one receiver: the master's
 * child_relay refuses any other.
 */
static int
t_relayed_single(void)
{
	const struct msg_row	*r;
	unsigned int		 bit;
	size_t			 i;
	int			 good = 1;

	for (i = 0; i < msg_table_len; i++) {
		r = &msg_table[i];
		if (r->to & MSG_MASTER)
			continue;
		for (bit = MSG_NETD; bit <= MSG_DNSPIND; bit <<= 1)
			if ((r->from & bit) && msg_relayed(r, bit) &&
			    msg_receiver(r) == 0) {
				printf("# %s: relayed to several\n",
				    msg_name(r->type));
				good = 0;
			}
	}
	return (good);
}

static void
t_table(void)
{
	size_t	 i;
	int	 sorted = 1, bounds = 1, ends = 1;

	for (i = 0; i < msg_table_len; i++) {
		if (i > 0 && msg_table[i - 1].type >= msg_table[i].type)
			sorted = 0;
		if (msg_table[i].min > msg_table[i].max ||
		    msg_table[i].max > 65535 - 16)
			bounds = 0;
		if (msg_table[i].from == 0 || msg_table[i].to == 0)
			ends = 0;
		if (msg_row(msg_table[i].type) != &msg_table[i])
			sorted = 0;
	}
	ok(sorted, "rows sorted by type, each found", NULL);
	ok(bounds, "payload bounds fit an imsg", NULL);
	ok(ends, "every row has a sender and a receiver", NULL);
	ok(msg_row(IMSG_NONE) == NULL && msg_row(99999) == NULL,
	    "no row for NONE or an unknown type", NULL);
	ok(t_relayed_single(), "what the master relays for a child has "
	    "one receiver", NULL);
}

static void
t_check(void)
{
	struct sbx_id_req	 id;
	struct env_ready	 er;
	struct dns_pin_req	*pin;
	struct ctl_result	 res;
	struct peer_channel	 pc;
	struct net_ready	 nr;
	struct net_setup	 ns;
	int			 fds[2];

	if (pipe(fds) == -1)
		exit(1);
	memset(&id, 0, sizeof(id));
	strlcpy(id.id, "0123456789abcdef", sizeof(id.id));
	expect(1, "show from sandboxctl to the master", MSG_MASTER, MSG_CTL,
	    IMSG_CTL_SHOW, &id, sizeof(id), -1);
	expect(0, "show one byte short", MSG_MASTER, MSG_CTL,
	    IMSG_CTL_SHOW, &id, sizeof(id) - 1, -1);
	expect(0, "show with an fd", MSG_MASTER, MSG_CTL,
	    IMSG_CTL_SHOW, &id, sizeof(id), fds[0]);
	expect(0, "show from runnerd", MSG_MASTER, MSG_RUNNERD,
	    IMSG_CTL_SHOW, &id, sizeof(id), -1);
	expect(0, "unknown type", MSG_MASTER, MSG_CTL, 99999, &id,
	    sizeof(id), -1);
	strlcpy(id.id, "not-an-id", sizeof(id.id));
	expect(0, "show of a bad id", MSG_MASTER, MSG_CTL,
	    IMSG_CTL_SHOW, &id, sizeof(id), -1);

	memset(&er, 0, sizeof(er));
	strlcpy(er.id, "0123456789abcdef", sizeof(er.id));
	er.exec_id = 1;
	expect(1, "env ready from envd on its channel", MSG_RUNNERD,
	    MSG_ENVD, IMSG_ENV_READY, &er, sizeof(er), fds[0]);
	expect(0, "env ready to the master (direct channel)", MSG_MASTER,
	    MSG_ENVD, IMSG_ENV_READY, &er, sizeof(er), fds[0]);
	expect(0, "env ready at runnerd from the master", MSG_RUNNERD,
	    MSG_MASTER, IMSG_ENV_READY, &er, sizeof(er), fds[0]);
	expect(0, "successful env ready without its channel", MSG_RUNNERD,
	    MSG_ENVD, IMSG_ENV_READY, &er, sizeof(er), -1);
	expect(0, "env ready at envd", MSG_ENVD, MSG_RUNNERD,
	    IMSG_ENV_READY, &er, sizeof(er), fds[0]);
	expect(0, "env ready from netd (no such channel)", MSG_RUNNERD,
	    MSG_NETD, IMSG_ENV_READY, &er, sizeof(er), fds[0]);
	expect(0, "a health report on the runnerd channel", MSG_RUNNERD,
	    MSG_ENVD, IMSG_ENV_HEALTH, &er, sizeof(struct env_health), -1);

	memset(&nr, 0, sizeof(nr));
	strlcpy(nr.id, "0123456789abcdef", sizeof(nr.id));
	expect(1, "a tun from the master", MSG_RUNNERD, MSG_MASTER,
	    IMSG_NET_TUN, &nr, sizeof(nr), fds[0]);
	expect(0, "a tun without its fd", MSG_RUNNERD, MSG_MASTER,
	    IMSG_NET_TUN, &nr, sizeof(nr), -1);
	expect(0, "a tun from netd", MSG_RUNNERD, MSG_NETD,
	    IMSG_NET_TUN, &nr, sizeof(nr), fds[0]);
	nr.error = 13;
	strlcpy(nr.msg, "denied", sizeof(nr.msg));
	expect(1, "no tun, and why", MSG_RUNNERD, MSG_MASTER,
	    IMSG_NET_TUN, &nr, sizeof(nr), -1);
	expect(0, "net ready through the master", MSG_RUNNERD, MSG_MASTER,
	    IMSG_NET_READY, &nr, sizeof(nr), -1);
	expect(1, "net ready on the netd channel", MSG_RUNNERD, MSG_NETD,
	    IMSG_NET_READY, &nr, sizeof(nr), -1);
	memset(&ns, 0, sizeof(ns));
	strlcpy(ns.id, "0123456789abcdef", sizeof(ns.id));
	strlcpy(ns.policy, "net", sizeof(ns.policy));
	ns.tap = 1;
	expect(0, "a tap's setup without its tun", MSG_NETD, MSG_RUNNERD,
	    IMSG_NET_SETUP, &ns, sizeof(ns), -1);
	expect(1, "a tap's setup with its tun", MSG_NETD, MSG_RUNNERD,
	    IMSG_NET_SETUP, &ns, sizeof(ns), fds[0]);
	expect(0, "a setup through the master", MSG_NETD, MSG_MASTER,
	    IMSG_NET_SETUP, &ns, sizeof(ns), fds[0]);

	memset(&pc, 0, sizeof(pc));
	pc.peer = MSG_ENVD;
	expect(1, "a channel end to envd's peer", MSG_RUNNERD, MSG_MASTER,
	    IMSG_PEER_CHANNEL, &pc, sizeof(pc), fds[0]);
	expect(0, "a channel end without its fd", MSG_RUNNERD, MSG_MASTER,
	    IMSG_PEER_CHANNEL, &pc, sizeof(pc), -1);
	pc.peer = MSG_ENVD | MSG_NETD;
	expect(0, "a channel to two peers", MSG_RUNNERD, MSG_MASTER,
	    IMSG_PEER_CHANNEL, &pc, sizeof(pc), fds[0]);
	pc.peer = MSG_MASTER;
	expect(0, "a channel to the master", MSG_RUNNERD, MSG_MASTER,
	    IMSG_PEER_CHANNEL, &pc, sizeof(pc), fds[0]);
	pc.peer = MSG_ENVD;
	expect(0, "a channel end from envd", MSG_RUNNERD, MSG_ENVD,
	    IMSG_PEER_CHANNEL, &pc, sizeof(pc), fds[0]);
	ok(msg_channel(MSG_RUNNERD, MSG_ENVD) &&
	    msg_peer_channel(MSG_RUNNERD, MSG_ENVD) &&
	    !msg_peer_channel(MSG_NETD, MSG_DNSPIND) &&
	    !msg_channel(MSG_ENVD, MSG_NETD) &&
	    !msg_peer_channel(MSG_MASTER, MSG_ENVD),
	    "the channels between children", NULL);
	ok(msg_fds_from(MSG_RUNNERD, MSG_ENVD) &&
	    msg_fds_from(MSG_ENVD, MSG_RUNNERD) &&
	    !msg_fds_from(MSG_NETD, MSG_DNSPIND),
	    "fds on a channel only where a row passes one", NULL);

	if ((pin = calloc(1, sizeof(*pin))) == NULL)
		exit(1);
	pin->nanswers = 1;
	pin->count = 1;
	strlcpy(pin->answers[0].id, "0123456789abcdef",
	    sizeof(pin->answers[0].id));
	pin->pins[0].af = 2;
	pin->pins[0].proto = 6;
	pin->pins[0].port = 443;
	pin->pins[0].ttl = 60;
	pin->pins[0].addr[0] = 1;
	expect(1, "pin request on the pin channel", MSG_NETD, MSG_DNSPIND,
	    IMSG_DNS_PIN, pin, sizeof(*pin), -1);
	expect(0, "pin request to the master (direct channel)", MSG_MASTER,
	    MSG_DNSPIND, IMSG_DNS_PIN, pin, sizeof(*pin), -1);
	expect(0, "pin request through the master", MSG_NETD, MSG_MASTER,
	    IMSG_DNS_PIN, pin, sizeof(*pin), -1);
	free(pin);

	memset(&res, 0, sizeof(res));
	expect(1, "result from netd, relayed", MSG_MASTER, MSG_NETD,
	    IMSG_CTL_RESULT, &res, sizeof(res), -1);
	expect(0, "result from envd", MSG_MASTER, MSG_ENVD,
	    IMSG_CTL_RESULT, &res, sizeof(res), -1);
	memset(res.msg, 'x', sizeof(res.msg));
	expect(0, "result whose message has no NUL", MSG_CTL, MSG_MASTER,
	    IMSG_CTL_RESULT, &res, sizeof(res), -1);
	expect(1, "end of a config at a child", MSG_NETD, MSG_MASTER,
	    IMSG_RECONF_END, NULL, 0, -1);
	expect(0, "a secret at netd", MSG_NETD, MSG_MASTER,
	    IMSG_RECONF_SECRET, NULL, 0, -1);
	close(fds[0]);
	close(fds[1]);
}

/* Every row from one child to another has a channel of their own. */
static int
t_children_direct(void)
{
	const struct msg_row	*r;
	unsigned int		 a, b;
	size_t			 i;
	int			 good = 1;

	for (i = 0; i < msg_table_len; i++) {
		r = &msg_table[i];
		for (a = MSG_NETD; a <= MSG_DNSPIND; a <<= 1)
			for (b = MSG_NETD; b <= MSG_DNSPIND; b <<= 1)
				if ((r->from & a) && (r->to & b) &&
				    !msg_channel(a, b)) {
					printf("# %s: %s to %s through the "
					    "master\n", r->name,
					    msg_prog_name(a), msg_prog_name(b));
					good = 0;
				}
	}
	return (good);
}

static int
master_touches(const struct msg_row *r)
{
	unsigned int	 bit;

	if ((r->from | r->to) & MSG_MASTER)
		return (1);
	for (bit = 1; bit <= MSG_DNSPIND; bit <<= 1)
		if ((r->from & bit) && msg_relayed(r, bit))
			return (1);
	return (0);
}

int
main(int argc, char *argv[])
{
	size_t		 i;
	unsigned int	 bit;

	if (argc > 1 && strcmp(argv[1], "-n") == 0) {
		for (i = 0; i < msg_table_len; i++)
			printf("%s\n", msg_table[i].name);
		return (0);
	}
	/* Each row's senders, "NAME PROGRAM" a line, for msgtab.t. */
	if (argc > 1 && strcmp(argv[1], "-s") == 0) {
		for (i = 0; i < msg_table_len; i++)
			for (bit = MSG_CTL; bit <= MSG_DNSPIND; bit <<= 1)
				if (msg_table[i].from & bit)
					printf("%s %s\n", msg_table[i].name,
					    msg_prog_name(bit));
		return (0);
	}
	/* The types the master sends, takes or relays: lib/README counts. */
	if (argc > 1 && strcmp(argv[1], "-m") == 0) {
		for (i = 0; i < msg_table_len; i++)
			if (master_touches(&msg_table[i]))
				printf("%s\n", msg_table[i].name);
		return (0);
	}
	t_table();
	ok(t_children_direct(), "no message between two children passes "
	    "the master", NULL);
	t_check();
	printf("1..%d\n", ntests);
	return (nfailed != 0);
}
