/*
 * The exec allowlist: with `exec "/path"` rules in its policy, a
 * sandbox may execute files only beneath the listed paths, enforced by
 * the kernel (Landlock, LANDLOCK_ACCESS_FS_EXECUTE) rather than by
 * looking at command strings.  Only execution is handled: reading,
 * writing and mapping stay as the binds left them.  pid 1 restricts
 * itself once (it never executes anything), and every exec it forks
 * inherits the domain.
 *
 * The kernel opens an ELF program's interpreter (the dynamic loader)
 * with exec permission too, so the loader of runnerd's own kind and the
 * PT_INTERP of every listed file are allowed alongside.  A script's
 * "#!" interpreter is opened the same way but is not guessed: it must
 * be listed itself (`exec "/bin/sh"`), or the script fails with EACCES.
 *
 * What this holds is execve(2), not code: a listed program that runs
 * other code (an interpreter, or the loader itself, as in
 * "/lib64/ld-linux-x86-64.so.2 /usr/bin/id") is not stopped by it.
 */
#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/landlock.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "sandbox_int.h"

#define LL_MAX_PHDRS	64

/* The dynamic loader of this program: the same as the host's. */
static int
ll_own_interp_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	char	**interp = arg;
	int	  i;

	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_INTERP)
			*interp = (char *)(info->dlpi_addr +
			    info->dlpi_phdr[i].p_vaddr);
	return (1);	/* the first object is the program itself */
}

static const char *
ll_own_interp(void)
{
	char	*interp = NULL;

	dl_iterate_phdr(ll_own_interp_cb, &interp);
	return (interp);
}

/* PT_INTERP of a native ELF file, or "" if it has none or is not one. */
static void
ll_file_interp(const char *path, char *buf, size_t len)
{
	Elf64_Ehdr	 eh;
	Elf64_Phdr	 ph[LL_MAX_PHDRS];
	ssize_t		 n;
	int		 fd, i;

	buf[0] = '\0';
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1)
		return;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > LL_MAX_PHDRS ||
	    pread(fd, ph, eh.e_phnum * sizeof(*ph), eh.e_phoff) !=
	    (ssize_t)(eh.e_phnum * sizeof(*ph))) {
		close(fd);
		return;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type != PT_INTERP || ph[i].p_filesz >= len)
			continue;
		n = pread(fd, buf, ph[i].p_filesz, ph[i].p_offset);
		buf[n > 0 ? n : 0] = '\0';
		break;
	}
	close(fd);
}

static int
ll_allow(int rfd, const char *path, char *err, size_t len)
{
	struct landlock_path_beneath_attr	 pb;
	int					 fd, rc = 0;

	if ((fd = open(path, O_PATH | O_CLOEXEC)) == -1)
		return (sbx_fail(err, len, "%s: exec rule %s: %s", __func__,
		    path, strerror(errno)));
	memset(&pb, 0, sizeof(pb));
	pb.allowed_access = LANDLOCK_ACCESS_FS_EXECUTE;
	pb.parent_fd = fd;
	if (syscall(SYS_landlock_add_rule, rfd, LANDLOCK_RULE_PATH_BENEATH,
	    &pb, 0) == -1)
		rc = sbx_fail(err, len, "%s: %s: %s", __func__, path,
		    strerror(errno));
	close(fd);
	return (rc);
}

/*
 * Landlock denies linking and renaming across directories (EXDEV) in
 * any domain unless LANDLOCK_ACCESS_FS_REFER is handled and granted:
 * granted beneath "/", such a move is refused only where the file
 * would gain a right there (execution, under exec rules).
 */
