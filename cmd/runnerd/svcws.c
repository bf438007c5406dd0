/*
 * Kept workspaces of services (policy keep-workspace).  A service's
 * workspace outlives each of its sandboxes: between two it is a tmpfs
 * mounted at state_dir/services/<id> (root's alone, as state_dir is),
 * and the next sandbox of the service moves it in as its own.  Its
 * files belong to the sandbox uid, so the service keeps one uid, held
 * here as long as the workspace is and given to no other sandbox.
 *
 * Only a restart takes it (the master says which create is one); a
 * fresh start, a policy without keep-workspace or the master's list
 * of services (IMSG_RUN_SERVICES) leaving the service out removes it.
 * The directory state_dir/services/<id> exists exactly while it is
 * kept, so a runnerd that starts after one was killed knows which
 * workspaces were kept, even of a sandbox that was live: those it
 * takes back (uid from the tmpfs's owner) until the master's list,
 * which comes at once, says whether they are still wanted.
 */
#include <sys/types.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "runnerd.h"
#include "sbx_msg.h"

#define SVCWS_DIR	"services"

struct svcws {
	TAILQ_ENTRY(svcws)	 entry;
	char			 id[SBX_ID_SIZE];
	char			 path[CONF_PATH_SIZE];	/* state_dir/services/id */
	uid_t			 uid;
	int			 held;		/* its tmpfs is mounted at path */
	struct rsandbox		*user;		/* the sandbox that has it */
	int			 dropped;	/* goes with that sandbox */
};

static TAILQ_HEAD(, svcws)	 svcws_list = TAILQ_HEAD_INITIALIZER(svcws_list);

static struct svcws *
svcws_find(const char *id)
{
	struct svcws	*w;

	TAILQ_FOREACH(w, &svcws_list, entry)
		if (strcmp(w->id, id) == 0)
			return (w);
	return (NULL);
}

static int
svcws_is_mount(const char *path)
{
	struct statx	 stx;

	return (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS,
	    &stx) == 0 && (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT));
}

static int
svcws_path(const char *state_dir, const char *id, char *buf, size_t len)
{
	if ((size_t)snprintf(buf, len, "%s/%s/%s", state_dir, SVCWS_DIR,
	    id) >= len)
		return (-1);
	return (0);
}

/* Its files, mount and directory, and its uid. */
static void
svcws_remove(struct svcws *w)
{
	if (w->held && umount2(w->path, MNT_DETACH) == -1 && errno != EINVAL)
		log_warn("%s: umount %s", __func__, w->path);
	if (unlinkat(AT_FDCWD, w->path, AT_REMOVEDIR) == -1 && errno != ENOENT)
		log_warn("%s: %s", __func__, w->path);
	uid_free(&runnerd_conf->global, w->uid);
	log_info("service sandbox %s: kept workspace removed", w->id);
	TAILQ_REMOVE(&svcws_list, w, entry);
	free(w);
}

/* Dropped: now if no sandbox has it, else when that one goes. */
static void
svcws_drop(struct svcws *w)
{
	if (w->user == NULL) {
		svcws_remove(w);
		return;
	}
	w->dropped = 1;
	w->user->sb.ws_keep[0] = '\0';
}

static struct svcws *
svcws_new(const char *id, uid_t uid)
{
	struct svcws	*w;
	char		 dir[CONF_PATH_SIZE];

	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s",
	    runnerd_conf->global.state_dir, SVCWS_DIR) >= sizeof(dir))
		return (NULL);
	if (mkdirat(AT_FDCWD, dir, 0700) == -1 && errno != EEXIST) {
		log_warn("%s: %s", __func__, dir);
		return (NULL);
	}
	if ((w = calloc(1, sizeof(*w))) == NULL)
		fatal("%s", __func__);
	strlcpy(w->id, id, sizeof(w->id));
	w->uid = uid;
	if (svcws_path(runnerd_conf->global.state_dir, id, w->path,
	    sizeof(w->path)) == -1 ||
	    (mkdirat(AT_FDCWD, w->path, 0700) == -1 && errno != EEXIST)) {
		log_warn("%s: %s", __func__, w->path);
		free(w);
		return (NULL);
	}
	TAILQ_INSERT_TAIL(&svcws_list, w, entry);
	return (w);
}

/* A held tmpfs of another size gets the policy's; else a fresh one. */
static void
svcws_resize(struct svcws *w, uint64_t size)
{
	struct statfs	 sf;
	char		 opts[64];

	if (!w->held || statfs(w->path, &sf) == -1 ||
	    (uint64_t)sf.f_blocks * sf.f_bsize == size)
		return;
	snprintf(opts, sizeof(opts), "size=%llu", (unsigned long long)size);
	if (mount(NULL, w->path, NULL, MS_REMOUNT | MS_NOSUID | MS_NODEV,
	    opts) == 0)
		return;
	log_warn("service sandbox %s: kept workspace cannot take the "
	    "policy's size; it starts afresh", w->id);
	if (umount2(w->path, MNT_DETACH) == -1)
		log_warn("%s: umount %s", __func__, w->path);
	w->held = 0;
}

/*
 * A service's sandbox about to be built: its uid, and in the spec its
 * kept workspace.  -1 if no uid is free.  A fresh start or a policy
 * without keep-workspace loses what an earlier sandbox kept.
 */
