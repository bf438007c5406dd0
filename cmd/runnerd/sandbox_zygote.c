/*
 * A sandbox's pid 1 once it has dropped runnerd's memory (sandbox_init.c):
 * the zygote that forks every exec, reports each exec's end to runnerd
 * and reaps everything else that dies in the sandbox.  It already is
 * all that an exec must be (namespaces, cgroup, uid, no capabilities,
 * NO_NEW_PRIVS, rlimits, Landlock, seccomp); an exec child only takes
 * its fds, session, RLIMIT_NOFILE and cwd, and execs.  The protocol is
 * in sandbox_int.h.
 *
 * Nothing here may reach libc, nor anything the sanitizers keep state
 * for: the first thing the zygote does is unmap everything but its
 * stack, its scratch memory and this code, libc, the GOT and the
 * sanitizers' shadow among it.  So: raw system calls and no errno,
 * volatile loops where the compiler would call memset, no sanitizer
 * instrumentation, no stack protector.  `nm -u` of this file's object
 * must print nothing but the sanitizers' module constructors.
 *
 * pid 1 never blocks on runnerd: it sends with MSG_DONTWAIT, and an
 * exit report that finds the socket full waits in the table until the
 * socket is writable again.  It trusts runnerd but checks the size,
 * strings and fds of every request before it uses them.  Signals from
 * inside cannot reach it (it is the namespace's init and blocks them
 * all); SIGCHLD comes through a signalfd, and each wakeup reaps every
 * zombie there is, orphans included, so that a flood of them costs the
 * sandbox its own pids and CPU, never pid 1's service.
 */
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "sandbox_int.h"

#define ZYG	__attribute__((no_sanitize("address", "undefined"), \
		    no_stack_protector))

#define ZY_PARKFD	10	/* where fds wait before they are placed */
#define ZY_REPLYFD	4	/* the reply socket, in an exec child */
#define ZY_SIGSET_SIZE	8	/* the kernel's sigset_t */

struct zy_live {
	uint64_t		 token;
	pid_t			 pid;		/* in the sandbox; 0: free */
	int			 ended;		/* wstatus not yet reported */
	int			 wstatus;
	uint64_t		 utime_us;	/* wait4's rusage */
	uint64_t		 stime_us;
	uint64_t		 maxrss_kb;
};

/* mem, carved up; see zygote_main_child. */
#define ZY_REQ_OFF	0
#define ZY_PTRS_OFF	(ZY_REQ_OFF + ZYG_REQ_MAX + 8)
#define ZY_PATH_OFF	(ZY_PTRS_OFF + (ZYG_ARGS_MAX + 2) * sizeof(char *))
#define ZY_LIVE_OFF	(ZY_PATH_OFF + PATH_MAX)
#define ZY_MEM_END	(ZY_LIVE_OFF + ZYG_EXECS_MAX * sizeof(struct zy_live))

_Static_assert(ZY_MEM_END <= ZYG_MEM_SIZE, "zygote memory too small");
_Static_assert(ZY_PTRS_OFF % 8 == 0 && ZY_LIVE_OFF % 8 == 0,
    "zygote memory misaligned");

struct zy {
	const struct zyg_params	*p;
	char			*req;		/* ZYG_REQ_MAX, then a NUL */
	char			**ptrs;		/* argv, NULL, envp, NULL */
	char			*path;		/* PATH_MAX: PATH candidates */
	struct zy_live		*live;		/* ZYG_EXECS_MAX */
	size_t			 nused;		/* live[nused..] are free */
	size_t			 unsent;	/* ended, not yet reported */
};

