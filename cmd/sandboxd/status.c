/* What the kernel says about a process: ids, capabilities, seccomp. */
#include <sys/types.h>

#include <cap-ng.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sandboxd.h"

static void
status_parse_line(struct ctl_proc_status *ps, const char *line)
{
	unsigned int		 u;
	unsigned long long	 x;

	if (sscanf(line, "Uid: %u", &u) == 1)
		ps->uid = u;
	else if (sscanf(line, "CapEff: %llx", &x) == 1)
		ps->cap_eff = x;
	else if (sscanf(line, "CapBnd: %llx", &x) == 1)
		ps->cap_bnd = x;
	else if (sscanf(line, "Seccomp: %u", &u) == 1)
		ps->seccomp = u;
	else if (sscanf(line, "NoNewPrivs: %u", &u) == 1)
		ps->nonewprivs = u;
}

static void
caps_join(uint64_t caps, int last, char *buf, size_t len)
{
	const char	*name;
	int		 i;

	for (i = 0; i <= last; i++) {
		if ((caps & (1ULL << i)) == 0)
			continue;
		if (buf[0] != '\0' && buf[strlen(buf) - 1] != ' ')
			strlcat(buf, ",", len);
		name = capng_capability_to_name(i);
		strlcat(buf, name != NULL ? name : "?", len);
	}
}

/*
 * "none", the names joined by commas, or for a set holding most of
 * them "all" and what is missing, which is what a reader looks for.
 */
static void
caps_names(uint64_t caps, char *buf, size_t len)
{
	uint64_t	 full;
	int		 last = CAP_LAST_CAP;

	buf[0] = '\0';
	full = last >= 63 ? ~0ULL : (1ULL << (last + 1)) - 1;
	caps &= full;
	if (caps == 0)
		strlcpy(buf, "none", len);
	else if (caps == full)
		strlcpy(buf, "all", len);
	else if (__builtin_popcountll(caps) > (last + 1) / 2) {
		strlcpy(buf, "all except ", len);
		caps_join(full & ~caps, last, buf, len);
	} else
		caps_join(caps, last, buf, len);
}

void
status_fill(struct ctl_proc_status *ps, const char *name, pid_t pid)
{
	struct passwd	*pw;
	char		 path[64], line[256];
	FILE		*fp;
	ssize_t		 n;

	strlcpy(ps->name, name, sizeof(ps->name));
	strlcpy(ps->caps, "none", sizeof(ps->caps));
	ps->pid = pid;
	if (pid <= 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((fp = fopen(path, "r")) == NULL) {
		log_warn("%s: %s", __func__, path);
		return;
	}
	while (fgets(line, sizeof(line), fp) != NULL)
		status_parse_line(ps, line);
	fclose(fp);
	caps_names(ps->cap_eff, ps->caps, sizeof(ps->caps));
	if ((pw = getpwuid(ps->uid)) != NULL)
		strlcpy(ps->user, pw->pw_name, sizeof(ps->user));
	snprintf(path, sizeof(path), "/proc/%d/root", (int)pid);
	if ((n = readlink(path, ps->root, sizeof(ps->root) - 1)) == -1)
		n = 0;
	ps->root[n] = '\0';
}
