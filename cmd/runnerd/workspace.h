/*
 * Moving files in and out of a sandbox's workspace (sandboxctl put/get).
 * The copy runs in a forked process that first becomes the sandbox's
 * uid and gid, then resolves the path beneath the workspace with
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS), so that no path can
 * reach outside it and nothing is checked apart from where it is used.
 */
#ifndef RUNNERD_WORKSPACE_H
#define RUNNERD_WORKSPACE_H

#include <sys/types.h>
#include <stddef.h>
#include <stdint.h>

#define WORKSPACE_ERR_SIZE	256

enum workspace_op {
	WORKSPACE_PUT = 1,	/* fd -> workspace file */
	WORKSPACE_GET,		/* workspace file -> fd */
	WORKSPACE_WORK		/* the work callback does it (fileops.c) */
};

/* Where the copier keeps the workspace and the caller's fd. */
#define WORKSPACE_FD_ROOT	3
#define WORKSPACE_FD_CALLER	4

struct workspace_result;

struct workspace_copy {
	enum workspace_op	 op;
	int			 workspace_fd;	/* O_PATH|O_DIRECTORY */
	uid_t			 uid;
	gid_t			 gid;
	const char		*path;		/* relative to the workspace */
	size_t			 pathlen;	/* bytes sent, to catch NULs */
	int			 fd;		/* the caller's file */
	mode_t			 mode;		/* PUT: mode of a new file */
	/*
	 * WORK: run in the copier once it is the sandbox's user, with
	 * the fds above; fills the result, which is then reported.
	 */
	void			(*work)(const struct workspace_copy *,
				    struct workspace_result *);
	const void		*arg;		/* for work */
};

/* What the copier reports on its result pipe, exactly this struct. */
struct workspace_result {
	int		 error;		/* 0 or an errno */
	uint64_t	 bytes;
	char		 msg[WORKSPACE_ERR_SIZE];
};

/* Lexical checks, before any fork: empty, absolute, "..", NUL bytes. */
int	workspace_check_path(const char *, size_t, char *, size_t);
/*
 * Fork the copier.  Returns its pid and the read end of its result pipe
 * in *resultfd (nonblocking, CLOEXEC), or -1 with err.  The caller
 * reads one struct workspace_result and reaps the pid.
 */
pid_t	workspace_copy_start(const struct workspace_copy *, int *, char *,
	    size_t);

#endif
