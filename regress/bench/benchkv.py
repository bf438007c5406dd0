"""What the Python bench drivers share: their figures, as "key value"
lines appended to $BENCH_KV for bench_json.py (nothing without it)."""
import os


def kv_write(figures):
    path = os.environ.get("BENCH_KV")
    if not path:
        return
    with open(path, "a") as f:
        for k, v in figures.items():
            f.write("%s %r\n" % (k, float(v)))
