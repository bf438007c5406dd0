/*
 * lib/cgroup_deleg.c against real cgroup v2 directories: which own
 * cgroup (a /proc/PID/cgroup written here) counts as delegated, and the
 * move into the daemons leaf.  Makes its groups under the v2 mount,
 * removes them at the end.  Prints TAP; needs root.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup_deleg.h"
#include "../lib/tap.h"

static char	 mnt[64], procfile[64], marked[256], unmarked[256];
static char	 usermarked[256], zero[256];

static void
mkgroup(char *buf, size_t len, const char *name, const char *xattr,
    const char *value)
{
	snprintf(buf, len, "%s/sbxdeleg-%s.%d", mnt, name, (int)getpid());
	if (mkdir(buf, 0755) == -1) {
		printf("Bail out! mkdir %s: %s\n", buf, strerror(errno));
		exit(1);
	}
	if (xattr != NULL && setxattr(buf, xattr, value, strlen(value),
	    0) == -1) {
		printf("Bail out! setxattr %s: %s\n", buf, strerror(errno));
		exit(1);
	}
}

/* The group's path below the mount, as /proc/PID/cgroup prints it. */
static const char *
rel(const char *dir)
{
	return (dir + strlen(mnt));
}

static enum cgroup_deleg
find(const char *content, char *base, size_t len)
{
	FILE	*f;

	if ((f = fopen(procfile, "w")) == NULL ||
	    fputs(content, f) == EOF || fclose(f) == EOF) {
		printf("Bail out! %s: %s\n", procfile, strerror(errno));
		exit(1);
	}
	base[0] = '\0';
	return (cgroup_deleg_find(procfile, base, len));
}

static void
check(const char *content, enum cgroup_deleg want, const char *wantbase,
    const char *what)
{
	char			 base[512];
	enum cgroup_deleg	 got;

	got = find(content, base, sizeof(base));
	ok(got == want && (wantbase == NULL || strcmp(base, wantbase) == 0),
	    "%s", what);
	if (got != want || (wantbase != NULL && strcmp(base, wantbase) != 0))
		diag("got %d base '%s', want %d '%s'", got, base, want,
		    wantbase ? wantbase : "");
}

static void
test_find(void)
{
	char	 line[1024];

	check("0::/\n", CGD_NONE, NULL, "own cgroup the root: not delegated");
	snprintf(line, sizeof(line), "0::%s\n", rel(unmarked));
	check(line, CGD_NONE, NULL, "an unmarked cgroup: not delegated");
	snprintf(line, sizeof(line), "0::%s\n", rel(zero));
	check(line, CGD_NONE, NULL, "trusted.delegate 0: not delegated");
	snprintf(line, sizeof(line), "0::%s\n", rel(marked));
	check(line, CGD_HELD, marked, "trusted.delegate 1: held, it is the "
	    "base");
	snprintf(line, sizeof(line), "0::%s\n", rel(usermarked));
	check(line, CGD_HELD, usermarked, "user.delegate 1 alone: held");
	snprintf(line, sizeof(line), "12:pids:/x\n0::%s/daemons\n",
	    rel(marked));
	check(line, CGD_PLACED, marked, "its daemons leaf, among v1 lines: "
	    "placed, the parent is the base");
	snprintf(line, sizeof(line), "0::%s/other\n", rel(marked));
	check(line, CGD_NONE, NULL, "another child of a marked cgroup: not "
	    "delegated");
	snprintf(line, sizeof(line), "0::%s/daemons\n", rel(unmarked));
	check(line, CGD_NONE, NULL, "a daemons leaf of an unmarked cgroup: "
	    "not delegated");
	check("0::/daemons\n", CGD_NONE, NULL, "a daemons leaf at the root: "
	    "not delegated");
	snprintf(line, sizeof(line), "0::%s (deleted)\n", rel(marked));
	check(line, CGD_NONE, NULL, "a removed cgroup: not delegated");
	snprintf(line, sizeof(line), "0::%s/../%s\n", rel(marked),
	    rel(marked) + 1);
	check(line, CGD_NONE, NULL, "a path with ..: not delegated");
	check("4:memory:/a\n1:name=systemd:/b\n", CGD_NONE, NULL,
	    "no v2 line (pure v1): not delegated");
	check("", CGD_NONE, NULL, "an empty file: not delegated");
}

