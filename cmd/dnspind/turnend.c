/*
 * Work kept for the end of the turn of the event loop: a one-shot event
 * made active now, so that it runs once every event of this turn has
 * been handled (libevent runs the active ones in order).  Audit lines,
 * answers over UDP and pins for netd each gather what a turn makes and
 * go out together.
 */
#include <event.h>

#include "dnspind.h"

static void
turnend_run(int fd, short event, void *arg)
{
	struct turnend	*t = arg;

	t->armed = 0;
	t->fn();
}

/* t->fn runs at the end of this turn, once however often it is armed. */
void
turnend_arm(struct turnend *t)
{
	if (t->armed)
		return;
	if (!t->set) {
		event_set(&t->ev, -1, 0, turnend_run, t);
		t->set = 1;
	}
	event_active(&t->ev, EV_TIMEOUT, 1);
	t->armed = 1;
}
