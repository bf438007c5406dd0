#!/usr/bin/env python3
"""settle.py [-b BASE] [-w BASE] [-t TIMEOUT] [-q QUIET] [-k NAME] [-l LABEL]:
wait until the kernel has finished freeing the network namespaces and
cgroups that were deleted before it started (a bench driver's
thousands of sandboxes), so that the next driver does not run beside
that work.  Deleting a namespace or a cgroup only queues its teardown:

  - net namespaces: the active objects of the net_namespace slab
    (/proc/slabinfo).  The kernel frees them in batches (cleanup_net
    takes every namespace queued so far), so the count stays flat for
    seconds, then falls at once: 500 empty ones took 3 to 11 s here.
    Free objects cached per CPU count as active, so it is exact to a
    few slabs' worth: the slack, 4 slabs a CPU, at least 64.
  - cgroups: the dying ones, removed but not yet freed.  v1: a
    hierarchy's num_cgroups in /proc/cgroups (which counts them until
    freed) less its directories; cgroup2: nr_dying_descendants of the
    root's cgroup.stat.  A memory cgroup with page cache still charged
    to it stays dying until that cache is reclaimed, which may be never
    on an idle host: that is not a cleanup in progress.

A signal is settled when it is back within its slack of the baseline
(-b, a file -w wrote) with no sign of work for 1 s (the baseline may
hold namespaces not freed yet, whose going would otherwise end the
wait while others are still being cleaned up), or when for QUIET
seconds (5) it has not gone down and no kernel worker was seen at
that work (a kworker's name ends in "+netns" or "+cgroup_..." while it
runs such an item; sampled every 0.1 s): the only test without a baseline, and what keeps objects that
nothing works at any more from holding the wait to its end: another
load's, memory cgroups held by page cache, and namespaces whose
cleanup_net is done but whose struct is freed only by a later one:
seen on this host's 6.18 (400 flat for 9 s; 2000 for minutes, until
one namespace deleted elsewhere freed them all) and on Debian's 6.1
(150 of regress/bench/settle.t's), with no worker at them meanwhile.
The time it reports (settle_s_NAME) is when the last signal got back
to its baseline or last showed work, not the QUIET seconds after that
it waited to be sure.
TIMEOUT (120) bounds the wait; then it says what is still pending and
exits 0 all the same: the caller goes on.

Prints one line, "# settle LABEL: ...", what each signal went from and
to.  With BENCH_KV set and -k NAME, appends settle_s_NAME to it, and
with -b settle_netns_left_NAME and settle_cgroups_left_NAME: how many
were above the baseline when it returned (not freed yet, as above, or
another load's).  -w BASE: write the figures at the end as the
baseline for later calls.
"""
import getopt
import json
import os
import sys
import time

SLACK_CGROUPS = 16
POLL = 0.1
AT_BASE_QUIET = 1.0


def slab_netns():
    """(active objects, objects a slab) of net_namespace, or None."""
    try:
        with open("/proc/slabinfo") as f:
            for line in f:
                p = line.split()
                if p and p[0] == "net_namespace":
                    return int(p[1]), int(p[4])
    except (OSError, ValueError, IndexError):
        pass
    return None


def cgroup_mounts():
    """{name: mount point}: one v1 hierarchy a name (its controllers
    joined by ","), "cgroup2" for the unified one."""
    mounts = {}
    with open("/proc/self/mountinfo") as f:
        for line in f:
            pre, _, post = line.partition(" - ")
            fstype, _, opts = (post.split() + ["", "", ""])[:3]
            point = pre.split()[4]
            if fstype == "cgroup2":
                mounts.setdefault("cgroup2", point)
            elif fstype == "cgroup":
                ctl = [o for o in opts.split(",")
                       if o not in ("rw", "ro") and "=" not in o and
                       o not in ("noprefix", "xattr", "clone_children",
                                 "cpuset_v2_mode", "favordynmods")]
                if ctl:
                    mounts.setdefault(",".join(sorted(ctl)), point)
    return mounts


def count_dirs(top):
    n = 0
    stack = [top]
    while stack:
        d = stack.pop()
        n += 1
        try:
            with os.scandir(d) as it:
                for e in it:
                    if e.is_dir(follow_symlinks=False):
                        stack.append(e.path)
        except OSError:
            pass
    return n


def dying_cgroups(mounts):
    """{hierarchy: cgroups removed but not freed yet}."""
    num = {}
    with open("/proc/cgroups") as f:
        for line in f:
            p = line.split()
            if len(p) == 4 and p[0][0] != "#" and p[1] != "0":
                num[p[0]] = int(p[2])
    dying = {}
    for name, point in mounts.items():
        if name == "cgroup2":
            try:
                with open(os.path.join(point, "cgroup.stat")) as f:
                    for line in f:
                        k, _, v = line.partition(" ")
                        if k == "nr_dying_descendants":
                            dying[name] = int(v)
            except (OSError, ValueError):
                pass
            continue
        c = [x for x in name.split(",") if x in num]
        if c:
            dying[name] = max(0, num[c[0]] - count_dirs(point))
    return dying


def busy_workers():
    """The kernel workers at netns or cgroup teardown right now: a
    kworker's name ends in "+QUEUE" while it runs an item of QUEUE."""
    netns = cg = False
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/comm" % pid) as f:
                comm = f.read().strip()
        except OSError:
            continue
        if comm.startswith("kworker/") and "+" in comm:
            q = comm.split("+", 1)[1]
            netns = netns or q == "netns"
            # cgroup_destroy (6.1), cgroup_offline, _release, _free; not
            # v1's pidlist cache, which any read of a tasks file feeds.
            cg = cg or (q.startswith("cgroup_") and
                        q != "cgroup_pidlist_destroy")
    return netns, cg