/* A system call: the result, or -errno. */
ZYG static inline long
zsys(long n, long a, long b, long c, long d, long e, long f)
{
#if defined(__x86_64__)
	register long	 r10 __asm__("r10") = d;
	register long	 r8 __asm__("r8") = e;
	register long	 r9 __asm__("r9") = f;
	long		 ret;

	__asm__ volatile ("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b),
	    "d"(c), "r"(r10), "r"(r8), "r"(r9) : "rcx", "r11", "memory");
	return (ret);
#elif defined(__aarch64__)
	register long	 x8 __asm__("x8") = n;
	register long	 x0 __asm__("x0") = a;
	register long	 x1 __asm__("x1") = b;
	register long	 x2 __asm__("x2") = c;
	register long	 x3 __asm__("x3") = d;
	register long	 x4 __asm__("x4") = e;
	register long	 x5 __asm__("x5") = f;

	__asm__ volatile ("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2),
	    "r"(x3), "r"(x4), "r"(x5) : "memory");
	return (x0);
#else
#error "sandbox_zygote.c: no raw system calls for this architecture"
#endif
}

#define Z0(n)			zsys((n), 0, 0, 0, 0, 0, 0)
#define Z1(n, a)		zsys((n), (long)(a), 0, 0, 0, 0, 0)
#define Z2(n, a, b)		zsys((n), (long)(a), (long)(b), 0, 0, 0, 0)
#define Z3(n, a, b, c)		zsys((n), (long)(a), (long)(b), (long)(c), \
				    0, 0, 0)
#define Z4(n, a, b, c, d)	zsys((n), (long)(a), (long)(b), (long)(c), \
				    (long)(d), 0, 0)
#define Z5(n, a, b, c, d, e)	zsys((n), (long)(a), (long)(b), (long)(c), \
				    (long)(d), (long)(e), 0)
#define Z6(n, a, b, c, d, e, f)	zsys((n), (long)(a), (long)(b), (long)(c), \
				    (long)(d), (long)(e), (long)(f))

__attribute__((noreturn))
ZYG static void
zy_exit(int code)
{
	for (;;)
		Z1(SYS_exit_group, code);
}

/* volatile: the compiler must not turn these into memset/memcpy calls. */
ZYG static void
zy_zero(void *v, size_t n)
{
	volatile char	*p = v;

	while (n-- > 0)
		*p++ = 0;
}

ZYG static size_t
zy_strlen(const char *s)
{
	const volatile char	*p = s;

	while (*p != '\0')
		p++;
	return (p - s);
}

/* strlcpy */
ZYG static void
zy_strlcpy(char *dst, const char *src, size_t size)
{
	volatile char	*d = dst;
	size_t		 i;

	for (i = 0; i + 1 < size && src[i] != '\0'; i++)
		d[i] = src[i];
	if (size > 0)
		d[i] = '\0';
}

ZYG static int
zy_has_slash(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s == '/')
			return (1);
	return (0);
}

/* The value of key in envp, or NULL. */
ZYG static const char *
zy_getenv(char *const *envp, const char *key)
{
	size_t	 i;

	for (; *envp != NULL; envp++) {
		for (i = 0; key[i] != '\0' && (*envp)[i] == key[i]; i++)
			;
		if (key[i] == '\0' && (*envp)[i] == '=')
			return (*envp + i + 1);
	}
	return (NULL);
}

/* One reply on a request's reply socket; never blocks. */
ZYG static void
zy_reply(int rfd, int type, int stage, int err, const char *arg)
{
	struct zyg_reply	 r;

	zy_zero(&r, sizeof(r));
	r.type = type;
	r.stage = stage;
	r.err = err;
	if (arg != NULL)
		zy_strlcpy(r.arg, arg, sizeof(r.arg));
	Z6(SYS_sendto, rfd, &r, sizeof(r), MSG_DONTWAIT | MSG_NOSIGNAL, 0,
	    0);
}

__attribute__((noreturn))
ZYG static void
zy_child_fail(int rfd, int stage, long err, const char *arg)
{
	zy_reply(rfd, ZYG_FAILED, stage, (int)-err, arg);
	zy_exit(127);
}

/* F_DUPFD_CLOEXEC at ZY_PARKFD or above; fd is left as it is. */
ZYG static long
zy_park(int fd)
{
	return (Z3(SYS_fcntl, fd, F_DUPFD_CLOEXEC, ZY_PARKFD));
}

/*
 * stdio (or /dev/null) on 0-2, the extra fd on 3, the reply socket on
 * ZY_REPLYFD with CLOEXEC, nothing else.  Every fd is parked above
 * ZY_PARKFD first, so that placing one never clobbers another.
 */
