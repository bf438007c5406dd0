/*
 * The sandbox core of runnerd (cmd/runnerd/sandbox.h), driven directly
 * and proven from inside its sandboxes: each denial next to an allowed
 * twin.  The test runs with runnerd's own capabilities and seccomp
 * filter, so every syscall the core makes is one runnerd may make.
 *
 * usage: sandbox_test DIR, as root, in a throwaway network namespace
 * (sandbox.t): state in DIR/state; DIR/hostfile a host file no bind
 * shows; DIR/rdir (probe.py, file) bound read-only, DIR/wdir writable;
 * DIR/suid/id a setuid-root id(1); DIR/probe.host what probe.py says
 * outside any filter.  Prints TAP.
 */
#include "../../cmd/runnerd/sandbox.c"
#include "../../cmd/runnerd/sandbox_init.c"
#include "../../cmd/runnerd/sandbox_spawn.c"
#include "../../cmd/runnerd/sandbox_unmount.c"
#include "../../cmd/runnerd/sandbox_zygote.c"
#include "../../cmd/runnerd/sandbox_ident.c"
#include "../../cmd/runnerd/sandbox_seccomp.c"
#include "../../cmd/runnerd/mounts.c"
#include "../../cmd/runnerd/cgroup.c"
#include "../../cmd/runnerd/landlock.c"

#include <sys/prctl.h>
#include <syslog.h>

#include "proc.h"
#include "../lib/check.h"
#include "../lib/tap.h"

#define OUT_MAX		65536
#define RUN_TIMEOUT_MS	60000
#define CYCLES		50
#define UID_BASE	231000		/* clear of the daemon tests' range */

static const char	*dir;
static char		 state[CONF_PATH_SIZE];
static unsigned int	 next_id;

static void	diag_medians(double *, double [4][CYCLES]);

struct run {
	int	 status;	/* wait status, -1 if spawn failed */
	char	 out[OUT_MAX];	/* stdout and stderr, or spawn's error */
};

static void
is(const char *got, const char *want, const char *desc)
{
	ok(strcmp(got, want) == 0, "%s", desc);
	if (strcmp(got, want) != 0)
		diag("got '%s', want '%s'", got, want);
}

static void
chomp(char *s)
{
	size_t	 n = strlen(s);

	while (n > 0 && s[n - 1] == '\n')
		s[--n] = '\0';
}

static int
slurp(const char *path, char *buf, size_t len)
{
	ssize_t	 n;
	int	 fd;

	buf[0] = '\0';
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return (n < 0 ? -1 : 0);
}

static double
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6);
}

static void
policy(struct policy_msg *p, const char *name)
{
	conf_policy_defaults(p, name);
}

static int
make(struct sandbox *sb, const struct policy_msg *p,
    const struct fs_rule_msg *rules, size_t n, char *err, size_t len)
{
	struct sandbox_spec	 spec;
	char			 id[SANDBOX_ID_SIZE];

	snprintf(id, sizeof(id), "%016x", 0xab000000u + ++next_id);
	memset(&spec, 0, sizeof(spec));
	spec.id = id;
	spec.netns = -1;
	spec.policy = p;
	spec.fs_rules = rules;
	spec.nfs_rules = n;
	spec.state_dir = state;
	spec.uid = spec.gid = UID_BASE + next_id;
	inet_pton(AF_INET, "169.254.1.1", &spec.resolver);
	return (sandbox_create(sb, &spec, err, len));
}

/* A rule on path a followed by b. */
static void
rule(struct fs_rule_msg *r, int type, const char *a, const char *b)
{
	memset(r, 0, sizeof(*r));
	strlcpy(r->policy, "test", sizeof(r->policy));
	r->type = type;
	snprintf(r->path, sizeof(r->path), "%s%s", a, b);
}

struct ended {
	pid_t	 pid;
	int	 status;
	int	 done;
	int	 others;	/* ends of other execs */
};

static void
ended_cb(struct sandbox *sb, pid_t pid, int status, void *arg)
{
	struct ended	*e = arg;

	if (pid != e->pid) {
		e->others++;
		return;
	}
	e->status = status;
	e->done = 1;
}

/* The end of exec pid as pid 1 reports it; -1 if it never comes. */
static int
wait_exec(struct sandbox *sb, pid_t pid, int timeout_ms)
{
	struct pollfd	 pfd = { sandbox_events_fd(sb), POLLIN, 0 };
	struct ended	 e = { pid, -1, 0, 0 };
	double		 deadline = now_ms() + timeout_ms;

	while (!e.done && sandbox_events_read(sb, ended_cb, &e) == 0 &&
	    !e.done && now_ms() < deadline)
		poll(&pfd, 1, 100);
	return (e.done ? e.status : -1);
}

/* Every process but pid 1, in sigall.c's steps, waited for here. */
static void
signal_all(struct sandbox *sb, int sig)
{
	double	 t;
	int	 frozen = sandbox_freeze(sb, 1) == 0;

	for (t = now_ms() + 500; frozen && !sandbox_frozen(sb) &&
	    now_ms() < t; )
		sbx_sleep_ms(1);
	sandbox_signal_procs(sb, sig);
	if (frozen)
		sandbox_freeze(sb, 0);
	for (t = now_ms() + SBX_KILL_WAIT_MS; sig == SIGKILL &&
	    sandbox_nprocs(sb) > 0 && now_ms() < t; ) {
		sandbox_signal_procs(sb, SIGKILL);
		sbx_sleep_ms(1);
	}
}

/* Read until EOF or the deadline, then wait; SIGKILL on timeout. */
static void
collect(struct sandbox *sb, pid_t pid, int fd, struct run *r)
{
	struct pollfd	 pfd = { fd, POLLIN, 0 };
	double		 deadline = now_ms() + RUN_TIMEOUT_MS;
	size_t		 used = 0;
	ssize_t		 n;

	while (now_ms() < deadline) {
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if ((n = read(fd, r->out + used, sizeof(r->out) - 1 -
		    used)) <= 0)
			break;
		used += n;
	}
	r->out[used] = '\0';
	if (now_ms() >= deadline) {
		diag("timeout: killing the sandbox's processes");
		signal_all(sb, SIGKILL);
	}
	r->status = wait_exec(sb, pid, RUN_TIMEOUT_MS);
}

/* A start, waited for here as runnerd's event loop waits for it. */
static pid_t
spawn(struct sandbox *sb, const struct sandbox_exec_spec *es, char *err,
    size_t len)
{
	struct sandbox_start	 st;
	struct pollfd		 pfd;
	int			 rc;

	if (sandbox_spawn_begin(sb, es, &st, err, len) == -1)
		return (-1);
	pfd.fd = st.fd;
	pfd.events = POLLIN;
	while ((rc = sandbox_spawn_step(sb, &st, err, len)) == 1)
		poll(&pfd, 1, SANDBOX_SPAWN_SLICE_MS);
	return (rc == 0 ? st.pid : -1);
}