int
svcws_claim(struct rsandbox *rs, const struct sbx_create_req *req,
    const struct policy_msg *pol, uid_t *uid)
{
	struct svcws	*w;

	w = req->want_id[0] != '\0' ? svcws_find(req->want_id) : NULL;
	if (w != NULL && (!req->restart || !pol->keep_workspace ||
	    w->user != NULL || w->dropped)) {
		if (w->user != NULL)
			svcws_drop(w);
		else
			svcws_remove(w);
		w = NULL;
	}
	if (req->service[0] == '\0' || req->want_id[0] == '\0' ||
	    !pol->keep_workspace)
		return (uid_alloc(&runnerd_conf->global, uid));
	if (w == NULL) {
		if (uid_alloc(&runnerd_conf->global, uid) == -1)
			return (-1);
		if ((w = svcws_new(req->want_id, *uid)) == NULL) {
			/* No place to keep it: a workspace of its own. */
			log_warnx("service sandbox %s: its workspace cannot "
			    "be kept", req->want_id);
			return (0);
		}
	}
	svcws_resize(w, pol->workspace);
	*uid = w->uid;
	w->user = rs;
	rs->svcws = w;
	return (0);
}

/* For the spec: where the workspace is kept, and whether one is. */
void
svcws_spec(struct rsandbox *rs, struct sandbox_spec *spec)
{
	struct svcws	*w = rs->svcws;

	if (w == NULL || w->dropped)
		return;
	spec->ws_keep = w->path;
	spec->ws_held = w->held;
	/* From here the sandbox has it, moved into its own directory. */
	w->held = 0;
}

/*
 * The sandbox is destroyed (its workspace moved back, unless dropped)
 * or never was: the uid stays the service's if the workspace is kept.
 * Returns 1 if the uid is still held here.
 */
int
svcws_release(struct rsandbox *rs)
{
	struct svcws	*w = rs->svcws;

	if (w == NULL)
		return (0);
	rs->svcws = NULL;
	w->user = NULL;
	w->held = svcws_is_mount(w->path);
	if (w->dropped) {
		svcws_remove(w);
		return (1);
	}
	return (1);
}

/* The master's list: every kept workspace of a service not in it goes. */
void
svcws_services(const struct run_services *m)
{
	struct svcws	*w, *next;
	uint32_t	 i;

	TAILQ_FOREACH_SAFE(w, &svcws_list, entry, next) {
		for (i = 0; i < m->count; i++)
			if (strcmp(m->ids[i], w->id) == 0)
				break;
		if (i == m->count)
			svcws_drop(w);
	}
}

/* At every config: their uids are taken; one out of the range goes. */
void
svcws_conf(const struct conf_global_msg *g)
{
	struct svcws	*w, *next;

	TAILQ_FOREACH_SAFE(w, &svcws_list, entry, next) {
		if (uid_reserve(g, w->uid) == 0)
			continue;
		log_warnx("service sandbox %s: uid %u is out of the range now",
		    w->id, (unsigned)w->uid);
		if (w->user != NULL)
			svcws_drop(w);
		else {
			w->uid = 0;	/* not ours to free */
			svcws_remove(w);
		}
	}
}

/* One left by a previous runnerd: taken back if it is a tmpfs. */
static void
svcws_adopt(const char *state_dir, const char *id)
{
	struct svcws	*w;
	struct stat	 st;
	char		 path[CONF_PATH_SIZE], live[CONF_PATH_SIZE];

	if (svcws_path(state_dir, id, path, sizeof(path)) == -1)
		return;
	/* Its sandbox was live: its workspace moves back first. */
	if ((size_t)snprintf(live, sizeof(live), "%s/%s/workspace",
	    state_dir, id) < sizeof(live) && svcws_is_mount(live) &&
	    !svcws_is_mount(path) &&
	    mount(live, path, NULL, MS_MOVE, NULL) == -1)
		log_warn("%s: %s to %s", __func__, live, path);
	if (!svcws_is_mount(path) || stat(path, &st) == -1 ||
	    st.st_uid == 0) {
		if (unlinkat(AT_FDCWD, path, AT_REMOVEDIR) == -1)
			log_warn("%s: %s", __func__, path);
		return;
	}
	if ((w = calloc(1, sizeof(*w))) == NULL)
		fatal("%s", __func__);
	strlcpy(w->id, id, sizeof(w->id));
	strlcpy(w->path, path, sizeof(w->path));
	w->uid = st.st_uid;
	w->held = 1;
	TAILQ_INSERT_TAIL(&svcws_list, w, entry);
	log_info("service sandbox %s: kept workspace taken back, uid %u",
	    id, (unsigned)w->uid);
}

/* At runnerd's start, before the sandboxes' leftovers are removed. */
void
svcws_reconcile(const char *state_dir)
{
	struct dirent	*de;
	DIR		*d;
	char		 dir[CONF_PATH_SIZE];

	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", state_dir,
	    SVCWS_DIR) >= sizeof(dir) || (d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (sbx_check_id(de->d_name, sizeof(de->d_name)) == 0)
			svcws_adopt(state_dir, de->d_name);
	closedir(d);
}

/* A clean stop: the master is going, and its services with it. */
void
svcws_shutdown(void)
{
	struct svcws	*w;

	while ((w = TAILQ_FIRST(&svcws_list)) != NULL) {
		w->user = NULL;
		svcws_remove(w);
	}
}
