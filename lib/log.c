/* Logging to stderr (foreground) or syslog, OpenBSD log.c style. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

static int	 debug;
static int	 verbose;
static const char *procname = "sandboxd";
static char	 corr[64];

void
log_init(int n_debug, int facility)
{
	debug = n_debug;
	tzset();
	if (!debug)
		/* LOG_NDELAY: connect now, before any chroot hides /dev/log. */
		openlog(procname, LOG_PID | LOG_NDELAY, facility);
}

void
log_procinit(const char *name)
{
	if (name != NULL)
		procname = name;
}

void
log_setverbose(int v)
{
	verbose = v;
}

int
log_getverbose(void)
{
	return (verbose);
}

void
log_setcorr(const char *id)
{
	if (id == NULL || *id == '\0')
		corr[0] = '\0';
	else
		snprintf(corr, sizeof(corr), "%s", id);
}

const char *
log_getcorr(void)
{
	return (corr);
}

void
vlog(int pri, const char *fmt, va_list ap)
{
	char	 msg[2048];
	int	 saved_errno = errno;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (debug) {
		if (corr[0] != '\0')
			fprintf(stderr, "%s[%d]: %s corr=%s\n", procname,
			    (int)getpid(), msg, corr);
		else
			fprintf(stderr, "%s[%d]: %s\n", procname,
			    (int)getpid(), msg);
		fflush(stderr);
	} else if (corr[0] != '\0')
		syslog(pri, "%s: %s corr=%s", procname, msg, corr);
	else
		syslog(pri, "%s: %s", procname, msg);
	errno = saved_errno;
}

void
logit(int pri, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vlog(pri, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 3, 0)))
static void
vlog_errno(int pri, int err, const char *fmt, va_list ap)
{
	char	 msg[2048];

	if (fmt == NULL) {
		logit(pri, "%s", strerror(err));
		return;
	}
	vsnprintf(msg, sizeof(msg), fmt, ap);
	logit(pri, "%s: %s", msg, strerror(err));
}

void
log_warn(const char *fmt, ...)
{
	va_list	 ap;
	int	 saved_errno = errno;

	va_start(ap, fmt);
	vlog_errno(LOG_ERR, saved_errno, fmt, ap);
	va_end(ap);
	errno = saved_errno;
}

void
log_warnx(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vlog(LOG_ERR, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vlog(LOG_INFO, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list	 ap;

	if (verbose < 1)
		return;
	va_start(ap, fmt);
	vlog(LOG_DEBUG, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list	 ap;
	int	 saved_errno = errno;

	va_start(ap, fmt);
	vlog_errno(LOG_CRIT, saved_errno, fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vlog(LOG_CRIT, fmt, ap);
	va_end(ap);
	exit(1);
}

#ifdef SANDBOXD_ASAN
/*
 * ASan builds only: the daemons run without the environment that
 * ASAN_OPTIONS would come in, and LeakSanitizer's check at exit cannot
 * stop the world under their seccomp filters (it spins).  Leaks are the
 * fuzzers' and unit tests' to find.
 */
int	__lsan_is_turned_off(void);

int
__lsan_is_turned_off(void)
{
	return (1);
}

/*
 * The daemons get no ASAN_OPTIONS (only envd inherits an environment).
 * ASan's default quarantine of 256 MB of freed memory shows as RSS
 * growth under a stream of short-lived buffers, which the tests that
 * bound a daemon's memory would take for a leak; 8 MB still catches a
 * use after free of anything freed recently.
 */
const char	*__asan_default_options(void);

const char *
__asan_default_options(void)
{
	return ("quarantine_size_mb=8");
}
#endif
