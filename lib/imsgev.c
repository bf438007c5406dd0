/* libevent glue for imsgbufs, as in OpenBSD's daemons. */
#include <errno.h>

#include "imsgev.h"
#include "log.h"

void
imsgev_init(struct imsgev *iev, int fd, void (*handler)(int, short, void *),
    void *data)
{
	imsg_init(&iev->ibuf, fd);
	iev->handler = handler;
	iev->data = data;
	iev->events = EV_READ;
	event_set(&iev->ev, fd, iev->events, handler, iev);
	event_add(&iev->ev, NULL);
}

void
imsgev_add(struct imsgev *iev)
{
	iev->events = EV_READ;
	if (imsg_queued(&iev->ibuf))
		iev->events |= EV_WRITE;
	event_del(&iev->ev);
	event_set(&iev->ev, iev->ibuf.fd, iev->events, iev->handler, iev);
	event_add(&iev->ev, NULL);
}

void
imsgev_del(struct imsgev *iev)
{
	event_del(&iev->ev);
}

int
imsgev_compose(struct imsgev *iev, uint32_t type, uint32_t peerid,
    pid_t pid, int fd, const void *data, size_t len)
{
	if (imsg_compose(&iev->ibuf, type, peerid, pid, fd, data, len) == -1)
		return (-1);
	imsgev_add(iev);
	return (0);
}

int
imsgev_io(struct imsgev *iev, short event)
{
	ssize_t	 n;

	if (event & EV_READ) {
		n = imsg_read(&iev->ibuf);
		if (n == -1 && errno != EAGAIN && errno != EINTR)
			return (-1);
		if (n == 0) {
			errno = 0;
			return (-1);
		}
	}
	if (event & EV_WRITE) {
		if (imsg_write(&iev->ibuf) == -1)
			return (-1);
	}
	return (0);
}
