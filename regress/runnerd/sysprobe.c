/*
 * Compiled inside a sandbox by regress/runnerd/identity.t: tries each
 * syscall the sandbox filter must deny, and a few it must allow, and
 * prints "name errno-name" per line ("ok" when it worked).
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void
report(const char *name, long rc)
{
	printf("%s %s\n", name, rc >= 0 ? "ok" :
	    errno == EPERM ? "EPERM" : errno == ENOSYS ? "ENOSYS" :
	    strerrorname_np(errno));
}

#define TRY(name, ...)	do { errno = 0; report(name, syscall(__VA_ARGS__)); } while (0)

int
main(int argc, char *argv[])
{
	struct clone_args ca;
	long rc;

	if (argc > 1 && strcmp(argv[1], "i386") == 0) {
		/* getpid through the 32-bit entry point */
		__asm__ volatile ("int $0x80" : "=a"(rc) : "a"(20));
		printf("i386 %s\n", rc > 0 ? "ok" : "failed");
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "x32") == 0) {
		TRY("x32", 0x40000000 | SYS_getpid);
		return 0;
	}
	TRY("mount", SYS_mount, "none", "/tmp", "tmpfs", 0, NULL);
	TRY("umount2", SYS_umount2, "/tmp", 0);
	TRY("pivot_root", SYS_pivot_root, "/tmp", "/tmp");
	TRY("unshare", SYS_unshare, CLONE_NEWUSER);
	TRY("setns", SYS_setns, 0, CLONE_NEWNET);
	TRY("clone_newuser", SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
	memset(&ca, 0, sizeof(ca));
	ca.exit_signal = SIGCHLD;
	TRY("clone3", SYS_clone3, &ca, sizeof(ca));
	TRY("bpf", SYS_bpf, 0, NULL, 0);
	TRY("perf_event_open", SYS_perf_event_open, NULL, 0, -1, -1, 0);
	TRY("keyctl", SYS_keyctl, 0 /* GET_KEYRING_ID */, -3, 1);
	TRY("add_key", SYS_add_key, "user", "k", "v", 1, -3);
	TRY("request_key", SYS_request_key, "user", "k", NULL, -3);
	TRY("kexec_load", SYS_kexec_load, 0, 0, NULL, 0);
	TRY("kexec_file_load", SYS_kexec_file_load, -1, -1, 0, "", 0);
	TRY("init_module", SYS_init_module, NULL, 0, "");
	TRY("finit_module", SYS_finit_module, -1, "", 0);
	TRY("delete_module", SYS_delete_module, "x", 0);
	TRY("open_by_handle_at", SYS_open_by_handle_at, AT_FDCWD, NULL, 0);
	TRY("userfaultfd", SYS_userfaultfd, 0);
	TRY("io_uring_setup", SYS_io_uring_setup, 1, NULL);
	TRY("io_uring_enter", SYS_io_uring_enter, -1, 0, 0, 0, NULL, 0);
	TRY("io_uring_register", SYS_io_uring_register, -1, 0, NULL, 0);
	/* Allowed twins. */
	TRY("getpid", SYS_getpid);
	TRY("openat", SYS_openat, AT_FDCWD, "/etc/passwd", O_RDONLY);
	rc = fork();
	if (rc == 0)
		_exit(0);
	printf("fork %s\n", rc > 0 ? "ok" : "failed");
	if (rc > 0)
		waitpid(rc, NULL, 0);
	TRY("mmap", SYS_mmap, NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return 0;
}
