/* netd's requests from runnerd (through the master) and dnspind. */
#ifndef NETD_SERVE_H
#define NETD_SERVE_H

#include "conf.h"
#include "imsg.h"
#include "netd.h"
#include "sandboxd_imsg.h"

void	serve_conf(struct netd *, struct sandboxd_conf *);
/* -1 for a message type that is not netd's. */
int	serve_dispatch(struct imsg *);
void	serve_shutdown(void);
void	serve_pin(const struct dns_pin_req *, struct dns_pin_ack *);

/* dnsch.c: the channel to dnspind, that the master made */
void	dnsch_open(int);

#endif
