/* Checking the IMSG_DNS_* payloads between runnerd, dnspind and netd. */
#ifndef SANDBOXD_DNS_MSG_H
#define SANDBOXD_DNS_MSG_H

#include <stddef.h>

#include "sandboxd_imsg.h"

int	dns_check_socket(const struct dns_socket *, char *, size_t);
int	dns_check_sandbox(const struct dns_sandbox *, char *, size_t);
int	dns_check_pin_req(const struct dns_pin_req *, char *, size_t);
int	dns_check_pin_ack(const struct dns_pin_ack *, char *, size_t);

#endif
