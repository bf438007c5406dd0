#!/bin/sh
# A policy's filesystem block: a prepared root instead of the host's
# system directories, extra binds, and a kernel-enforced exec allowlist.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 10

setup_users
# A root of our own: dash, the C library, the loader and a marker.
R="$T/rootfs"
mkdir -p "$R/usr/bin" "$R/usr/lib/x86_64-linux-gnu" "$R/usr/lib64" \
    "$R/usr/share"
cp /usr/bin/dash "$R/usr/bin/dash"
ln -s dash "$R/usr/bin/sh"
cp /lib/x86_64-linux-gnu/libc.so.6 "$R/usr/lib/x86_64-linux-gnu/"
cp /lib64/ld-linux-x86-64.so.2 "$R/usr/lib64/"
ln -s usr/bin "$R/bin"
ln -s usr/lib "$R/lib"
ln -s usr/lib64 "$R/lib64"
echo "prepared root" > "$R/usr/share/marker"
mkdir -p "$T/data" "$T/scratch"
chmod 0777 "$T/scratch"	# the sandbox's uid must be able to write it
echo "operator data" > "$T/data/file"
write_sandbox_conf "policy \"rooted\" {
	filesystem { root \"$R\" }
}
policy \"binds\" {
	filesystem { read \"$T/data\"; write \"$T/scratch\" }
}
policy \"allowlist\" {
	filesystem { exec \"/usr/bin/dash\"; exec \"/usr/bin/cat\" }
}"
check "suite starts" suite_start

is "$(run_sbx -p rooted -- sh -c 'read l < /usr/share/marker; echo $l')" \
    "prepared root" "a policy's root replaces the host's system directories"
is "$(run_sbx -p rooted -- sh -c 'test -e /usr/bin/python3 && echo host || echo own')" \
    own "and the host's programs are not there"
is "$(run_sbx -p binds -- cat "$T/data/file")" "operator data" \
    "a read bind shows the host directory"
out=$(run_sbx -p binds -- sh -c "echo x > $T/data/new" 2>&1)
check "a read bind refuses writes" contains "$out" "Read-only"
is "$(run_sbx -p binds -- sh -c "echo w > $T/scratch/out && echo ok")" ok \
    "a write bind accepts writes"
is "$(cat "$T/scratch/out")" w "which reach the host directory"
out=$(run_sbx -p allowlist -- sh -c 'cat /etc/hostname')
check "an allowlisted program runs ($out)" contains "$out" "^sbx-"
out=$(run_sbx -p allowlist -- sh -c 'ls /' 2>&1)
check "a program off the exec allowlist is refused by the kernel" contains "$out" "Permission denied"
out=$(run_sbx -p allowlist -- sh -c 'cp /usr/bin/ls /tmp/myls; /tmp/myls /' 2>&1)
check "so is a copy of it under another name" contains "$out" "Permission denied\|not found"
done_testing
