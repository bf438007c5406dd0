/*
 * Logging to stderr (foreground) or syslog, OpenBSD log.c style.  A
 * foreground daemon whose stderr is the journal's stream (systemd sets
 * $JOURNAL_STREAM to its device:inode) prefixes each line with its
 * priority, "<3>", as sd-daemon(3) describes, so that the journal
 * keeps it.
 */
#include <sys/types.h>
#include <sys/stat.h>

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
static int	 journal;		/* stderr is the journal's stream */
static char	 journal_env[64];	/* JOURNAL_STREAM=, for children */

/* Is stderr the very stream $JOURNAL_STREAM names? */
static int
log_journal_stderr(void)
{
	const char		*s = getenv("JOURNAL_STREAM");
	struct stat		 st;
	unsigned long long	 dev, ino;
	char			 end;

	if (s == NULL || sscanf(s, "%llu:%llu%c", &dev, &ino, &end) != 2 ||
	    fstat(STDERR_FILENO, &st) == -1)
		return (0);
	if ((unsigned long long)st.st_dev != dev ||
	    (unsigned long long)st.st_ino != ino)
		return (0);
	snprintf(journal_env, sizeof(journal_env), "JOURNAL_STREAM=%s", s);
	return (1);
}

/* "JOURNAL_STREAM=dev:ino" if our stderr is the journal's, else NULL. */
char *
log_journal_env(void)
{
	return (journal ? journal_env : NULL);
}

void
log_init(int n_debug, int facility)
{
	debug = n_debug;
	journal = debug && log_journal_stderr();
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
	char	 msg[2048], line[2200], prefix[8];
	int	 saved_errno = errno, n;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	snprintf(prefix, sizeof(prefix), "<%d>", LOG_PRI(pri));
	if (debug) {
		/* One write: the children share this stderr. */
		n = snprintf(line, sizeof(line), "%s%s[%d]: %s%s%s\n",
		    journal ? prefix : "", procname, (int)getpid(), msg,
		    corr[0] != '\0' ? " corr=" : "", corr);
		if (n >= (int)sizeof(line))
			n = sizeof(line) - 1;
		fflush(stderr);
		if (n > 0)
			(void)write(STDERR_FILENO, line, n);
	} else if (corr[0] != '\0')
		syslog(pri, "%s: %s corr=%s", procname, msg, corr);
	else
		syslog(pri, "%s: %s", procname, msg);
	errno = saved_errno;
}

/*
 * Messages already made, each ending in a newline, logged as vlog
 * would one by one; in the foreground, in as few writes as fit a
 * buffer (one write each is atomic among the children sharing the
 * stream).  For a daemon that logs many lines a turn.
 */
void
log_lines(int pri, const char *msgs, size_t len)
{
	char		 out[16384], prefix[8];
	const char	*p = msgs, *nl;
	size_t		 off = 0, n;
	int		 w, saved_errno = errno;

	snprintf(prefix, sizeof(prefix), "<%d>", LOG_PRI(pri));
	fflush(stderr);
	while (p < msgs + len) {
		if ((nl = memchr(p, '\n', msgs + len - p)) == NULL)
			nl = msgs + len;
		n = nl - p;
		if (!debug) {
			syslog(pri, "%s: %.*s%s%s", procname, (int)n, p,
			    corr[0] != '\0' ? " corr=" : "", corr);
		} else {
			for (;;) {
				w = snprintf(out + off, sizeof(out) - off,
				    "%s%s[%d]: %.*s%s%s\n", journal ? prefix :
				    "", procname, (int)getpid(), (int)n, p,
				    corr[0] != '\0' ? " corr=" : "", corr);
				if (w >= 0 && (size_t)w < sizeof(out) - off) {
					off += w;
					break;
				}
				if (off == 0) {	/* alone too long: cut */
					off = sizeof(out) - 1;
					out[off - 1] = '\n';
					break;
				}
				(void)write(STDERR_FILENO, out, off);
				off = 0;
			}
		}
		p = nl + 1;
	}
	if (off > 0)
		(void)write(STDERR_FILENO, out, off);
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
