/*
 * sd_notify(3) by hand: one datagram of "KEY=VALUE" lines to the
 * AF_UNIX socket $NOTIFY_SOCKET names, a path or, with a leading '@',
 * an abstract address.  Forty lines do not justify linking libsystemd,
 * and the daemon keeps working on hosts without it.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sdnotify.h"

static int			 notify_fd = -1;
static struct sockaddr_un	 notify_sun;
static socklen_t		 notify_len;
static uint64_t			 watchdog_usec;
static int			 notify_failing;	/* said so once */

static int
sdnotify_addr(const char *path)
{
	size_t	 len = strlen(path);

	if ((path[0] != '/' && path[0] != '@') || len < 2 ||
	    len >= sizeof(notify_sun.sun_path))
		return (-1);
	memset(&notify_sun, 0, sizeof(notify_sun));
	notify_sun.sun_family = AF_UNIX;
	memcpy(notify_sun.sun_path, path, len);
	if (path[0] == '@')
		notify_sun.sun_path[0] = '\0';
	notify_len = offsetof(struct sockaddr_un, sun_path) + len;
	return (0);
}

/* WATCHDOG_PID, if given, must be us: the variable may be inherited. */
static void
sdnotify_watchdog_init(void)
{
	const char	*s, *pid;
	char		*end;
	unsigned long long v;

	s = getenv("WATCHDOG_USEC");
	pid = getenv("WATCHDOG_PID");
	if (s != NULL && (pid == NULL || strtol(pid, NULL, 10) == getpid())) {
		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno == 0 && *end == '\0' && v > 0)
			watchdog_usec = v;
		else
			log_warnx("%s: ignoring WATCHDOG_USEC=%s", __func__, s);
	}
	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
}

int
sdnotify_init(void)
{
	const char	*path;

	if ((path = getenv("NOTIFY_SOCKET")) != NULL) {
		if (sdnotify_addr(path) == -1)
			log_warnx("%s: ignoring NOTIFY_SOCKET=%s", __func__,
			    path);
		else if ((notify_fd = socket(AF_UNIX, SOCK_DGRAM |
		    SOCK_CLOEXEC | SOCK_NONBLOCK, 0)) == -1)
			log_warn("%s: socket", __func__);
	}
	unsetenv("NOTIFY_SOCKET");
	sdnotify_watchdog_init();
	if (notify_fd == -1)
		watchdog_usec = 0;
	return (notify_fd != -1);
}

int
sdnotify_active(void)
{
	return (notify_fd != -1);
}

uint64_t
sdnotify_watchdog_usec(void)
{
	return (watchdog_usec);
}

int
sdnotify(const char *fmt, ...)
{
	char	 buf[1024];
	va_list	 ap;
	int	 n;

	if (notify_fd == -1)
		return (0);
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		errno = EMSGSIZE;
		return (-1);
	}
	if (sendto(notify_fd, buf, n, MSG_NOSIGNAL,
	    (struct sockaddr *)&notify_sun, notify_len) != n) {
		if (!notify_failing)
			log_warn("%s: to the service manager", __func__);
		notify_failing = 1;
		return (-1);
	}
	if (notify_failing)
		log_info("%s: the service manager hears us again", __func__);
	notify_failing = 0;
	return (0);
}
