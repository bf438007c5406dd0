/*
 * Who a sandboxed process is: default signal handling, no fd of
 * runnerd's, the sandbox's uid and gid, no capability in any set,
 * NO_NEW_PRIVS.  Shared by pid 1 and every exec.
 */
#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "sandbox_int.h"

/* runnerd ignores SIGPIPE and handles others; none of that goes in. */
void
ident_reset_signals_child(void)
{
	struct sigaction	 sa;
	sigset_t		 none;
	int			 sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		(void)sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Close every fd but the few in keep (at most IDENT_KEEP_MAX). */
int
ident_keep_fds_child(const int *keep, size_t n, char *err, size_t len)
{
	int		 fds[IDENT_KEEP_MAX], t;
	unsigned int	 lo = 0;
	size_t		 i, j;

	if (n > IDENT_KEEP_MAX)
		return (sbx_fail(err, len, "%s: too many fds", __func__));
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && fds[j - 1] > keep[i]; j--)
			fds[j] = fds[j - 1];
		fds[j] = keep[i];
	}
	for (i = 0; i < n; i++) {
		if (fds[i] < 0 || (unsigned int)fds[i] < lo)
			return (sbx_fail(err, len, "%s: bad fd list",
			    __func__));
		t = fds[i];
		if ((unsigned int)t > lo && close_range(lo, t - 1, 0) == -1)
			return (sbx_fail(err, len, "%s: close_range: %s",
			    __func__, strerror(errno)));
		lo = t + 1;
	}
	if (close_range(lo, ~0U, 0) == -1)
		return (sbx_fail(err, len, "%s: close_range: %s", __func__,
		    strerror(errno)));
	return (0);
}

static int
ident_drop_bounding(char *err, size_t len)
{
	int	 cap;

	/* EINVAL: past the last capability this kernel has. */
	for (cap = 0; prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0; cap++)
		;
	if (errno != EINVAL || cap == 0)
		return (sbx_fail(err, len, "%s: capability %d: %s", __func__,
		    cap, strerror(errno)));
	return (0);
}

static int
ident_clear_caps(char *err, size_t len)
{
	struct __user_cap_header_struct	 h;
	struct __user_cap_data_struct	 d[2];

	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == -1)
		return (sbx_fail(err, len, "%s: ambient: %s", __func__,
		    strerror(errno)));
	memset(&h, 0, sizeof(h));
	h.version = _LINUX_CAPABILITY_VERSION_3;
	memset(d, 0, sizeof(d));
	if (syscall(SYS_capset, &h, d) == -1 ||
	    syscall(SYS_capget, &h, d) == -1)
		return (sbx_fail(err, len, "%s: capset: %s", __func__,
		    strerror(errno)));
	if ((d[0].effective | d[1].effective | d[0].permitted |
	    d[1].permitted | d[0].inheritable | d[1].inheritable) != 0)
		return (sbx_fail(err, len, "%s: capabilities left after the "
		    "drop", __func__));
	return (0);
}

static int
ident_check_ids(uid_t uid, gid_t gid, char *err, size_t len)
{
	uid_t	 ru, eu, su;
	gid_t	 rg, eg, sg;

	if (getresuid(&ru, &eu, &su) == -1 || getresgid(&rg, &eg, &sg) == -1)
		return (sbx_fail(err, len, "%s: %s", __func__,
		    strerror(errno)));
	if (ru != uid || eu != uid || su != uid || rg != gid || eg != gid ||
	    sg != gid || getgroups(0, NULL) != 0)
		return (sbx_fail(err, len, "%s: ids did not change", __func__));
	return (0);
}

/*
 * The bounding set goes first, while CAP_SETPCAP is still effective;
 * the uid change then empties permitted and effective, the rest is
 * cleared and checked by hand.
 */
int
ident_drop_child(uid_t uid, gid_t gid, char *err, size_t len)
{
	if (ident_drop_bounding(err, len) == -1)
		return (-1);
	if (setgroups(0, NULL) == -1 || setresgid(gid, gid, gid) == -1 ||
	    setresuid(uid, uid, uid) == -1)
		return (sbx_fail(err, len, "%s: ids %u/%u: %s", __func__,
		    (unsigned int)uid, (unsigned int)gid, strerror(errno)));
	if (ident_clear_caps(err, len) == -1 ||
	    ident_check_ids(uid, gid, err, len) == -1)
		return (-1);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return (sbx_fail(err, len, "%s: PR_SET_NO_NEW_PRIVS: %s",
		    __func__, strerror(errno)));
	return (0);
}
