/* An imsgbuf driven by a libevent event. */
#ifndef SANDBOXD_IMSGEV_H
#define SANDBOXD_IMSGEV_H

#include <event.h>

#include "imsg.h"

struct imsgev {
	struct imsgbuf	 ibuf;
	void		(*handler)(int, short, void *);
	struct event	 ev;		/* read, persistent */
	struct event	 evw;		/* write, armed while queued */
	void		*data;
};

void	imsgev_init(struct imsgev *, int, void (*)(int, short, void *),
	    void *);
void	imsgev_add(struct imsgev *);
void	imsgev_del(struct imsgev *);
int	imsgev_compose(struct imsgev *, uint32_t, uint32_t, pid_t, int,
	    const void *, size_t);
/*
 * Do the I/O an event asks for.  Returns 0 to go on, -1 when the peer
 * is gone or the stream is broken (errno says which; 0 for EOF).
 */
int	imsgev_io(struct imsgev *, short);
/*
 * A channel's event whole: the I/O, then each message to fn, until fn
 * returns -1 (it has closed the channel: nothing more is touched), and
 * the write event armed as needed.  Returns -1 when the channel is
 * broken and the caller must close it: errno 0 at EOF, EBADMSG for a
 * malformed message, else the I/O error.
 */
int	imsgev_dispatch(struct imsgev *, short,
	    int (*)(struct imsg *, void *), void *);

#endif