ZYG static void
zy_child_fds(const int *src, int rfd, int devnull)
{
	long	 tmp[ZYG_NFDS], fd;
	int	 i;

	for (i = 0; i < 4; i++) {
		tmp[i] = -1;
		if (src[i] != -1)
			tmp[i] = zy_park(src[i]);
		else if (i < 3)
			tmp[i] = zy_park(devnull);
		else
			continue;
		if (tmp[i] < 0)
			zy_child_fail(rfd, ZYG_S_FDS, tmp[i], NULL);
	}
	if ((tmp[4] = zy_park(rfd)) < 0)
		zy_child_fail(rfd, ZYG_S_FDS, tmp[4], NULL);
	if ((fd = Z3(SYS_dup3, tmp[4], ZY_REPLYFD, O_CLOEXEC)) < 0)
		zy_child_fail(rfd, ZYG_S_FDS, fd, NULL);
	for (i = 0; i < 4; i++)
		if (tmp[i] != -1 &&
		    (fd = Z3(SYS_dup3, tmp[i], i, 0)) < 0)
			zy_child_fail(ZY_REPLYFD, ZYG_S_FDS, fd, NULL);
	if (tmp[3] == -1)
		Z1(SYS_close, 3);
	if ((fd = Z3(SYS_close_range, ZY_REPLYFD + 1, ~0U, 0)) < 0)
		zy_child_fail(ZY_REPLYFD, ZYG_S_FDS, fd, NULL);
}

/* execvpe(3) without its sh fallback, with the PATH of envp. */
__attribute__((noreturn))
ZYG static void
zy_child_exec(struct zy *z, char **argv, char **envp)
{
	const char	*path, *p, *end;
	size_t		 dlen, alen = zy_strlen(argv[0]), i;
	long		 rc;
	int		 eacces = 0;

	if (zy_has_slash(argv[0])) {
		rc = Z3(SYS_execve, argv[0], argv, envp);
		zy_child_fail(ZY_REPLYFD, ZYG_S_EXEC, rc, argv[0]);
	}
	if ((path = zy_getenv(envp, "PATH")) == NULL)
		path = SBX_DEFAULT_PATH;
	for (p = path; ; p = end + 1) {
		for (end = p; *end != '\0' && *end != ':'; end++)
			;
		dlen = end - p;
		if (dlen + 1 + alen < PATH_MAX) {
			for (i = 0; i < dlen; i++)
				((volatile char *)z->path)[i] = p[i];
			if (dlen > 0)
				z->path[dlen++] = '/';
			zy_strlcpy(z->path + dlen, argv[0], PATH_MAX - dlen);
			rc = Z3(SYS_execve, z->path, argv, envp);
			if (rc == -EACCES)
				eacces = 1;
			else if (rc != -ENOENT && rc != -ENOTDIR)
				zy_child_fail(ZY_REPLYFD, ZYG_S_EXEC, rc,
				    z->path);
		}
		if (*end == '\0')
			break;
	}
	zy_child_fail(ZY_REPLYFD, ZYG_S_NOTFOUND, eacces ? -EACCES : 0,
	    argv[0]);
}

/*
 * The exec child: first its credentials to runnerd (no runnerd left to
 * hear it, no exec), then fds, a session of its own, signals unblocked
 * (their handlers are all SIG_DFL in pid 1), its RLIMIT_NOFILE, cwd.
 */
