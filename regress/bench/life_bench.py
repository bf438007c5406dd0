#!/usr/bin/env python3
"""What an operator sizing a host for thousands of short-lived sandboxes
wants to know, against a running suite (life_bench.sh starts it):

  host memory   the daemons' summed PSS (smaps_rollup) with LIVE idle
                sandboxes less with none, plus each sandbox's process 1,
                per sandbox: host_kib_per_sandbox; and how long making
                them took, WORKERS at a time: create_live_4000_s;
  create+exec   create, exec of /bin/true, destroy, one after the other,
                SEQ times: create_exec_p50_ms, create_exec_p99_ms;
  create rate   CREATORS concurrent creators, each making PER sandboxes
                one after the other: create_rate_per_s_100 (of those
                made), create_rate_100_failed;
  concurrency   RUNS concurrent `sandboxctl run -- sh -c 'sleep 1'`: how
                many complete (exit 0) and how long all took from the
                first start to the last exit: concurrent_runs_1000_*.
                A run or create refused (the control socket's client
                cap) is a figure, not a failure of the bench.

The 4000 sandboxes of the memory part are destroyed at its end; before
the next part the driver waits, as bench.sh does between drivers, until
the kernel has done with their namespaces and cgroups (settle.py; at
most BENCH_SETTLE_TIMEOUT seconds, 120, 5 in a smoke run):
settle_s_after_life_memory.  Else the create latency and rate after it
would measure that cleanup, thousands of teardowns, as well.

Each part also prints the CPU time the master, runnerd and runnerd's
reaped children (pid 1s, helpers) spent on it (/proc/PID/stat), per
sandbox made: a figure the machine's other load distorts less than
wall time.

Usage: life_bench.py SANDBOXCTL SOCKET MASTER_PID.  The exit status says
whether every measurement ran, not whether a target was met.  BENCH_KV
and BENCH_SMOKE as in kv.sh; LIFE_BENCH_POLICY (default) names the
policy of every sandbox; LIFE_BENCH_PARTS (default "memory create_exec
create_rate runs") the parts to run, e.g. "create_exec create_rate" to
measure creation alone without the slow ones (bench.sh then reports the
others' figures missing).
"""
import concurrent.futures
import os
import statistics
import subprocess
import sys
import time

from benchkv import kv_write

SMOKE = os.environ.get("BENCH_SMOKE", "0") == "1"
LIVE = int(os.environ.get("LIFE_BENCH_LIVE", "5" if SMOKE else "4000"))
SEQ = int(os.environ.get("LIFE_BENCH_SEQ", "5" if SMOKE else "300"))
CREATORS = int(os.environ.get("LIFE_BENCH_CREATORS", "4" if SMOKE else "100"))
PER = int(os.environ.get("LIFE_BENCH_PER", "1" if SMOKE else "5"))
RUNS = int(os.environ.get("LIFE_BENCH_RUNS", "8" if SMOKE else "1000"))
POLICY = os.environ.get("LIFE_BENCH_POLICY", "default")
PARTS = os.environ.get("LIFE_BENCH_PARTS",
                       "memory create_exec create_rate runs").split()
DAEMONS = ("netd", "envd", "runnerd", "dnspind")
# How many sandboxes are made or destroyed at once where only the end
# state counts (the memory part): the machine's cores, and a few more.
WORKERS = 4


class BenchError(Exception):
    pass


def ctl(*args, check=True):
    r = subprocess.run([CTL, "-s", SOCK] + list(args), capture_output=True,
                       text=True)
    if check and r.returncode != 0:
        raise BenchError("sandboxctl %s: %s" % (" ".join(args),
                                                 r.stderr.strip()))
    return r.stdout.strip()


def create():
    return ctl("create", "-p", POLICY)


def destroy_all(ids):
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as ex:
        list(ex.map(lambda i: ctl("destroy", i), ids))


def pss_kib(pid):
    """A process's PSS in KiB; 0 if it is gone."""
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0


def daemon_pids():
    """The master and its four children."""
    pids = [MASTER]
    out = subprocess.run(["pgrep", "-P", str(MASTER)], capture_output=True,
                         text=True).stdout.split()
    for p in out:
        try:
            with open("/proc/%s/comm" % p) as f:
                if f.read().strip() in DAEMONS:
                    pids.append(int(p))
        except FileNotFoundError:
            pass
    if len(pids) != 1 + len(DAEMONS):
        raise BenchError("daemons: found pids %s" % pids)
    return pids


