# Sourced by the dnspind tests of policy "many" (*.many.test, stub.sh's
# stub_many).  DIALPY, run in a sandbox as python3 -c "$DIALPY" FIRST
# COUNT: nK.many.test for K from FIRST, resolved and dialled; prints
# "connected N failed M".
DIALPY='
import socket, sys
ok = bad = 0
for k in range(int(sys.argv[1]), int(sys.argv[1]) + int(sys.argv[2])):
    try:
        a = socket.getaddrinfo("n%d.many.test" % k, 80, socket.AF_INET,
            socket.SOCK_STREAM)[0][4][0]
        s = socket.socket()
        s.settimeout(0.9)
        s.connect((a, 80))
        ok += s.recv(64).startswith(b"ok")
    except OSError as e:
        bad += 1
        print("failed", k, e, flush=True)
print("connected", ok, "failed", bad)
'
