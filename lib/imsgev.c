/*
 * libevent glue for imsgbufs, as in OpenBSD's daemons.  Reading is one
 * persistent event and writing another, armed only while messages are
 * queued: re-arming a single event per message cost two epoll_ctl calls
 * each time, half of the master's CPU under DNS load.
 */
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
	event_set(&iev->ev, fd, EV_READ | EV_PERSIST, handler, iev);
	event_set(&iev->evw, fd, EV_WRITE, handler, iev);
	event_add(&iev->ev, NULL);
}

/* Arm the write event while anything is queued; reading stays armed. */
void
imsgev_add(struct imsgev *iev)
{
	int	 armed = event_pending(&iev->evw, EV_WRITE, NULL);

	if (imsg_queued(&iev->ibuf)) {
		if (!armed)
			event_add(&iev->evw, NULL);
	} else if (armed)
		event_del(&iev->evw);
}

void
imsgev_del(struct imsgev *iev)
{
	event_del(&iev->ev);
	event_del(&iev->evw);
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

int
imsgev_dispatch(struct imsgev *iev, short event,
    int (*fn)(struct imsg *, void *), void *arg)
{
	struct imsg	 imsg;
	ssize_t		 n;
	int		 rc;

	if (imsgev_io(iev, event) == -1)
		return (-1);
	while ((n = imsg_get(&iev->ibuf, &imsg)) != 0) {
		if (n == -1) {
			errno = EBADMSG;
			return (-1);
		}
		rc = fn(&imsg, arg);
		imsg_free(&imsg);
		if (rc == -1)
			return (0);
	}
	imsgev_add(iev);
	return (0);
}
