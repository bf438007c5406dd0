# Content-Length framing of JSON-RPC 2.0, for the host-side drivers.

def frame(body):
    return b"Content-Length: %d\r\n\r\n" % len(body) + body

def read_frame(f):
    """One frame's body from file f, None at EOF."""
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        c = f.read(1)
        if not c:
            return None
        head += c
    n = int(head.split(b":")[1])
    return f.read(n)
