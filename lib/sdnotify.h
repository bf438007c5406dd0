/*
 * The sd_notify(3) protocol, spoken without libsystemd.  Everything is a
 * no-op when the service manager gave no $NOTIFY_SOCKET.
 */
#ifndef SANDBOXD_SDNOTIFY_H
#define SANDBOXD_SDNOTIFY_H

#include <stdint.h>

/* Take $NOTIFY_SOCKET and $WATCHDOG_USEC for this process, and unset
 * them so no child inherits them; 1 if there is a manager to tell. */
int		 sdnotify_init(void);
int		 sdnotify_active(void);
/* The watchdog interval the manager asked for, 0 for none. */
uint64_t	 sdnotify_watchdog_usec(void);
/* One datagram of KEY=VALUE lines; -1 if it was not sent (the first
 * failure in a row is logged). */
int		 sdnotify(const char *, ...)
		    __attribute__((format(printf, 1, 2)));

#endif
