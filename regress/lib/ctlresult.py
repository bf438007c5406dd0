"""What the tests' raw control clients share: the imsg header and the
wait for the IMSG_CTL_RESULT that ends a reply (struct ctl_result)."""
import struct

IMSG_CTL_RESULT = 151
HDR = struct.Struct("=IHHII")   # type, len, flags, peerid, pid
CORR, ID, PATH = 33, 17, 1024   # a request's corr, id and path fields


def read_result(s):
    """(error, message) of the first result on socket s, skipping the
    messages before it; None if the daemon closed first."""
    data = b""
    while True:
        d = s.recv(65536)
        if not d:
            return None
        data += d
        while len(data) >= HDR.size:
            t, ln, _, _, _ = HDR.unpack_from(data)
            if len(data) < ln:
                break
            if t == IMSG_CTL_RESULT:
                p = data[HDR.size:ln]
                err = struct.unpack_from("=i", p, CORR + 3)[0]
                return err, p[CORR + 3 + 4:].split(b"\0")[0].decode()
            data = data[ln:]
