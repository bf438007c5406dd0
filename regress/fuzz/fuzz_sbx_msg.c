/*
 * libFuzzer target for the checks every message passes in the master
 * and again in its receiver: the message table (lib/msgtab.c).  The
 * first byte picks a row (or, 0xfe and 0xff, a tree entry and an exec
 * id, which are no messages), the second whether an fd comes with it;
 * the rest is the payload, zero-padded or cut to the row's bounds.  A
 * request the table accepts is then unpacked as runnerd would.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fileop.h"
#include "msgtab.h"
#include "sbx_msg.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static union {
	struct sbx_run_req	run;	/* the largest request */
	struct svc_req		svc;
	struct env_build_req	env;
	struct dns_pin_req	pin;
	struct sbx_fent		fent;
	char			str[64];
	char			bytes[SBX_EXEC_ARGS_SIZE * 2 + 65536];
} u;

static size_t
fill(const uint8_t *data, size_t size, size_t min, size_t max)
{
	size_t	 n = size < max ? size : max;

	if (max > sizeof(u))
		abort();	/* a row the harness cannot hold */
	memset(&u, 0, max);
	memcpy(&u, data, n);
	return (min > n ? min : n);
}

/* The lowest bit of a set of programs. */
static unsigned int
lowest(unsigned int set)
{
	return (set & -set);
}

static void
unpack(struct sbx_exec_req *req)
{
	static char	*argv[SBX_EXEC_MAX_ARGS + 1], *envp[SBX_EXEC_MAX_ARGS + 1];
	size_t		 i, n = 0;

	sbx_exec_unpack(req, argv, envp);
	for (i = 0; argv[i] != NULL; i++)
		n += strlen(argv[i]);
	for (i = 0; envp[i] != NULL; i++)
		n += strlen(envp[i]);
	if (n > sizeof(req->args))
		abort();
}

/* Through the table as its receiver takes it; unpacked if accepted. */
static void
message(const struct msg_row *r, int with_fd, const uint8_t *data,
    size_t size)
{
	struct imsg	 imsg;
	unsigned int	 self = lowest(r->to), peer = lowest(r->from);
	char		 err[256];

	memset(&imsg, 0, sizeof(imsg));
	imsg.hdr.type = r->type;
	imsg.datalen = fill(data, size, r->min, r->max);
	imsg.data = imsg.datalen > 0 ? &u : NULL;
	imsg.fd = with_fd ? 0 : -1;	/* never closed: no imsg_free */
	/* From the sender, to the master if it is on the way. */
	if (msg_relayed(r, peer))
		self = MSG_MASTER;
	if (imsg_check(self, peer, &imsg, err, sizeof(err)) == -1)
		return;
	switch (r->type) {
	case IMSG_CTL_EXEC:
	case IMSG_RUN_EXEC:
		unpack((struct sbx_exec_req *)&u);
		break;
	case IMSG_CTL_RUN:
	case IMSG_RUN_RUN:
		unpack(&u.run.exec);
		break;
	case IMSG_CTL_SERVICE:
		/* Only a start's command is checked, and read. */
		if (u.svc.op == SVC_OP_START && u.svc.exec.argc != 0)
			unpack(&u.svc.exec);
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		 err[256];
	uint32_t	 n;

	if (size < 2)
		return (0);
	switch (data[0]) {
	case 0xfe:
		/* An entry of a tree stream, as the receiving side checks it. */
		fill(data + 2, size - 2, 0, sizeof(u.fent));
		if (fent_check(&u.fent, err, sizeof(err)) == 0)
			(void)fent_check_relpath(u.fent.path, err,
			    sizeof(err));
		break;
	case 0xff:
		/* sandboxctl's parse of an exec id: a C string. */
		fill(data + 2, size - 2, 0, sizeof(u.str));
		u.str[sizeof(u.str) - 1] = '\0';
		if (sbx_parse_exec_id(u.str, err, &n) == 0 &&
		    (n == 0 || sbx_check_id(err, SBX_ID_SIZE) == -1))
			abort();
		break;
	default:
		message(&msg_table[data[0] % msg_table_len], data[1] & 1,
		    data + 2, size - 2);
		break;
	}
	return (0);
}
