/*
 * runnerd and envd talk through the master: each message is checked
 * against the table (lib/msgtab.c) in children.c before it is passed
 * on; a malformed one makes its sender misbehaved.  What cannot be
 * delivered because envd is down is answered here, so no exec waits
 * for nobody.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "msgtab.h"
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

/* From runnerd, for envd, checked against the table by the caller. */
int
relay_env(struct imsg *imsg)
{
	uint32_t	 type = imsg_get_type(imsg);

	if (children_send(PROC_ENVD, type, imsg_get_fd(imsg), imsg->data,
	    imsg_get_len(imsg)) == -1 && errno == EAGAIN &&
	    type == IMSG_ENV_BUILD)
		relay_env_unavailable(imsg->data);
	return (0);
}

/* envd heard a sandbox's health notification: for the watchdog. */
void
relay_env_health(struct imsg *imsg)
{
	services_health(IMSG_PAYLOAD(imsg, struct env_health)->id);
}
