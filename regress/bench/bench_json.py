#!/usr/bin/env python3
"""bench_json.py [-d DRIVER]... KV JSON: the "key value" lines the bench
drivers appended to KV (kv.sh) as one flat JSON object of numbers in
JSON, written whole through a temporary file.  Exits 1, naming them, if
a line is not "key number", a key comes twice, or a figure of the
DRIVERs (with none given, of every driver) is missing; what was read is
written all the same.  bench.sh and regress/bench/smoke.t use it.

bench_json.py -t JSON: the table of README's "Performance" section.
"""
import json
import math
import os
import re
import sys

# What each driver must give (regress/bench/DRIVER_bench.sh); README's
# "Performance" table lists them.
EXPECTED = {
    "start": ("start_true_ms", "start_true_bwrap_ms", "start_net_ms",
              "start_true_ratio_bwrap", "start_net_ratio_bwrap"),
    "life": ("host_kib_per_sandbox", "host_kib_daemons_per_sandbox",
             "host_kib_pid1_per_sandbox", "create_live_4000_s",
             "create_exec_p50_ms",
             "create_exec_p99_ms", "create_rate_per_s_100",
             "create_rate_100_failed", "concurrent_runs_1000_completed",
             "concurrent_runs_1000_s", "life_teardown_s",
             "settle_s_after_life_memory"),
    "netd": ("net_identity_ms_1", "net_identity_ms_4000",
             "net_identity_ratio_4000", "net_identity_claim_ms_1",
             "net_identity_claim_ms_4000", "net_identity_claim_ratio_4000",
             "net_identity_spare_ms_1", "net_identity_spare_ms_4000",
             "net_identity_spare_ratio_4000", "netd_datapath_ms_1",
             "netd_datapath_ms_4000", "netd_datapath_ratio_4000"),
    "dns": ("dns_repeat_qps_1", "dns_repeat_qps_4000", "dnsmasq_qps_1",
            "dnsmasq_qps_4000", "dnsmasq_cache_qps_4000",
            "dns_repeat_ratio_dnsmasq_4000", "dnsmasq_cache_bare_qps_4000",
            "dns_repeat_ratio_dnsmasq_bare_4000",
            "dns_repeat_ratio_dnsmasq_nocache_4000",
            "dns_repeat_cpu_us_4000", "dnsmasq_cache_cpu_us_4000",
            "dns_repeat_cpu_ratio_dnsmasq_4000", "dns_newpin_cpu_us_4000",
            "dns_newpin_qps_1", "dns_newpin_qps_4000", "dns_teardown_s"),
    "failclosed": ("failclosed_recovery_flush_ms",
                   "failclosed_recovery_replace_ms",
                   "failclosed_recovery_delete_ms",
                   "failclosed_recovery_netd_ms",
                   "failclosed_recovery_master_ms",
                   "failclosed_recovery_ms_max", "failclosed_denied_pkts"),
    # bench.sh's settle.py, before the first driver.
    "settle": ("settle_s_before",),
}
# And after each driver: the kernel's cleanup of what it deleted.
for _d in list(EXPECTED):
    if _d != "settle":
        EXPECTED[_d] += tuple("settle_%s_after_%s" % (k, _d) for k in
                              ("s", "netns_left", "cgroups_left"))
