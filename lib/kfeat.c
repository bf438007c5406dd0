/*
 * Kernel feature detection.  Each feature is asked of the kernel the
 * way sandboxd would use it; nothing is inferred from uname(2).
 *
 * The nf_tables questions are batches built to fail: the command asked
 * about comes first, then a deletion of a table that does not exist.
 * The kernel reports every failing command of a batch and applies none
 * of it, so an unsupported command shows up as its own error and the
 * ruleset is never touched.
 */
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/landlock.h>
#include <linux/magic.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include <libmnl/libmnl.h>
#include <libnftnl/common.h>
#include <libnftnl/table.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kfeat.h"
#include "log.h"

/* Newer than Debian 12's headers. */
#define KF_MSG_DESTROYTABLE	26
#define KF_TABLE_F_OWNER	0x2
#define KF_TABLE_F_PERSIST	0x4
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL		0x0008U
#endif
#ifndef SO_PASSRIGHTS
#define SO_PASSRIGHTS		83
#endif

#define KF_PROBE_TABLE		"sandboxd-probe"
#define KF_ABSENT_TABLE		"sandboxd-probe-absent"
#define KF_CG_BASE		"/sys/fs/cgroup"

/* A table command of the batch at p; the table is freed. */
static size_t
kf_table_msg(char *p, uint16_t type, uint16_t flags, uint32_t seq,
    const char *name, uint32_t tflags)
{
	struct nftnl_table	*t;
	struct nlmsghdr		*nlh;

	if ((t = nftnl_table_alloc()) == NULL)
		return (0);
	nftnl_table_set_str(t, NFTNL_TABLE_NAME, name);
	nftnl_table_set_u32(t, NFTNL_TABLE_FAMILY, NFPROTO_INET);
	if (tflags != 0)
		nftnl_table_set_u32(t, NFTNL_TABLE_FLAGS, tflags);
	nlh = nftnl_nlmsg_build_hdr(p, type, NFPROTO_INET, flags, seq);
	nftnl_table_nlmsg_build_payload(nlh, t);
	nftnl_table_free(t);
	return (NLMSG_ALIGN(nlh->nlmsg_len));
}

/* The errors the kernel queued for the batch, by sequence number. */
static void
kf_replies(struct mnl_socket *nl, uint32_t seq0, int *errs, int n)
{
	char			 buf[8192];
	struct nlmsghdr		*nlh;
	struct nlmsgerr		*e;
	ssize_t			 r;
	int			 len;

	for (;;) {
		r = recv(mnl_socket_get_fd(nl), buf, sizeof(buf),
		    MSG_DONTWAIT);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			return;
		len = r;
		for (nlh = (struct nlmsghdr *)buf; mnl_nlmsg_ok(nlh, len);
		    nlh = mnl_nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_type != NLMSG_ERROR ||
			    nlh->nlmsg_seq < seq0 ||
			    nlh->nlmsg_seq >= seq0 + (uint32_t)n)
				continue;
			e = mnl_nlmsg_get_payload(nlh);
			errs[nlh->nlmsg_seq - seq0] = -e->error;
		}
	}
}

/*
 * Does the kernel take this table command?  The batch: begin, the
 * command, the deletion of an absent table (which must fail, ENOENT,
 * and asks for the ack), end.
 */
static int
kf_nft_ask(struct mnl_socket *nl, uint16_t type, uint16_t flags,
    uint32_t tflags, int *why)
{
	char		 buf[4096], *p = buf;
	uint32_t	 seq0 = time(NULL);
	int		 errs[4] = { 0, 0, 0, 0 };
	size_t		 n;

	p += NLMSG_ALIGN(nftnl_batch_begin(p, seq0)->nlmsg_len);
	if ((n = kf_table_msg(p, type, flags, seq0 + 1, KF_PROBE_TABLE,
	    tflags)) == 0)
		goto fail;
	p += n;
	if ((n = kf_table_msg(p, NFT_MSG_DELTABLE, NLM_F_ACK, seq0 + 2,
	    KF_ABSENT_TABLE, 0)) == 0)
		goto fail;
	p += n;
	p += NLMSG_ALIGN(nftnl_batch_end(p, seq0 + 3)->nlmsg_len);
	if (mnl_socket_sendto(nl, buf, p - buf) < 0)
		goto fail;
	kf_replies(nl, seq0, errs, 4);
	if (errs[0] == 0 && errs[1] == 0 && errs[2] == ENOENT)
		return (KF_YES);
	if (errs[0] == 0 && (errs[1] == EINVAL || errs[1] == EOPNOTSUPP))
		return (KF_NO);
	*why = errs[0] ? errs[0] : errs[1] ? errs[1] : errs[2] ? errs[2] :
	    EPROTO;
	return (KF_UNKNOWN);
 fail:
	*why = errno ? errno : ENOMEM;
	return (KF_UNKNOWN);
}

