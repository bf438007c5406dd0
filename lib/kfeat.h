/*
 * What the running kernel supports of the features sandboxd adapts to,
 * probed, never guessed from the version: distributions backport.
 */
#ifndef SANDBOXD_KFEAT_H
#define SANDBOXD_KFEAT_H

#include <stdio.h>

#define KF_UNKNOWN	(-1)	/* could not tell (no CAP_NET_ADMIN, ...) */
#define KF_NO		0
#define KF_YES		1

enum kf_cgroup {
	KF_CG_NONE,		/* no usable hierarchy found */
	KF_CG_V1,		/* memory, pids, cpu on v1 only */
	KF_CG_HYBRID,		/* v2 mounted, the controllers on v1 */
	KF_CG_V2		/* unified: the controllers on v2 */
};

struct kfeat_nft {
	int	 destroy;	/* NFT_MSG_DESTROY*: Linux 6.3 */
	int	 owner;		/* NFT_TABLE_F_OWNER: 5.12 */
	int	 persist;	/* NFT_TABLE_F_PERSIST: 6.9 */
	int	 error;		/* errno when unknown */
};

struct kfeat {
	char			 release[65];
	struct kfeat_nft	 nft;
	int			 landlock_abi;	/* 0: none */
	int			 memfd_noexec;	/* MFD_NOEXEC_SEAL: 6.3 */
	int			 passrights;	/* SO_PASSRIGHTS: 6.16 */
	enum kf_cgroup		 cgroup;
	char			 cg_controllers[128];	/* of the v2 root */
};

/* The nf_tables questions alone: a few batches that never apply. */
void	kfeat_nft_probe(struct kfeat_nft *);
void	kfeat_probe(struct kfeat *);
/* sandboxd -nv: each feature, whether present, and what happens without. */
void	kfeat_print(const struct kfeat *, FILE *);
/* At start: one log line per feature missing. */
void	kfeat_log(const struct kfeat *);

#endif
