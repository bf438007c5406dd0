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
#include <time.h>

#include "log.h"
#include "sandbox_int.h"

#define SBX_FREEZE_WAIT_MS	2000	/* a loaded v1 host is slow */

int
sandbox_pause(struct sandbox *sb, char *err, size_t len)
{
	struct timespec	 t0;
	int		 frozen;

	if (sb->paused)
		return (0);
	if (cgroup_freeze(sb->id, 1) == -1)
		return (sbx_fail(err, len, "this host has no cgroup freezer "
		    "(cgroup v2, or v1 with the freezer controller mounted)"));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((frozen = cgroup_frozen(sb->id)) == 0 &&
	    sbx_elapsed_ms(&t0) < SBX_FREEZE_WAIT_MS)
		sbx_sleep_ms(2);
	if (!frozen) {
		cgroup_freeze(sb->id, 0);
		return (sbx_fail(err, len, "sandbox %s did not freeze within "
		    "%d ms; left running", sb->id, SBX_FREEZE_WAIT_MS));
	}
	sb->paused = 1;
	return (0);
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
