# query.py NAME [FROM]: one A query for NAME over UDP to the sandboxes'
# resolver 169.254.1.1, sent from address FROM if given (it must be on
# a local interface); prints "rcode N answers M", or "timeout" when no
# answer comes within 3 s.
import socket
import struct
import sys

if len(sys.argv) not in (2, 3):
    sys.exit("usage: query.py NAME [FROM]")
q = struct.pack(">HHHHHH", 0x5151, 0x0100, 1, 0, 0, 0)
for label in sys.argv[1].split("."):
    q += bytes([len(label)]) + label.encode()
q += b"\0" + struct.pack(">HH", 1, 1)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
if len(sys.argv) == 3:
    s.bind((sys.argv[2], 0))
s.settimeout(3)
s.sendto(q, ("169.254.1.1", 53))
try:
    r = s.recv(512)
except socket.timeout:
    print("timeout")
    sys.exit(0)
print("rcode %d answers %d" % (r[3] & 15, struct.unpack(">H", r[6:8])[0]))
