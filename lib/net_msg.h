/* Checking the IMSG_NET_* payloads between runnerd, the master and netd. */
#ifndef SANDBOXD_NET_MSG_H
#define SANDBOXD_NET_MSG_H

#include <stddef.h>

#include "sandboxd_imsg.h"

int	net_check_setup(const struct net_setup *, char *, size_t);
int	net_check_id(const struct net_id *, char *, size_t);
int	net_check_ident(const struct net_ident *);
int	net_check_ready(const struct net_ready *, char *, size_t);
int	net_check_sync(const struct net_sync *, char *, size_t);
int	net_check_info(const struct sbx_net_info *, char *, size_t);
int	net_check_pins(const struct sbx_net_pins *, char *, size_t);
/* Rules text for show: printable ASCII, tabs and newlines. */
int	net_check_rules(const char *, size_t, char *, size_t);

#endif
