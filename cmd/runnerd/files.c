/*
 * put/get jobs and file operations (fileops.c): a copier process per
 * request (workspace.c), so that a large copy never holds up other
 * sandboxes.  runnerd only waits for its one result message.  A copier
 * runs as its sandbox's uid, outside the sandbox: the sandbox's
 * teardown kills it (files_kill), and the sandbox is buried, its uid
 * free, only once its copiers are reaped (files_left).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileop.h"
#include "log.h"
#include "runnerd.h"
#include "workspace.h"

struct file_job {
	TAILQ_ENTRY(file_job)	 entry;
	struct rsandbox		*rs;	/* whose uid it runs as */
	pid_t			 pid;
	int			 fd;	/* result pipe */
	struct event		 ev;
	uint32_t		 peerid;
	enum workspace_op	 op;
	char			 corr[CORR_ID_SIZE];
	char			 path[CONF_PATH_SIZE];
	int			 done;
	int			 killed;	/* with its sandbox */
};

static TAILQ_HEAD(, file_job)	 file_jobs = TAILQ_HEAD_INITIALIZER(file_jobs);

/* The job's one answer: its result, or why there is none. */
static void
files_answer(struct file_job *job, struct workspace_result *res,
    int error, const char *none)
{
	event_del(&job->ev);
	close(job->fd);
	job->fd = -1;
	job->done = 1;
	if (res == NULL) {
		runnerd_result(job->peerid, job->corr, error, "%s: %s",
		    job->path, none);
		return;
	}
	res->msg[sizeof(res->msg) - 1] = '\0';
	if (res->error != 0 || job->op == WORKSPACE_WORK)
		runnerd_result(job->peerid, job->corr, res->error, "%s",
		    res->msg);
	else
		runnerd_result(job->peerid, job->corr, 0, "%s %s: %llu bytes",
		    job->op == WORKSPACE_PUT ? "put" : "got", job->path,
		    (unsigned long long)res->bytes);
}

static void
files_result(int fd, short event, void *arg)
{
	struct file_job		*job = arg;
	struct workspace_result	 res;
	ssize_t			 n;

	n = read(fd, &res, sizeof(res));
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	files_answer(job, n == sizeof(res) ? &res : NULL, EIO,
	    "the copy failed without a word");
}

/* Fork the copier for wc; the result is sent when it reports. */
static void
files_job(struct rsandbox *rs, struct workspace_copy *wc, const char *corr,
    uint32_t peerid)
{
	struct file_job		*job;
	char			 err[WORKSPACE_ERR_SIZE];
	int			 rfd, fd = wc->fd;

	if ((job = calloc(1, sizeof(*job))) == NULL)
		fatal("%s", __func__);
	job->pid = workspace_copy_start(wc, &rfd, err, sizeof(err));
	close(fd);
	if (job->pid == -1) {
		free(job);
		runnerd_result(peerid, corr, EIO, "%s", err);
		return;
	}
	job->rs = rs;
	job->fd = rfd;
	job->peerid = peerid;
	job->op = wc->op;
	strlcpy(job->corr, corr, sizeof(job->corr));
	strlcpy(job->path, wc->path, sizeof(job->path));
	event_set(&job->ev, rfd, EV_READ | EV_PERSIST, files_result, job);
	event_add(&job->ev, NULL);
	TAILQ_INSERT_TAIL(&file_jobs, job, entry);
}

static int
files_check(const char *path, size_t len, const char *corr, int fd,
    uint32_t peerid)
{
	char	 err[WORKSPACE_ERR_SIZE];

	if (workspace_check_path(path, len, err, sizeof(err)) == 0)
		return (0);
	close(fd);
	runnerd_result(peerid, corr, EINVAL, "%s", err);
	return (-1);
}

