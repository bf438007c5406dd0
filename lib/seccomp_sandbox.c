/*
 * The system calls a sandboxed process may make without conditions.
 * One list for two filters: the sandbox's own (cmd/runnerd/
 * sandbox_seccomp.c) and runnerd's, which sandboxed processes also run
 * under because they descend from runnerd.  By name, so that a call
 * this libseccomp does not know is skipped by both alike.
 */
#include <stddef.h>

#include "seccomp_sandbox.h"

const char *const seccomp_sandbox_allow[] = {
	/* basic I/O */
	"read", "write", "readv", "writev", "pread64", "pwrite64", "preadv",
	"pwritev", "preadv2", "pwritev2", "lseek", "close", "close_range",
	"dup", "dup2", "dup3", "sendfile", "splice", "tee", "vmsplice",
	"copy_file_range",
	/* files */
	"access", "faccessat",
	"faccessat2", "stat", "lstat", "fstat", "newfstatat", "statx",
	"statfs", "fstatfs", "getdents", "getdents64", "getcwd", "chdir",
	"fchdir", "mkdir", "mkdirat", "rmdir", "rename", "renameat",
	"renameat2", "link", "linkat", "symlink", "symlinkat", "unlink",
	"unlinkat", "readlink", "readlinkat", "chown", "fchown", "lchown", "fchownat", "truncate",
	"ftruncate", "fallocate", "utime", "utimes", "utimensat", "futimesat",
	"umask", "fcntl", "flock", "fsync", "fdatasync", "sync", "syncfs",
	"sync_file_range", "fadvise64", "readahead", "getxattr", "lgetxattr",
	"fgetxattr", "listxattr", "llistxattr", "flistxattr", "setxattr",
	"lsetxattr", "fsetxattr", "removexattr", "lremovexattr",
	"fremovexattr", "inotify_init", "inotify_init1", "inotify_add_watch",
	"inotify_rm_watch",
	/* memory */
	"brk", "mmap", "munmap", "mprotect", "mremap", "madvise", "mincore",
	"msync", "mlock", "mlock2", "munlock", "mlockall", "munlockall",
	"memfd_create", "membarrier", "pkey_alloc", "pkey_free",
	"pkey_mprotect", "get_mempolicy", "set_mempolicy", "mbind",
	"remap_file_pages",
	/* processes */
	"fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4",
	"waitid", "getpid", "getppid", "gettid", "getpgid", "getpgrp",
	"getsid", "setsid", "setpgid", "getuid", "geteuid", "getgid",
	"getegid", "getresuid", "getresgid", "getgroups", "setuid", "setgid",
	"setreuid", "setregid", "setresuid", "setresgid", "setgroups",
	"setfsuid", "setfsgid", "capget", "capset", "prctl", "arch_prctl",
	"set_tid_address", "set_robust_list", "get_robust_list", "rseq",
	"futex", "futex_waitv", "getrlimit", "setrlimit",
	"getrusage", "times", "getpriority", "setpriority", "sched_yield",
	"sched_getaffinity", "sched_setaffinity", "sched_getparam",
	"sched_setparam", "sched_getscheduler", "sched_setscheduler",
	"sched_get_priority_max", "sched_get_priority_min",
	"sched_rr_get_interval", "sched_getattr", "sched_setattr",
	"ioprio_get", "ioprio_set", "getcpu", "pidfd_open", "uname",
	"sysinfo", "seccomp", "landlock_create_ruleset", "landlock_add_rule",
	"landlock_restrict_self", "restart_syscall", "getrandom",
	/*
	 * Tracing, confined to the sandbox by the kernel's own checks
	 * (see sandbox_seccomp.c): all five ask ptrace's access check.
	 */
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
	"pidfd_getfd",
	/* signals */
	"kill", "tkill", "tgkill", "pidfd_send_signal", "rt_sigaction",
	"rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigsuspend",
	"rt_sigtimedwait", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
	"sigaltstack", "signalfd", "signalfd4", "pause", "alarm",
	/* time */
	"time", "gettimeofday", "clock_gettime", "clock_getres",
	"clock_nanosleep", "nanosleep", "getitimer", "setitimer",
	"timer_create", "timer_delete", "timer_gettime", "timer_settime",
	"timer_getoverrun", "timerfd_create", "timerfd_gettime",
	"timerfd_settime",
	/* events and IPC, in the sandbox's own ipc namespace */
	"poll", "ppoll", "select", "pselect6", "epoll_create",
	"epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait",
	"epoll_pwait2", "eventfd", "eventfd2", "pipe", "pipe2", "shmget",
	"shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop", "semctl",
	"msgget", "msgsnd", "msgrcv", "msgctl", "mq_open", "mq_unlink",
	"mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
	"io_setup", "io_destroy", "io_submit", "io_cancel", "io_getevents",
	"io_pgetevents",
	/* sockets, in the sandbox's own network namespace */
	"connect", "accept", "accept4", "bind", "listen", "getsockname",
	"getpeername", "getsockopt", "setsockopt", "sendto", "recvfrom",
	"sendmsg", "recvmsg", "sendmmsg", "recvmmsg", "shutdown"
};

const size_t seccomp_sandbox_nallow =
    sizeof(seccomp_sandbox_allow) / sizeof(seccomp_sandbox_allow[0]);

/*
 * The calls that give a file its mode: the sandbox's filter allows
 * them only without set-id bits (sandbox_seccomp.c), so that none
 * reaches a host path through a write bind; runnerd's allows them all.
 */
const char *const seccomp_sandbox_moded[] = {
	"open", "openat", "openat2", "creat", "chmod", "fchmod", "fchmodat",
	"fchmodat2"
};

const size_t seccomp_sandbox_nmoded =
    sizeof(seccomp_sandbox_moded) / sizeof(seccomp_sandbox_moded[0]);
