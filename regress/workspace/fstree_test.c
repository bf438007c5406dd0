/*
 * Regression tests for lib/fstree.c, the tree stream that put -r and
 * get -r send and receive: the receiving side of a get -r is sandboxctl
 * running as the caller (often root) on a stream a sandbox shaped, so a
 * stream that tries to write through a link it made, or names "..", an
 * absolute or an empty component, must be refused with nothing made
 * outside the target directory; a plain tree must arrive as sent, links
 * as links and no set-id bit kept.  Prints TAP; non-zero if one failed.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fstree.h"

#include "../lib/check.h"

static char	 base[64], outside[128];
static int	 ntest, nfailed;

/* A stream being built, written to a socket before it is read. */
struct stream {
	int	 sv[2];
	int	 count;
};

static void
st_open(struct stream *s)
{
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, s->sv) == -1) {
		perror("socketpair");
		exit(1);
	}
	s->count = 0;
}

static void
st_add(struct stream *s, uint32_t type, const char *path, uint32_t mode,
    const char *target, const char *content)
{
	struct sbx_fent	 e;

	memset(&e, 0, sizeof(e));
	e.type = type;
	e.mode = mode;
	e.mtime = 1700000000;
	strlcpy(e.path, path, sizeof(e.path));
	if (target != NULL)
		strlcpy(e.target, target, sizeof(e.target));
	if (content != NULL)
		e.size = strlen(content);
	if (fent_write(s->sv[1], &e) == -1 || (content != NULL &&
	    write(s->sv[1], content, e.size) != (ssize_t)e.size)) {
		perror("write");
		exit(1);
	}
	if (type != FENT_END && path[0] != '\0')
		s->count++;
}

/* Receive the stream into a new directory dir; returns fstree_recv's. */
static int
st_recv(struct stream *s, const char *dir, struct fstree *t, int end)
{
	int	 fd, rc;

	if (end)
		st_add(s, FENT_END, "", 0, NULL, NULL);
	close(s->sv[1]);
	if (mkdir(dir, 0700) == -1 ||
	    (fd = open(dir, O_PATH | O_DIRECTORY)) == -1) {
		perror(dir);
		exit(1);
	}
	memset(t, 0, sizeof(*t));
	t->sock = s->sv[0];
	rc = fstree_recv(t, fd);
	close(fd);
	close(s->sv[0]);
	return (rc);
}

static int
outside_empty(void)
{
	char	 p[256];

	snprintf(p, sizeof(p), "%s/pwned", outside);
	return (access(p, F_OK) == -1 && errno == ENOENT);
}

/* A stream makes a link to dir, then writes a file through it. */
static int
refuse_through_link(const char *target, const char *name)
{
	struct stream	 s;
	struct fstree	 t;
	char		 dir[256];

	snprintf(dir, sizeof(dir), "%s/%s", base, name);
	st_open(&s);
	st_add(&s, FENT_DIR, "", 0755, NULL, NULL);
	st_add(&s, FENT_LINK, "l", 0777, target, NULL);
	st_add(&s, FENT_FILE, "l/pwned", 0644, NULL, "pwned\n");
	CHECK(st_recv(&s, dir, &t, 1) == -1);
	printf("# %s\n", t.msg);
	CHECK(strstr(t.msg, "symbolic link") != NULL);
	CHECK(outside_empty());
	return (1);
}

static int
test_link_absolute(void)
{
	return (refuse_through_link(outside, "abs"));
}

static int
test_link_dotdot(void)
{
	return (refuse_through_link("../outside", "dotdot"));
}

/* A path the receiver must refuse before it makes anything. */
static int
refuse_path(const char *path, const char *name)
{
	struct stream	 s;
	struct fstree	 t;
	char		 dir[256];

	snprintf(dir, sizeof(dir), "%s/%s", base, name);
	st_open(&s);
	st_add(&s, FENT_DIR, "", 0755, NULL, NULL);
	st_add(&s, FENT_FILE, path, 0644, NULL, "pwned\n");
	CHECK(st_recv(&s, dir, &t, 1) == -1);
	printf("# %s\n", t.msg);
	CHECK(strstr(t.msg, "bad entry") != NULL);
	CHECK(outside_empty());
	return (1);
}

static int
test_path_dotdot(void)
{
	return (refuse_path("../outside/pwned", "p1"));
}

static int
test_path_absolute(void)
{
	char	 p[256];

	snprintf(p, sizeof(p), "%s/pwned", outside);
	return (refuse_path(p, "p2"));
}

static int
test_path_empty_component(void)
{
	return (refuse_path("a//pwned", "p3") && refuse_path("./pwned", "p4"));
}

static int
test_no_root_first(void)
{
	struct stream	 s;
	struct fstree	 t;
	char		 dir[256];

	snprintf(dir, sizeof(dir), "%s/noroot", base);
	st_open(&s);
	st_add(&s, FENT_FILE, "f", 0644, NULL, "x");
	CHECK(st_recv(&s, dir, &t, 1) == -1);
	CHECK(strstr(t.msg, "does not start") != NULL);
	return (1);
}

static int
test_short_file(void)
{
	struct stream	 s;
	struct fstree	 t;
	struct sbx_fent	 e;
	char		 dir[256];

	snprintf(dir, sizeof(dir), "%s/short", base);
	st_open(&s);
	st_add(&s, FENT_DIR, "", 0755, NULL, NULL);
	memset(&e, 0, sizeof(e));
	e.type = FENT_FILE;
	e.mode = 0644;
	e.size = 100;
	strlcpy(e.path, "f", sizeof(e.path));
	CHECK(fent_write(s.sv[1], &e) == 0 && write(s.sv[1], "abc", 3) == 3);
	CHECK(st_recv(&s, dir, &t, 0) == -1);
	CHECK(strstr(t.msg, "ended inside the file") != NULL);
	return (1);
}

