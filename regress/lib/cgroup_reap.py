#!/usr/bin/env python3
"""cgroup_reap.py [-n] [-v]: remove the cgroup trees that test suites
killed before their cleanup left behind, and nothing else.

runnerd names its instance's parent cgroup sandboxd-HASH, HASH the
FNV-1a of its state directory (cmd/runnerd/cgroup.c), at the root of
every v1 hierarchy it uses and of cgroup2.  A suite of common.sh's has
the state directory $T/state, T=/tmp/sbxtest.XXXXXX, and holds an
exclusive flock(2) on $T/suite.lock from its start until its last
process is gone; its cleanup removes the trees, but a suite killed by
SIGKILL (or a timeout) runs none.  Other suites may run meanwhile, on
this machine several worktrees' at once, so a tree goes only when its
owner is known to be gone:

  - its HASH is that of some /tmp/sbxtest.*/state whose suite.lock can
    be locked (no process of that suite left);
  - or of none (that suite's cleanup removed T: it is over), and no
    running sandboxd master has a state directory of that HASH; should
    a master's config not be readable, no such tree goes.

A tree whose T has no suite.lock (a harness from before the lock, or
one that has just started) stays.  The plain "sandboxd" (the default
state directory's) is never touched.  Removal is rmdir(2), depth
first: it refuses a cgroup with processes or children, so a tree in
use stays whatever was decided.  -n: say what would go, remove nothing.
-v: say what stays, and why.
"""
import errno
import fcntl
import glob
import os
import re
import sys

TMP_GLOB = "/tmp/sbxtest.*"
NAME = re.compile(r"^sandboxd-([0-9a-f]{8})$")
DEFAULT_CONF = "/etc/sandboxd.conf"


def fnv1a(s):
    h = 2166136261
    for c in s.encode():
        h = ((h ^ c) * 16777619) & 0xffffffff
    return "%08x" % h


def cgroup_roots():
    """The root of every v1 hierarchy with a controller and of cgroup2."""
    roots = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            pre, _, post = line.partition(" - ")
            fs = post.split()
            if fs and fs[0] in ("cgroup", "cgroup2") and \
                    pre.split()[3] == "/":
                roots.append(pre.split()[4])
    return sorted(set(roots))


def suite_gone(lock):
    """True if no process holds the suite's lock, None if there is none."""
    try:
        fd = os.open(lock, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


def master_hashes():
    """The HASH of every running master's state directory, or None if
    one's cannot be known."""
    hashes = set()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/comm" % pid) as f:
                if f.read().strip() != "sandboxd":
                    continue
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().decode(errors="replace").split("\0")
            cwd = os.readlink("/proc/%s/cwd" % pid)
        except OSError:
            continue
        conf = DEFAULT_CONF
        for i, a in enumerate(argv):
            if a == "-f" and i + 1 < len(argv):
                conf = os.path.join(cwd, argv[i + 1])
            elif a.startswith("-f") and len(a) > 2:
                conf = os.path.join(cwd, a[2:])
        try:
            with open("/proc/%s/root%s" % (pid, conf)) as f:
                m = re.search(r'^\s*state-dir\s+"([^"]+)"', f.read(),
                              re.M)
        except OSError:
            return None
        # None: the default state directory's, plain "sandboxd".
        if m:
            hashes.add(fnv1a(m.group(1)))
    return hashes


def rmdir_tree(top):
    """rmdir every directory of top, depth first; None if top went, or
    why it stays."""
    why = None
    for d, _, _ in os.walk(top, topdown=False):
        try:
            os.rmdir(d)
        except OSError as e:
            why = e.strerror + (" (processes in it)"
                                if e.errno == errno.EBUSY else "")
    return why if os.path.isdir(top) else None


def main():
    bad = [a for a in sys.argv[1:] if a not in ("-n", "-v")]
    if bad:
        print("cgroup_reap: %s: unknown argument\n"
              "usage: cgroup_reap.py [-n] [-v]" % bad[0], file=sys.stderr)
        return 2
    dry = "-n" in sys.argv[1:]
    verbose = "-v" in sys.argv[1:]
    suites = {fnv1a(t + "/state"): t for t in glob.glob(TMP_GLOB)}
    masters = None
    for root in cgroup_roots():
        try:
            names = os.listdir(root)
        except OSError:
            continue
        for name in sorted(names):
            m = NAME.match(name)
            tree = os.path.join(root, name)
            if not m or not os.path.isdir(tree):
                continue
            h = m.group(1)
            if h in suites:
                gone = suite_gone(os.path.join(suites[h], "suite.lock"))
                why = {None: "no suite.lock", False: "its suite runs",
                       True: None}[gone]
                why = why and "%s (%s)" % (why, suites[h])
            else:
                if masters is None:
                    masters = master_hashes()
                why = ("a master's state directory unknown"
                       if masters is None else
                       "a running master's" if h in masters else None)
            if why:
                if verbose:
                    print("cgroup_reap: %s stays: %s" % (tree, why))
                continue
            if dry:
                print("cgroup_reap: %s would go" % tree)
                continue
            why = rmdir_tree(tree)
            if why:
                print("cgroup_reap: %s stays: %s" % (tree, why),
                      file=sys.stderr)
            else:
                print("cgroup_reap: %s removed (its suite is gone)" % tree)
    return 0


if __name__ == "__main__":
    sys.exit(main())
