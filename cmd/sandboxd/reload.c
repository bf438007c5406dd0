/*
 * A reload: the new config is parsed and checked whole, swapped in and
 * sent to every child; it is done once every running child has
 * confirmed the new generation (a child that is restarting gets it
 * when it starts).  Only then are the service manager (READY=1) and
 * the sandboxctl clients that asked told.  A config with errors is
 * refused at once with the parser's first "file:line: message", and
 * the running one stays in force.
 */
#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "sandboxd.h"

#define RELOAD_WAIT_SECS	30	/* for the children's confirmation */

static uint64_t		 reload_gen;	/* awaited; 0: none */
static struct event	 ev_reload_wait;
static int		 reload_inited;

static void
reload_finish(int error, const char *msg)
{
	uint64_t	 gen = reload_gen;

	reload_gen = 0;
	evtimer_del(&ev_reload_wait);
	if (error == 0)
		log_info("config generation %llu in force in every child",
		    (unsigned long long)gen);
	else
		log_warnx("%s", msg);
	control_reload_done(gen, error, msg);
	notify_reloaded();
}

static void
reload_timeout(int fd, short event, void *arg)
{
	char	 msg[CTL_MSG_SIZE];
	size_t	 n;
	int	 i;

	n = snprintf(msg, sizeof(msg), "config generation %llu is loaded, "
	    "but not confirmed within %d seconds by",
	    (unsigned long long)reload_gen, RELOAD_WAIT_SECS);
	for (i = 0; i < PROC_MAX && n < sizeof(msg); i++)
		if (children_running(i) &&
		    sbx->children[i].conf_generation < reload_gen)
			n += snprintf(msg + n, sizeof(msg) - n, " %s",
			    sbx->children[i].spec->name);
	reload_finish(ETIMEDOUT, msg);
}

/* After a child's confirmation, start or exit: is the reload done? */
void
reload_check(void)
{
	int	 i;

	if (reload_gen == 0)
		return;
	for (i = 0; i < PROC_MAX; i++)
		if (children_running(i) &&
		    sbx->children[i].conf_generation < reload_gen)
			return;
	reload_finish(0, "reloaded");
}

/*
 * Load and send the config; *gen is the generation to wait for.  -1 if
 * it was refused, with why in err.
 */
int
reload_start(const char *corr, char *err, size_t errlen, uint64_t *gen)
{
	struct sandboxd_conf	*conf, *old;
	struct timeval		 tv = { RELOAD_WAIT_SECS, 0 };
	char			 why[CTL_MSG_SIZE];

	if (!reload_inited) {
		evtimer_set(&ev_reload_wait, reload_timeout, NULL);
		reload_inited = 1;
	}
	log_info("reloading %s", sbx->conffile);
	notify_reloading();
	if ((conf = sandboxd_load(corr, why, sizeof(why))) == NULL) {
		snprintf(err, errlen, "%s; the running config and secrets are kept", why);
		log_warnx("%s", err);
		notify_reloaded();
		return (-1);
	}
	old = sbx->conf;
	sbx->conf = conf;
	children_retry_failed();
	children_send_conf();
	services_conf(old, conf);
	conf_free(old);
	log_info("config generation %llu loaded",
	    (unsigned long long)conf->global.generation);
	/* A reload still awaited is folded into this one. */
	if (reload_gen != 0)
		notify_reloaded();
	reload_gen = *gen = conf->global.generation;
	evtimer_add(&ev_reload_wait, &tv);
	return (0);
}