/* A copy as the sandbox's uid in its workspace, on path and fd. */
static void
files_copy_init(struct workspace_copy *wc, struct rsandbox *rs, int op,
    const char *path, uint32_t pathlen, int fd)
{
	memset(wc, 0, sizeof(*wc));
	wc->op = op;
	wc->workspace_fd = rs->sb.workspace_fd;
	wc->uid = rs->sb.uid;
	wc->gid = rs->sb.gid;
	wc->path = path;
	wc->pathlen = pathlen;
	wc->fd = fd;
}

void
files_start(struct rsandbox *rs, struct sbx_file_req *req, int op, int fd,
    uint32_t peerid)
{
	struct workspace_copy	 wc;

	if (files_check(req->path, req->pathlen, req->corr, fd, peerid) == -1)
		return;
	files_copy_init(&wc, rs, op, req->path, req->pathlen, fd);
	wc.mode = req->mode != 0 ? req->mode & 0777 : 0644;
	files_job(rs, &wc, req->corr, peerid);
}

/* The copier gets req as it is when it forks, before this returns. */
void
files_start_op(struct rsandbox *rs, const struct sbx_fileop_req *req,
    int fd, uint32_t peerid)
{
	struct workspace_copy	 wc;

	if (files_check(req->path, req->pathlen, req->corr, fd, peerid) == -1)
		return;
	files_copy_init(&wc, rs, WORKSPACE_WORK, req->path, req->pathlen, fd);
	wc.work = fileops_work;
	wc.arg = req;
	files_job(rs, &wc, req->corr, peerid);
}

/* The job is over: its copier reaped, its client answered. */
static void
files_free(struct file_job *job)
{
	struct rsandbox	*rs = job->rs;
	int		 killed = job->killed;

	TAILQ_REMOVE(&file_jobs, job, entry);
	free(job);
	/* The last of a dying sandbox's copiers: it may be buried now. */
	if (killed && files_left(rs) == 0)
		runnerd_copiers_reaped(rs);
}

/* SIGCHLD: the copiers that exited, never waited for. */
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
		if (!job->done)
			files_answer(job, NULL, EIO, "the copy died");
		files_free(job);
	}
}

/* The copiers of rs not reaped yet. */
int
files_left(struct rsandbox *rs)
{
	struct file_job	*job;
	int		 n = 0;

	TAILQ_FOREACH(job, &file_jobs, entry)
		if (job->rs == rs)
			n++;
	return (n);
}

/*
 * The sandbox goes: its copiers get SIGKILL now and are reaped on
 * SIGCHLD (files_reap), never waited for here: one the kernel holds
 * (a frozen task, a stuck filesystem) must not hold runnerd's event
 * loop.  Until then its sandbox stays unburied, its uid taken.  One
 * that had finished has its result answered as usual; the others'
 * clients hear at once that the sandbox went.
 */
void
files_kill(struct rsandbox *rs)
{
	struct file_job		*job;
	struct workspace_result	 res;

	TAILQ_FOREACH(job, &file_jobs, entry) {
		if (job->rs != rs || job->killed)
			continue;
		if (kill(job->pid, SIGKILL) == -1 && errno != ESRCH)
			log_warn("%s: kill %d", __func__, (int)job->pid);
		job->killed = 1;
		/* Its result, if it was done; else it was cut short. */
		if (!job->done)
			files_answer(job, read(job->fd, &res, sizeof(res)) ==
			    sizeof(res) ? &res : NULL, ECANCELED,
			    "destroyed with its sandbox during the copy");
		log_debug("%s: sandbox %s: copier %d killed", __func__,
		    rs->sb.id, (int)job->pid);
	}
}

/* runnerd stops: the killed copiers, waited for, however long. */
void
files_wait_killed(void)
{
	struct file_job	*job, *next;

	TAILQ_FOREACH_SAFE(job, &file_jobs, entry, next) {
		if (!job->killed)
			continue;
		while (waitpid(job->pid, NULL, 0) == -1 && errno == EINTR)
			;
		TAILQ_REMOVE(&file_jobs, job, entry);
		free(job);
	}
}
