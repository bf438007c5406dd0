#!/bin/sh
# Who a sandboxed process is: its own uid, no capabilities, NO_NEW_PRIVS,
# the seccomp filter; the denied syscalls fail while ordinary programs,
# a compiler among them, work.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 41

setup_users
# A working setuid-root binary, shown to the sandbox by a read bind.
mkdir -p "$T/suid"
cp /usr/bin/id "$T/suid/id"
chmod 4755 "$T/suid/id"
write_sandbox_conf "policy \"suid\" {
	filesystem { read \"$T/suid\" }
}"
check "suite starts" suite_start

a=$(sbx_create)
b=$(sbx_create)
ua=$(in_sbx "$a" 'id -u')
ub=$(in_sbx "$b" 'id -u')
check "sandboxes run as unprivileged uids ($ua, $ub)" [ "$ua" -ge 200000 ] && [ "$ub" -ge 200000 ]
check "two live sandboxes have different uids" [ "$ua" != "$ub" ]
st=$(in_sbx "$a" 'grep -E "^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):" /proc/self/status | tr -s "\t" " "')
for f in CapInh CapPrm CapEff CapBnd CapAmb; do
	is "$(echo "$st" | awk -v f="$f:" '$1 == f { print $2 }')" 0000000000000000 "$f is empty"
done
is "$(echo "$st" | awk '$1 == "NoNewPrivs:" { print $2 }')" 1 "NoNewPrivs is 1"
is "$(echo "$st" | awk '$1 == "Seccomp:" { print $2 }')" 2 "Seccomp is 2 (filter)"

is "$(setpriv --reuid=65534 --regid=65534 --clear-groups "$T/suid/id" -u)" 0 \
    "outside, the setuid binary does make its caller root"
s=$(sbx_create suid)
is "$(in_sbx "$s" "$T/suid/id -u")" "$(in_sbx "$s" 'id -u')" \
    "inside, the setuid-root binary gains nothing"

ctl put "$a" "$ROOT/regress/runnerd/sysprobe.c" sysprobe.c >/dev/null
in_sbx "$a" 'cc -O0 -o sysprobe sysprobe.c' >"$T/cc.out" 2>&1
is "$?" 0 "a C compiler works inside the sandbox"
in_sbx "$a" './sysprobe' > "$T/probe.out" 2>&1
for sc in mount umount2 pivot_root unshare setns clone_newuser \
    bpf perf_event_open keyctl add_key \
    request_key kexec_load kexec_file_load init_module finit_module \
    delete_module open_by_handle_at userfaultfd io_uring_setup \
    io_uring_enter io_uring_register; do
	r=$(awk -v s="$sc" '$1 == s { print $2 }' "$T/probe.out")
	check "$sc is denied ($r)" [ "$r" = EPERM ]
done
is "$(awk '$1 == "clone3" { print $2 }' "$T/probe.out")" ENOSYS \
    "clone3 says ENOSYS, so libc falls back to a checked clone"
is "$(awk '$1 == "getpid" || $1 == "openat" || $1 == "fork" || $1 == "mmap" { print $2 }' "$T/probe.out" | sort -u)" \
    ok "getpid, openat, fork and mmap work"
out=$(in_sbx "$a" './sysprobe i386; echo rc=$?' 2>&1)
check "the i386 entry point kills the process" contains "$out" "rc=159"
out=$(in_sbx "$a" './sysprobe x32; echo rc=$?' 2>&1)
check "the x32 entry point is refused" contains "$out" "rc=159\|x32 EPERM\|x32 ENOSYS"
is "$(in_sbx "$a" 'python3 -c "import subprocess, threading; t = threading.Thread(target=print); t.start(); t.join(); print(subprocess.run([\"echo\", \"py\"], capture_output=True).stdout.decode().strip())"' | tail -1)" \
    py "python3 with threads and subprocess works"
is "$(in_sbx "$a" 'echo a b c | wc -w')" 3 "sh and coreutils work"
for id in $a $b $s; do ctl destroy "$id" >/dev/null; done
check "suite stops" suite_stop
done_testing
