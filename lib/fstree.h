/*
 * Trees of files as a stream of struct sbx_fent (fileop.h), sent and
 * received by sandboxctl put -r/get -r and by runnerd's worker, and
 * removed by rm -r.  Every name is resolved one directory fd at a time
 * with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS): a symbolic link
 * is copied as a link and never followed, so no tree reaches outside
 * the directory it was given.
 */
#ifndef SANDBOXD_FSTREE_H
#define SANDBOXD_FSTREE_H

#include <sys/stat.h>

#include <stdint.h>

#include "fileop.h"

#define FSTREE_MSG_SIZE		256
#define FSTREE_RM_DEPTH_MAX	256	/* rm -r: deeper trees are refused */

struct fstree {
	int		 sock;		/* the stream */
	uint64_t	 entries;	/* sent or made */
	uint64_t	 bytes;		/* of file content */
	uint64_t	 skipped;	/* fifos, sockets, devices not sent */
	int		 error;		/* errno of a failure */
	char		 msg[FSTREE_MSG_SIZE];	/* and its words */
};

/* openat2 beneath dirfd, symlinks refused if nosymlinks; retries EAGAIN. */
int	 fstree_openat(int, const char *, int, int, int);
/* Send the tree of the directory open at dirfd, then FENT_END. */
int	 fstree_send(struct fstree *, int);
/* Make the tree read from the stream beneath rootfd, an empty directory. */
int	 fstree_recv(struct fstree *, int);
/* Remove name beneath dirfd and everything below it; no link followed. */
int	 fstree_rm(struct fstree *, int, const char *, int);
/* Fill an entry's type, mode, owner, times and size from a stat. */
void	 fent_from_stat(struct sbx_fent *, const struct stat *);
/* Whole entries: 1 read, 0 at a clean EOF, -1 on error (errno). */
int	 fent_read(int, struct sbx_fent *);
int	 fent_write(int, const struct sbx_fent *);

#endif
