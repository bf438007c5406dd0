/*
 * sandboxctl -i: the caller's own standard input and output, sent just
 * before its exec request and held here for it.  They go to the command
 * as they are, so bytes, back-pressure and end of file travel between
 * caller and command with no daemon in the way and nothing buffered.
 * Only pipes, sockets, regular files and /dev/null are taken: a
 * terminal or other device stays with its owner.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "log.h"
#include "runnerd.h"

struct rstdio {
	TAILQ_ENTRY(rstdio)	 entry;
	uint32_t		 peerid;
	int			 fd[2];		/* -1 none, -2 refused */
};

static TAILQ_HEAD(, rstdio)	 stdios = TAILQ_HEAD_INITIALIZER(stdios);

static struct rstdio *
stdio_find(uint32_t peerid)
{
	struct rstdio	*s;

	TAILQ_FOREACH(s, &stdios, entry)
		if (s->peerid == peerid)
			return (s);
	return (NULL);
}

static void
stdio_free(struct rstdio *s)
{
	int	 i;

	for (i = 0; i < 2; i++)
		if (s->fd[i] >= 0)
			close(s->fd[i]);
	TAILQ_REMOVE(&stdios, s, entry);
	free(s);
}

void
stdio_put(uint32_t peerid, uint32_t which, int fd)
{
	struct rstdio	*s;
	struct stat	 st;

	if ((s = stdio_find(peerid)) == NULL) {
		if ((s = calloc(1, sizeof(*s))) == NULL)
			fatal("%s", __func__);
		s->peerid = peerid;
		s->fd[0] = s->fd[1] = -1;
		TAILQ_INSERT_TAIL(&stdios, s, entry);
	}
	if (s->fd[which] >= 0)
		close(s->fd[which]);
	s->fd[which] = fd;
	if (fstat(fd, &st) == -1 || !(S_ISFIFO(st.st_mode) ||
	    S_ISSOCK(st.st_mode) || S_ISREG(st.st_mode) ||
	    (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3)))) {
		close(fd);
		s->fd[which] = -2;
	}
}

/* Both of the client's, or -1 and why. */
int
stdio_take(uint32_t peerid, int fds[2], char *err, size_t len)
{
	struct rstdio	*s;

	if ((s = stdio_find(peerid)) == NULL || s->fd[0] == -1 ||
	    s->fd[1] == -1) {
		snprintf(err, len, "-i: the caller's standard input and output "
		    "did not come with the request");
		if (s != NULL)
			stdio_free(s);
		return (-1);
	}
	if (s->fd[0] == -2 || s->fd[1] == -2) {
		snprintf(err, len, "-i: standard input and output must be "
		    "pipes, sockets, files or /dev/null, not a terminal or "
		    "device");
		stdio_free(s);
		return (-1);
	}
	fds[0] = s->fd[0];
	fds[1] = s->fd[1];
	s->fd[0] = s->fd[1] = -1;
	stdio_free(s);
	return (0);
}

void
stdio_client_gone(uint32_t peerid)
{
	struct rstdio	*s;

	if ((s = stdio_find(peerid)) != NULL)
		stdio_free(s);
}
