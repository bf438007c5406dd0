/*
 * The test's end of a channel whose other end, the code under test,
 * runs in the same process on libevent: the C channel tests
 * (regress/netd/dnsch_test.c, regress/peerch/peerch_test.c) drive it
 * as a compromised peer would.
 */
#ifndef REGRESS_CHPEER_H
#define REGRESS_CHPEER_H

#include <stddef.h>
#include <stdint.h>

#include "imsg.h"

extern struct imsgbuf	 chpeer;	/* the test's end */

int	chpeer_pair(void);
void	chpeer_spin(void);
void	chpeer_send(uint32_t, int, const void *, size_t);

#endif
