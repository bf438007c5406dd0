#ifndef SANDBOXD_LOG_H
#define SANDBOXD_LOG_H

#include <stdarg.h>

/* debug: log to stderr instead of syslog; verbose: also log_debug. */
void	log_init(int debug, int facility);
void	log_procinit(const char *procname);
/* "JOURNAL_STREAM=..." for a child's environment when stderr is the
 * journal's (then lines carry "<N>" priority prefixes), else NULL. */
char	*log_journal_env(void);
void	log_setverbose(int);
int	log_getverbose(void);
/* A correlation id added to every line until cleared with NULL. */
void	log_setcorr(const char *);
const char *log_getcorr(void);
void	log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *, ...) __attribute__((format(printf, 1, 2)));
void	logit(int, const char *, ...) __attribute__((format(printf, 2, 3)));
void	vlog(int, const char *, va_list) __attribute__((format(printf, 2, 0)));
void	log_lines(int, const char *, size_t);
__attribute__((noreturn, format(printf, 1, 2)))
void	fatal(const char *, ...);
__attribute__((noreturn, format(printf, 1, 2)))
void	fatalx(const char *, ...);

#endif
