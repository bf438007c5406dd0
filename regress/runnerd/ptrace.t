#!/bin/sh
# Tracing inside a sandbox, confined to it.  ptrace, process_vm_readv/
# writev, kcmp and pidfd_getfd work on a process of the tracer's own
# sandbox, and strace -f, gdb -batch and LeakSanitizer work as they do
# bare; every one of those calls fails on the sandbox's pid 1 and on
# processes that are not the sandbox's but sit in its pid namespace
# (put there from the host, the worst a tenant could ever see): one of
# the sandbox's own uid outside its Landlock domain, one of another
# sandbox's uid, and a root one.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 18

setup_users
write_sandbox_conf
check "suite starts" suite_start

a=$(sbx_create)
b=$(sbx_create)
check "two sandboxes created" [ -n "$a" ] && [ -n "$b" ]
ua=$(in_sbx "$a" 'id -u')
ga=$(in_sbx "$a" 'id -g')
ub=$(in_sbx "$b" 'id -u')
p1=$(ctl -j show "$a" | jfield pid sandbox)

# foreign NAME SETPRIV-ARGS: a sleep in a's pid namespace, from the host;
# sets host_NAME and in_NAME to its pid outside and inside.
foreign() {
	_n=$1; shift
	nsenter -t "$p1" -p -- setpriv "$@" sleep 300 &
	_c=
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		_c=$(pgrep -P $! sleep) && break
		sleep 0.1
	done
	eval "host_$_n=$_c"
	eval "in_$_n=$(awk '$1 == "NSpid:" { print $NF }' /proc/$_c/status)"
}
foreign same --reuid="$ua" --regid="$ga" --clear-groups
foreign other --reuid="$ub" --regid="$ub" --clear-groups
foreign root --reuid=0
check "foreign processes entered a's pid namespace ($in_same $in_other $in_root)" \
    [ -n "$in_same" ] && [ -n "$in_other" ] && [ -n "$in_root" ]

ctl put "$a" "$ROOT/regress/runnerd/traceprobe.c" traceprobe.c >/dev/null
in_sbx "$a" 'cc -O0 -o traceprobe traceprobe.c' >"$T/cc.out" 2>&1
is "$?" 0 "the probe compiles inside the sandbox"
in_sbx "$a" "sleep 60 & echo sibling \$!; ./traceprobe \$! 1 $in_same $in_other $in_root; kill \$!" \
    >"$T/probe.out" 2>&1
sib=$(awk '$1 == "sibling" { print $2 }' "$T/probe.out")
# results PID: the five calls' results on one line.
results() { awk -v p="$1" '$1 == p { printf "%s ", $3 }' "$T/probe.out"; }
is "$(results "$sib")" "EFAULT EFAULT ok ok ok " \
    "a process of its own sandbox: process_vm_*, kcmp, pidfd_getfd, ptrace all granted"
is "$(results 1)" "EPERM EPERM EPERM EPERM EPERM " \
    "the sandbox's pid 1: all refused"
is "$(results "$in_same")" "EPERM EPERM EPERM EPERM EPERM " \
    "a host process of the sandbox's own uid: all refused"
is "$(results "$in_other")" "EPERM EPERM EPERM EPERM EPERM " \
    "a process of another sandbox's uid: all refused"
is "$(results "$in_root")" "EPERM EPERM EPERM EPERM EPERM " \
    "a host root process: all refused"
cc -O0 -o "$T/traceprobe" "$ROOT/regress/runnerd/traceprobe.c"
is "$(setpriv --reuid="$ua" --regid="$ga" --clear-groups "$T/traceprobe" "$host_same" | awk '{ printf "%s ", $3 }')" \
    "EFAULT EFAULT ok ok ok " \
    "control: outside any sandbox, the same uid does reach that process"
is "$(in_sbx "$b" 'cat /proc/[0-9]*/comm | grep -c "^sleep$"')" 0 \
    "sandbox b does not see what sits in a's pid namespace"
kill "$host_same" "$host_other" "$host_root" 2>/dev/null

# The allowed twins: the tools.
out=$(in_sbx "$a" 'strace -f -e trace=execve sh -c "/bin/true; echo traced" 2>&1')
check "strace -f follows a child's execve" contains "$out" 'execve("/bin/true"'
check "strace -f: the traced program runs" contains "$out" '^traced'
out=$(in_sbx "$a" 'strace -p 1 2>&1; echo rc=$?')
check "strace -p 1 is refused" contains "$out" 'Operation not permitted'
out=$(in_sbx "$a" 'gdb -batch -ex run -ex bt --args sh -c "kill -SEGV \$\$" 2>&1')
check "gdb -batch runs a program and sees its signal" contains "$out" \
    'received signal SIGSEGV'
printf '#include <stdlib.h>\nvoid *keep;\nint main(void) { keep = malloc(64); keep = 0; return 0; }\n' \
    >"$T/leak.c"
ctl put "$a" "$T/leak.c" leak.c >/dev/null
out=$(in_sbx "$a" 'gcc -fsanitize=address -g -o leak leak.c && ./leak 2>&1; echo rc=$?')
check "LeakSanitizer reports the leak" contains "$out" \
    'Direct leak of 64 byte(s) in 1 object'
check "LeakSanitizer fails the run" contains "$out" 'rc=[1-9]'
check "the sandbox is still alive and its pid 1 its init" \
    [ "$(in_sbx "$a" 'cat /proc/1/comm')" = sbx-init ]

ctl destroy "$a" >/dev/null
ctl destroy "$b" >/dev/null
done_testing
