/*
 * The secrets file: read by the master alone, refused unless root owns
 * it and nobody else may read or write it, and handed to envd with the
 * config.  One secret per line, NAME=value; blank lines and lines that
 * begin with '#' are skipped.  No error message ever quotes a value.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sandboxd.h"

#define SECRETS_FILE_MAX	(1024 * 1024)

static int
secrets_fail(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
secrets_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return (-1);
}

/* Only a root-owned regular file that no one else may touch. */
static int
secrets_open(const char *path, struct stat *st, char *err, size_t len)
{
	int	 fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1)
		return (secrets_fail(err, len, "secrets file %s: %s", path,
		    strerror(errno)));
	if (fstat(fd, st) == -1) {
		close(fd);
		return (secrets_fail(err, len, "secrets file %s: %s", path,
		    strerror(errno)));
	}
	if (!S_ISREG(st->st_mode))
		secrets_fail(err, len, "secrets file %s: not a regular file",
		    path);
	else if (st->st_uid != 0)
		secrets_fail(err, len, "secrets file %s: owned by uid %u; it "
		    "must be owned by root", path, (unsigned int)st->st_uid);
	else if (st->st_mode & (S_IRWXG | S_IRWXO))
		secrets_fail(err, len, "secrets file %s: mode %04o lets others "
		    "at it; it must be 0600 or 0400", path,
		    (unsigned int)(st->st_mode & 07777));
	else if (st->st_size > SECRETS_FILE_MAX)
		secrets_fail(err, len, "secrets file %s: larger than %d bytes",
		    path, SECRETS_FILE_MAX);
	else
		return (fd);
	close(fd);
	return (-1);
}

static int
secrets_line(struct sandboxd_conf *conf, const char *path, int lineno,
    char *line, char *err, size_t len)
{
	struct conf_secret	*s;
	char			*eq, cerr[256];

	if (line[0] == '\0' || line[0] == '#')
		return (0);
	if ((eq = strchr(line, '=')) == NULL)
		return (secrets_fail(err, len, "%s:%d: not NAME=value", path,
		    lineno));
	*eq = '\0';
	if ((s = calloc(1, sizeof(*s))) == NULL)
		fatal("%s", __func__);
	if (strlcpy(s->m.name, line, sizeof(s->m.name)) >=
	    sizeof(s->m.name) || strlcpy(s->m.value, eq + 1,
	    sizeof(s->m.value)) >= sizeof(s->m.value)) {
		freezero(s, sizeof(*s));
		return (secrets_fail(err, len, "%s:%d: name or value too long "
		    "(at most %d and %d bytes)", path, lineno,
		    CONF_SECRET_SIZE - 1, CONF_SECRET_VALUE_SIZE - 1));
	}
	if (conf_check_secret(&s->m, cerr, sizeof(cerr)) == -1 ||
	    conf_secret_find(conf, s->m.name) != NULL) {
		if (conf_secret_find(conf, s->m.name) != NULL)
			snprintf(cerr, sizeof(cerr), "secret \"%s\" given "
			    "twice", s->m.name);
		freezero(s, sizeof(*s));
		return (secrets_fail(err, len, "%s:%d: %s", path, lineno,
		    cerr));
	}
	TAILQ_INSERT_TAIL(&conf->secrets, s, entry);
	return (0);
}

static int
secrets_parse(struct sandboxd_conf *conf, const char *path, char *buf,
    size_t n, char *err, size_t len)
{
	char	*line, *next;
	int	 lineno = 0;

	if (memchr(buf, '\0', n) != NULL)
		return (secrets_fail(err, len, "%s: holds a NUL byte", path));
	buf[n] = '\0';
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		lineno++;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (secrets_line(conf, path, lineno, line, err, len) == -1)
			return (-1);
	}
	return (0);
}

int
secrets_load(struct sandboxd_conf *conf, char *err, size_t len)
{
	const char	*path = conf->global.secrets_path;
	struct stat	 st;
	char		*buf;
	ssize_t		 n;
	int		 fd, rc;

	if (path[0] == '\0')
		return (0);
	if ((fd = secrets_open(path, &st, err, len)) == -1)
		return (-1);
	if ((buf = calloc(1, st.st_size + 1)) == NULL)
		fatal("%s", __func__);
	n = read(fd, buf, st.st_size);
	close(fd);
	if (n != st.st_size)
		rc = secrets_fail(err, len, "secrets file %s: short read",
		    path);
	else
		rc = secrets_parse(conf, path, buf, n, err, len);
	freezero(buf, st.st_size + 1);
	return (rc);
}
