/* Checking and unpacking the sandbox request payloads. */
#ifndef SANDBOXD_SBX_MSG_H
#define SANDBOXD_SBX_MSG_H

#include <stdarg.h>
#include <stddef.h>

#include "sandboxd_imsg.h"

#define SBX_EXEC_MAX_ARGS	1024	/* argv and env entries, each */

int	sbx_check_id(const char *, size_t);
int	sbx_check_corr(const char *, size_t);
int	sbx_check_create(const struct sbx_create_req *, char *, size_t);
int	sbx_check_id_req(const struct sbx_id_req *, char *, size_t);
int	sbx_check_exec(const struct sbx_exec_req *, char *, size_t);
int	sbx_check_run(const struct sbx_run_req *, char *, size_t);
int	sbx_check_svc(const struct svc_req *, char *, size_t);
int	sbx_check_file(const struct sbx_file_req *, char *, size_t);
int	sbx_check_stdio(const struct sbx_stdio *, char *, size_t);
int	sbx_check_exec_op(const struct sbx_exec_op *, char *, size_t);
/* An exec id into its sandbox id (SBX_ID_SIZE) and number; -1 if bad. */
int	sbx_parse_exec_id(const char *, char *, uint32_t *);
void	sbx_format_exec_id(char *, const char *, uint32_t);
int	sbx_check_services(const struct run_services *, char *, size_t);
/* Pack argv and env into req; -1 if they do not fit. */
int	sbx_exec_pack(struct sbx_exec_req *, char *const *, char *const *);
/* Point argv/envp (NULL-terminated, SBX_EXEC_MAX_ARGS+1) into req. */
void	sbx_exec_unpack(struct sbx_exec_req *, char **, char **);
const char *sbx_reason_name(unsigned int);
void	sbx_result_vset(struct ctl_result *, const char *, int, const char *,
	    va_list) __attribute__((format(printf, 4, 0)));

#endif
