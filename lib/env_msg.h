/* Checking the IMSG_ENV_* payloads between runnerd, the master and envd. */
#ifndef SANDBOXD_ENV_MSG_H
#define SANDBOXD_ENV_MSG_H

#include <stddef.h>

#include "sandboxd_imsg.h"

/* The most strings an exec's environment may hold. */
#define ENV_MAX_VARS		1024

int	env_check_sandbox(const struct env_sandbox *, char *, size_t);
int	env_check_build(const struct env_build_req *, char *, size_t);
int	env_check_abort(const struct env_abort *, char *, size_t);
/* hdr and the len bytes after it, as received. */
int	env_check_chunk(const struct env_chunk_hdr *, const char *, size_t,
	    char *, size_t);
int	env_check_health(const struct env_health *, char *, size_t);
int	env_check_ready(const struct env_ready *, char *, size_t);
int	env_check_broker(const struct env_broker *, char *, size_t);
/* Point vars (ENV_MAX_VARS + 1) at the build request's strings. */
void	env_build_unpack(struct env_build_req *, char **);

#endif