static int
ll_allow_refer(int rfd, char *err, size_t len)
{
	struct landlock_path_beneath_attr	 pb;
	int					 fd, rc = 0;

	if ((fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1)
		return (sbx_fail(err, len, "%s: /: %s", __func__,
		    strerror(errno)));
	memset(&pb, 0, sizeof(pb));
	pb.allowed_access = LANDLOCK_ACCESS_FS_REFER;
	pb.parent_fd = fd;
	if (syscall(SYS_landlock_add_rule, rfd, LANDLOCK_RULE_PATH_BENEATH,
	    &pb, 0) == -1)
		rc = sbx_fail(err, len, "%s: %s", __func__, strerror(errno));
	close(fd);
	return (rc);
}

/* A loader that is missing here cannot run anything: skip it quietly. */
static int
ll_allow_interp(int rfd, const char *interp, char *err, size_t len)
{
	if (interp == NULL || interp[0] != '/' || access(interp, F_OK) == -1)
		return (0);
	return (ll_allow(rfd, interp, err, len));
}

static int
ll_rules(int rfd, const struct fs_rule_msg *r, size_t n, char *err,
    size_t len)
{
	char	 interp[PATH_MAX];
	size_t	 i;

	if (ll_allow_interp(rfd, ll_own_interp(), err, len) == -1)
		return (-1);
	for (i = 0; i < n; i++) {
		if (r[i].type != FS_RULE_EXEC)
			continue;
		if (ll_allow(rfd, r[i].path, err, len) == -1)
			return (-1);
		ll_file_interp(r[i].path, interp, sizeof(interp));
		if (ll_allow_interp(rfd, interp, err, len) == -1)
			return (-1);
	}
	return (0);
}

static int
ll_has_exec(const struct fs_rule_msg *r, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (r[i].type == FS_RULE_EXEC)
			return (1);
	return (0);
}

/*
 * Landlock lets every file on the kernel's internal mounts through, a
 * memfd among them: with an exec list, a copy of any readable program
 * in a memfd would run (by execveat or /proc/self/fd/N).  Where the
 * kernel has vm.memfd_noexec (6.3+), kept per pid namespace, pid 1
 * sets its own to 2 while it may (CAP_SYS_ADMIN, the host's /proc):
 * no memfd made in the sandbox can then be executable.  Elsewhere
 * (Debian 12's 6.1) *nomemfd asks for the seccomp filter that refuses
 * memfd_create.  Called before the mounts and the drop.
 */
int
landlock_memfd_noexec_child(const struct fs_rule_msg *r, size_t n,
    int *nomemfd, char *err, size_t len)
{
	int	 fd;

	*nomemfd = 0;
	if (!ll_has_exec(r, n))
		return (0);
	if ((fd = open("/proc/sys/vm/memfd_noexec", O_WRONLY | O_CLOEXEC)) ==
	    -1) {
		if (errno != ENOENT)
			return (sbx_fail(err, len, "%s: memfd_noexec: %s",
			    __func__, strerror(errno)));
		*nomemfd = 1;
		return (0);
	}
	if (write(fd, "2\n", 2) != 2) {
		close(fd);
		return (sbx_fail(err, len, "%s: memfd_noexec: %s", __func__,
		    strerror(errno)));
	}
	close(fd);
	return (0);
}

/*
 * Every sandbox gets a domain of its own, exec rules or not: Landlock
 * refuses ptrace (and process_vm_*, pidfd_getfd, /proc/PID/mem) from
 * inside a domain to any process outside it, a fence that holds even
 * against a process of the sandbox's uid that is not in the sandbox.
 * Without exec rules the domain handles only making device nodes,
 * which the seccomp filter refuses anyway.  A kernel without Landlock
 * gets no domain then, and the uid and pid namespace fences alone.
 */
int
landlock_exec_child(const struct fs_rule_msg *r, size_t n, char *err,
    size_t len)
{
	struct landlock_ruleset_attr	 attr;
	int				 abi, exec, rfd, rc;

	exec = ll_has_exec(r, n);
	if ((abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
	    LANDLOCK_CREATE_RULESET_VERSION)) < 1) {
		if (!exec)
			return (0);
		return (sbx_fail(err, len, "%s: the policy has exec rules but "
		    "this kernel has no Landlock to enforce them", __func__));
	}
	memset(&attr, 0, sizeof(attr));
	attr.handled_access_fs = LANDLOCK_ACCESS_FS_MAKE_CHAR |
	    LANDLOCK_ACCESS_FS_MAKE_BLOCK;
	if (exec)
		attr.handled_access_fs |= LANDLOCK_ACCESS_FS_EXECUTE;
	if (abi >= 2)
		attr.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
	if ((rfd = syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr),
	    0)) == -1)
		return (sbx_fail(err, len, "%s: landlock_create_ruleset: %s",
		    __func__, strerror(errno)));
	rc = exec ? ll_rules(rfd, r, n, err, len) : 0;
	if (rc == 0 && abi >= 2)
		rc = ll_allow_refer(rfd, err, len);
	if (rc == 0 && syscall(SYS_landlock_restrict_self, rfd, 0) == -1)
		rc = sbx_fail(err, len, "%s: landlock_restrict_self: %s",
		    __func__, strerror(errno));
	close(rfd);
	return (rc);
}
