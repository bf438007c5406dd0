/*
 * Pause and resume a whole sandbox with the cgroup freezer: pid 1 and
 * every exec stop where they are and take no CPU until thawed.  A
 * paused sandbox is killed while still frozen, then thawed, so that
 * nothing of it runs again, and no wait hangs on a frozen task (v1's
 * freezer holds even SIGKILL until the thaw).
 */
#include <sys/types.h>

#include <signal.h>
#include <stdlib.h>

#include "log.h"
#include "sandbox_int.h"

/*
 * Freezing takes the sandbox's own CPU time (a starved one gets a
 * slice per quota period), so it is asked for here and watched by the
 * caller from its event loop: paused from now on, so that no exec
 * starts and no sweep thaws it, until frozen or given up.
 */
int
sandbox_pause_begin(struct sandbox *sb, char *err, size_t len)
{
	if (sb->paused)
		return (0);
	if (cgroup_freeze(sb->id, 1) == -1)
		return (sbx_fail(err, len, "this host has no cgroup freezer "
		    "(cgroup v2, or v1 with the freezer controller mounted)"));
	sb->paused = 1;
	return (0);
}

/* 1 once every task has stopped, else 0. */
int
sandbox_pause_done(struct sandbox *sb)
{
	return (cgroup_frozen(sb->id));
}

int
sandbox_resume(struct sandbox *sb, char *err, size_t len)
{
	if (!sb->paused)
		return (0);
	if (cgroup_freeze(sb->id, 0) == -1)
		return (sbx_fail(err, len, "sandbox %s: thawing failed",
		    sb->id));
	sb->paused = 0;
	return (0);
}

void
sandbox_kill_paused(struct sandbox *sb)
{
	pid_t	*pids;
	size_t	 i, n;

	if (!sb->paused)
		return;
	if (cgroup_procs(sb->id, &pids, &n) == 0) {
		for (i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
		free(pids);
	}
	if (cgroup_freeze(sb->id, 0) == -1)
		log_warnx("%s: sandbox %s: thawing failed", __func__, sb->id);
	sb->paused = 0;
}