__attribute__((noreturn))
ZYG static void
zy_child(struct zy *z, const int *src, int rfd, const char *cwd,
    char **argv, char **envp)
{
	struct zyg_reply	 st;
	uint64_t		 set = 0, rl[2];
	long			 rc;

	zy_zero(&st, sizeof(st));
	st.type = ZYG_STARTED;
	if (Z6(SYS_sendto, rfd, &st, sizeof(st), MSG_NOSIGNAL, 0, 0) !=
	    sizeof(st))
		zy_exit(127);
	zy_child_fds(src, rfd, z->p->devnull);
	if ((rc = Z0(SYS_setsid)) < 0)
		zy_child_fail(ZY_REPLYFD, ZYG_S_SETSID, rc, NULL);
	Z4(SYS_rt_sigprocmask, SIG_SETMASK, &set, NULL, ZY_SIGSET_SIZE);
	rl[0] = rl[1] = z->p->nofile;
	if ((rc = Z4(SYS_prlimit64, 0, RLIMIT_NOFILE, rl, NULL)) < 0)
		zy_child_fail(ZY_REPLYFD, ZYG_S_NOFILE, rc, NULL);
	if ((rc = Z1(SYS_chdir, cwd)) < 0)
		zy_child_fail(ZY_REPLYFD, ZYG_S_CWD, rc, cwd);
	zy_child_exec(z, argv, envp);
}

/*
 * Point argv and envp into the request: n bytes in z->req, a zyg_req
 * then exactly 1 + argc + envc NUL-terminated strings.
 */
ZYG static int
zy_parse(struct zy *z, size_t n, char **cwdp, char ***argvp, char ***envpp)
{
	const struct zyg_req	*rq = (const struct zyg_req *)z->req;
	char			*s, *end = z->req + n, **ptrs = z->ptrs;
	uint32_t		 i, want;

	if (n < sizeof(*rq) || rq->magic != ZYG_MAGIC ||
	    (rq->fds & ~ZYG_FD_ALL) != 0 || rq->argc == 0 ||
	    rq->argc > ZYG_ARGS_MAX || rq->envc > ZYG_ARGS_MAX - rq->argc)
		return (-1);
	want = 1 + rq->argc + rq->envc;
	s = z->req + sizeof(*rq);
	for (i = 0; i < want; i++) {
		if (i == 0)
			*cwdp = s;
		else if (i <= rq->argc)
			*ptrs++ = s;
		else {
			if (i == rq->argc + 1)
				*ptrs++ = NULL;
			*ptrs++ = s;
		}
		while (s < end && *s != '\0')
			s++;
		if (s == end)
			return (-1);
		s++;
	}
	if (rq->envc == 0)
		*ptrs++ = NULL;
	*ptrs = NULL;
	if (s != end || **cwdp == '\0' || z->ptrs[0][0] == '\0')
		return (-1);
	*argvp = z->ptrs;
	*envpp = z->ptrs + rq->argc + 1;
	return (0);
}

/* One message: its length, or -errno; fds get what came with it. */
ZYG static long
zy_recv(struct zy *z, int *fds, int *nfds, int *trunc)
{
	union {
		struct cmsghdr	 h;
		char		 buf[CMSG_SPACE(ZYG_NFDS * sizeof(int))];
	} c;
	struct iovec	 iov;
	struct msghdr	 m;
	struct cmsghdr	*cm, *next;
	char		*cend;
	size_t		 i, k;
	long		 n;

	iov.iov_base = z->req;
	iov.iov_len = ZYG_REQ_MAX;
	zy_zero(&m, sizeof(m));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = c.buf;
	m.msg_controllen = sizeof(c.buf);
	*nfds = 0;
	*trunc = 0;
	if ((n = Z3(SYS_recvmsg, z->p->sock, &m, MSG_DONTWAIT |
	    MSG_CMSG_CLOEXEC)) < 0)
		return (n);
	cend = c.buf + m.msg_controllen;
	for (cm = CMSG_FIRSTHDR(&m); cm != NULL; cm = next) {
		if (cm->cmsg_len < CMSG_LEN(0) ||
		    cm->cmsg_len > (size_t)(cend - (char *)cm))
			break;
		k = cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_RIGHTS ?
		    (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int) : 0;
		for (i = 0; i < k; i++) {
			if (*nfds < ZYG_NFDS)
				fds[(*nfds)++] = ((int *)CMSG_DATA(cm))[i];
			else {
				Z1(SYS_close, ((int *)CMSG_DATA(cm))[i]);
				*trunc = 1;
			}
		}
		next = (struct cmsghdr *)((char *)cm +
		    CMSG_ALIGN(cm->cmsg_len));
		if ((char *)next >= cend ||
		    (size_t)(cend - (char *)next) < sizeof(*next))
			next = NULL;
	}
	if (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC))
		*trunc = 1;
	return (n);
}