void
kfeat_nft_probe(struct kfeat_nft *k)
{
	struct mnl_socket	*nl;

	memset(k, 0, sizeof(*k));
	k->destroy = k->owner = k->persist = KF_UNKNOWN;
	if ((nl = mnl_socket_open2(NETLINK_NETFILTER, SOCK_CLOEXEC)) ==
	    NULL || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		k->error = errno;
		if (nl != NULL)
			mnl_socket_close(nl);
		return;
	}
	k->destroy = kf_nft_ask(nl, KF_MSG_DESTROYTABLE, 0, 0, &k->error);
	k->owner = kf_nft_ask(nl, NFT_MSG_NEWTABLE, NLM_F_CREATE,
	    KF_TABLE_F_OWNER, &k->error);
	k->persist = kf_nft_ask(nl, NFT_MSG_NEWTABLE, NLM_F_CREATE,
	    KF_TABLE_F_OWNER | KF_TABLE_F_PERSIST, &k->error);
	mnl_socket_close(nl);
}

static int
kf_landlock_abi(void)
{
	long	 abi;

	abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
	    LANDLOCK_CREATE_RULESET_VERSION);
	return (abi < 0 ? 0 : (int)abi);
}

static int
kf_memfd_noexec(void)
{
	int	 fd;

	if ((fd = memfd_create("sandboxd-probe", MFD_CLOEXEC |
	    MFD_NOEXEC_SEAL)) != -1) {
		close(fd);
		return (KF_YES);
	}
	return (errno == EINVAL ? KF_NO : KF_UNKNOWN);
}

static int
kf_passrights(void)
{
	int	 s, on = 0, rc;

	if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return (KF_UNKNOWN);
	rc = setsockopt(s, SOL_SOCKET, SO_PASSRIGHTS, &on, sizeof(on));
	close(s);
	if (rc == 0)
		return (KF_YES);
	return (errno == ENOPROTOOPT ? KF_NO : KF_UNKNOWN);
}

static int
kf_is_fs(const char *path, long magic)
{
	struct statfs	 sf;

	return (statfs(path, &sf) == 0 && sf.f_type == magic);
}

/* As much of a file as fits, NUL-terminated; empty if unreadable. */
static void
kf_read_all(const char *path, char *buf, size_t len)
{
	ssize_t	 n;
	size_t	 off = 0;
	int	 fd;

	buf[0] = '\0';
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	while (off < len - 1 && (n = read(fd, buf + off,
	    len - 1 - off)) > 0)
		off += n;
	buf[off] = '\0';
	close(fd);
}

/* Its first line. */
static void
kf_read(const char *path, char *buf, size_t len)
{
	kf_read_all(path, buf, len);
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * Where memory, pids and cpu live, from /proc/cgroups (hierarchy 0: the
 * unified one): what /sys/fs/cgroup shows depends on the mount
 * namespace (ip netns exec leaves it empty; runnerd mounts its own).
 */
static void
kf_cgroup(struct kfeat *k)
{
	static const char *const need[] = { "memory", "pids", "cpu" };
	char	 buf[4096], name[32], *line, *save;
	int	 id, enabled, i, found = 0, on_v1 = 0;

	kf_read_all("/proc/cgroups", buf, sizeof(buf));
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%31s %d %*d %d", name, &id, &enabled) != 3)
			continue;
		for (i = 0; i < 3; i++)
			if (strcmp(name, need[i]) == 0 && enabled) {
				found++;
				on_v1 += id != 0;
			}
	}
	if (kf_is_fs(KF_CG_BASE, CGROUP2_SUPER_MAGIC))
		kf_read(KF_CG_BASE "/cgroup.controllers", k->cg_controllers,
		    sizeof(k->cg_controllers));
	else if (kf_is_fs(KF_CG_BASE "/unified", CGROUP2_SUPER_MAGIC))
		kf_read(KF_CG_BASE "/unified/cgroup.controllers",
		    k->cg_controllers, sizeof(k->cg_controllers));
	if (found != 3 || (on_v1 != 0 && on_v1 != 3))
		k->cgroup = KF_CG_NONE;
	else if (on_v1 == 0)
		k->cgroup = KF_CG_V2;
	else if (kf_is_fs(KF_CG_BASE "/unified", CGROUP2_SUPER_MAGIC))
		k->cgroup = KF_CG_HYBRID;
	else
		k->cgroup = KF_CG_V1;
}