static pid_t
startv(struct sandbox *sb, char *const argv[], const char *cwd, int extra,
    int *fdp, struct run *r)
{
	char *const	 env[] = { "PATH=/usr/bin:/bin", "HOME=/workspace",
			    "LANG=C.UTF-8", "SBX_TEST=1", NULL };
	struct sandbox_exec_spec es;
	int		 p[2];
	pid_t		 pid;

	if (pipe2(p, O_CLOEXEC) == -1)
		return (-1);
	memset(&es, 0, sizeof(es));
	es.argv = argv;
	es.envp = env;
	es.cwd = cwd;
	es.fd_stdin = -1;
	es.fd_stdout = es.fd_stderr = p[1];
	es.fd_extra = extra;
	fflush(stdout);
	pid = spawn(sb, &es, r->out, sizeof(r->out));
	close(p[1]);
	if (pid == -1) {
		r->status = -1;
		close(p[0]);
		return (-1);
	}
	*fdp = p[0];
	return (pid);
}

static void
runv(struct sandbox *sb, char *const argv[], const char *cwd, int extra,
    struct run *r)
{
	pid_t	 pid;
	int	 fd;

	if ((pid = startv(sb, argv, cwd, extra, &fd, r)) == -1)
		return;
	collect(sb, pid, fd, r);
	close(fd);
}

/* sh -c cmd in the sandbox; its output, chomped. */
static struct run *
sh(struct sandbox *sb, const char *cmd)
{
	static struct run	 r;
	char *const		 argv[] = { "sh", "-c", (char *)cmd, NULL };

	runv(sb, argv, NULL, -1, &r);
	chomp(r.out);
	return (&r);
}

static int
exited(const struct run *r, int code)
{
	return (r->status != -1 && WIFEXITED(r->status) &&
	    WEXITSTATUS(r->status) == code);
}

static int
killed_by(const struct run *r, int sig)
{
	return (r->status != -1 && WIFSIGNALED(r->status) &&
	    WTERMSIG(r->status) == sig);
}

static int
count_lines_with(const char *path, const char *needle)
{
	static char	 buf[1 << 20];
	char		*p;
	int		 n = 0;

	if (slurp(path, buf, sizeof(buf)) == -1)
		return (-1);
	for (p = buf; *p != '\0'; p = strchr(p, '\n') + 1) {
		if (needle == NULL || memmem(p, strcspn(p, "\n"), needle,
		    strlen(needle)) != NULL)
			n++;
		if (strchr(p, '\n') == NULL)
			break;
	}
	return (n);
}

/* Subdirectories, but kept/ (keep-failed's, by design). */
static int
count_entries(const char *path)
{
	struct dirent	*de;
	DIR		*d;
	int		 n = 0;

	if ((d = opendir(path)) == NULL)
		return (errno == ENOENT ? 0 : -1);
	while ((de = readdir(d)) != NULL)
		if (de->d_type == DT_DIR && de->d_name[0] != '.' &&
		    strcmp(de->d_name, "kept") != 0)
			n++;
	closedir(d);
	return (n);
}

/* Host processes whose real uid is in the test's sandbox range. */
static int
count_sandbox_procs(void)
{
	struct dirent	*de;
	DIR		*d;
	char		 path[300], buf[4096], *u;
	unsigned int	 uid;
	int		 n = 0;

	if ((d = opendir("/proc")) == NULL)
		return (-1);
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", de->d_name);
		/* A zombie is the host init's to reap, not ours. */
		if (slurp(path, buf, sizeof(buf)) == -1 ||
		    strstr(buf, "\nState:\tZ") != NULL ||
		    (u = strstr(buf, "\nUid:")) == NULL ||
		    sscanf(u + 5, "%u", &uid) != 1)
			continue;
		if (uid > UID_BASE && uid < UID_BASE + 100000)
			n++;
	}
	closedir(d);
	return (n);
}

struct leftovers {
	int	 mounts, cgroups, dirs, procs;
};

/* Every hierarchy's sandboxd directory, v1 or v2 (cgroup.c knows). */
static void
leftovers(struct leftovers *l)
{
	char	 path[CONF_PATH_SIZE];
	int	 i;

	/* Ours only: suites running beside this one mount too. */
	l->mounts = count_lines_with("/proc/self/mountinfo", state);
	l->cgroups = 0;
	for (i = 0; i < cg_ndirs(); i++) {
		cg_dir(i, NULL, path, sizeof(path));
		l->cgroups += count_entries(path);
	}
	l->dirs = count_entries(state);
	l->procs = count_sandbox_procs();
}

static int
same_leftovers(const struct leftovers *a, const struct leftovers *b)
{
	if (memcmp(a, b, sizeof(*a)) == 0)
		return (1);
	diag("mounts %d/%d cgroups %d/%d dirs %d/%d procs %d/%d", a->mounts,
	    b->mounts, a->cgroups, b->cgroups, a->dirs, b->dirs, a->procs,
	    b->procs);
	return (0);
}

static void
test_identity(struct sandbox *sb)
{
	char	 want[256], host[256], path[64];
	struct run *r;

	snprintf(want, sizeof(want), "%u %u sandbox", (unsigned int)sb->uid,
	    (unsigned int)sb->gid);
	is(sh(sb, "echo $(id -u) $(id -g) $(id -un)")->out, want,
	    "the process runs as the sandbox's uid and gid");
	r = sh(sb, "grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|"
	    "NoNewPrivs|Seccomp):' /proc/self/status | tr -s '\\t' ' ' | "
	    "tr '\\n' ,");
	is(r->out, "CapInh: 0000000000000000,CapPrm: 0000000000000000,"
	    "CapEff: 0000000000000000,CapBnd: 0000000000000000,"
	    "CapAmb: 0000000000000000,NoNewPrivs: 1,Seccomp: 2,",
	    "inside: every capability set empty, NoNewPrivs 1, Seccomp 2");
	snprintf(path, sizeof(path), "/proc/%d/status", (int)getpid());
	ok(count_lines_with(path, "CapEff:\t0000000000000000") == 0,
	    "twin: the same probe sees runnerd's own capabilities");
	snprintf(want, sizeof(want), "%s/suid/id -u", dir);
	snprintf(host, sizeof(host), "%u", (unsigned int)sb->uid);
	is(sh(sb, want)->out, host, "a setuid-root binary gains nothing");
}

