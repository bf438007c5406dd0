# badimsg.py DNSPIND RUNNERD: a copy of dnspind's end of its channel to
# runnerd (pidfd_getfd) writes runnerd an imsg of a type that channel
# never carries, as a dnspind gone bad could.  Run in the suite's netns
# (ss sees its sockets); prints "written".
import ctypes
import os
import re
import struct
import subprocess
import sys

dnspind, runnerd = int(sys.argv[1]), int(sys.argv[2])
ss = subprocess.run(["ss", "-xpn"], capture_output=True, text=True).stdout
ino = {}
for l in ss.splitlines():
    f = l.split()
    if len(f) < 9 or not f[0].startswith("u_str"):
        continue
    for pid, fd in re.findall(r"pid=(\d+),fd=(\d+)", l):
        ino[f[5]] = (int(pid), int(fd), f[7])
ends = [(fd, peer) for (pid, fd, peer) in ino.values() if pid == dnspind
    and peer in ino and ino[peer][0] == runnerd]
if len(ends) != 1:
    sys.exit("dnspind has %d channels to runnerd" % len(ends))
libc = ctypes.CDLL(None, use_errno=True)
pfd = os.pidfd_open(dnspind)
fd = libc.syscall(438, pfd, ends[0][0], 0)
if fd < 0:
    sys.exit("pidfd_getfd: %s" % os.strerror(ctypes.get_errno()))
os.write(fd, struct.pack("=IHHII", 0xfffe, 16, 0, 0, dnspind))
print("written")