/* A free slot in the table, or -1. */
ZYG static long
zy_slot(struct zy *z)
{
	size_t	 i;

	for (i = 0; i < z->nused; i++)
		if (z->live[i].pid == 0)
			return (i);
	return (z->nused < ZYG_EXECS_MAX ? (long)z->nused : -1);
}

/* One request from runnerd: check it, fork, let the child exec. */
ZYG static void
zy_serve(struct zy *z)
{
	const struct zyg_req	*rq = (const struct zyg_req *)z->req;
	char			*cwd = NULL, **argv = NULL, **envp = NULL;
	int			 fds[ZYG_NFDS], src[4], nfds, trunc, i, k;
	long			 n, slot, pid;

	n = zy_recv(z, fds, &nfds, &trunc);
	if (n == -EAGAIN || n == -EINTR)
		return;
	if (n == 0 && nfds == 0)
		zy_exit(0);		/* runnerd closed its end */
	if (n < 0)
		return;
	if (nfds == 0)
		return;			/* nobody to answer */
	z->req[n] = '\0';
	k = 1;
	if (!trunc && zy_parse(z, n, &cwd, &argv, &envp) == 0)
		for (i = 0; i < 4; i++)
			src[i] = (rq->fds & (1U << i)) && k < nfds ?
			    fds[k++] : -1;
	if (trunc || argv == NULL || k != nfds)
		zy_reply(fds[0], ZYG_FAILED, ZYG_S_REQUEST, EINVAL, NULL);
	else if ((slot = zy_slot(z)) == -1)
		zy_reply(fds[0], ZYG_FAILED, ZYG_S_FULL, EAGAIN, NULL);
	else if ((pid = Z5(SYS_clone, SIGCHLD, 0, 0, 0, 0)) == 0)
		zy_child(z, src, fds[0], cwd, argv, envp);
	else if (pid < 0)
		zy_reply(fds[0], ZYG_FAILED, ZYG_S_FORK, (int)-pid, NULL);
	else {
		z->live[slot].token = rq->token;
		z->live[slot].pid = pid;
		z->live[slot].ended = 0;
		if ((size_t)slot == z->nused)
			z->nused++;
	}
	for (i = 0; i < nfds; i++)
		Z1(SYS_close, fds[i]);
}

/* Every zombie there is; only execs are remembered. */
ZYG static void
zy_reap(struct zy *z)
{
	struct rusage	 ru;
	size_t		 i;
	long		 pid;
	int		 st;

	while ((pid = Z4(SYS_wait4, -1, &st, WNOHANG | __WALL, &ru)) > 0)
		for (i = 0; i < z->nused; i++)
			if (z->live[i].pid == pid && !z->live[i].ended) {
				z->live[i].ended = 1;
				z->live[i].wstatus = st;
				z->live[i].utime_us = ru.ru_utime.tv_sec *
				    1000000ULL + ru.ru_utime.tv_usec;
				z->live[i].stime_us = ru.ru_stime.tv_sec *
				    1000000ULL + ru.ru_stime.tv_usec;
				z->live[i].maxrss_kb = ru.ru_maxrss;
				z->unsent++;
				break;
			}
}

/* Report ended execs while the socket takes them. */
ZYG static void
zy_flush(struct zy *z)
{
	struct zyg_exit	 x;
	size_t		 i;
	long		 rc;

	for (i = 0; i < z->nused && z->unsent > 0; i++) {
		if (!z->live[i].ended)
			continue;
		x.token = z->live[i].token;
		x.wstatus = z->live[i].wstatus;
		x.pad = 0;
		x.utime_us = z->live[i].utime_us;
		x.stime_us = z->live[i].stime_us;
		x.maxrss_kb = z->live[i].maxrss_kb;
		rc = Z6(SYS_sendto, z->p->sock, &x, sizeof(x), MSG_DONTWAIT |
		    MSG_NOSIGNAL, 0, 0);
		if (rc == -EAGAIN || rc == -EINTR || rc == -ENOBUFS)
			break;
		if (rc < 0)
			zy_exit(0);	/* runnerd is gone */
		z->live[i].pid = 0;
		z->live[i].ended = 0;
		z->unsent--;
	}
	while (z->nused > 0 && z->live[z->nused - 1].pid == 0)
		z->nused--;
}

