# udpflow.py LPORT [ADDR PORT]: a UDP socket on LPORT that prints every
# datagram it gets, after sending "hello" to ADDR PORT if given.
# udpflow.py -s SRC SPORT ADDR PORT TEXT: send TEXT from SRC:SPORT.
import socket, sys

if sys.argv[1] == "-s":
    src, sport, addr, port, text = sys.argv[2:7]
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((src, int(sport)))
    s.sendto(text.encode(), (addr, int(port)))
    sys.exit(0)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", int(sys.argv[1])))
if len(sys.argv) > 3:
    s.sendto(b"hello\n", (sys.argv[2], int(sys.argv[3])))
print("ready", flush=True)
while True:
    data, peer = s.recvfrom(4096)
    print(data.decode().strip(), flush=True)
