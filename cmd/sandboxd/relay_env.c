/*
 * runnerd and envd talk through the master (DESIGN.md section 1: every
 * child talks to the master only).  Each message is checked here before
 * it is passed on, with the fd it must or must not carry; a malformed
 * one makes its sender misbehaved.  What cannot be delivered because
 * envd is down is answered here, so no exec waits for nobody.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "env_msg.h"
#include "log.h"
#include "sandboxd.h"

/* envd is not there: the exec fails now, with a reason. */
static void
relay_env_unavailable(const struct env_build_req *req)
{
	struct env_ready	 r;

	memset(&r, 0, sizeof(r));
	strlcpy(r.id, req->id, sizeof(r.id));
	r.exec_id = req->exec_id;
	r.error = EAGAIN;
	strlcpy(r.msg, "envd is not running; try again", sizeof(r.msg));
	children_send(PROC_RUNNERD, IMSG_ENV_READY, -1, &r, sizeof(r));
}

static int
relay_env_check(struct imsg *imsg, int fd, char *err, size_t len)
{
	struct env_chunk_hdr	 h;
	size_t			 n = imsg_get_len(imsg);
	const void		*d = imsg->data;

#define EXACT(type)	(n == sizeof(type) ? 0 : -1)
	switch (imsg_get_type(imsg)) {
	case IMSG_ENV_SANDBOX:
		return (fd == -1 || EXACT(struct env_sandbox) == -1 ? -1 :
		    env_check_sandbox(d, err, len));
	case IMSG_ENV_SANDBOX_GONE:
		return (fd != -1 || EXACT(struct env_sandbox) == -1 ? -1 :
		    env_check_sandbox(d, err, len));
	case IMSG_ENV_BUILD:
		return (fd != -1 || EXACT(struct env_build_req) == -1 ? -1 :
		    env_check_build(d, err, len));
	case IMSG_ENV_ABORT:
		return (fd != -1 || EXACT(struct env_abort) == -1 ? -1 :
		    env_check_abort(d, err, len));
	case IMSG_ENV_CHUNK:
		if (fd != -1 || n < sizeof(h))
			return (-1);
		memcpy(&h, d, sizeof(h));
		return (env_check_chunk(&h, (const char *)d + sizeof(h),
		    n - sizeof(h), err, len));
	case IMSG_ENV_READY:
		if (EXACT(struct env_ready) == -1 ||
		    env_check_ready(d, err, len) == -1)
			return (-1);
		/* A channel end with success, none with an error. */
		return ((((const struct env_ready *)d)->error == 0) ==
		    (fd != -1) ? 0 : -1);
	}
#undef EXACT
	return (-1);
}

int
relay_env(struct imsg *imsg)
{
	uint32_t	 type = imsg_get_type(imsg);
	int		 fd = imsg_get_fd(imsg);
	char		 err[128] = "";
	enum proc_id	 to;

	if (relay_env_check(imsg, fd, err, sizeof(err)) == -1) {
		log_warnx("%s: type %u: %s", __func__, type,
		    err[0] != '\0' ? err : "bad length or fd");
		if (fd != -1)
			close(fd);
		return (-1);
	}
	to = type == IMSG_ENV_CHUNK || type == IMSG_ENV_READY ?
	    PROC_RUNNERD : PROC_ENVD;
	if (children_send(to, type, fd, imsg->data,
	    imsg_get_len(imsg)) == -1 && errno == EAGAIN &&
	    type == IMSG_ENV_BUILD)
		relay_env_unavailable(imsg->data);
	return (0);
}

/* envd heard a sandbox's health notification: for the watchdog. */
int
relay_env_health(struct imsg *imsg)
{
	struct env_health	 h;
	char			 err[128];
	int			 fd;

	if ((fd = imsg_get_fd(imsg)) != -1) {
		close(fd);
		return (-1);
	}
	if (imsg_get_data(imsg, &h, sizeof(h)) == -1 ||
	    env_check_health(&h, err, sizeof(err)) == -1) {
		log_warnx("%s: malformed health message", __func__);
		return (-1);
	}
	services_health(h.id);
	return (0);
}
