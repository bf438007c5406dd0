/* What the kernel says about a process: ids, capabilities, seccomp. */
#include <sys/types.h>

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

void
status_fill(struct ctl_proc_status *ps, const char *name, pid_t pid)
{
	struct passwd	*pw;
	char		 path[64], line[256];
	FILE		*fp;
	ssize_t		 n;

	strlcpy(ps->name, name, sizeof(ps->name));
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
	if ((pw = getpwuid(ps->uid)) != NULL)
		strlcpy(ps->user, pw->pw_name, sizeof(ps->user));
	snprintf(path, sizeof(path), "/proc/%d/root", (int)pid);
	if ((n = readlink(path, ps->root, sizeof(ps->root) - 1)) == -1)
		n = 0;
	ps->root[n] = '\0';
}
