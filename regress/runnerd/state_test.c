/*
 * runnerd's sandbox state machine (cmd/runnerd/state.c) on its own:
 * the moves the diagram at its top draws are allowed, a move it does
 * not draw is refused by rstate_set with fatalx (in a child, which must
 * die saying so), every state can reach GONE, and GONE is the end.
 */
#include "../../cmd/runnerd/state.c"

#include <sys/wait.h>

#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "../lib/tap.h"

/* Exit status of a child that moves a sandbox from -> to. */
static int
try_move(enum rstate from, enum rstate to, char *out, size_t len)
{
	struct rsandbox	 rs;
	int		 p[2], status;
	ssize_t		 n;
	pid_t		 pid;

	fflush(stdout);		/* the child must not print it again */
	if (pipe(p) == -1 || (pid = fork()) == -1)
		return (-1);
	if (pid == 0) {
		dup2(p[1], STDERR_FILENO);
		log_init(1, LOG_DAEMON);
		log_setverbose(1);
		memset(&rs, 0, sizeof(rs));
		strlcpy(rs.sb.id, "00000000000000ab", sizeof(rs.sb.id));
		rs.state = from;
		rstate_set(&rs, to);
		_exit(rs.state == to ? 0 : 3);
	}
	close(p[1]);
	n = read(p[0], out, len - 1);
	out[n > 0 ? n : 0] = '\0';
	close(p[0]);
	if (waitpid(pid, &status, 0) == -1)
		return (-1);
	return (WIFEXITED(status) ? WEXITSTATUS(status) : 128);
}

/* Every state reaches GONE by allowed moves. */
static int
reaches_gone(enum rstate s)
{
	unsigned int	 seen = 1U << s, grew;
	int		 a, b;

	do {
		grew = 0;
		for (a = 0; a < RS_NSTATES; a++)
			for (b = 0; b < RS_NSTATES; b++)
				if ((seen & (1U << a)) &&
				    !(seen & (1U << b)) &&
				    rstate_allowed(a, b)) {
					seen |= 1U << b;
					grew = 1;
				}
	} while (grew);
	return ((seen & (1U << RS_GONE)) != 0);
}

int
main(void)
{
	static const enum rstate path[] = { RS_NEW, RS_BUILDING, RS_NET_WAIT,
	    RS_LIVE, RS_FREEZING, RS_PAUSED, RS_LIVE, RS_DYING,
	    RS_UNMOUNTING, RS_CGROUP_RETRY, RS_GONE };
	char		 out[512];
	size_t		 i;
	int		 s, t, all, rc;

	for (i = 0, all = 1; i + 1 < sizeof(path) / sizeof(path[0]); i++)
		all &= rstate_allowed(path[i], path[i + 1]);
	ok(all, "a client's sandbox: built, netd, paused, resumed, "
	    "destroyed, unmounted, cgroup retried, gone");
	ok(rstate_allowed(RS_NEW, RS_SPARE_BUILDING) &&
	    rstate_allowed(RS_SPARE_BUILDING, RS_SPARE) &&
	    rstate_allowed(RS_SPARE, RS_LIVE) &&
	    rstate_allowed(RS_SPARE_BUILDING, RS_BUILDING),
	    "a spare: built ahead, taken ready or still building");
	for (s = 0, all = 1; s < RS_NSTATES; s++)
		if (s != RS_GONE && s != RS_NEW && s < RS_DYING)
			all &= rstate_allowed(s, RS_DYING);
	ok(all, "every state before DYING but NEW may die");
	ok(rstate_allowed(RS_NEW, RS_GONE) &&
	    !rstate_allowed(RS_NEW, RS_DYING),
	    "NEW, never built, goes without a pid 1 to wait for");
	for (s = 0, all = 1; s < RS_NSTATES; s++)
		all &= reaches_gone(s);
	ok(all, "every state reaches GONE");
	for (t = 0, all = 1; t < RS_NSTATES; t++)
		all &= !rstate_allowed(RS_GONE, t);
	ok(all, "GONE is the end");
	for (s = RS_DYING, all = 1; s < RS_NSTATES; s++)
		for (t = 0; t < RS_DYING; t++)
			all &= !rstate_allowed(s, t);
	ok(all, "nothing on its way out comes back");
	ok(!rstate_allowed(RS_LIVE, RS_PAUSED) &&
	    !rstate_allowed(RS_BUILDING, RS_FREEZING) &&
	    !rstate_allowed(RS_SPARE, RS_FREEZING),
	    "a pause freezes first, and only a live sandbox");
	rc = try_move(RS_LIVE, RS_FREEZING, out, sizeof(out));
	ok(rc == 0 && strstr(out, "state live -> freezing") != NULL,
	    "an allowed move is made and logged at debug (%d)", rc);
	rc = try_move(RS_LIVE, RS_BUILDING, out, sizeof(out));
	ok(rc == 1 && strstr(out, "live -> building is not a move") != NULL,
	    "an illegal move is refused with fatalx (%d)", rc);
	if (rc != 1)
		diag("%s", out);
	rc = try_move(RS_GONE, RS_LIVE, out, sizeof(out));
	ok(rc == 1, "nothing moves out of GONE (%d)", rc);
	rc = try_move(RS_NSTATES, RS_LIVE, out, sizeof(out));
	ok(rc == 1 && strstr(out, "invalid") != NULL,
	    "a state out of the enum is refused (%d)", rc);
	printf("1..%d\n", tap_n);
	return (tap_failed != 0);
}