static void
test_view(struct sandbox *sb)
{
	char	 cmd[512], want[256], path[64], host[64];
	struct run *r;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)sb->init_pid);
	slurp(path, host, sizeof(host));
	chomp(host);
	is(sh(sb, "cat /proc/1/comm")->out, host,
	    "pid 1 inside is the sandbox's init, as the host sees it");
	is(host, "sbx-init", "and it is called sbx-init, not runnerd");
	is(sh(sb, "tr -d '\\0' < /proc/1/cmdline")->out, "sbx-init",
	    "its command line does not show runnerd's either");
	r = sh(sb, "ls /proc | grep -c '^[0-9]'");
	ok(atoi(r->out) > 0 && atoi(r->out) <= 4,
	    "only the sandbox's processes are in its /proc (%s)", r->out);
	snprintf(cmd, sizeof(cmd), "cat /proc/[0-9]*/comm | grep -c "
	    "sandbox_test; test -e /proc/%d && echo host", (int)getpid());
	is(sh(sb, cmd)->out, "0", "no host process is visible");
	is(sh(sb, "kill -KILL 1; sleep 0.1; cat /proc/1/comm")->out,
	    "sbx-init", "pid 1 cannot be killed from inside");
	snprintf(cmd, sizeof(cmd), "cat %s/hostfile 2>&1", dir);
	snprintf(want, sizeof(want), "cat: %s/hostfile: No such file or "
	    "directory", dir);
	is(sh(sb, cmd)->out, want, "a host file outside the binds is absent");
	snprintf(cmd, sizeof(cmd), "cat %s/rdir/file", dir);
	is(sh(sb, cmd)->out, "read me", "twin: a file under a read bind is "
	    "there");
	/* Debian's JRE configuration is bound where the host has it. */
	snprintf(want, sizeof(want), "absent\nabsent\nalternatives group "
	    "hostname hosts %sld.so.cache nsswitch.conf passwd %sresolv.conf "
	    "%sssl ", access("/etc/java-17-openjdk", F_OK) == 0 ?
	    "java-17-openjdk " : "", access("/etc/protocols", F_OK) == 0 ?
	    "protocols " : "", access("/etc/services", F_OK) == 0 ?
	    "services " : "");
	is(sh(sb, "test -e /etc/shadow || echo absent; "
	    "test -e /etc/sandboxd.conf || echo absent; "
	    "ls /etc | tr '\\n' ' '")->out, want, "/etc/shadow and the "
	    "daemon's config are absent; /etc is synthesized");
	snprintf(want, sizeof(want), "sandbox:x:%u:%u:sandbox:/workspace:"
	    "/bin/sh", (unsigned int)sb->uid, (unsigned int)sb->gid);
	is(sh(sb, "grep sandbox /etc/passwd")->out, want,
	    "twin: /etc/passwd names the sandbox user");
	snprintf(want, sizeof(want), "sbx-%.8s nameserver 169.254.1.1",
	    sb->id);
	is(sh(sb, "echo $(hostname) $(cat /etc/resolv.conf)")->out, want,
	    "hostname and resolver are the sandbox's");
	is(sh(sb, "cut -d: -f3 /proc/self/cgroup | sort -u")->out, "/",
	    "its cgroup is the root of its cgroup namespace");
}

static int
strcmp_p(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* words and pre + suf, sorted as LC_ALL=C sort does, each + " ". */
static const char *
sorted_words(const char *words, const char *pre, const char *suf)
{
	static char	 out[512];
	char		 buf[1024], extra[512], *w[32], *p;
	size_t		 n = 0, i;

	strlcpy(buf, words, sizeof(buf));
	for (p = strtok(buf, " "); p != NULL && n < 31; p = strtok(NULL, " "))
		w[n++] = p;
	snprintf(extra, sizeof(extra), "%s%s", pre, suf);
	w[n++] = extra;
	qsort(w, n, sizeof(*w), strcmp_p);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		strlcat(out, w[i], sizeof(out));
		strlcat(out, " ", sizeof(out));
	}
	return (out);
}

static void
test_writes(struct sandbox *sb)
{
	char	 cmd[512];

	is(sh(sb, "for f in /usr/x /etc/x /x /dev/x; do touch $f 2>&1 | "
	    "grep -c Read-only; done | tr '\\n' ' '")->out, "1 1 1 1 ",
	    "/usr, /etc, / and /dev refuse writes: read-only");
	snprintf(cmd, sizeof(cmd), "touch %s/rdir/x 2>&1 | grep -c Read-only",
	    dir);
	is(sh(sb, cmd)->out, "1", "a read bind refuses writes");
	snprintf(cmd, sizeof(cmd), "for d in /workspace /tmp /dev/shm %s/wdir;"
	    " do echo hi > $d/f && cat $d/f; done | tr '\\n' ' '", dir);
	is(sh(sb, cmd)->out, "hi hi hi hi ", "twin: /workspace, /tmp, "
	    "/dev/shm and a write bind accept writes");
	is(sh(sb, "cat /workspace/f")->out, "hi",
	    "the workspace persists across execs");
	is(sh(sb, "grep -v -c nosuid /proc/self/mounts")->out, "0",
	    "every mount in the sandbox is nosuid");
	/* In order of mount id, which the kernel may list them by. */
	snprintf(cmd, sizeof(cmd), "%s", sorted_words("/dev/null /dev/zero "
	    "/dev/full /dev/random /dev/urandom /dev/tty /dev/shm /dev/pts "
	    "/tmp /workspace", dir, "/wdir"));
	is(sh(sb, "awk '$4 ~ /^rw/ { print $2 }' /proc/self/mounts | "
	    "LC_ALL=C sort | tr '\\n' ' '")->out, cmd, "only the devices, "
	    "/dev/shm, /dev/pts, /tmp, /workspace and write binds are mounted "
	    "read-write");
}

