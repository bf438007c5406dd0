/*
 * The test's end of a channel to code under test in the same process
 * (chpeer.h).
 */
#include <sys/socket.h>

#include <err.h>
#include <event.h>
#include <unistd.h>

#include "chpeer.h"

struct imsgbuf	 chpeer = { .fd = -1 };

/*
 * A new channel: the old end of the test, if any, is closed and the
 * other end of the new one returned for the code under test.
 */
int
chpeer_pair(void)
{
	int	 sp[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sp) == -1)
		err(1, "%s: socketpair", __func__);
	if (chpeer.fd != -1) {
		imsg_clear(&chpeer);
		close(chpeer.fd);
	}
	imsg_init(&chpeer, sp[1]);
	imsg_allow_fdpass(&chpeer);
	return (sp[0]);
}

/* The code under test's loop, until nothing is left to do. */
void
chpeer_spin(void)
{
	int	 i;

	for (i = 0; i < 20; i++)
		event_loop(EVLOOP_NONBLOCK);
}

/* One message to the code under test, which then runs. */
void
chpeer_send(uint32_t type, int fd, const void *data, size_t len)
{
	if (imsg_compose(&chpeer, type, 0, 0, fd, data, len) == -1 ||
	    imsg_flush(&chpeer) == -1)
		err(1, "%s: send", __func__);
	chpeer_spin();
}
