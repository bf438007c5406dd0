/* One duration syntax for the config file and the command line. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"

int
duration_parse(const char *s, uint64_t *ms)
{
	static const struct {
		const char	*sfx;
		uint64_t	 mul;
	} units[] = {
		{ "", 1000 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 },
		{ "h", 3600000 }
	};
	unsigned long long	 v;
	size_t			 i;
	char			*ep;

	if (*s < '0' || *s > '9') {
		errno = EINVAL;
		return (-1);
	}
	errno = 0;
	v = strtoull(s, &ep, 10);
	if (errno == ERANGE)
		return (-1);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(ep, units[i].sfx) != 0)
			continue;
		if (v > UINT64_MAX / units[i].mul) {
			errno = ERANGE;
			return (-1);
		}
		*ms = v * units[i].mul;
		return (0);
	}
	errno = EINVAL;
	return (-1);
}
