/*
 * The sandbox uid range against the host's own ids: no entry of
 * /etc/subuid or /etc/subgid (a host user who holds one can become those
 * ids through a user namespace) and no passwd or group id may fall in
 * it.  Checked at every load; the files are watched while running.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <event.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "sandboxd.h"

#define IDFILE_LINE_MAX		1024
#define IDRANGE_WATCH_SECS	5

enum idfile_kind { IDFILE_SUB, IDFILE_DB };

struct idfile {
	const char		*path;
	enum idfile_kind	 kind;
	struct stat		 st;		/* as last seen */
	int			 seen;
};

static struct idfile	 idfiles[] = {
	{ "/etc/subuid", IDFILE_SUB, { 0 }, 0 },
	{ "/etc/subgid", IDFILE_SUB, { 0 }, 0 },
	{ "/etc/passwd", IDFILE_DB, { 0 }, 0 },
	{ "/etc/group", IDFILE_DB, { 0 }, 0 },
};
#define NIDFILES	(sizeof(idfiles) / sizeof(idfiles[0]))

static struct event	 ev_idwatch;

static int
parse_u32(const char *s, uint32_t *v)
{
	char		*end;
	unsigned long	 n;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || n > UINT32_MAX)
		return (-1);
	*v = n;
	return (0);
}

/* Field i (0-based) of a colon-separated line, cut in place. */
static char *
field(char *line, int i)
{
	char	*f, *next;

	for (f = line; i > 0; i--) {
		if ((f = strchr(f, ':')) == NULL)
			return (NULL);
		f++;
	}
	if ((next = strchr(f, ':')) != NULL)
		*next = '\0';
	return (f);
}

/* The [start, start+count) one line of the file claims, 0 if none. */
static int
line_ids(enum idfile_kind kind, const char *line, uint64_t *start,
    uint64_t *count)
{
	char		 a[IDFILE_LINE_MAX], b[IDFILE_LINE_MAX], *f;
	uint32_t	 v, n = 1;

	strlcpy(a, line, sizeof(a));
	strlcpy(b, line, sizeof(b));
	if ((f = field(a, kind == IDFILE_SUB ? 1 : 2)) == NULL ||
	    parse_u32(f, &v) == -1)
		return (0);
	if (kind == IDFILE_SUB &&
	    ((f = field(b, 2)) == NULL || parse_u32(f, &n) == -1))
		return (0);
	*start = v;
	*count = n;
	return (1);
}

/* 0 when no entry of the file overlaps [base, base+count), else -1. */
static int
idfile_check(const struct idfile *idf, uint32_t base, uint32_t count,
    char *err, size_t len)
{
	FILE		*fp;
	char		 line[IDFILE_LINE_MAX], *nl;
	uint64_t	 start, n;
	unsigned int	 lineno = 0;
	int		 rv = 0;

	if ((fp = fopen(idf->path, "r")) == NULL) {
		if (errno == ENOENT)
			return (0);
		snprintf(err, len, "%s: %s", idf->path, strerror(errno));
		return (-1);
	}
	while (rv == 0 && fgets(line, sizeof(line), fp) != NULL) {
		lineno++;
		if ((nl = strchr(line, '\n')) != NULL)
			*nl = '\0';
		if (line[0] == '#' || !line_ids(idf->kind, line, &start, &n))
			continue;
		if (start < (uint64_t)base + count && base < start + n) {
			snprintf(err, len, "%s:%u: %s: overlaps uid-range "
			    "%u %u", idf->path, lineno, line, base, count);
			rv = -1;
		}
	}
	fclose(fp);
	return (rv);
}

int
idrange_check(uint32_t base, uint32_t count, char *err, size_t len)
{
	size_t	 i;

	for (i = 0; i < NIDFILES; i++)
		if (idfile_check(&idfiles[i], base, count, err, len) == -1)
			return (-1);
	return (0);
}

static int
idfile_changed(struct idfile *idf)
{
	struct stat	 st;
	int		 changed;

	if (stat(idf->path, &st) == -1)
		memset(&st, 0, sizeof(st));
	changed = idf->seen && (st.st_ino != idf->st.st_ino ||
	    st.st_dev != idf->st.st_dev || st.st_size != idf->st.st_size ||
	    st.st_mtim.tv_sec != idf->st.st_mtim.tv_sec ||
	    st.st_mtim.tv_nsec != idf->st.st_mtim.tv_nsec ||
	    st.st_ctim.tv_sec != idf->st.st_ctim.tv_sec ||
	    st.st_ctim.tv_nsec != idf->st.st_ctim.tv_nsec);
	idf->st = st;
	idf->seen = 1;
	return (changed);
}

/*
 * A file changed under a running master: the range it runs with now
 * overlaps a host id.  It cannot take back the uids it handed out, so
 * the operator is told, every time the file changes, until it is fixed.
 */
static void
idrange_watch(int fd, short event, void *arg)
{
	const struct conf_global_msg	*g = &sbx->conf->global;
	struct timeval			 tv = { IDRANGE_WATCH_SECS, 0 };
	char				 err[IDFILE_LINE_MAX + 128];
	size_t				 i;

	for (i = 0; i < NIDFILES; i++) {
		if (!idfile_changed(&idfiles[i]))
			continue;
		if (idfile_check(&idfiles[i], g->uid_base, g->uid_count,
		    err, sizeof(err)) == -1)
			log_warnx("error: %s changed: %s; a host user or "
			    "group now shares ids with sandboxes",
			    idfiles[i].path, err);
		else
			log_info("%s changed; no entry overlaps uid-range",
			    idfiles[i].path);
	}
	evtimer_add(&ev_idwatch, &tv);
}

void
idrange_watch_start(void)
{
	evtimer_set(&ev_idwatch, idrange_watch, NULL);
	idrange_watch(-1, 0, NULL);
}
