/*
 * libFuzzer target for the checks every sandbox request passes in the
 * master and again in runnerd.  The first byte picks the request kind;
 * the rest is the payload, zero-padded or cut to the struct's size.  A
 * payload the checks accept is then unpacked as runnerd would.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fileop.h"
#include "sbx_msg.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static union {
	struct sbx_create_req	create;
	struct sbx_id_req	id;
	struct sbx_exec_req	exec;
	struct sbx_run_req	run;
	struct sbx_file_req	file;
	struct svc_req		svc;
	struct sbx_exec_op	op;
	char			str[64];
	struct sbx_fileop_req	fileop;
	struct sbx_fent		fent;
} u;

static void
fill(const uint8_t *data, size_t size, size_t want)
{
	memset(&u, 0, sizeof(u));
	memcpy(&u, data, size < want ? size : want);
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		 err[256];
	uint32_t	 n;

	if (size < 1)
		return (0);
	switch (data[0] % 10) {
	case 0:
		fill(data + 1, size - 1, sizeof(u.create));
		(void)sbx_check_create(&u.create, err, sizeof(err));
		break;
	case 1:
		fill(data + 1, size - 1, sizeof(u.id));
		(void)sbx_check_id_req(&u.id, err, sizeof(err));
		break;
	case 2:
		fill(data + 1, size - 1, sizeof(u.exec));
		if (sbx_check_exec(&u.exec, err, sizeof(err)) == 0)
			unpack(&u.exec);
		break;
	case 3:
		fill(data + 1, size - 1, sizeof(u.run));
		if (sbx_check_run(&u.run, err, sizeof(err)) == 0)
			unpack(&u.run.exec);
		break;
	case 4:
		fill(data + 1, size - 1, sizeof(u.file));
		(void)sbx_check_file(&u.file, err, sizeof(err));
		break;
	case 5:
		fill(data + 1, size - 1, sizeof(u.svc));
		/* Only a start's command is checked, and read. */
		if (sbx_check_svc(&u.svc, err, sizeof(err)) == 0 &&
		    u.svc.op == SVC_OP_START && u.svc.exec.argc != 0)
			unpack(&u.svc.exec);
		break;
	case 6:
		fill(data + 1, size - 1, sizeof(u.fileop));
		(void)sbx_check_fileop(&u.fileop, err, sizeof(err));
		break;
	case 7:
		/* An entry of a tree stream, as the receiving side checks it. */
		fill(data + 1, size - 1, sizeof(u.fent));
		if (fent_check(&u.fent, err, sizeof(err)) == 0)
			(void)fent_check_relpath(u.fent.path, err,
			    sizeof(err));
		break;
	case 8:
		fill(data + 1, size - 1, sizeof(u.op));
		(void)sbx_check_exec_op(&u.op, err, sizeof(err));
		break;
	case 9:
		/* sandboxctl's parse of an exec id: a C string. */
		fill(data + 1, size - 1, sizeof(u.str) - 1);
		if (sbx_parse_exec_id(u.str, err, &n) == 0 &&
		    (n == 0 || sbx_check_id(err, SBX_ID_SIZE) == -1))
			abort();
		break;
	}
	return (0);
}
