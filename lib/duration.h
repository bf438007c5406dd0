/* Durations as sandboxd.conf and sandboxctl write them: 30, 500ms, 5m. */
#ifndef SANDBOXD_DURATION_H
#define SANDBOXD_DURATION_H

#include <stdint.h>

/*
 * Milliseconds from a number of seconds, or of ms, s, m or h: 0, or -1
 * with errno EINVAL (not a duration) or ERANGE (too large).
 */
int	duration_parse(const char *, uint64_t *);

#endif
