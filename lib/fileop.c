/*
 * Checks of the file operation request and of every entry of a stream,
 * done by each receiver: the master and runnerd check the request, the
 * worker and the client each entry they read.
 */
#include <stdio.h>
#include <string.h>

#include "fileop.h"
#include "sbx_msg.h"

int
sbx_check_fileop(const struct sbx_fileop_req *req, char *err, size_t len)
{
	uint32_t	 allowed = 0;

	if (sbx_check_id_req((const struct sbx_id_req *)req, err, len) == -1)
		return (-1);
	if (req->pathlen == 0 || req->pathlen >= sizeof(req->path) ||
	    req->path[req->pathlen] != '\0' || req->mode > 0777 ||
	    req->op < FILEOP_LS || req->op > FILEOP_GET_TREE) {
		snprintf(err, len, "malformed file operation request");
		return (-1);
	}
	if (req->op == FILEOP_MKDIR)
		allowed = FILEOP_F_PARENTS;
	else if (req->op == FILEOP_RM)
		allowed = FILEOP_F_RECURSIVE;
	if ((req->flags & ~allowed) != 0) {
		snprintf(err, len, "malformed file operation request: flags "
		    "%#x", req->flags);
		return (-1);
	}
	return (0);
}

int
fent_check_relpath(const char *p, char *err, size_t len)
{
	const char	*c, *slash;
	size_t		 n;
	int		 depth = 0;

	if (p[0] == '\0')
		return (0);
	for (c = p; ; c = slash + 1) {
		slash = strchr(c, '/');
		n = slash != NULL ? (size_t)(slash - c) : strlen(c);
		if (n == 0 || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.')) {
			snprintf(err, len, "bad path in tree: %.200s", p);
			return (-1);
		}
		if (++depth > FENT_DEPTH_MAX) {
			snprintf(err, len, "tree deeper than %d levels: "
			    "%.200s", FENT_DEPTH_MAX, p);
			return (-1);
		}
		if (slash == NULL)
			return (0);
	}
}

int
fent_check(const struct sbx_fent *e, char *err, size_t len)
{
	if (memchr(e->path, '\0', sizeof(e->path)) == NULL ||
	    memchr(e->target, '\0', sizeof(e->target)) == NULL ||
	    e->type < FENT_FILE || e->type > FENT_END ||
	    e->mode > 07777 || e->mtime_ns >= 1000000000U ||
	    (e->type == FENT_LINK && e->target[0] == '\0') ||
	    (e->type != FENT_LINK && e->target[0] != '\0')) {
		snprintf(err, len, "malformed entry in the stream");
		return (-1);
	}
	return (0);
}

const char *
fent_type_name(uint32_t type)
{
	switch (type) {
	case FENT_FILE:
		return ("file");
	case FENT_DIR:
		return ("dir");
	case FENT_LINK:
		return ("link");
	default:
		return ("other");
	}
}