void
kfeat_probe(struct kfeat *k)
{
	struct utsname	 u;

	memset(k, 0, sizeof(*k));
	if (uname(&u) == 0)
		strlcpy(k->release, u.release, sizeof(k->release));
	kfeat_nft_probe(&k->nft);
	k->landlock_abi = kf_landlock_abi();
	k->memfd_noexec = kf_memfd_noexec();
	k->passrights = kf_passrights();
	kf_cgroup(k);
}

/* One feature: its state in words, and what sandboxd does without it. */
struct kf_line {
	const char	*name;
	const char	*since;
	char		 state[64];
	int		 missing;
	const char	*without;
};

static void
kf_tristate(struct kf_line *l, int v, int error)
{
	if (v == KF_YES)
		strlcpy(l->state, "yes", sizeof(l->state));
	else if (v == KF_NO) {
		strlcpy(l->state, "no", sizeof(l->state));
		l->missing = 1;
	} else
		snprintf(l->state, sizeof(l->state), "unknown (%s)",
		    error ? strerror(error) : "cannot ask");
}

static const char *const kf_cg_names[] = {
	[KF_CG_NONE] = "no memory, pids and cpu controllers together",
	[KF_CG_V1] = "v1",
	[KF_CG_HYBRID] = "hybrid, memory, pids and cpu on v1",
	[KF_CG_V2] = "v2, memory, pids and cpu on it",
};

#define KF_NLINES	7

static void
kf_lines(const struct kfeat *k, struct kf_line *l)
{
	memset(l, 0, KF_NLINES * sizeof(*l));
	l[0] = (struct kf_line){ "nft-destroy", "6.3", "", 0,
	    "netd deletes only elements and counters it knows exist, "
	    "asking the kernel first where it does not know" };
	kf_tristate(&l[0], k->nft.destroy, k->nft.error);
	l[1] = (struct kf_line){ "nft-table-owner", "5.12", "", 0,
	    "nothing yet: netd does not own table inet sandboxd, so any "
	    "nft client (nft flush ruleset) can delete it on any kernel" };
	kf_tristate(&l[1], k->nft.owner, k->nft.error);
	l[1].missing = 0;
	l[2] = (struct kf_line){ "nft-table-persist", "6.9", "", 0,
	    "nothing yet; an owned table would be deleted whenever its "
	    "owner exits, so netd could not own it across a restart" };
	kf_tristate(&l[2], k->nft.persist, k->nft.error);
	l[2].missing = 0;
	l[3] = (struct kf_line){ "landlock", "5.13", "", 0,
	    "a sandbox whose policy has exec rules is refused" };
	if (k->landlock_abi > 0)
		snprintf(l[3].state, sizeof(l[3].state), "ABI %d",
		    k->landlock_abi);
	else
		kf_tristate(&l[3], KF_NO, 0);
	l[4] = (struct kf_line){ "memfd-noexec-seal", "6.3", "", 0,
	    "nothing: sandboxd does not use it" };
	kf_tristate(&l[4], k->memfd_noexec, 0);
	l[4].missing = 0;
	l[5] = (struct kf_line){ "so-passrights", "6.16", "", 0,
	    "nothing: sandboxd does not use it" };
	kf_tristate(&l[5], k->passrights, 0);
	l[5].missing = 0;
	l[6] = (struct kf_line){ "cgroups", "", "", 0,
	    "no sandbox starts: its memory, pids and cpu limits need the "
	    "memory, pids and cpu controllers, on v2 or v1" };
	strlcpy(l[6].state, kf_cg_names[k->cgroup], sizeof(l[6].state));
	l[6].missing = k->cgroup == KF_CG_NONE;
}

void
kfeat_print(const struct kfeat *k, FILE *fp)
{
	struct kf_line	 l[KF_NLINES];
	int		 i;

	kf_lines(k, l);
	fprintf(fp, "kernel %s:\n", k->release);
	for (i = 0; i < KF_NLINES; i++) {
		fprintf(fp, "  %-18s %s", l[i].name, l[i].state);
		if (i == 6 && k->cg_controllers[0] != '\0')
			fprintf(fp, "; v2 controllers: %s", k->cg_controllers);
		fprintf(fp, "\n  %-18s %s%s%swithout it: %s\n", "",
		    l[i].since[0] ? "Linux " : "", l[i].since,
		    l[i].since[0] ? "; " : "", l[i].without);
	}
}

void
kfeat_log(const struct kfeat *k)
{
	struct kf_line	 l[KF_NLINES];
	int		 i;

	kf_lines(k, l);
	for (i = 0; i < KF_NLINES; i++)
		if (l[i].missing)
			log_warnx("kernel %s has no %s (Linux %s): %s",
			    k->release, l[i].name,
			    l[i].since[0] ? l[i].since : "-", l[i].without);
}
