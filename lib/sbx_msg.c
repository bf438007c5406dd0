/*
 * Every sandbox request is checked by the master before it is relayed
 * and again by runnerd: exact sizes, NUL-terminated strings, and argv
 * blocks that hold exactly what they claim.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "label.h"
#include "sbx_msg.h"

int
sbx_check_id(const char *id, size_t size)
{
	size_t	 i;

	if (memchr(id, '\0', size) == NULL || strlen(id) != SBX_ID_SIZE - 1)
		return (-1);
	for (i = 0; i < SBX_ID_SIZE - 1; i++)
		if (!isdigit((unsigned char)id[i]) &&
		    (id[i] < 'a' || id[i] > 'f'))
			return (-1);
	return (0);
}

/* Empty, or up to 32 hex digits: it ends up in every log line. */
int
sbx_check_corr(const char *corr, size_t size)
{
	size_t	 i;

	if (memchr(corr, '\0', size) == NULL)
		return (-1);
	for (i = 0; corr[i] != '\0'; i++)
		if (!isxdigit((unsigned char)corr[i]))
			return (-1);
	return (0);
}

int
sbx_check_create(const struct sbx_create_req *req, char *err, size_t len)
{
	if (sbx_check_corr(req->corr, sizeof(req->corr)) == -1 ||
	    memchr(req->policy, '\0', sizeof(req->policy)) == NULL ||
	    memchr(req->service, '\0', sizeof(req->service)) == NULL ||
	    (req->want_id[0] != '\0' &&
	    sbx_check_id(req->want_id, sizeof(req->want_id)) == -1) ||
	    memchr(req->want_id, '\0', sizeof(req->want_id)) == NULL ||
	    req->ephemeral > 1 || req->tap > 1 || req->restart > 1 ||
	    (req->restart && req->service[0] == '\0')) {
		snprintf(err, len, "malformed create request");
		return (-1);
	}
	if (label_check_set(req->labels, sizeof(req->labels), req->nlabels,
	    req->labels_len) == -1) {
		snprintf(err, len, "malformed labels in a create request");
		return (-1);
	}
	return (0);
}