/* What a child's own /proc/PID/cgroup says once it has placed itself. */
static void
test_place(void)
{
	char	 err[256], path[512], line[1024], want[1024], base[512];
	int	 p[2], status, n;
	pid_t	 pid;
	FILE	*f;
	struct stat st;

	if (pipe(p) == -1 || (pid = fork()) == -1) {
		printf("Bail out! fork: %s\n", strerror(errno));
		exit(1);
	}
	if (pid == 0) {
		close(p[0]);
		/* Into the marked group, as systemd starts the master. */
		snprintf(path, sizeof(path), "%s/cgroup.procs", marked);
		if ((f = fopen(path, "w")) == NULL || fputs("0", f) == EOF ||
		    fclose(f) == EOF)
			_exit(2);
		if (cgroup_deleg_find(CGROUP_PROC_SELF, base,
		    sizeof(base)) != CGD_HELD)
			_exit(3);
		if (cgroup_deleg_place(base, err, sizeof(err)) == -1) {
			dprintf(p[1], "%s", err);
			_exit(4);
		}
		if (cgroup_deleg_find(CGROUP_PROC_SELF, base,
		    sizeof(base)) != CGD_PLACED || strcmp(base, marked) != 0)
			_exit(5);
		write(p[1], "k", 1);
		pause();
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], err, sizeof(err) - 1);
	close(p[0]);
	err[n > 0 ? n : 0] = '\0';
	ok(strcmp(err, "k") == 0, "a process in the marked group finds it "
	    "held, places itself, then finds it placed");
	if (strcmp(err, "k") != 0)
		diag("child: '%s'", err);
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	snprintf(want, sizeof(want), "0::%s/%s\n", rel(marked),
	    CGROUP_DAEMONS);
	line[0] = '\0';
	if ((f = fopen(path, "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL &&
		    strncmp(line, "0::", 3) != 0)
			;
		fclose(f);
	}
	ok(strcmp(line, want) == 0, "it is in %s/%s", rel(marked),
	    CGROUP_DAEMONS);
	snprintf(path, sizeof(path), "%s/cgroup.procs", marked);
	line[0] = '\0';
	if ((f = fopen(path, "r")) != NULL) {
		if (fgets(line, sizeof(line), f) == NULL)
			line[0] = '\0';
		fclose(f);
	}
	ok(line[0] == '\0', "the delegated group itself holds no process");
	snprintf(path, sizeof(path), "%s/%s", marked, CGROUP_DAEMONS);
	ok(stat(path, &st) == 0 && (st.st_mode & 07777) == 0755,
	    "the leaf is mode 0755");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	memset(path, 'x', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	ok(cgroup_deleg_place(path, err, sizeof(err)) == -1 &&
	    strstr(err, "cgroup_deleg_place") != NULL,
	    "an unusable base is an error that names it");
}

static void
cleanup(void)
{
	char	 path[512];

	snprintf(path, sizeof(path), "%s/%s", marked, CGROUP_DAEMONS);
	rmdir(path);
	rmdir(marked);
	rmdir(unmarked);
	rmdir(usermarked);
	rmdir(zero);
	unlink(procfile);
}

int
main(void)
{
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return (0);
	}
	if (cgroup_v2_mount(mnt, sizeof(mnt)) == -1) {
		printf("1..0 # SKIP no cgroup v2 mounted\n");
		return (0);
	}
	snprintf(procfile, sizeof(procfile), "/tmp/sbxdeleg.%d",
	    (int)getpid());
	mkgroup(marked, sizeof(marked), "marked", "trusted.delegate", "1");
	mkgroup(unmarked, sizeof(unmarked), "unmarked", NULL, NULL);
	mkgroup(usermarked, sizeof(usermarked), "user", "user.delegate", "1");
	mkgroup(zero, sizeof(zero), "zero", "trusted.delegate", "0");
	diag("cgroup v2 at %s", mnt);
	test_find();
	test_place();
	cleanup();
	printf("1..%d\n", tap_n);
	return (tap_failed != 0);
}