static int
test_no_end(void)
{
	struct stream	 s;
	struct fstree	 t;
	char		 dir[256];

	snprintf(dir, sizeof(dir), "%s/noend", base);
	st_open(&s);
	st_add(&s, FENT_DIR, "", 0755, NULL, NULL);
	st_add(&s, FENT_FILE, "f", 0644, NULL, "x");
	CHECK(st_recv(&s, dir, &t, 0) == -1);
	CHECK(strstr(t.msg, "ended early") != NULL);
	return (1);
}

/* The allowed twin: a plain tree with a link out arrives as sent. */
static int
test_plain_tree(void)
{
	struct stream	 s;
	struct fstree	 t;
	struct stat	 st;
	char		 dir[256], p[512], buf[64];
	ssize_t		 n;
	int		 fd;

	snprintf(dir, sizeof(dir), "%s/plain", base);
	st_open(&s);
	st_add(&s, FENT_DIR, "", 0750, NULL, NULL);
	st_add(&s, FENT_DIR, "d", 0500, NULL, NULL);
	st_add(&s, FENT_FILE, "d/f", 04755, NULL, "hello\n");
	st_add(&s, FENT_LINK, "d/l", 0777, "/etc/shadow", NULL);
	st_add(&s, FENT_LINK, "up", 0777, "../../../etc", NULL);
	st_add(&s, FENT_DIR, "empty", 0700, NULL, NULL);
	CHECK(st_recv(&s, dir, &t, 1) == 0);
	CHECK(t.entries == 5 && t.bytes == 6);
	snprintf(p, sizeof(p), "%s/d/f", dir);
	CHECK((fd = open(p, O_RDONLY)) != -1);
	CHECK(read(fd, buf, sizeof(buf)) == 6);
	CHECK(memcmp(buf, "hello\n", 6) == 0);
	CHECK(fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0755);
	CHECK(st.st_mtime == 1700000000);
	close(fd);
	snprintf(p, sizeof(p), "%s/d/l", dir);
	CHECK((n = readlink(p, buf, sizeof(buf) - 1)) == 11);
	buf[n] = '\0';
	CHECK(strcmp(buf, "/etc/shadow") == 0);
	snprintf(p, sizeof(p), "%s/d", dir);
	CHECK(stat(p, &st) == 0 && (st.st_mode & 07777) == 0500);
	CHECK(stat(dir, &st) == 0 && (st.st_mode & 07777) == 0750);
	return (1);
}

/* Sending a tree with links out: links, never what is behind them. */
static int
test_send_links(void)
{
	struct sbx_fent	 e;
	struct fstree	 t;
	char		 dir[256], p[512];
	int		 sv[2], fd, n, links = 0, files = 0;

	snprintf(dir, sizeof(dir), "%s/send", base);
	CHECK(mkdir(dir, 0755) == 0);
	snprintf(p, sizeof(p), "%s/etc", dir);
	CHECK(symlink("/etc", p) == 0);
	snprintf(p, sizeof(p), "%s/up", dir);
	CHECK(symlink("../../../../etc", p) == 0);
	snprintf(p, sizeof(p), "%s/f", dir);
	CHECK((fd = open(p, O_CREAT | O_WRONLY, 0644)) != -1);
	close(fd);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	CHECK((fd = open(dir, O_RDONLY | O_DIRECTORY)) != -1);
	memset(&t, 0, sizeof(t));
	t.sock = sv[1];
	CHECK(fstree_send(&t, fd) == 0);
	close(fd);
	close(sv[1]);
	while ((n = fent_read(sv[0], &e)) == 1 && e.type != FENT_END) {
		links += e.type == FENT_LINK;
		files += e.type == FENT_FILE;
	}
	close(sv[0]);
	CHECK(n == 1 && e.type == FENT_END && e.size == 3);
	CHECK(links == 2 && files == 1);
	return (1);
}

static void
run(const char *name, int (*fn)(void))
{
	int	 ok = fn();

	ntest++;
	if (!ok)
		nfailed++;
	printf("%sok %d - %s\n", ok ? "" : "not ", ntest, name);
	fflush(stdout);
}

int
main(void)
{
	char	 cmd[256];

	strlcpy(base, "/tmp/fstree_test.XXXXXX", sizeof(base));
	if (mkdtemp(base) == NULL) {
		perror("mkdtemp");
		return (1);
	}
	snprintf(outside, sizeof(outside), "%s/outside", base);
	if (mkdir(outside, 0755) == -1) {
		perror(outside);
		return (1);
	}
	printf("1..10\n");
	run("a stream writing through its link to an absolute dir is refused",
	    test_link_absolute);
	run("a stream writing through its ../ link is refused",
	    test_link_dotdot);
	run("a .. entry is refused", test_path_dotdot);
	run("an absolute entry is refused", test_path_absolute);
	run("empty and . components are refused", test_path_empty_component);
	run("a stream must start with its directory", test_no_root_first);
	run("a file cut short fails", test_short_file);
	run("a stream without its end fails", test_no_end);
	run("a plain tree arrives as sent, links as links, no set-id bit",
	    test_plain_tree);
	run("a tree sent with links out sends the links, not their targets",
	    test_send_links);
	snprintf(cmd, sizeof(cmd), "chmod -R u+rwx %s && rm -rf %s", base,
	    base);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", base);
	return (nfailed != 0);
}