def daemons_pss():
    return sum(pss_kib(p) for p in daemon_pids())


def sandbox_pids():
    """Process 1 of each live sandbox, from sandboxctl -j ps."""
    import json
    pids = {}
    for line in ctl("-j", "ps").splitlines():
        r = json.loads(line)
        if r.get("event") == "sandbox" and r.get("pid"):
            pids[r["id"]] = int(r["pid"])
    return pids


def host_memory(fig):
    # Let the spare sandbox the master builds ahead be there before the
    # baseline, as it is after.
    time.sleep(0.5)
    base = daemons_pss()
    # In four steps, each timed: whether making one costs more with
    # more of them live.
    ids, steps = [], []
    step = max(1, LIVE // 4)
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as ex:
        while len(ids) < LIVE:
            t0 = time.perf_counter()
            ids += ex.map(lambda _: create(), range(min(step,
                                                        LIVE - len(ids))))
            steps.append(time.perf_counter() - t0)
    made = sum(steps)
    time.sleep(0.5)
    live = daemons_pss()
    pids = sandbox_pids()
    mine = [pids[i] for i in ids if i in pids]
    if len(mine) != LIVE:
        raise BenchError("ps lists %d of the %d sandboxes made" %
                         (len(mine), LIVE))
    pid1 = sum(pss_kib(p) for p in mine)
    destroy_all(ids)
    d = (live - base) / LIVE
    fig["host_kib_daemons_per_sandbox"] = d
    fig["host_kib_pid1_per_sandbox"] = pid1 / LIVE
    fig["host_kib_per_sandbox"] = d + pid1 / LIVE
    fig["create_live_4000_s"] = made
    print("host memory, %d idle sandboxes (policy %s, made in %.1f s by %d "
          "at a time; by the %d, in s: %s):" % (
              LIVE, POLICY, made, WORKERS, step,
              " ".join("%.1f" % t for t in steps)))
    print("  daemons' PSS %d KiB with none, %d KiB with them: %.1f KiB a "
          "sandbox" % (base, live, d))
    print("  sandboxes' process 1: %.1f KiB each; in all %.1f KiB a sandbox"
          % (pid1 / LIVE, fig["host_kib_per_sandbox"]))


def cpu_ms(pid, children=False):
    """utime + stime of a process in ms, or of its reaped children's;
    0 if it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            st = f.read()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    fields = st[st.rindex(")") + 2:].split()
    i = 13 if children else 11
    return (int(fields[i]) + int(fields[i + 1])) * 1000.0 / \
        os.sysconf("SC_CLK_TCK")


def daemons_cpu():
    """CPU ms so far of the master, runnerd, and runnerd's reaped
    children: the sandboxes' pid 1s (building, serving, dying) and any
    helper of runnerd's."""
    pids = daemon_pids()
    out = {"master": cpu_ms(pids[0]), "runnerd": 0.0, "children": 0.0}
    for p in pids[1:]:
        with open("/proc/%d/comm" % p) as f:
            if f.read().strip() == "runnerd":
                out["runnerd"] = cpu_ms(p)
                out["children"] = cpu_ms(p, True)
    return out


def print_cpu(before, n):
    after = daemons_cpu()
    print("  CPU per sandbox: master %.2f ms, runnerd %.2f ms, runnerd's "
          "children %.2f ms" % tuple((after[k] - before[k]) / n for k in
                                     ("master", "runnerd", "children")))


def pct(sorted_v, p):
    return sorted_v[min(len(sorted_v) - 1, int(len(sorted_v) * p))]


def create_exec(fig):
    times = []
    cpu0 = daemons_cpu()
    for n in range(SEQ + (1 if SMOKE else 5)):
        t0 = time.perf_counter()
        i = create()
        ctl("exec", i, "--", "/bin/true")
        ctl("destroy", i)
        if n >= (1 if SMOKE else 5):	# the first few warm up
            times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    fig["create_exec_p50_ms"] = statistics.median(times)
    fig["create_exec_p99_ms"] = pct(times, 0.99)
    print("create + exec /bin/true + destroy, %d one after the other: "
          "p50 %.2f ms, p99 %.2f ms, max %.2f ms" % (
              SEQ, fig["create_exec_p50_ms"], fig["create_exec_p99_ms"],
              times[-1]))
    print_cpu(cpu0, SEQ + (1 if SMOKE else 5))


def create_rate(fig):
    """A create refused (the control socket's client cap) is counted,
    not retried: the rate is of the sandboxes made."""
    def creator(_):
        made, failed = [], []
        for _ in range(PER):
            try:
                made.append(create())
            except BenchError as e:
                failed.append(str(e))
        return made, failed
    cpu0 = daemons_cpu()
    t0 = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(CREATORS) as ex:
        res = list(ex.map(creator, range(CREATORS)))
    dt = time.perf_counter() - t0
    made = [i for m, _ in res for i in m]
    failed = [e for _, f in res for e in f]
    destroy_all(made)
    fig["create_rate_per_s_100"] = len(made) / dt
    fig["create_rate_100_failed"] = len(failed)
    print("%d concurrent creators, %d creates each: %d made in %.2f s, "
          "%.0f/s; %d failed" % (CREATORS, PER, len(made), dt,
                                 fig["create_rate_per_s_100"], len(failed)))
    errs = {}
    for e in failed:
        e = e.splitlines()[-1]
        errs[e] = errs.get(e, 0) + 1
    for e, n in sorted(errs.items(), key=lambda x: -x[1]):
        print("  %d failed: %s" % (n, e))
    if made:
        print_cpu(cpu0, len(made))	# the destroys included
    if not made:
        raise BenchError("no sandbox made")


def concurrent_runs(fig):
    procs = []
    t0 = time.perf_counter()
    for _ in range(RUNS):
        procs.append(subprocess.Popen(
            [CTL, "-s", SOCK, "run", "-p", POLICY, "--", "sh", "-c",
             "sleep 1"], stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True))
    started = time.perf_counter() - t0
    errors = {}
    done = 0
    for p in procs:
        _, err = p.communicate(timeout=600)
        if p.returncode == 0:
            done += 1
        else:
            e = (err.strip().splitlines() or ["exit %d" % p.returncode])[-1]
            errors[e] = errors.get(e, 0) + 1
    dt = time.perf_counter() - t0
    fig["concurrent_runs_1000_completed"] = done
    fig["concurrent_runs_1000_s"] = dt
    print("%d concurrent runs of sh -c 'sleep 1' (all started in %.2f s): "
          "%d completed, all done in %.2f s" % (RUNS, started, done, dt))
    for e, n in sorted(errors.items(), key=lambda x: -x[1]):
        print("  %d failed: %s" % (n, e))
    # A leftover of a refused or cut-short run must not outlive the
    # bench; the sandboxes of completed runs are gone already.
    leftover = list(sandbox_pids())
    if leftover:
        destroy_all(leftover)


def settle():
    """The kernel done with the memory part's thousands (settle.py)."""
    quiet = "1" if SMOKE else "5"
    timeout = os.environ.get("BENCH_SETTLE_TIMEOUT", "5" if SMOKE else "120")
    subprocess.run([sys.executable,
                    os.path.join(os.path.dirname(__file__), "settle.py"),
                    "-t", timeout, "-q", quiet, "-k", "after_life_memory",
                    "-l", "life, after its memory part"], check=False)
    sys.stdout.flush()


def main():
    global CTL, SOCK, MASTER
    CTL, SOCK, MASTER = sys.argv[1], sys.argv[2], int(sys.argv[3])
    fig = {}
    rc = 0
    parts = {"memory": host_memory, "create_exec": create_exec,
             "create_rate": create_rate, "runs": concurrent_runs}
    for name in PARTS:
        if name not in parts:
            print("life_bench: LIFE_BENCH_PARTS: no part %s (of %s)" % (
                name, " ".join(parts)), file=sys.stderr)
            return 1
    run = [n for n in parts if n in PARTS]
    for name in run:
        try:
            parts[name](fig)
        except (BenchError, subprocess.SubprocessError, OSError) as e:
            print("life_bench: %s: %s" % (name, e), file=sys.stderr)
            rc = 1
        sys.stdout.flush()
        if name == "memory" and name != run[-1]:
            settle()
    kv_write(fig)
    return rc


sys.exit(main())
