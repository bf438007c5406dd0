/*
 * sandboxd: the master.  Parses the config, opens privileged resources,
 * starts and supervises netd, envd, runnerd and dnspind, and serves the
 * control socket.
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <event.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "cgroup_deleg.h"
#include "kfeat.h"
#include "log.h"
#include "sandboxd.h"
#include "sdnotify.h"

struct sandboxd		*sbx;
int			 cmdline_symset(char *);

static struct event	 ev_sigterm, ev_sigint, ev_sighup, ev_sigchld;

__attribute__((noreturn))
static void
usage(void)
{
	extern char	*__progname;

	fprintf(stderr, "usage: %s [-dnv] [-D macro=value] [-f file] "
	    "[-s socket] [-x feature]\n", __progname);
	exit(1);
}

time_t
monotime(void)
{
	struct timespec	 ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		fatal("%s: clock_gettime", __func__);
	return (ts.tv_sec);
}

void
corr_new(char *buf, size_t len)
{
	unsigned char	 rnd[16];
	size_t		 i;

	arc4random_buf(rnd, sizeof(rnd));
	for (i = 0; i < sizeof(rnd) && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", rnd[i]);
}

/* Users and the chroot are set up by make install; never improvise. */
static void
sandboxd_check_setup(void)
{
	struct stat	 st;
	int		 i;

	for (i = 0; i < PROC_MAX; i++)
		if (proc_specs[i].user != NULL &&
		    getpwnam(proc_specs[i].user) == NULL)
			fatalx("user %s does not exist; run rc/sandboxd-users.sh"
			    " or systemd-sysusers", proc_specs[i].user);
	if (stat(PROC_CHROOT, &st) == -1) {
		if (errno != ENOENT || mkdir(PROC_CHROOT, 0755) == -1)
			fatal("%s", PROC_CHROOT);
		log_info("created empty chroot directory %s", PROC_CHROOT);
	}
}

/* The config and the secrets file it names, or NULL and why. */
struct sandboxd_conf *
sandboxd_load(const char *corr, char *err, size_t errlen)
{
	struct sandboxd_conf	*conf;

	if ((conf = parse_config(sbx->conffile, 0)) == NULL) {
		parse_config_error(err, errlen);
		return (NULL);
	}
	if (idrange_check(conf->global.uid_base, conf->global.uid_count, err,
	    errlen) == -1) {
		log_warnx("%s", err);
		conf_free(conf);
		return (NULL);
	}
	if (secrets_load(conf, err, errlen) == -1) {
		log_warnx("%s", err);
		conf_free(conf);
		return (NULL);
	}
	conf->global.generation = ++sbx->generation;
	strlcpy(conf->global.corr, corr, sizeof(conf->global.corr));
	return (conf);
}

__attribute__((noreturn))
static void
sandboxd_shutdown(void)
{
	sbx->shutting_down = 1;
	notify_stopping();
	children_stop(1);
	control_cleanup(sbx->sockpath);
	log_info("terminating");
	exit(0);
}

static void
sandboxd_sig(int sig, short event, void *arg)
{
	char		 corr[CORR_ID_SIZE], err[CTL_MSG_SIZE];
	uint64_t	 gen;

	switch (sig) {
	case SIGTERM:
	case SIGINT:
		sandboxd_shutdown();
	case SIGHUP:
		corr_new(corr, sizeof(corr));
		log_setcorr(corr);
		if (reload_start(corr, err, sizeof(err), &gen) == 0)
			reload_check();
		log_setcorr(NULL);
		break;
	case SIGCHLD:
		children_reap();
		break;
	}
}

static void
sandboxd_signals(void)
{
	signal(SIGPIPE, SIG_IGN);
	signal_set(&ev_sigterm, SIGTERM, sandboxd_sig, NULL);
	signal_set(&ev_sigint, SIGINT, sandboxd_sig, NULL);
	signal_set(&ev_sighup, SIGHUP, sandboxd_sig, NULL);
	signal_set(&ev_sigchld, SIGCHLD, sandboxd_sig, NULL);
	signal_add(&ev_sigterm, NULL);
	signal_add(&ev_sigint, NULL);
	signal_add(&ev_sighup, NULL);
	signal_add(&ev_sigchld, NULL);
}

/*
 * Every sandbox holds fds in runnerd, netd and the master's relays:
 * the soft limit a service manager gives (1024) would cap them at a
 * few hundred.  The children inherit the hard limit; each sandbox's
 * own processes get their policy's nofile from runnerd.
 */