/* probe.py's verdicts, inside against outside (DIR/probe.host). */
static void
test_syscalls(struct sandbox *sb)
{
	char	 cmd[512], host[8192], *line, *name, *in, *out, *save;
	struct run *r;
	int	 n = 0, strong = 0, bad = 0;

	snprintf(cmd, sizeof(cmd), "python3 %s/rdir/probe.py", dir);
	r = sh(sb, cmd);
	snprintf(cmd, sizeof(cmd), "%s/probe.host", dir);
	host[0] = '\n';
	slurp(cmd, host + 1, sizeof(host) - 1);
	for (line = strtok_r(r->out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		name = line;
		if ((in = strchr(line, ' ')) == NULL)
			continue;
		*in++ = '\0';
		snprintf(cmd, sizeof(cmd), "\n%s ", name);
		out = strstr(host, cmd);
		if (strcmp(name, "getpid") == 0) {
			is(in, "ok", "twin: getpid works");
			continue;
		}
		if (strcmp(name, "clone3") == 0) {
			is(in, "ENOSYS", "clone3 says ENOSYS, so libc falls "
			    "back to a clone the filter can check");
			continue;
		}
		n++;
		if (strcmp(in, "EPERM") != 0) {
			bad++;
			diag("%s: %s inside", name, in);
		}
		if (out != NULL && strncmp(out + strlen(cmd), "EPERM", 5) != 0)
			strong++;
	}
	ok(n >= 35 && bad == 0, "every listed syscall fails with EPERM "
	    "inside (%d)", n);
	ok(strong >= 30, "twin: outside, %d of them reach the kernel with "
	    "the same arguments (EFAULT, EINVAL, ...), so the filter said "
	    "EPERM", strong);
	snprintf(cmd, sizeof(cmd), "sh -c 'python3 %s/rdir/probe.py x32' "
	    "2>/dev/null; echo $?", dir);
	r = sh(sb, cmd);
	ok(strcmp(r->out, "159") == 0 || strcmp(r->out, "x32 EPERM\n0") == 0,
	    "the x32 entry point is refused (%s)", r->out);
}

static void
test_programs(struct sandbox *sb)
{
	struct run	*r;

	is(sh(sb, "echo a b c | wc -w")->out, "3", "sh and coreutils work");
	is(sh(sb, "python3 -c 'import subprocess, threading; "
	    "t = threading.Thread(target=print); t.start(); t.join(); "
	    "print(subprocess.run([\"echo\", \"py\"], capture_output=True)."
	    "stdout.decode().strip())' | tail -1")->out, "py",
	    "python3 with threads and subprocess works");
	r = sh(sb, "printf '#include <stdio.h>\\nint main(void) { "
	    "puts(\"hello\"); return 0; }\\n' > h.c && gcc -O2 -o h h.c && "
	    "./h");
	is(r->out, "hello", "gcc compiles and links a C file that runs");
	r = sh(sb, "printf 'int main(void) { long r; __asm__ volatile "
	    "(\"int $0x80\" : \"=a\"(r) : \"a\"(20)); return r > 0; }\\n' "
	    "> i.c && gcc -o i i.c && sh -c ./i 2>/dev/null; echo $?");
	is(r->out, "159", "the i386 entry point kills the process (SIGSYS)");
	is(sh(sb, "python3 -c 'import socket; s = socket.create_server("
	    "(\"127.0.0.1\", 0)); c = socket.create_connection("
	    "s.getsockname()); print(\"lo\")'")->out, "lo",
	    "localhost works in the sandbox's own network namespace");
}

static void
test_spawn(struct sandbox *sb)
{
	char *const	 t[] = { "true", NULL };
	char *const	 nf[] = { "no-such-command", NULL };
	char *const	 abs[] = { "/no/such", NULL };
	char *const	 fds[] = { "ls", "/proc/self/fd", NULL };
	char *const	 pwd[] = { "pwd", NULL };
	char *const	 env[] = { "env", NULL };
	struct run	 r;

	runv(sb, t, NULL, -1, &r);
	ok(exited(&r, 0), "a bare `true` is found on PATH and exits 0");
	runv(sb, nf, NULL, -1, &r);
	ok(r.status == -1 && strstr(r.out, "command not found") != NULL,
	    "an unknown command is a spawn error: %s", r.out);
	runv(sb, abs, NULL, -1, &r);
	ok(r.status == -1 && strstr(r.out, "No such file") != NULL,
	    "a missing path is a spawn error: %s", r.out);
	/* ls itself adds one: the directory it reads. */
	runv(sb, fds, NULL, -1, &r);
	is(r.out, "0\n1\n2\n3\n", "nothing but stdio crosses into the "
	    "sandbox");
	runv(sb, fds, NULL, 0, &r);
	is(r.out, "0\n1\n2\n3\n4\n", "twin: fd_extra becomes fd 3");
	runv(sb, pwd, NULL, -1, &r);
	chomp(r.out);
	is(r.out, "/workspace", "the default cwd is /workspace");
	runv(sb, pwd, "/tmp", -1, &r);
	chomp(r.out);
	is(r.out, "/tmp", "twin: a given cwd is used");
	runv(sb, env, NULL, -1, &r);
	is(r.out, "PATH=/usr/bin:/bin\nHOME=/workspace\nLANG=C.UTF-8\n"
	    "SBX_TEST=1\n", "the environment is exactly the one given");
	runv(sb, pwd, "/no-such-dir", -1, &r);
	ok(r.status == -1 && strstr(r.out, "cwd /no-such-dir: No such file") !=
	    NULL, "a missing cwd is a spawn error: %s", r.out);
	ok(exited(sh(sb, "exit 7"), 7), "pid 1 reports an exit status");
	ok(killed_by(sh(sb, "kill -SEGV $$"), SIGSEGV), "and a signal");
}

static int
ppid_of(pid_t pid)
{
	char	 path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (slurp(path, buf, sizeof(buf)) == -1 ||
	    (p = strrchr(buf, ')')) == NULL)
		return (-1);
	return (atoi(p + 4));	/* ") S ppid" */
}

struct many {
	pid_t	*pids;
	int	 n, seen, strangers, bad;
};

static void
many_cb(struct sandbox *sb, pid_t pid, int status, void *arg)
{
	struct many	*m = arg;
	int		 i;

	for (i = 0; i < m->n && m->pids[i] != pid; i++)
		;
	if (i == m->n)
		m->strangers++;
	else {
		m->pids[i] = 0;
		m->seen++;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			m->bad++;
	}
}

/* pid 1 starts execs and reports their ends; it serves whatever runs. */
static void
test_zygote(struct sandbox *sb)
{
	char *const	 sl[] = { "sleep", "1000", NULL };
	char *const	 t[] = { "true", NULL };
	char		 path[64], comm[64];
	struct many	 m;
	struct pollfd	 pfd;
	struct run	 r;
	double		 deadline;
	pid_t		 pid;
	int		 fd, i, stopped;

	if ((pid = startv(sb, sl, NULL, -1, &fd, &r)) == -1) {
		ok(0, "spawn sleep: %s", r.out);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	slurp(path, comm, sizeof(comm));
	chomp(comm);
	is(comm, "sleep", "sandbox_spawn returns the exec's host pid");
	ok(ppid_of(pid) == sb->init_pid && waitpid(pid, NULL, WNOHANG) ==
	    -1 && errno == ECHILD, "it is pid 1's child, not the caller's");
	/* What sandbox_spawn looks for when an exec is late. */
	kill(pid, SIGSTOP);
	for (i = 0; i < 100 && !spawn_stopped(pid); i++)
		sbx_sleep_ms(10);
	stopped = spawn_stopped(pid);
	kill(pid, SIGCONT);
	for (i = 0; i < 100 && spawn_stopped(pid); i++)
		sbx_sleep_ms(10);
	ok(stopped && !spawn_stopped(pid), "a stopped exec is seen stopped");
	signal_all(sb, SIGKILL);
	collect(sb, pid, fd, &r);
	close(fd);
	ok(killed_by(&r, SIGKILL), "pid 1 reports it killed by SIGKILL");

	is(sh(sb, "i=0; while [ $i -lt 400 ]; do (true &); i=$((i+1)); "
	    "done; echo done")->out, "done", "400 orphans under a pids "
	    "limit of 256: pid 1 reaps them all");
	is(sh(sb, "kill -STOP 1; kill -TERM 1; kill -CHLD 1; kill -USR1 1; "
	    "echo sent")->out, "sent", "signals to pid 1 from inside");
	is(sh(sb, "echo alive")->out, "alive", "twin: pid 1 serves on");

	/* More ends than the socket holds: pid 1 keeps them for later. */
	memset(&m, 0, sizeof(m));
	m.n = 600;
	if ((m.pids = calloc(m.n, sizeof(*m.pids))) == NULL)
		return;
	for (i = 0; i < m.n; i++) {
		if ((m.pids[i] = startv(sb, t, NULL, -1, &fd, &r)) == -1)
			break;
		close(fd);
	}
	ok(i == m.n, "%d execs started while nobody reads their ends", i);
	pfd.fd = sandbox_events_fd(sb);
	pfd.events = POLLIN;
	deadline = now_ms() + RUN_TIMEOUT_MS;
	while (m.seen < m.n && now_ms() < deadline &&
	    sandbox_events_read(sb, many_cb, &m) == 0 && m.seen < m.n)
		poll(&pfd, 1, 100);
	ok(m.seen == m.n && m.bad == 0 && m.strangers == 0, "then every "
	    "one is reported, once, exit 0 (%d, %d bad, %d strangers)",
	    m.seen, m.bad, m.strangers);
	free(m.pids);
}

/* Processes of the sandbox that ignore SIGTERM (SigIgn bit 15). */
static int
nignoring_term(struct sandbox *sb)
{
	pid_t		*pids;
	size_t		 i, n;
	char		 path[64], line[256];
	unsigned long long ign;
	FILE		*fp;
	int		 count = 0;

	if (cgroup_procs(sb->id, &pids, &n) == -1)
		return (0);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pids[i]);
		if ((fp = fopen(path, "r")) == NULL)
			continue;
		while (fgets(line, sizeof(line), fp) != NULL)
			if (sscanf(line, "SigIgn: %llx", &ign) == 1 &&
			    (ign & (1ULL << (SIGTERM - 1))))
				count++;
		fclose(fp);
	}
	free(pids);
	return (count);
}

