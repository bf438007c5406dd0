/*
 * Run by regress/runnerd/execallow.t inside a sandbox with an exec
 * list: "execprobe MODE PATH ARG" executes PATH (with ARG) one way:
 * path (execve), fd (execveat of an fd with AT_EMPTY_PATH), opath (the
 * same, the fd O_PATH), fexecve, procfd (execve of /proc/self/fd/N),
 * memfd (a copy in a memfd, by execveat) or memfdproc (that copy by
 * /proc/self/fd/N).  What the program prints shows it ran; a refusal
 * prints "refused MODE ERRNO-NAME" and exits 2.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static int
refused(const char *mode)
{
	printf("refused %s %s\n", mode, strerrorname_np(errno));
	return 2;
}

static int
memfd_copy(const char *path)
{
	struct stat	 st;
	int		 in, fd;

	if ((in = open(path, O_RDONLY)) == -1 || fstat(in, &st) == -1)
		return -1;
	if ((fd = memfd_create("probe", 0)) == -1)
		return -1;
	if (sendfile(fd, in, NULL, st.st_size) != st.st_size)
		return -1;
	close(in);
	return fd;
}

int
main(int argc, char *argv[])
{
	char	*const av[] = { argv[2], argv[3], NULL };
	char	 proc[64];
	int	 fd = -1;

	if (argc != 4)
		return 64;
	fflush(stdout);
	if (strcmp(argv[1], "path") == 0)
		execve(argv[2], av, environ);
	else if (strcmp(argv[1], "fd") == 0 || strcmp(argv[1], "fexecve") == 0 ||
	    strcmp(argv[1], "procfd") == 0) {
		if ((fd = open(argv[2], O_RDONLY)) == -1)
			return refused("open");
	} else if (strcmp(argv[1], "opath") == 0) {
		if ((fd = open(argv[2], O_PATH)) == -1)
			return refused("open");
	} else if (strncmp(argv[1], "memfd", 5) == 0) {
		if ((fd = memfd_copy(argv[2])) == -1)
			return refused("memfd_create");
	} else
		return 64;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (strcmp(argv[1], "fexecve") == 0)
		fexecve(fd, av, environ);
	else if (strcmp(argv[1], "procfd") == 0 ||
	    strcmp(argv[1], "memfdproc") == 0)
		execve(proc, av, environ);
	else if (fd != -1)
		syscall(SYS_execveat, fd, "", av, environ, AT_EMPTY_PATH);
	return refused(argv[1]);
}
