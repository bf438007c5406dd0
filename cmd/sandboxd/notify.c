/*
 * What the master tells a service manager through sd_notify: READY=1
 * once the control socket listens and every child has come up and
 * confirmed the config, RELOADING=1 and READY=1 around a reload,
 * STATUS= with live counts when they change (at most once a second),
 * STOPPING=1 at the end.
 * Without $NOTIFY_SOCKET all of it is a no-op.
 */
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "sandboxd.h"
#include "sdnotify.h"

#define NOTIFY_STATUS_MS	1000	/* between two STATUS= lines */

static int		 notify_ready;		/* READY=1 was sent */
static int		 notify_reloads;	/* under way */
static char		 status_sent[256];
static uint64_t		 status_sent_ms;
static struct event	 ev_status;

static void
notify_status_text(char *buf, size_t len)
{
	uint32_t	 run, total;
	size_t		 n;
	int		 i;

	services_count(&run, &total);
	n = snprintf(buf, len, "%s%u sandboxes, %u/%u services running, "
	    "config generation %llu", notify_ready ? "" : "starting: ",
	    sbx->children[PROC_RUNNERD].load, run, total,
	    (unsigned long long)sbx->generation);
	for (i = 0; i < PROC_MAX && n < len; i++) {
		const struct child	*c = &sbx->children[i];

		if (c->state == PROC_STATE_FAILED)
			n += snprintf(buf + n, len - n, "; %s failed",
			    c->spec->name);
		else if (c->hung)
			n += snprintf(buf + n, len - n, "; %s not answering",
			    c->spec->name);
		else if (notify_ready && c->state != PROC_STATE_RUNNING)
			n += snprintf(buf + n, len - n, "; %s restarting",
			    c->spec->name);
	}
	if (notify_reloads > 0 && n < len)
		snprintf(buf + n, len - n, "; reloading");
}

static void
notify_status_cb(int fd, short event, void *arg)
{
	notify_status();
}

/* A new STATUS= if it changed; a later one if the last was too recent. */
void
notify_status(void)
{
	struct timeval	 tv;
	char		 buf[sizeof(status_sent)];
	uint64_t	 now = monotime_ms();

	if (!sdnotify_active() || evtimer_pending(&ev_status, NULL))
		return;
	notify_status_text(buf, sizeof(buf));
	if (strcmp(buf, status_sent) == 0)
		return;
	if (status_sent_ms != 0 && now - status_sent_ms < NOTIFY_STATUS_MS) {
		tv.tv_sec = 0;
		tv.tv_usec = (NOTIFY_STATUS_MS - (now - status_sent_ms)) *
		    1000;
		evtimer_add(&ev_status, &tv);
		return;
	}
	sdnotify("STATUS=%s", buf);
	strlcpy(status_sent, buf, sizeof(status_sent));
	status_sent_ms = now;
}

void
notify_init(void)
{
	evtimer_set(&ev_status, notify_status_cb, NULL);
	notify_status();
}

/* READY=1 the first time every child runs with the config. */
void
notify_children(void)
{
	const struct child	*c;
	int			 i;

	if (!notify_ready) {
		for (i = 0; i < PROC_MAX; i++) {
			c = &sbx->children[i];
			if (c->state != PROC_STATE_RUNNING ||
			    c->conf_generation != sbx->generation)
				break;
		}
		if (i == PROC_MAX) {
			notify_ready = 1;
			log_info("ready: every child is up");
			sdnotify("READY=1");
		}
	}
	notify_status();
}

/*
 * A child given up on before READY=1: under a service manager the start
 * has failed, and saying so at once (exit 1) beats a start timeout.
 * Later, or without a manager, the master stays up and STATUS= (and
 * sandboxctl status) says which child failed; a reload retries it.
 */
void
notify_child_failed(struct child *c)
{
	if (notify_ready || !sdnotify_active()) {
		notify_status();
		return;
	}
	sdnotify("STATUS=%s failed to start; see the log", c->spec->name);
	log_warnx("%s: %s never came up: the start fails", __func__,
	    c->spec->name);
	sbx->shutting_down = 1;
	children_stop(0);
	control_cleanup(sbx->sockpath);
	exit(1);
}

static uint64_t
notify_monotonic_usec(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
}

void
notify_reloading(void)
{
	if (notify_reloads++ == 0 && notify_ready)
		sdnotify("RELOADING=1\nMONOTONIC_USEC=%llu",
		    (unsigned long long)notify_monotonic_usec());
	notify_status();
}

/* The reload is over, done or refused: ready again, if we were. */
void
notify_reloaded(void)
{
	if (notify_reloads > 0 && --notify_reloads == 0 && notify_ready)
		sdnotify("READY=1");
	notify_status();
}

void
notify_stopping(void)
{
	sdnotify("STOPPING=1\nSTATUS=stopping");
}
