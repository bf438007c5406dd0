/* Dropping a child to what the Privileges section of its man page gives it. */
#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include <cap-ng.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <unistd.h>

#include "log.h"
#include "proc.h"

/* A chroot only isolates if nobody but root can write into it. */
static void
priv_check_chroot(const char *dir)
{
	struct stat	 st;

	if (stat(dir, &st) == -1)
		fatal("%s: %s", __func__, dir);
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		fatalx("%s: %s must be a directory owned by root and "
		    "writable by nobody else", __func__, dir);
}

static void
priv_set_caps(const struct proc_spec *ps)
{
	size_t	 i;

	capng_clear(CAPNG_SELECT_ALL);
	for (i = 0; i < ps->ncaps; i++)
		if (capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED |
		    CAPNG_BOUNDING_SET, ps->caps[i]) != 0)
			fatalx("%s: capng_update %d", __func__, ps->caps[i]);
}

void
priv_no_new_privs(void)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		fatal("%s: PR_SET_NO_NEW_PRIVS", __func__);
}

void
priv_drop(const struct proc_spec *ps)
{
	struct passwd	*pw = NULL;
	pid_t		 ppid = getppid();
	int		 rc;

	/* Look the user up while /etc is still visible. */
	if (ps->user != NULL && (pw = getpwnam(ps->user)) == NULL)
		fatalx("%s: no such user %s (create it with rc/"
		    "sandboxd-users.sh or systemd-sysusers)", __func__,
		    ps->user);
	if (ps->chroot != NULL) {
		priv_check_chroot(ps->chroot);
		if (chroot(ps->chroot) == -1)
			fatal("%s: chroot %s", __func__, ps->chroot);
		if (chdir("/") == -1)
			fatal("%s: chdir /", __func__);
	}
	priv_set_caps(ps);
	if (pw != NULL) {
		rc = capng_change_id(pw->pw_uid, pw->pw_gid,
		    CAPNG_DROP_SUPP_GRP | CAPNG_CLEAR_BOUNDING);
		if (rc != 0)
			fatalx("%s: capng_change_id %s: %d", __func__,
			    ps->user, rc);
	} else {
		if (setgroups(0, NULL) == -1)
			fatal("%s: setgroups", __func__);
		if ((rc = capng_apply(CAPNG_SELECT_BOTH)) != 0)
			fatalx("%s: capng_apply: %d", __func__, rc);
	}
	if (pw != NULL && (getuid() != pw->pw_uid || geteuid() != pw->pw_uid ||
	    getgid() != pw->pw_gid || getegid() != pw->pw_gid))
		fatalx("%s: ids did not change", __func__);
	/* Cleared by the id change above, so set it only now. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) == -1)
		fatal("%s: PR_SET_PDEATHSIG", __func__);
	if (getppid() != ppid)
		fatalx("%s: parent went away", __func__);
	priv_no_new_privs();
}