/*
 * runnerd reads the sandbox's events while a start is on its way: an
 * end pid 1 reports before the start is read is held for the start,
 * never dropped and never reported without its pid.
 */
static void
test_spawn_ended_first(struct sandbox *sb)
{
	char *const		 argv[] = { "true", NULL };
	char *const		 env[] = { "PATH=/usr/bin:/bin", NULL };
	struct sandbox_exec_spec es;
	struct sandbox_start	 st;
	struct ended		 e = { 0, -1, 0, 0 };
	struct pollfd		 pfd;
	char			 err[SBX_MSG_SIZE];
	int			 rc;

	memset(&es, 0, sizeof(es));
	es.argv = argv;
	es.envp = env;
	es.fd_stdin = es.fd_stdout = es.fd_stderr = es.fd_extra = -1;
	if (sandbox_spawn_begin(sb, &es, &st, err, sizeof(err)) == -1) {
		ok(0, "spawn_begin: %s", err);
		return;
	}
	pfd.fd = sandbox_events_fd(sb);
	pfd.events = POLLIN;
	poll(&pfd, 1, RUN_TIMEOUT_MS);
	sandbox_events_read(sb, ended_cb, &e);
	ok(e.others == 0 && !e.done, "an end reported before its start is "
	    "read is held back, not reported without a pid");
	pfd.fd = st.fd;
	while ((rc = sandbox_spawn_step(sb, &st, err, sizeof(err))) == 1)
		poll(&pfd, 1, SANDBOX_SPAWN_SLICE_MS);
	ok(rc == 0 && st.pid > 0 && st.ended && WIFEXITED(st.wstatus) &&
	    WEXITSTATUS(st.wstatus) == 0, "... and comes with the start: "
	    "pid %d, ended %d, status %d", (int)st.pid, st.ended, st.wstatus);
	ok(sb->nlive == 0, "... leaving nothing live (%zu)", sb->nlive);
}

static void
test_signal_all(struct sandbox *sb)
{
	char *const	 argv[] = { "sh", "-c", "(trap '' TERM; sleep 1000) & "
			    "setsid sh -c 'sleep 1000 &' & "
			    "sh -c 'sh -c \"sleep 1000\" &' & sleep 1000",
			    NULL };
	struct run	 r;
	pid_t		 pid;
	int		 fd, i;

	if ((pid = startv(sb, argv, NULL, -1, &fd, &r)) == -1) {
		ok(0, "spawn: %s", r.out);
		return;
	}
	/* Until the subshell has run its trap: counting is not enough. */
	for (i = 0; i < 100 && (sandbox_nprocs(sb) < 5 ||
	    nignoring_term(sb) == 0); i++)
		sbx_sleep_ms(20);
	ok(sandbox_nprocs(sb) >= 5, "nprocs counts every process but pid 1 "
	    "(%d)", sandbox_nprocs(sb));
	signal_all(sb, SIGTERM);
	sbx_sleep_ms(200);
	ok(sandbox_nprocs(sb) >= 1, "after SIGTERM the process ignoring it "
	    "lives on (%d)", sandbox_nprocs(sb));
	signal_all(sb, SIGKILL);
	ok(sandbox_nprocs(sb) == 0, "after signal_all(SIGKILL) nothing but "
	    "pid 1 is left, double forks and new sessions included");
	collect(sb, pid, fd, &r);
	close(fd);
	ok(syscall(SYS_pidfd_send_signal, sb->init_pidfd, 0, NULL, 0) == 0,
	    "pid 1 survives signal_all");
	is(sh(sb, "echo usable")->out, "usable", "twin: the sandbox is "
	    "still usable");
}

