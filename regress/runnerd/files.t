#!/bin/sh
# put/get move ordinary files intact and refuse every way out of the
# workspace, each with a clear error.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 16

setup_users
write_sandbox_conf
check "suite starts" suite_start
s=$(sbx_create)
head -c 300000 /dev/urandom > "$T/blob"
check "put of a file works" ctl put "$s" "$T/blob" blob
is "$(in_sbx "$s" 'sha256sum < blob')" "$(sha256sum < "$T/blob")" \
    "it arrives intact"
is "$(in_sbx "$s" 'stat -c %u blob')" "$(in_sbx "$s" 'id -u')" \
    "owned by the sandbox's uid"
check "get of a file works" ctl get "$s" blob "$T/back"
check "it comes back intact" cmp -s "$T/blob" "$T/back"

in_sbx "$s" "ln -s /etc/passwd lnk; ln -s /etc dirlnk; ln -s /proc/self/root magic; mkdir d"
refused() {	# desc pattern args...
	d=$1; p=$2; shift 2
	out=$(ctl "$@" 2>&1)
	if [ $? -ne 0 ] && echo "$out" | grep -q -- "$p"; then ok "$d"
	else notok "$d"; diag "$out"; fi
}
refused "put with .. is refused" "must not contain '..'" put "$s" "$T/blob" ../x
refused "put of an absolute path is refused" "relative" put "$s" "$T/blob" /etc/x
refused "get through a symlink out is refused" "symbolic link" get "$s" lnk "$T/x1"
refused "get through a directory symlink out is refused" "escapes" get "$s" dirlnk/passwd "$T/x2"
refused "a /proc magic link is refused" "escapes\|magic" get "$s" magic/etc/passwd "$T/x3"
refused "get of a directory is refused" "directory" get "$s" d "$T/x4"
check "nothing was written by refused gets" sh -c "! ls $T/x1 $T/x2 $T/x3 $T/x4 2>/dev/null | grep -q ."
# A NUL inside the path: sandboxctl cannot send one, a raw client can.
out=$(python3 "$ROOT/regress/runnerd/nulput.py" "$SOCK" "$s" "$T/blob")
check "a path with a NUL byte is refused ($out)" contains "$out" "NUL"
is "$(in_sbx "$s" 'ls /workspace | sort | tr "\n" " "')" "blob d dirlnk lnk magic " \
    "nothing else appeared in the workspace"
check "/etc/passwd on the host is untouched" grep -q '^root:' /etc/passwd
ctl destroy "$s" >/dev/null
done_testing
