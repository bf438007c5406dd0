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

#endif
