/* netd's requests from runnerd (through the master). */
#ifndef NETD_SERVE_H
#define NETD_SERVE_H

#include "conf.h"
#include "imsg.h"
#include "netd.h"

void	serve_conf(struct netd *, struct sandboxd_conf *);
/* -1 for a message type that is not netd's. */
int	serve_dispatch(struct imsg *);
void	serve_shutdown(void);

#endif