# -t: what each figure is, and its target (issue 18), for README.
TABLE = (
    ("start_true_ms", "run /bin/true, median ms", ""),
    ("start_true_bwrap_ms", "bwrap's, same run", ""),
    ("start_true_ratio_bwrap", "ours / bwrap's", "<= 0.6"),
    ("start_net_ms", "the same with a network", ""),
    ("start_net_ratio_bwrap", "with a network / bwrap's", "<= 1.0"),
    ("net_identity_ms_1", "whole net identity, 1 live", ""),
    ("net_identity_ms_4000", "the same, 4000 live", ""),
    ("net_identity_ratio_4000", "4000 / 1", "<= 1.2"),
    ("net_identity_claim_ms_4000", "a create's, spare ready, 4000", ""),
    ("net_identity_claim_ratio_4000", "4000 / 1", "<= 1.2"),
    ("net_identity_spare_ms_4000", "a spare made ahead, 4000", ""),
    ("netd_datapath_ms_4000", "datapath add+del, 4000", "< 1"),
    ("dns_repeat_qps_4000", "repeat answers/s, 4000", ">= 60000"),
    ("dnsmasq_cache_qps_4000", "dnsmasq's, cache on, netd's rules", ""),
    ("dns_repeat_ratio_dnsmasq_4000", "dnspind / dnsmasq cache on", ">= 1.5"),
    ("dnsmasq_cache_bare_qps_4000", "dnsmasq's, cache on, no rules", ""),
    ("dns_repeat_ratio_dnsmasq_bare_4000", "dnspind / that", ""),
    ("dnsmasq_qps_4000", "dnsmasq's, cache off, same run", ""),
    ("dns_repeat_ratio_dnsmasq_nocache_4000", "dnspind / cache off", ""),
    ("dns_repeat_cpu_us_4000", "CPU us a repeat answer, 4000", ""),
    ("dnsmasq_cache_cpu_us_4000", "dnsmasq's, cache on, rules", ""),
    ("dns_repeat_cpu_ratio_dnsmasq_4000", "answers a core, dnspind/dnsmasq",
     ""),
    ("dns_newpin_qps_4000", "new-pin answers/s, 4000", ">= 20000"),
    ("dns_newpin_cpu_us_4000", "CPU us a new-pin answer, 4000", ""),
    ("concurrent_runs_1000_completed", "of 1000 concurrent runs", "1000"),
    ("concurrent_runs_1000_s", "all of them, seconds", ""),
    ("host_kib_per_sandbox", "KiB a sandbox, idle", "<= 16"),
    ("host_kib_daemons_per_sandbox", "of it in the daemons", ""),
    ("host_kib_pid1_per_sandbox", "of it in its process 1", ""),
    ("create_live_4000_s", "making 4000, 4 at a time, s", ""),
    ("create_exec_p50_ms", "create+exec+destroy p50", ""),
    ("create_exec_p99_ms", "create+exec+destroy p99", "<= 10"),
    ("create_rate_per_s_100", "creates/s, 100 creators", ">= 200"),
    ("create_rate_100_failed", "creates refused of 500", "0"),
    ("settle_s_after_life_memory", "kernel cleanup of its 4000, s", ""),
    ("life_teardown_s", "the rest gone after the stop, s", ""),
    ("settle_s_after_life", "kernel cleanup after life, s", ""),
    ("settle_s_after_netd", "the same after netd", ""),
    ("dns_teardown_s", "dns's 4000 gone after the stop", ""),
    ("settle_s_after_dns", "kernel cleanup after dns, s", ""),
    ("settle_netns_left_after_dns", "namespaces not freed by then", ""),
    ("settle_cgroups_left_after_dns", "cgroups still dying by then", ""),
    ("failclosed_recovery_ms_max", "twin back after fw/crash, ms", "< 1000"),
    ("failclosed_recovery_master_ms", "of it, master killed+restarted", ""),
    ("failclosed_denied_pkts", "denied packets that passed", "0"),
)


def table(path):
    with open(path) as f:
        fig = json.load(f)
    row = "  %-31s %7s  %-28s %s"
    print(row % ("key", "value", "what", "target"))
    for k, what, target in TABLE:
        v = fig.get(k)
        v = "-" if v is None else ("%d" % v if isinstance(v, int) or
                                   v >= 1000 else "%.2f" % v)
        print((row % (k, v, what, target)).rstrip())
    return 0


KEY = re.compile(r"^[a-z][a-z0-9_]*$")


def read_kv(path, errors):
    fig = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            parts = line.split()
            where = "%s:%d" % (path, n)
            if len(parts) != 2 or not KEY.match(parts[0]):
                errors.append("%s: not \"key value\": %r" % (where, line))
                continue
            k, v = parts
            try:
                x = float(v)
            except ValueError:
                x = math.nan
            if not math.isfinite(x):
                errors.append("%s: %s: not a number: %r" % (where, k, v))
                continue
            if k in fig:
                errors.append("%s: %s: given twice" % (where, k))
                continue
            fig[k] = int(x) if x.is_integer() and abs(x) < 2**53 else x
    return fig


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "-t":
        return table(sys.argv[2])
    args, drivers = sys.argv[1:], []
    while len(args) >= 2 and args[0] == "-d" and args[1] in EXPECTED:
        drivers.append(args[1])
        args = args[2:]
    if len(args) != 2:
        print("usage: bench_json.py [-d %s]... KV JSON" %
              " | ".join(EXPECTED), file=sys.stderr)
        return 2
    kv, out = args
    want = [k for d in (drivers or EXPECTED) for k in EXPECTED[d]]
    errors = []
    fig = read_kv(kv, errors) if os.path.exists(kv) else {}
    errors += ["%s: missing" % k for k in want if k not in fig]
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(fig, f, indent=1, sort_keys=True)
        f.write("\n")
    os.rename(tmp, out)
    for e in errors:
        print("bench_json: %s" % e, file=sys.stderr)
    return 1 if errors else 0


sys.exit(main())