/*
 * Onto the zygote's own stack, just below mem (sandbox_init.c), 16-byte
 * aligned under the command line at its top: runnerd's can then go.
 */
__attribute__((noreturn))
ZYG void
zygote_start_child(const struct zyg_params *params, char *mem)
{
	char	*top = mem - ZYG_ARGS_SIZE;

	_Static_assert(ZYG_ARGS_SIZE % 16 == 0, "zygote stack misaligned");
#if defined(__x86_64__)
	__asm__ volatile ("mov %0, %%rsp\n\t"
	    "xor %%ebp, %%ebp\n\t"
	    "call *%3\n\t"
	    "ud2" : : "r"(top), "D"(params), "S"(mem),
	    "r"(zygote_main_child) : "memory");
#elif defined(__aarch64__)
	register const struct zyg_params *x0 __asm__("x0") = params;
	register char	*x1 __asm__("x1") = mem;

	__asm__ volatile ("mov sp, %0\n\t"
	    "mov x29, xzr\n\t"
	    "blr %3\n\t"
	    "brk #0" : : "r"(top), "r"(x0), "r"(x1),
	    "r"(zygote_main_child) : "memory");
#endif
	__builtin_unreachable();
}

/* First of all, everything but the stack, mem and this code goes. */
ZYG void
zygote_main_child(const struct zyg_params *params, char *mem)
{
	const struct zyg_params	*p;
	struct zyg_params	 copy;
	struct pollfd		 pfd[2];
	struct zy		 z;
	char			 si[512];
	size_t			 i;

	/* params may be in what goes: everything is copied first. */
	copy.sock = params->sock;
	copy.sigfd = params->sigfd;
	copy.devnull = params->devnull;
	copy.nofile = params->nofile;
	copy.nunmap = params->nunmap < ZYG_RANGES_MAX ? params->nunmap :
	    ZYG_RANGES_MAX;
	for (i = 0; i < copy.nunmap; i++) {
		copy.unmap[i].lo = params->unmap[i].lo;
		copy.unmap[i].hi = params->unmap[i].hi;
		copy.unmap[i].zero = params->unmap[i].zero;
	}
	p = &copy;
	for (i = 0; i < p->nunmap; i++)
		if (p->unmap[i].zero)
			Z3(SYS_madvise, p->unmap[i].lo,
			    p->unmap[i].hi - p->unmap[i].lo, MADV_DONTNEED);
		else
			Z2(SYS_munmap, p->unmap[i].lo,
			    p->unmap[i].hi - p->unmap[i].lo);
	Z3(SYS_madvise, mem, ZYG_MEM_SIZE, MADV_DONTNEED);
	z.p = p;
	z.req = mem + ZY_REQ_OFF;
	z.ptrs = (char **)(mem + ZY_PTRS_OFF);
	z.path = mem + ZY_PATH_OFF;
	z.live = (struct zy_live *)(mem + ZY_LIVE_OFF);
	z.nused = z.unsent = 0;
	for (;;) {
		pfd[0].fd = p->sock;
		pfd[0].events = POLLIN | (z.unsent > 0 ? POLLOUT : 0);
		pfd[0].revents = 0;
		pfd[1].fd = p->sigfd;
		pfd[1].events = POLLIN;
		pfd[1].revents = 0;
		if (Z5(SYS_ppoll, pfd, 2, NULL, NULL, ZY_SIGSET_SIZE) < 0)
			continue;
		if (pfd[1].revents & POLLIN)
			while (Z3(SYS_read, p->sigfd, si, sizeof(si)) > 0)
				;
		zy_reap(&z);
		if (z.unsent > 0)
			zy_flush(&z);
		if (pfd[0].revents & POLLIN)
			zy_serve(&z);
		else if (pfd[0].revents & (POLLHUP | POLLERR))
			zy_exit(0);
	}
}