def sample(mounts):
    s = {}
    ns = slab_netns()
    if ns is not None:
        s["netns"] = ns[0]
    for k, v in dying_cgroups(mounts).items():
        s["cg:" + k] = v
    return s


class Signal:
    def __init__(self, name, first, base, slack, now):
        self.name, self.first, self.base, self.slack = (name, first, base,
                                                        slack)
        self.low = self.last = first
        self.busy_at = self.base_at = now

    def update(self, v, busy, now):
        self.last = v
        # A fall by more than the noise, or the kernel at it: busy.
        if v < self.low - self.slack // 2 or busy:
            self.busy_at = now
        self.low = min(self.low, v)
        if not self.at_base():
            self.base_at = now

    def at_base(self):
        return self.base is not None and self.last <= self.base + self.slack

    def settled(self, now, window):
        quiet = now - self.busy_at
        return quiet >= window or (self.at_base() and
                                   quiet >= min(window, AT_BASE_QUIET))

    def done_at(self):
        """When the kernel was done with it: back at the baseline and
        no sign of work since, or its last sign of work."""
        return (max(self.base_at, self.busy_at) if self.at_base() else
                self.busy_at)

    def left(self):
        return max(0, self.last - self.base) if self.base is not None else 0


def usage(why):
    print("settle.py: %s\nusage: settle.py [-b BASE] [-w BASE] "
          "[-t TIMEOUT] [-q QUIET] [-k NAME] [-l LABEL]" % why,
          file=sys.stderr)
    return 2


def main():
    try:
        opts, args = getopt.getopt(sys.argv[1:], "b:w:t:q:k:l:")
        o = dict(opts)
        timeout = float(o.get("-t", 120))
        window = float(o.get("-q", 5))
    except (getopt.GetoptError, ValueError) as e:
        return usage(str(e))
    if args:
        return usage("no arguments are taken")
    label = o.get("-l", o.get("-k", ""))
    base = {}
    if "-b" in o:
        with open(o["-b"]) as f:
            base = json.load(f)
    ncpu = os.cpu_count() or 1
    ns = slab_netns()
    # Free objects in per-CPU slabs count as active: a few slabs a CPU.
    slack_ns = max(64, 4 * ncpu * ns[1]) if ns else 64
    mounts = cgroup_mounts()
    t0 = time.monotonic()
    sigs = {k: Signal(k, v, base.get(k),
                      slack_ns if k == "netns" else SLACK_CGROUPS, t0)
            for k, v in sample(mounts).items()}
    while True:
        now = time.monotonic()
        busy_ns, busy_cg = busy_workers()
        for k, v in sample(mounts).items():
            if k in sigs:
                sigs[k].update(v, busy_ns if k == "netns" else busy_cg, now)
        done = all(s.settled(now, window) for s in sigs.values())
        if done or now - t0 >= timeout:
            break
        time.sleep(POLL)
    waited = time.monotonic() - t0
    took = (max([s.done_at() for s in sigs.values()] + [t0]) - t0
            if done else waited)
    report(label, took, waited, sigs, done, timeout, window)
    kv = os.environ.get("BENCH_KV")
    if kv and "-k" in o:
        ns_left = sum(s.left() for k, s in sigs.items() if k == "netns")
        cg_left = sum(s.left() for k, s in sigs.items() if k != "netns")
        with open(kv, "a") as f:
            f.write("settle_s_%s %.1f\n" % (o["-k"], took))
            if base:
                f.write("settle_netns_left_%s %d\n" % (o["-k"], ns_left))
                f.write("settle_cgroups_left_%s %d\n" % (o["-k"], cg_left))
    if "-w" in o:
        tmp = o["-w"] + ".tmp"
        with open(tmp, "w") as f:
            json.dump({k: s.last for k, s in sigs.items()}, f)
        os.rename(tmp, o["-w"])
    return 0


def report(label, took, waited, sigs, done, timeout, window):
    def name(k):
        return ("net_namespace objects" if k == "netns" else
                "dying cgroups (%s)" % k[3:])
    now = time.monotonic()
    parts, held, why = [], [], []
    for k, s in sigs.items():
        # Hierarchies with nothing dying all along: not worth a word.
        if k != "netns" and not (s.first or s.last or s.base):
            continue
        parts.append("%s %d -> %d%s" % (name(k), s.first, s.last,
                     "" if s.base is None else " (baseline %d)" % s.base))
        if not s.settled(now, window):
            why.append("%s: %sfell or a kernel worker at it %.1f s ago" %
                       (name(k), "%d above the baseline, " % s.left()
                        if s.base is not None else "", now - s.busy_at))
        elif s.base is not None and not s.at_base():
            held.append("%s: %d above the baseline" % (name(k), s.left()))
    print("# settle %s: done in %.1f s (waited %.1f); %s" %
          (label, took, waited, ", ".join(parts)))
    if not done:
        print("settle %s: still pending after %d s, going on: %s" %
              (label, timeout, "; ".join(why)), file=sys.stderr)
    if held:
        # No kernel work at them for the window, but not freed: another
        # load's, page cache charged to a memory cgroup, namespaces whose
        # struct waits for a later cleanup_net.
        print("# settle %s: not freed, with no kernel work at them for "
              "%.0f s: %s" % (label, window, "; ".join(held)))


if __name__ == "__main__":
    sys.exit(main())