static void
test_limits(void)
{
	struct policy_msg	 p;
	struct sandbox		 sb;
	struct run		*r;
	char			 err[256];

	policy(&p, "tight");
	p.memory = 64 << 20;
	p.pids = 32;
	p.fsize = 1 << 20;
	p.workspace = 8 << 20;
	if (make(&sb, &p, NULL, 0, err, sizeof(err)) == -1) {
		ok(0, "create tight: %s", err);
		return;
	}
	r = sh(&sb, "python3 -c '\nimport os, time\nn = 0\ntry:\n"
	    "    for i in range(1000):\n        if os.fork() == 0:\n"
	    "            time.sleep(1); os._exit(0)\n        n += 1\n"
	    "except OSError as e:\n    print(\"stopped\", n, e.errno)'");
	ok(strncmp(r->out, "stopped ", 8) == 0 && atoi(r->out + 8) < 32,
	    "a fork bomb stops at the pids limit (%s)", r->out);
	is(sh(&sb, "for i in 1 2 3 4 5; do sleep 0.1 & done; wait; echo fine")
	    ->out, "fine", "twin: a few processes under the limit are fine");
	is(sh(&sb, "python3 -c 'x = bytearray(16 << 20); print(len(x))'")->out,
	    "16777216", "16M under a 64M memory limit is fine");
	ok(!sandbox_oom_killed(&sb), "twin: and nothing was OOM-killed");
	r = sh(&sb, "python3 -c 'x = bytearray(512 << 20); print(len(x))'");
	ok(exited(r, 128 + SIGKILL), "a 512M memory hog is killed");
	ok(sandbox_oom_killed(&sb), "sandbox_oom_killed says the memory "
	    "limit did it");
	r = sh(&sb, "exec head -c 2M /dev/zero > /tmp/big");
	ok(killed_by(r, SIGXFSZ), "writing 2M under fsize 1M: SIGXFSZ");
	is(sh(&sb, "head -c 512K /dev/zero > /tmp/ok && wc -c < /tmp/ok")->out,
	    "524288", "twin: 512K under fsize 1M is fine");
	r = sh(&sb, "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do head -c 900K "
	    "/dev/zero > /workspace/f$i || exit 7; done");
	ok(exited(r, 7) && strstr(r->out, "No space left on device") != NULL,
	    "writing past the 8M workspace fails with ENOSPC");
	is(sh(&sb, "rm -f /workspace/*; for i in 1 2 3 4 5 6 7; do head -c "
	    "900K /dev/zero > /workspace/f$i; done; du -sk /workspace | "
	    "cut -f1")->out, "6300", "twin: 6.3M in an 8M workspace is fine");
	sandbox_destroy(&sb, 0);
}

static void
test_cgroup_files(struct sandbox *sb)
{
	char	 cgd[256], path[512], v[4][64];

	cg_dir(CG_MEMORY, sb->id, cgd, sizeof(cgd));
	snprintf(path, sizeof(path), "%s/memory.limit_in_bytes", cgd);
	slurp(path, v[0], sizeof(v[0]));
	snprintf(path, sizeof(path), "%s/memory.memsw.limit_in_bytes", cgd);
	if (slurp(path, v[1], sizeof(v[1])) == -1)
		strlcpy(v[1], v[0], sizeof(v[1]));
	cg_dir(CG_PIDS, sb->id, cgd, sizeof(cgd));
	snprintf(path, sizeof(path), "%s/pids.max", cgd);
	slurp(path, v[2], sizeof(v[2]));
	cg_dir(CG_CPU, sb->id, cgd, sizeof(cgd));
	snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", cgd);
	slurp(path, v[3], sizeof(v[3]));
	if (cg_version == CG_V2) {
		ok(1, "# SKIP cgroup v1 files on a v2 host");
		return;
	}
	ok(strtoull(v[0], NULL, 10) == sb->policy.memory &&
	    strtoull(v[1], NULL, 10) == sb->policy.memory &&
	    strtoul(v[2], NULL, 10) == sb->policy.pids &&
	    strtoul(v[3], NULL, 10) == sb->policy.cpu_percent * 1000,
	    "the cgroup holds memory, memsw, pids and cpu limits of the "
	    "policy");
}

static void
test_landlock(void)
{
	struct policy_msg	 p;
	struct fs_rule_msg	 r[2];
	struct sandbox		 sb;
	char			 err[256];
	char *const		 py[] = { "python3", "-c", "print('py')", NULL };
	char *const		 sh1[] = { "sh", "-c", "true", NULL };
	char *const		 script[] = { "/workspace/s.sh", NULL };
	struct run		 out;
	int			 fd;

	policy(&p, "exec");
	rule(&r[0], FS_RULE_EXEC, "/usr/bin/python3", "");
	if (make(&sb, &p, r, 1, err, sizeof(err)) == -1) {
		ok(0, "create exec: %s", err);
		return;
	}
	runv(&sb, py, NULL, -1, &out);
	is(out.out, "py\n", "exec allowlist: a listed (dynamic) binary runs");
	runv(&sb, sh1, NULL, -1, &out);
	ok(out.status == -1 && strstr(out.out, "Permission denied") != NULL,
	    "twin: an unlisted one does not: %s", out.out);
	sandbox_destroy(&sb, 0);

	rule(&r[0], FS_RULE_EXEC, "/workspace", "");
	rule(&r[1], FS_RULE_EXEC, "/bin/sh", "");
	if (make(&sb, &p, r, 1, err, sizeof(err)) == -1) {
		ok(0, "create exec: %s", err);
		return;
	}
	fd = openat(sb.workspace_fd, "s.sh", O_WRONLY | O_CREAT | O_CLOEXEC,
	    0755);
	(void)write(fd, "#!/bin/sh\necho script\n", 22);
	close(fd);
	runv(&sb, script, NULL, -1, &out);
	ok(out.status == -1 && strstr(out.out, "Permission denied") != NULL,
	    "a listed script whose #! interpreter is not listed cannot run");
	sandbox_destroy(&sb, 0);
	if (make(&sb, &p, r, 2, err, sizeof(err)) == -1) {
		ok(0, "create exec: %s", err);
		return;
	}
	fd = openat(sb.workspace_fd, "s.sh", O_WRONLY | O_CREAT | O_CLOEXEC,
	    0755);
	(void)write(fd, "#!/bin/sh\necho script; id\n", 26);
	close(fd);
	runv(&sb, script, NULL, -1, &out);
	ok(strncmp(out.out, "script\n", 7) == 0 &&
	    strstr(out.out, "Permission denied") != NULL,
	    "twin: with the interpreter listed it runs, and what it runs "
	    "is held to the list too");
	sandbox_destroy(&sb, 0);
}

/* memfd_create under the sandbox filter, with the exec list's or not. */
static int
memfd_errno(int nomemfd)
{
	char	 err[256];
	int	 rp[2], e = -1;
	pid_t	 pid;

	if (pipe2(rp, O_CLOEXEC) == -1)
		return (-1);
	fflush(stdout);
	if ((pid = fork()) == 0) {
		e = 0;
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1 ||
		    sbx_seccomp_prepare(err, sizeof(err)) == -1 ||
		    sbx_seccomp_load_child(nomemfd, err, sizeof(err)) == -1)
			e = -1;
		else if (memfd_create("probe", MFD_CLOEXEC) == -1)
			e = errno;
		(void)write(rp[1], &e, sizeof(e));
		_exit(0);
	}
	close(rp[1]);
	if (read(rp[0], &e, sizeof(e)) != sizeof(e))
		e = -1;
	close(rp[0]);
	waitpid(pid, NULL, 0);
	return (e);
}

