/*
 * noclone3 PROGRAM ARGS...: run PROGRAM with clone3(2) answering ENOSYS,
 * as under systemd's RestrictNamespaces= (a seccomp filter cannot read
 * clone3's flags, so it refuses the call and libc falls back to clone).
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	scmp_filter_ctx	 ctx;

	if (argc < 2) {
		fprintf(stderr, "usage: noclone3 program [args...]\n");
		return (2);
	}
	if ((ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3),
	    0) < 0 || seccomp_load(ctx) < 0) {
		fprintf(stderr, "noclone3: cannot load the filter\n");
		return (1);
	}
	execv(argv[1], argv + 1);
	perror(argv[1]);
	return (127);
}