static void
sandboxd_nofile(void)
{
	struct rlimit	 rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		fatal("%s: getrlimit", __func__);
	if (rl.rlim_cur == rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
		log_warn("%s: RLIMIT_NOFILE to %llu", __func__,
		    (unsigned long long)rl.rlim_max);
}

/*
 * In a delegated cgroup (systemd's Delegate=yes), into its leaf before
 * any child starts: every daemon then lives there, and the delegated
 * cgroup, empty, is free to pass controllers on to the sandboxes'
 * groups that runnerd makes beside the leaf.  Elsewhere nothing moves.
 */
static void
sandboxd_cgroup(void)
{
	char	 base[4096], err[512];

	switch (cgroup_deleg_find(CGROUP_PROC_SELF, base, sizeof(base))) {
	case CGD_NONE:
		log_debug("%s: no delegated cgroup v2", __func__);
		return;
	case CGD_HELD:
		if (cgroup_deleg_place(base, err, sizeof(err)) == -1)
			fatalx("delegated cgroup %s unusable: %s", base, err);
		break;
	case CGD_PLACED:
		break;
	}
	log_info("delegated cgroup %s: daemons in %s/%s", base, base,
	    CGROUP_DAEMONS);
}

/* With -v: the config, and on stderr what the kernel supports. */
static int
sandboxd_check_only(void)
{
	struct kfeat	 kf;

	if (!sbx->verbose) {
		fprintf(stderr, "configuration OK\n");
		return (0);
	}
	print_config(sbx->conf);
	fflush(stdout);
	kfeat_probe(&kf);
	kfeat_print(&kf, stderr);
	return (0);
}

/* Once, at start: what the kernel lacks and what that changes. */
static void
sandboxd_kernel(void)
{
	struct kfeat	 kf;

	kfeat_probe(&kf);
	kfeat_log(&kf);
	if (sbx->without != NULL)
		log_warnx("testing: the children do without %s (-x)",
		    sbx->without);
}

/* -x: nft-destroy and nft-owner, alone or as "nft-destroy,nft-owner". */
static int
without_valid(const char *list)
{
	char	 buf[64], *f, *p;

	if (strlcpy(buf, list, sizeof(buf)) >= sizeof(buf))
		return (0);
	for (p = buf; (f = strsep(&p, ",")) != NULL; )
		if (strcmp(f, "nft-destroy") != 0 &&
		    strcmp(f, "nft-owner") != 0)
			return (0);
	return (1);
}

int
main(int argc, char *argv[])
{
	char	 corr[CORR_ID_SIZE], why[512];
	int	 ch, noaction = 0;

	if ((sbx = calloc(1, sizeof(*sbx))) == NULL)
		err(1, NULL);
	sbx->conffile = CONF_DEFAULT_FILE;
	while ((ch = getopt(argc, argv, "dD:f:ns:vx:")) != -1) {
		switch (ch) {
		case 'd':
			sbx->debug = 1;
			break;
		case 'D':
			if (cmdline_symset(optarg) < 0)
				errx(1, "could not parse macro definition %s",
				    optarg);
			break;
		case 'f':
			sbx->conffile = optarg;
			break;
		case 'n':
			noaction = 1;
			break;
		case 's':
			sbx->sockpath = optarg;
			break;
		case 'v':
			sbx->verbose++;
			break;
		case 'x':
			/* Only netd's features, a comma-separated list. */
			if (!without_valid(optarg))
				errx(1, "-x %s: unknown kernel feature",
				    optarg);
			sbx->without = optarg;
			break;
		default:
			usage();
		}
	}
	if (argc != optind)
		usage();
	log_procinit("sandboxd");
	log_init(sbx->debug || noaction, LOG_DAEMON);
	log_setverbose(sbx->verbose);
	corr_new(corr, sizeof(corr));
	if ((sbx->conf = sandboxd_load(corr, why, sizeof(why))) == NULL)
		exit(1);
	if (noaction)
		exit(sandboxd_check_only());
	if (geteuid() != 0)
		errx(1, "need root privileges");
	if (sbx->sockpath == NULL)
		sbx->sockpath = sbx->conf->global.control_socket;
	sandboxd_check_setup();
	sandboxd_nofile();
	sandboxd_kernel();
	if (!sbx->debug && daemon(0, 0) == -1)
		fatal("daemon");
	sandboxd_cgroup();
	/* After daemon(): a manager's watchdog is for its own child. */
	sdnotify_init();
	sbx->started = monotime();
	event_init();
	sandboxd_signals();
	if (control_init(sbx->sockpath, sbx->conf->global.control_group) ==
	    -1)
		fatalx("control socket %s", sbx->sockpath);
	control_listen();
	notify_init();
	idrange_watch_start();
	resolver_open(&sbx->conf->global);
	sbx->nft_fd = nftown_open();
	children_start();
	watchdog_init();
	/* Declared services wait for the children, then start once. */
	services_conf(NULL, sbx->conf);
	log_info("started, config generation %llu",
	    (unsigned long long)sbx->generation);
	event_dispatch();
	fatalx("event loop ended");
}
