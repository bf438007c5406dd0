#!/usr/bin/env python3
# Talk to a service through sandboxctl service attach, as a plugin host
# would: JSON-RPC 2.0 frames in, the answers read back.
#   svc_client.py CALLS SANDBOXCTL ARGS...
# CALLS is a JSON list of [method, params]; one line per answer's result
# is printed (JSON), then "exit N" for sandboxctl's status.
#   svc_client.py --bytes N SANDBOXCTL ARGS...
# N echo requests with bodies of every byte value and sizes up to 256 KB;
# prints how many came back byte for byte.
from framing import frame, read_frame
import json, random, subprocess, sys

def calls(spec, cmd):
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    for i, (m, params) in enumerate(spec):
        p.stdin.write(frame(json.dumps({"jsonrpc": "2.0", "id": i,
                                        "method": m, "params": params}).encode()))
        p.stdin.flush()
        b = read_frame(p.stdout)
        if b is None:
            print("no answer")
            break
        r = json.loads(b)
        print(json.dumps(r.get("result", r.get("params")), sort_keys=True))
    p.stdin.close()
    rest = p.stdout.read()
    err = p.stderr.read().decode(errors="replace").strip()
    if err:
        print("stderr:", err)
    print("exit", p.wait())

def nbytes(n, cmd):
    rnd = random.Random(11)
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    good = 0
    for i in range(n):
        size = rnd.choice([1, 100, 4096, 65537, 262144])
        raw = bytes(rnd.randrange(256) for _ in range(size))
        # every byte value, carried as a JSON string of code points
        params = [raw.decode("latin-1")]
        body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "echo",
                           "params": params}).encode()
        p.stdin.write(frame(body))
        p.stdin.flush()
        if read_frame(p.stdout) == body:
            good += 1
    p.stdin.close()
    p.stdout.read()
    print("byte-exact %d of %d" % (good, n))
    print("exit", p.wait())

if sys.argv[1] == "--bytes":
    nbytes(int(sys.argv[2]), sys.argv[3:])
else:
    calls(json.loads(sys.argv[1]), sys.argv[2:])
