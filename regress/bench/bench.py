#!/usr/bin/env python3
"""make bench: side by side, in one run, on this machine.

Sandbox start-to-exit of /bin/true through `sandboxctl run` against
`bwrap --unshare-all --die-with-parent` with read-only system binds and
against crun where it runs.  Prints medians and ratios.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = int(os.environ.get("BENCH_RUNS", "200"))


def measure(cmd, runs=RUNS, warmup=10):
    for _ in range(warmup):
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {"median_ms": statistics.median(times),
            "p90_ms": times[int(len(times) * 0.9)],
            "min_ms": times[0]}


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
    ours = [ctl, "-s", sock, "run", "--", "/bin/true"]
    results = {"sandboxctl run": measure(ours)}
    results["bwrap --unshare-all"] = measure(bwrap_cmd())
    with tempfile.TemporaryDirectory() as tmp:
        bundle = crun_bundle(tmp)
        if bundle is not None:
            try:
                subprocess.run(crun_cmd(bundle), check=True, timeout=20,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                results["crun"] = measure(crun_cmd(bundle), runs=RUNS // 2)
            except (subprocess.SubprocessError, OSError) as e:
                print("# crun does not run here: %s" % e)
    base = results["sandboxctl run"]["median_ms"]
    print("%-24s %10s %10s %10s %16s" % ("start-to-exit /bin/true",
          "median ms", "p90 ms", "min ms", "ours/this median"))
    for name, r in results.items():
        print("%-24s %10.2f %10.2f %10.2f %16.2f" % (
            name, r["median_ms"], r["p90_ms"], r["min_ms"],
            base / r["median_ms"]))
    print(json.dumps({"bench": "start_to_exit", "runs": RUNS,
                      "results": results}))


main()
