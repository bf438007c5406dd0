/*
 * Compiled inside a sandbox by regress/runnerd/ptrace.t: for each pid
 * given, tries every call that asks ptrace's access check and prints
 * "pid call result" per line, result "ok" or the errno's name.
 * process_vm_* aim at an unmapped address: EFAULT means access was
 * granted, EPERM that it was not.
 */
#define _GNU_SOURCE
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <linux/kcmp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
report(long pid, const char *call, long rc)
{
	printf("%ld %s %s\n", pid, call, rc >= 0 ? "ok" :
	    strerrorname_np(errno));
}

int
main(int argc, char *argv[])
{
	struct iovec	 local, remote;
	char		 byte;
	long		 pid, pidfd;
	int		 i;

	local.iov_base = &byte;
	local.iov_len = 1;
	remote.iov_base = (void *)0x1000;
	remote.iov_len = 1;
	for (i = 1; i < argc; i++) {
		pid = strtol(argv[i], NULL, 10);
		errno = 0;
		report(pid, "process_vm_readv", syscall(SYS_process_vm_readv,
		    pid, &local, 1, &remote, 1, 0));
		report(pid, "process_vm_writev", syscall(SYS_process_vm_writev,
		    pid, &local, 1, &remote, 1, 0));
		report(pid, "kcmp", syscall(SYS_kcmp, getpid(), pid, KCMP_VM,
		    0, 0));
		if ((pidfd = syscall(SYS_pidfd_open, pid, 0)) == -1)
			report(pid, "pidfd_getfd", -1);
		else {
			report(pid, "pidfd_getfd", syscall(SYS_pidfd_getfd,
			    pidfd, 0, 0));
			close(pidfd);
		}
		/* Detached again when this program exits. */
		report(pid, "ptrace", ptrace(PTRACE_SEIZE, pid, 0, 0));
	}
	return 0;
}
