#!/usr/bin/env python3
"""make bench: side by side, in one run, on this machine.

Sandbox start-to-exit of /bin/true through `sandboxctl run`, without a
network and with one (policy "net", which bench.sh writes), against
`bwrap --unshare-all --die-with-parent` with read-only system binds and
against crun where it runs.  Prints medians and ratios, and whether the
networked run is within NET_TARGET of bwrap; a miss is reported, not
an error.  With BENCH_KV, its figures for bench.json (start_*); with
BENCH_SMOKE=1, a few runs only.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from benchkv import kv_write

SMOKE = os.environ.get("BENCH_SMOKE", "0") == "1"
RUNS = int(os.environ.get("BENCH_RUNS", "5" if SMOKE else "200"))
WARMUP = 1 if SMOKE else 10

BLOCK = 10
NET_TARGET = 1.5


def run1(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - t0) * 1000


def measure(cmds, runs=RUNS, warmup=WARMUP):
    """Every command RUNS times, in alternating blocks of BLOCK runs so
    that machine noise hits them alike; the order rotates each round so
    that none always follows the same one (the networked run's teardown
    goes on in netd after sandboxctl returns)."""
    names = list(cmds)
    for name in names:
        for _ in range(warmup):
            run1(cmds[name])
    times = {name: [] for name in names}
    rnd = 0
    while any(len(t) < runs for t in times.values()):
        order = names[rnd % len(names):] + names[:rnd % len(names)]
        for name in order:
            for _ in range(min(BLOCK, runs - len(times[name]))):
                times[name].append(run1(cmds[name]))
        rnd += 1
    results = {}
    for name in names:
        t = sorted(times[name])
        results[name] = {"median_ms": statistics.median(t),
                         "p90_ms": t[int(len(t) * 0.9)],
                         "min_ms": t[0]}
    return results


def bwrap_cmd():
    cmd = ["bwrap", "--unshare-all", "--die-with-parent",
           "--ro-bind", "/usr", "/usr"]
    for d in ("bin", "sbin", "lib", "lib32", "lib64"):
        p = "/" + d
        if os.path.islink(p):
            cmd += ["--symlink", os.readlink(p), p]
        elif os.path.isdir(p):
            cmd += ["--ro-bind", p, p]
    cmd += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
            "/bin/true"]
    return cmd


def crun_bundle(tmp):
    """An OCI bundle with the same view; None if crun is missing."""
    if shutil.which("crun") is None:
        return None
    b = os.path.join(tmp, "bundle")
    os.makedirs(os.path.join(b, "rootfs"))
    subprocess.run(["crun", "spec"], cwd=b, check=True)
    with open(os.path.join(b, "config.json")) as f:
        spec = json.load(f)
    spec["process"]["args"] = ["/bin/true"]
    spec["process"]["terminal"] = False
    spec["root"] = {"path": "rootfs", "readonly": True}
    mounts = [m for m in spec["mounts"]
              if m["destination"] in ("/proc", "/dev", "/dev/pts",
                                      "/dev/shm", "/dev/mqueue", "/sys")]
    mounts.append({"destination": "/usr", "type": "bind", "source": "/usr",
                   "options": ["rbind", "ro"]})
    for d in ("bin", "sbin", "lib", "lib32", "lib64"):
        p = "/" + d
        if os.path.islink(p):
            os.symlink(os.readlink(p), os.path.join(b, "rootfs", d))
    spec["mounts"] = mounts
    with open(os.path.join(b, "config.json"), "w") as f:
        json.dump(spec, f)
    return b


def crun_cmd(bundle):
    return ["crun", "--cgroup-manager=cgroupfs", "run", "-b", bundle,
            "bench%d" % os.getpid()]


def main():
    ctl, sock = sys.argv[1], sys.argv[2]
    plain, net, bw = ("sandboxctl run", "sandboxctl run -p net",
                      "bwrap --unshare-all")
    cmds = {plain: [ctl, "-s", sock, "run", "--", "/bin/true"],
            net: [ctl, "-s", sock, "run", "-p", "net", "--", "/bin/true"],
            bw: bwrap_cmd()}
    with tempfile.TemporaryDirectory() as tmp:
        bundle = crun_bundle(tmp)
        if bundle is not None:
            try:
                subprocess.run(crun_cmd(bundle), check=True, timeout=20,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                cmds["crun"] = crun_cmd(bundle)
            except (subprocess.SubprocessError, OSError) as e:
                print("# crun does not run here: %s" % e)
        results = measure(cmds)
    base = results[plain]["median_ms"]
    print("%-24s %10s %10s %10s %16s" % ("start-to-exit /bin/true",
          "median ms", "p90 ms", "min ms", "ours/this median"))
    for name, r in results.items():
        print("%-24s %10.2f %10.2f %10.2f %16.2f" % (
            name, r["median_ms"], r["p90_ms"], r["min_ms"],
            base / r["median_ms"]))
    med = {k: r["median_ms"] for k, r in results.items()}
    ratios = {"net/bwrap": med[net] / med[bw],
              "net/plain": med[net] / med[plain],
              "plain/bwrap": med[plain] / med[bw]}
    met = ratios["net/bwrap"] <= NET_TARGET
    print("ratio of medians")
    print("%-24s %10.2f   target <= %.1fx: %s" % (
        "networked/bwrap", ratios["net/bwrap"], NET_TARGET,
        "met" if met else "MISSED"))
    print("%-24s %10.2f" % ("networked/network-less", ratios["net/plain"]))
    print("%-24s %10.2f" % ("network-less/bwrap", ratios["plain/bwrap"]))
    print(json.dumps({"bench": "start_to_exit", "runs": RUNS,
                      "block": BLOCK, "results": results, "ratios": ratios,
                      "net_target": NET_TARGET, "net_target_met": met}))
    figures = {"start_true_ms": med[plain], "start_net_ms": med[net],
               "start_true_bwrap_ms": med[bw],
               "start_true_ratio_bwrap": ratios["plain/bwrap"],
               "start_net_ratio_bwrap": ratios["net/bwrap"]}
    if "crun" in med:
        figures["start_true_crun_ms"] = med["crun"]
    kv_write(figures)


main()