/*
 * The fallback of a kernel without vm.memfd_noexec (6.1): the exec
 * list's second filter; its trigger is /proc/sys/vm/memfd_noexec
 * missing, which this kernel may not show.
 */
static void
test_memfd_filter(void)
{
	int	 e;

	e = memfd_errno(1);
	ok(e == ENOSYS, "an exec list without vm.memfd_noexec: "
	    "memfd_create says ENOSYS (%d)", e);
	e = memfd_errno(0);
	ok(e == 0, "twin: without an exec list, memfd_create works (%d)", e);
}

/* Before and after destroy: mount, cgroup, pid 1 and directory. */
static void
test_destroy(struct sandbox *sb)
{
	char		 path[CONF_PATH_SIZE];
	struct stat	 st;
	pid_t		 init = sb->init_pid;
	int		 before[4], after[4];

	cg_dir(0, sb->id, path, sizeof(path));
	before[0] = count_lines_with("/proc/self/mountinfo", sb->id) > 0;
	before[1] = stat(path, &st) == 0;
	before[2] = kill(init, 0) == 0;
	before[3] = stat(sb->dir, &st) == 0;
	sandbox_destroy(sb, 0);
	after[0] = count_lines_with("/proc/self/mountinfo", sb->id) > 0;
	after[1] = stat(path, &st) == 0;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)init);
	after[2] = count_lines_with(path, "sbx-init") > 0;
	after[3] = stat(sb->dir, &st) == 0;
	ok(before[0] && before[1] && before[2] && before[3],
	    "before destroy: the workspace mount, cgroup, pid 1 and state "
	    "directory exist");
	ok(!after[0] && !after[1] && !after[2] && !after[3],
	    "after destroy: no mount, cgroup, process or directory is left");
}

static void
test_keep(void)
{
	struct policy_msg	 p;
	struct sandbox		 sb;
	char			 err[256], path[CONF_PATH_SIZE + 64], buf[64];

	policy(&p, "keep");
	if (make(&sb, &p, NULL, 0, err, sizeof(err)) == -1) {
		ok(0, "create: %s", err);
		return;
	}
	sh(&sb, "echo kept > /workspace/out");
	sandbox_destroy(&sb, 1);
	snprintf(path, sizeof(path), "%s/kept/%s/out", state, sb.id);
	slurp(path, buf, sizeof(buf));
	is(buf, "kept\n", "keep: the workspace is moved to state/kept/<id>");
	snprintf(path, sizeof(path), "%s/kept/%s", state, sb.id);
	umount2(path, MNT_DETACH);
	unlinkat(AT_FDCWD, path, AT_REMOVEDIR);
}

static void
test_failures(void)
{
	struct policy_msg	 p;
	struct fs_rule_msg	 r;
	struct sandbox		 sb;
	struct leftovers	 l0, l1;
	char			 err[256];

	policy(&p, "bad");
	leftovers(&l0);
	rule(&r, FS_RULE_READ, dir, "/no-such-dir");
	ok(make(&sb, &p, &r, 1, err, sizeof(err)) == -1 &&
	    strstr(err, "No such file") != NULL, "a create that fails says "
	    "why: %s", err);
	leftovers(&l1);
	ok(same_leftovers(&l0, &l1), "and leaves nothing behind");
	rule(&r, FS_RULE_WRITE, "/proc/sys", "");
	ok(make(&sb, &p, &r, 1, err, sizeof(err)) == -1 &&
	    strstr(err, "cannot be bound") != NULL, "a bind over /proc is "
	    "refused: %s", err);
}

