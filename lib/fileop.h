/*
 * File operations on a workspace (sandboxctl ls, stat, mkdir, rm, and
 * put -r / get -r): the request, and the stream of entries that goes
 * over the socket the client sends with it.
 *
 * The request travels sandboxctl -> master -> runnerd like put/get,
 * with one end of a socketpair; runnerd forks a worker that becomes the
 * sandbox's uid (workspace.c) and talks to the client on that socket
 * directly.  The stream is a sequence of struct sbx_fent, fixed-size,
 * each string NUL-terminated within its array; a FENT_FILE in a tree
 * stream is followed by exactly size bytes of content.  A stream ends
 * with one FENT_END; one that stops without it failed, and the result
 * (an IMSG_CTL_RESULT through the master) says why.
 */
#ifndef SANDBOXD_FILEOP_H
#define SANDBOXD_FILEOP_H

#include <stddef.h>
#include <stdint.h>

#include "sandboxd_imsg.h"

#define FENT_PATH_SIZE		1024	/* a relative path and its NUL */
#define FENT_DEPTH_MAX		64	/* directory levels in a tree */
#define FENT_LS_MAX		65536	/* entries in one ls reply */
#define FENT_TREE_MAX		1000000	/* entries in one put/get -r */

enum fileop {
	FILEOP_LS = 1,
	FILEOP_STAT,
	FILEOP_MKDIR,
	FILEOP_RM,
	FILEOP_PUT_TREE,	/* client -> worker stream */
	FILEOP_GET_TREE		/* worker -> client stream */
};

#define FILEOP_F_PARENTS	0x01	/* mkdir -p */
#define FILEOP_F_RECURSIVE	0x02	/* rm -r */

struct sbx_fileop_req {
	char		corr[CORR_ID_SIZE];
	char		id[SBX_ID_SIZE];
	char		path[CONF_PATH_SIZE];
	uint32_t	pathlen;	/* as sent, so a NUL inside shows */
	uint32_t	op;		/* enum fileop */
	uint32_t	flags;		/* FILEOP_F_* */
	uint32_t	mode;		/* mkdir: permission bits */
};

enum fent_type {
	FENT_FILE = 1,
	FENT_DIR,
	FENT_LINK,
	FENT_OTHER,		/* fifo, socket, device: listed, never copied */
	FENT_END		/* size: the entries sent before it */
};

struct sbx_fent {
	uint32_t	type;		/* enum fent_type */
	uint32_t	mode;		/* permission bits, & 07777 */
	uint32_t	uid;
	uint32_t	gid;
	int64_t		mtime;		/* seconds */
	uint32_t	mtime_ns;
	uint32_t	nlink;
	uint64_t	size;		/* FILE in a tree: bytes that follow */
	/* ls: the name; stat: the path asked; tree: relative, "" = root */
	char		path[FENT_PATH_SIZE];
	char		target[FENT_PATH_SIZE];	/* LINK: what it points to */
};

/* The request: sizes, NUL-terminated strings, a known op and flags. */
int	 sbx_check_fileop(const struct sbx_fileop_req *, char *, size_t);
/* An entry as received: type, NULs, mode; 0 or -1 with err. */
int	 fent_check(const struct sbx_fent *, char *, size_t);
/*
 * A tree path as received: relative, no empty, "." or ".." component,
 * at most FENT_DEPTH_MAX components.  "" (the root) passes.
 */
int	 fent_check_relpath(const char *, char *, size_t);
const char *fent_type_name(uint32_t);

#endif
