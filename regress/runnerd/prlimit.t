#!/bin/sh
# prlimit(2) inside a sandbox sets only the caller's own limits (pid 0,
# which is what setrlimit(2) and ulimit use); another process's, pid 1's
# above all, are refused, though they may still be read.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 8

setup_users
write_sandbox_conf
check "suite starts" suite_start

a=$(sbx_create)
# nofile: the soft open files limit of pid P, as the sandbox reads it.
nofile() { in_sbx "$a" "awk '/^Max open files/ { print \$4 }' /proc/$1/limits"; }
before=$(nofile 1)
out=$(in_sbx "$a" 'prlimit --pid 1 --nofile=4:4 2>&1; echo rc=$?')
check "prlimit on pid 1 is refused ($out)" contains "$out" "Operation not permitted"
is "$(nofile 1)" "$before" "pid 1's limit is unchanged ($before)"
out=$(in_sbx "$a" 'sleep 30 & p=$!; prlimit --pid $p --cpu=1:1 2>&1; echo rc=$?; kill $p')
check "prlimit on a sibling process is refused too" contains "$out" "Operation not permitted"
out=$(in_sbx "$a" 'prlimit --pid 1 --nofile --output SOFT --noheadings; echo rc=$?')
check "reading pid 1's limits works ($out)" contains "$out" "rc=0"
is "$(in_sbx "$a" 'ulimit -n 17; ulimit -n')" 17 "ulimit (setrlimit) on oneself works"
is "$(in_sbx "$a" 'prlimit --nofile=19:19 sh -c "ulimit -n"')" 19 \
    "prlimit(1) setting its own limit before running a command works"
is "$(in_sbx "$a" 'python3 -c "import resource as r; r.prlimit(0, r.RLIMIT_NOFILE, (23, 23)); print(r.getrlimit(r.RLIMIT_NOFILE)[0])"')" \
    23 "prlimit(0, ...) from python works"
ctl destroy "$a" >/dev/null
done_testing