static void
test_cycles(void)
{
	struct policy_msg	 p;
	struct sandbox		 sb;
	struct leftovers	 l0, l1;
	char *const		 t[] = { "/bin/true", NULL };
	double			 total[CYCLES], phase[4][CYCLES], t0, t1, t2,
				 t3, t4;
	struct run		 r;
	char			 err[256];
	int			 i, bad = 0, fd;
	pid_t			 pid;

	policy(&p, "cycle");
	leftovers(&l0);
	for (i = 0; i < CYCLES; i++) {
		t0 = now_ms();
		if (make(&sb, &p, NULL, 0, err, sizeof(err)) == -1) {
			diag("create: %s", err);
			bad++;
			continue;
		}
		t1 = now_ms();
		if ((pid = startv(&sb, t, NULL, -1, &fd, &r)) == -1)
			bad++;
		t2 = now_ms();
		if (pid != -1) {
			close(fd);
			r.status = wait_exec(&sb, pid, RUN_TIMEOUT_MS);
			if (!exited(&r, 0))
				bad++;
		}
		t3 = now_ms();
		sandbox_destroy(&sb, 0);
		t4 = now_ms();
		total[i] = t4 - t0;
		phase[0][i] = t1 - t0;
		phase[1][i] = t2 - t1;
		phase[2][i] = t3 - t2;
		phase[3][i] = t4 - t3;
	}
	leftovers(&l1);
	ok(bad == 0, "%d create/spawn/wait/destroy cycles", CYCLES);
	ok(same_leftovers(&l0, &l1), "they leave no mount, cgroup, directory "
	    "or process behind");
	diag_medians(total, phase);
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

static double
median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

static void
diag_medians(double *total, double phase[4][CYCLES])
{
	double	 m[4];
	int	 i;

	for (i = 0; i < 4; i++)
		m[i] = median(phase[i], CYCLES);
	diag("median of %d create+spawn(/bin/true)+wait+destroy: %.2f ms "
	    "(create %.2f, spawn %.2f, wait %.2f, destroy %.2f)", CYCLES,
	    median(total, CYCLES), m[0], m[1], m[2], m[3]);
}

/* A second sandbox: its own uid, and none of the first one's files. */
static void
test_second(struct sandbox *a)
{
	struct policy_msg	 p;
	struct sandbox		 b;
	char			 err[256], ua[64];

	policy(&p, "second");
	if (make(&b, &p, NULL, 0, err, sizeof(err)) == -1) {
		ok(0, "create: %s", err);
		return;
	}
	strlcpy(ua, sh(a, "id -u")->out, sizeof(ua));
	ok(strcmp(ua, sh(&b, "id -u")->out) != 0, "two live sandboxes have "
	    "different uids");
	strlcpy(ua, sh(a, "readlink /proc/self/ns/net")->out, sizeof(ua));
	ok(strcmp(ua, sh(&b, "readlink /proc/self/ns/net")->out) !=
	    0, "two live sandboxes have different net namespaces");
	is(sh(&b, "python3 -c 'import socket; s = socket.create_server("
	    "(\"127.0.0.1\", 0)); c = socket.create_connection("
	    "s.getsockname()); print(\"lo\")'")->out, "lo",
	    "twin: localhost works in one made by its pid 1 too");
	is(sh(&b, "cat /workspace/f 2>/dev/null || echo absent")->out,
	    "absent", "another sandbox's workspace does not have the file");
	sandbox_destroy(&b, 0);
}

/*
 * The broker channel's socket: inside at ENV_BROKER_PATH, owned by
 * root in a root-owned directory the sandbox cannot write, and what a
 * sandboxed process sends there arrives on sb->broker_fd.
 */
static void
test_broker(struct sandbox *sb)
{
	struct run	*r;
	char		 buf[64];
	ssize_t		 n = -1;
	int		 c, i;

	r = sh(sb, "stat -c '%F %u %a' /run/sandboxd/broker.sock; "
	    "stat -c '%u %a' /run/sandboxd; touch /run/sandboxd/x 2>&1 | "
	    "grep -c Read-only");
	is(r->out, "socket 0 666\n0 755\n1", "the broker socket is there, "
	    "root's, in a read-only root-owned directory");
	r = sh(sb, "python3 -c \"import socket; s = socket.socket("
	    "socket.AF_UNIX); s.connect('/run/sandboxd/broker.sock'); "
	    "s.sendall(b'hello broker'); print('sent')\"");
	is(r->out, "sent", "a sandboxed process connects to it");
	c = -1;
	for (i = 0; i < 50 && c == -1; i++)
		if ((c = accept4(sb->broker_fd, NULL, NULL, SOCK_CLOEXEC |
		    SOCK_NONBLOCK)) == -1)
			poll(NULL, 0, 20);
	if (c != -1) {
		for (i = 0; i < 50 && (n = read(c, buf, sizeof(buf) - 1)) ==
		    -1; i++)
			poll(NULL, 0, 20);
		close(c);
	}
	buf[n > 0 ? n : 0] = '\0';
	is(buf, "hello broker", "and what it sends reaches the listening fd "
	    "runnerd holds");
}

/* Four fds a sandbox, whatever the number of sandboxes. */
static void
test_fd_budget(void)
{
	struct policy_msg	 p;
	struct sandbox		 sb[10];
	char			 err[256];
	int			 i, n0, n1, made = 0;

	policy(&p, "budget");
	n0 = open_fds();
	for (i = 0; i < 10; i++)
		if (make(&sb[i], &p, NULL, 0, err, sizeof(err)) == 0)
			made++;
	n1 = open_fds();
	ok(made == 10 && n1 - n0 == 40, "ten live sandboxes hold %d fds: four "
	    "each", n1 - n0);
	for (i = 0; i < made; i++)
		sandbox_destroy(&sb[i], 0);
	ok(open_fds() == n0, "and give them back (%d fds, %d before)",
	    open_fds(), n0);
}

/*
 * A runnerd that dies (SIGKILL, in a forked stand-in) takes its
 * sandboxes' processes with it; the next one's reconcile removes the
 * rest.
 */
static void
test_reconcile(void)
{
	struct policy_msg	 p;
	struct sandbox		 sb;
	struct leftovers	 l0, l1, l2;
	char *const		 argv[] = { "sleep", "1000", NULL };
	struct run		 r;
	char			 err[256];
	pid_t			 pid;
	int			 fd, i, rp[2];

	policy(&p, "crash");
	leftovers(&l0);
	if (pipe2(rp, O_CLOEXEC) == -1)
		return;
	fflush(stdout);
	if ((pid = fork()) == 0) {
		if (make(&sb, &p, NULL, 0, err, sizeof(err)) == 0 &&
		    startv(&sb, argv, NULL, -1, &fd, &r) != -1)
			(void)write(rp[1], "x", 1);
		for (;;)
			pause();
	}
	close(rp[1]);
	i = read(rp[0], err, 1);
	close(rp[0]);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	for (i = 0; i < 200 && count_sandbox_procs() > l0.procs; i++)
		sbx_sleep_ms(10);
	leftovers(&l1);
	ok(l1.procs == l0.procs, "a dead runnerd's sandbox processes die "
	    "with it");
	ok(l1.cgroups > l0.cgroups && l1.dirs > l0.dirs &&
	    l1.mounts > l0.mounts, "twin: its cgroups, directories and "
	    "workspace mount are left over");
	sandbox_reconcile(state);
	leftovers(&l2);
	ok(same_leftovers(&l0, &l2), "reconcile removes them all");
}

int
main(int argc, char *argv[])
{
	struct policy_msg	 p;
	struct fs_rule_msg	 r[3];
	struct sandbox		 sb;
	char			 err[256];

	if (argc != 2) {
		fprintf(stderr, "usage: sandbox_test dir\n");
		return (1);
	}
	dir = argv[1];
	snprintf(state, sizeof(state), "%s/state", dir);
	setvbuf(stdout, NULL, _IOLBF, 0);
	log_procinit("sandbox_test");
	log_init(1, LOG_DAEMON);
	if (mkdir(state, 0700) == -1 && errno != EEXIST) {
		fprintf(stderr, "%s: %s\n", state, strerror(errno));
		return (1);
	}
	/* From here on, exactly what runnerd may do. */
	priv_drop(proc_spec_find("runnerd"));
	seccomp_daemon_apply("runnerd");
	sandbox_reconcile(state);

	policy(&p, "test");
	rule(&r[0], FS_RULE_READ, dir, "/rdir");
	rule(&r[1], FS_RULE_READ, dir, "/suid");
	rule(&r[2], FS_RULE_WRITE, dir, "/wdir");
	if (make(&sb, &p, r, 3, err, sizeof(err)) == -1) {
		ok(0, "create: %s", err);
		printf("1..%d\n", tap_n);
		return (1);
	}
	ok(sb.init_pidfd >= 0 && sb.workspace_fd >= 0 && sb.sock >= 0,
	    "create: pid 1 %d", (int)sb.init_pid);
	test_view(&sb);
	test_identity(&sb);
	test_writes(&sb);
	test_syscalls(&sb);
	test_programs(&sb);
	test_spawn(&sb);
	test_zygote(&sb);
	test_broker(&sb);
	test_cgroup_files(&sb);
	test_second(&sb);
	test_spawn_ended_first(&sb);
	test_signal_all(&sb);
	test_destroy(&sb);
	test_limits();
	test_landlock();
	test_memfd_filter();
	test_keep();
	test_failures();
	test_fd_budget();
	test_reconcile();
	test_cycles();
	sandbox_shutdown();
	printf("1..%d\n", tap_n);
	return (tap_failed != 0);
}
