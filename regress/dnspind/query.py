# query.py NAME [FROM]: one A query for NAME over UDP to the sandboxes'
# resolver 169.254.1.1, sent from address FROM if given (it must be on
# a local interface); prints "rcode N answers M", or "timeout" when no
# answer comes within 3 s.
import socket
import sys

from qlib import RESOLVER, answers, query, rcode

if len(sys.argv) not in (2, 3):
    sys.exit("usage: query.py NAME [FROM]")
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
if len(sys.argv) == 3:
    s.bind((sys.argv[2], 0))
s.settimeout(3)
s.sendto(query(sys.argv[1]), RESOLVER)
try:
    r = s.recv(512)
except socket.timeout:
    print("timeout")
    sys.exit(0)
print("rcode %d answers %d" % (rcode(r), answers(r)))
