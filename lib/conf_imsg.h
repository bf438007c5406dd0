/* The config as a transaction of imsgs: CONF, items..., END. */
#ifndef SANDBOXD_CONF_IMSG_H
#define SANDBOXD_CONF_IMSG_H

#include "conf.h"
#include "imsgev.h"

/* Master side: queue the parts of conf a child needs. */
int	conf_send(struct imsgev *, const struct sandboxd_conf *, unsigned int);

/*
 * Child side: feed every IMSG_RECONF_* here.  Returns 1 when END
 * completed a config (*done is set; the caller swaps it in whole), 0
 * while a transaction is under way, -1 with a reason in errbuf for a
 * malformed or out-of-order message (from the master: fatal).
 */
int	conf_recv(struct sandboxd_conf **, struct imsg *,
	    struct sandboxd_conf **, char *, size_t);
int	conf_count_rules(const struct sandboxd_conf *);
int	conf_count_policies(const struct sandboxd_conf *);

#endif
