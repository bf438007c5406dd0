/*
 * put/get jobs: a copier process per request (workspace.c), so that a
 * large copy never holds up other sandboxes.  runnerd only waits for
 * its one result message.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "runnerd.h"
#include "workspace.h"

struct file_job {
	TAILQ_ENTRY(file_job)	 entry;
	pid_t			 pid;
	int			 fd;	/* result pipe */
	struct event		 ev;
	uint32_t		 peerid;
	enum workspace_op	 op;
	char			 corr[CORR_ID_SIZE];
	char			 path[CONF_PATH_SIZE];
	int			 done;
};

static TAILQ_HEAD(, file_job)	 file_jobs = TAILQ_HEAD_INITIALIZER(file_jobs);

static void
files_result(int fd, short event, void *arg)
{
	struct file_job		*job = arg;
	struct workspace_result	 res;
	ssize_t			 n;

	n = read(fd, &res, sizeof(res));
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	event_del(&job->ev);
	close(job->fd);
	job->fd = -1;
	job->done = 1;
	if (n != sizeof(res)) {
		runnerd_result(job->peerid, job->corr, EIO, "%s: the copy "
		    "failed without a word", job->path);
		return;
	}
	res.msg[sizeof(res.msg) - 1] = '\0';
	if (res.error != 0)
		runnerd_result(job->peerid, job->corr, res.error, "%s",
		    res.msg);
	else
		runnerd_result(job->peerid, job->corr, 0, "%s %s: %llu bytes",
		    job->op == WORKSPACE_PUT ? "put" : "got", job->path,
		    (unsigned long long)res.bytes);
}

void
files_start(struct rsandbox *rs, struct sbx_file_req *req, int op, int fd,
    uint32_t peerid)
{
	struct workspace_copy	 wc;
	struct file_job		*job;
	char			 err[WORKSPACE_ERR_SIZE];
	int			 rfd;

	if (workspace_check_path(req->path, req->pathlen, err,
	    sizeof(err)) == -1) {
		close(fd);
		runnerd_result(peerid, req->corr, EINVAL, "%s", err);
		return;
	}
	memset(&wc, 0, sizeof(wc));
	wc.op = op;
	wc.workspace_fd = rs->sb.workspace_fd;
	wc.uid = rs->sb.uid;
	wc.gid = rs->sb.gid;
	wc.path = req->path;
	wc.pathlen = req->pathlen;
	wc.fd = fd;
	wc.mode = req->mode != 0 ? req->mode & 0777 : 0644;
	if ((job = calloc(1, sizeof(*job))) == NULL)
		fatal("%s", __func__);
	job->pid = workspace_copy_start(&wc, &rfd, err, sizeof(err));
	close(fd);
	if (job->pid == -1) {
		free(job);
		runnerd_result(peerid, req->corr, EIO, "%s", err);
		return;
	}
	job->fd = rfd;
	job->peerid = peerid;
	job->op = op;
	strlcpy(job->corr, req->corr, sizeof(job->corr));
	strlcpy(job->path, req->path, sizeof(job->path));
	event_set(&job->ev, rfd, EV_READ | EV_PERSIST, files_result, job);
	event_add(&job->ev, NULL);
	TAILQ_INSERT_TAIL(&file_jobs, job, entry);
}

void
files_reap(void)
{
	struct file_job	*job, *next;

	TAILQ_FOREACH_SAFE(job, &file_jobs, entry, next) {
		if (waitpid(job->pid, NULL, WNOHANG) != job->pid)
			continue;
		/* The result may still be in the pipe: read it first. */
		if (!job->done)
			files_result(job->fd, EV_READ, job);
		if (!job->done) {
			event_del(&job->ev);
			close(job->fd);
			runnerd_result(job->peerid, job->corr, EIO,
			    "%s: the copy died", job->path);
		}
		TAILQ_REMOVE(&file_jobs, job, entry);
		free(job);
	}
}
