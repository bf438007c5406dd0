/*
 * For the C tests whose cases are functions returning 1 on success:
 * CHECK returns 0 from the case at the first condition that does not
 * hold, saying which and errno; open_fds counts the process's fds.
 */
#ifndef REGRESS_CHECK_H
#define REGRESS_CHECK_H

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define CHECK(c) do {							\
	if (!(c)) {							\
		printf("# %s:%d: %s (errno: %s)\n", __func__, __LINE__,	\
		    #c, strerror(errno));				\
		return (0);						\
	}								\
} while (0)

/* The fds open in this process, -1 if /proc cannot tell. */
static int __attribute__((unused))
open_fds(void)
{
	struct dirent	*de;
	DIR		*d;
	int		 n = 0;

	if ((d = opendir("/proc/self/fd")) == NULL)
		return (-1);
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return (n - 1);		/* opendir's own */
}

#endif