/* NUL-terminated within size, every byte printable ASCII. */
static int
sbx_printable(const char *s, size_t size)
{
	size_t	 i;

	for (i = 0; i < size && s[i] != '\0'; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return (0);
	return (i < size);
}

int
sbx_check_id_req(const struct sbx_id_req *req, char *err, size_t len)
{
	if (sbx_check_corr(req->corr, sizeof(req->corr)) == -1) {
		snprintf(err, len, "malformed request");
		return (-1);
	}
	if (sbx_check_id(req->id, sizeof(req->id)) == -1) {
		/* A client's bytes, bound for logs: printed only if plain. */
		if (sbx_printable(req->id, sizeof(req->id)))
			snprintf(err, len, "not a sandbox id: %.*s",
			    (int)strnlen(req->id, sizeof(req->id)), req->id);
		else
			snprintf(err, len, "not a sandbox id");
		return (-1);
	}
	return (0);
}

/* args_len bytes hold exactly argc + envc NUL-terminated strings. */
static int
sbx_check_args(const struct sbx_exec_req *req)
{
	const char	*p = req->args, *end;
	uint32_t	 n = 0, i;

	if (req->argc < 1 || req->argc > SBX_EXEC_MAX_ARGS ||
	    req->envc > SBX_EXEC_MAX_ARGS ||
	    req->args_len > sizeof(req->args))
		return (-1);
	end = req->args + req->args_len;
	while (p < end) {
		if ((p = memchr(p, '\0', end - p)) == NULL)
			return (-1);
		p++;
		n++;
	}
	if (n != req->argc + req->envc || req->args[0] == '\0')
		return (-1);
	/* Each env string is KEY=VALUE with a non-empty key. */
	p = req->args;
	for (i = 0; i < n; i++, p += strlen(p) + 1)
		if (i >= req->argc && (p[0] == '=' || strchr(p, '=') == NULL))
			return (-1);
	return (0);
}

static int
sbx_check_exec_body(const struct sbx_exec_req *req, char *err, size_t len)
{
	if (memchr(req->cwd, '\0', sizeof(req->cwd)) == NULL ||
	    (req->flags & ~(SBX_EXEC_INTERACTIVE | SBX_EXEC_SERVICE |
	    SBX_EXEC_DETACH)) != 0 ||
	    ((req->flags & SBX_EXEC_DETACH) &&
	    (req->flags & (SBX_EXEC_INTERACTIVE | SBX_EXEC_SERVICE))) ||
	    sbx_check_args(req) == -1) {
		snprintf(err, len, "malformed exec request");
		return (-1);
	}
	return (0);
}

int
sbx_check_exec(const struct sbx_exec_req *req, char *err, size_t len)
{
	if (sbx_check_id_req((const struct sbx_id_req *)req, err, len) == -1)
		return (-1);
	return (sbx_check_exec_body(req, err, len));
}

int
sbx_check_run(const struct sbx_run_req *req, char *err, size_t len)
{
	if (sbx_check_create(&req->create, err, len) == -1 ||
	    sbx_check_corr(req->exec.corr, sizeof(req->exec.corr)) == -1)
		return (-1);
	/* A run's sandbox goes with its exec: nothing to detach from. */
	if (req->exec.flags & SBX_EXEC_DETACH) {
		snprintf(err, len, "malformed run request");
		return (-1);
	}
	return (sbx_check_exec_body(&req->exec, err, len));
}

/* sandboxctl service: op, name (but for list), a start's command. */
int
sbx_check_svc(const struct svc_req *r, char *err, size_t len)
{
	if (sbx_check_corr(r->corr, sizeof(r->corr)) == -1 ||
	    r->op < SVC_OP_START || r->op > SVC_OP_ATTACH ||
	    memchr(r->policy, '\0', sizeof(r->policy)) == NULL ||
	    memchr(r->name, '\0', sizeof(r->name)) == NULL) {
		snprintf(err, len, "malformed service request");
		return (-1);
	}
	if (r->op != SVC_OP_LIST && conf_check_name(r->name, sizeof(r->name),
	    "service", err, len) == -1)
		return (-1);
	if (r->op == SVC_OP_START && r->exec.argc != 0 &&
	    (sbx_check_corr(r->exec.corr, sizeof(r->exec.corr)) == -1 ||
	    r->exec.flags != 0 || r->exec.timeout != 0 ||
	    sbx_check_exec_body(&r->exec, err, len) == -1))
		return (-1);
	return (0);
}

int
sbx_check_file(const struct sbx_file_req *req, char *err, size_t len)
{
	if (sbx_check_id_req((const struct sbx_id_req *)req, err, len) == -1)
		return (-1);
	if (req->pathlen >= sizeof(req->path) ||
	    req->path[req->pathlen] != '\0' || req->mode > 07777) {
		snprintf(err, len, "malformed file request");
		return (-1);
	}
	return (0);
}

static int
sbx_pack_list(struct sbx_exec_req *req, char *const *list, uint32_t *count)
{
	size_t	 n;

	for (*count = 0; list != NULL && list[*count] != NULL; (*count)++) {
		n = strlen(list[*count]) + 1;
		if (*count >= SBX_EXEC_MAX_ARGS ||
		    n > sizeof(req->args) - req->args_len)
			return (-1);
		memcpy(req->args + req->args_len, list[*count], n);
		req->args_len += n;
	}
	return (0);
}

int
sbx_exec_pack(struct sbx_exec_req *req, char *const *argv,
    char *const *envp)
{
	req->args_len = 0;
	if (sbx_pack_list(req, argv, &req->argc) == -1 ||
	    sbx_pack_list(req, envp, &req->envc) == -1)
		return (-1);
	return (0);
}

void
sbx_exec_unpack(struct sbx_exec_req *req, char **argv, char **envp)
{
	char		*p = req->args;
	uint32_t	 i;

	for (i = 0; i < req->argc; i++, p += strlen(p) + 1)
		argv[i] = p;
	argv[i] = NULL;
	for (i = 0; i < req->envc; i++, p += strlen(p) + 1)
		envp[i] = p;
	envp[i] = NULL;
}

const char *
sbx_reason_name(unsigned int reason)
{
	switch (reason) {
	case SBX_REASON_EXIT:
		return ("exit");
	case SBX_REASON_TIMEOUT:
		return ("timeout");
	case SBX_REASON_KILLED:
		return ("killed");
	case SBX_REASON_LIMIT:
		return ("limit");
	}
	return ("unknown");
}

int
sbx_check_stdio(const struct sbx_stdio *m, char *err, size_t len)
{
	if (sbx_check_corr(m->corr, sizeof(m->corr)) == -1 ||
	    (m->which != SBX_STDIO_IN && m->which != SBX_STDIO_OUT)) {
		snprintf(err, len, "malformed stdio request");
		return (-1);
	}
	return (0);
}

int
sbx_check_services(const struct run_services *m, char *err, size_t len)
{
	uint32_t	 i;

	if (m->count > CONF_SERVICES_MAX) {
		snprintf(err, len, "malformed service list");
		return (-1);
	}
	for (i = 0; i < m->count; i++)
		if (sbx_check_id(m->ids[i], sizeof(m->ids[i])) == -1) {
			snprintf(err, len, "malformed service list");
			return (-1);
		}
	return (0);
}

/* A reply's end: its correlation id, error and message. */
void
sbx_result_vset(struct ctl_result *res, const char *corr, int error,
    const char *fmt, va_list ap)
{
	memset(res, 0, sizeof(*res));
	strlcpy(res->corr, corr, sizeof(res->corr));
	res->error = error;
	vsnprintf(res->msg, sizeof(res->msg), fmt, ap);
}

/* attach, wait and kill name one exec; a list names none. */
int
sbx_check_exec_op(const struct sbx_exec_op *op, char *err, size_t len)
{
	if (sbx_check_id_req((const struct sbx_id_req *)op, err, len) == -1)
		return (-1);
	if (op->op < SBX_EXEC_OP_ATTACH || op->op > SBX_EXEC_OP_LIST ||
	    (op->op == SBX_EXEC_OP_LIST) != (op->exec_id == 0) ||
	    (op->op == SBX_EXEC_OP_SIGNAL) != (op->signal != 0) ||
	    op->signal < 0 || op->signal > 64) {
		snprintf(err, len, "malformed exec request");
		return (-1);
	}
	return (0);
}

/* "<sandbox id>.<number>", the number from 1 without leading zeros. */
int
sbx_parse_exec_id(const char *s, char *id, uint32_t *exec_id)
{
	const char	*dot;
	unsigned long	 n = 0;
	size_t		 i;

	if ((dot = strchr(s, '.')) == NULL || dot - s != SBX_ID_SIZE - 1)
		return (-1);
	memcpy(id, s, SBX_ID_SIZE - 1);
	id[SBX_ID_SIZE - 1] = '\0';
	if (sbx_check_id(id, SBX_ID_SIZE) == -1 || dot[1] == '0' ||
	    dot[1] == '\0' || strlen(dot + 1) > 10)
		return (-1);
	for (i = 1; dot[i] != '\0'; i++) {
		if (!isdigit((unsigned char)dot[i]))
			return (-1);
		n = n * 10 + (dot[i] - '0');
	}
	if (n > UINT32_MAX)
		return (-1);
	*exec_id = n;
	return (0);
}

void
sbx_format_exec_id(char *buf, const char *id, uint32_t exec_id)
{
	snprintf(buf, SBX_EXEC_ID_SIZE, "%s.%u", id, exec_id);
}
