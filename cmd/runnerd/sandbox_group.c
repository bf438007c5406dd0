/*
 * One exec's process group inside a sandbox: signalled and counted
 * from the sandbox's cgroup, so that nothing outside it is ever hit,
 * whatever became of the group's number.
 */
#include <sys/types.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "sandbox.h"
#include "sandbox_int.h"

/* With sig 0 only counts; the cgroup is frozen for a stable snapshot. */
static int
sandbox_group_walk(struct sandbox *sb, pid_t pgid, int sig)
{
	pid_t	*pids;
	size_t	 i, n;
	int	 frozen, count = 0;

	if (pgid <= 1)
		return (0);
	frozen = sig != 0 && cgroup_freeze(sb->id, 1) == 0;
	if (cgroup_procs(sb->id, &pids, &n) == -1) {
		pids = NULL;
		n = 0;
	}
	for (i = 0; i < n; i++) {
		if (pids[i] == sb->init_pid || getpgid(pids[i]) != pgid)
			continue;
		if (sig == 0 || kill(pids[i], sig) == 0)
			count++;
	}
	free(pids);
	if (frozen)
		cgroup_freeze(sb->id, 0);
	return (count);
}

int
sandbox_signal_group(struct sandbox *sb, pid_t pgid, int sig)
{
	if (sig <= 0)
		return (0);
	return (sandbox_group_walk(sb, pgid, sig));
}

int
sandbox_group_nprocs(struct sandbox *sb, pid_t pgid)
{
	return (sandbox_group_walk(sb, pgid, 0));
}
