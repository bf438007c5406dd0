#!/bin/sh
# No set-id bit reaches a host path from a sandbox: a write bind is the
# host's own directory, and a set-uid file left there would make whoever
# runs it on the host the sandbox's uid.  chmod, open/creat with
# O_CREAT, mknod and install refuse set-id modes inside (the plain
# modes work); the bind is mounted nosuid inside; put and get store no
# set-id bit.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 15

setup_users
mkdir -p "$T/scratch"
chmod 0777 "$T/scratch"
write_sandbox_conf "policy \"binds\" {
	filesystem { write \"$T/scratch\" }
}"
check "suite starts" suite_start

a=$(sbx_create binds)
S=$T/scratch
in_sbx "$a" "cp /bin/true $S/t" >/dev/null 2>&1
out=$(in_sbx "$a" "chmod u+s $S/t 2>&1; echo rc=\$?")
check "chmod u+s in a write bind is refused" contains "$out" "Operation not permitted"
out=$(in_sbx "$a" "chmod g+s $S/t 2>&1; echo rc=\$?")
check "chmod g+s too" contains "$out" "Operation not permitted"
out=$(in_sbx "$a" "chmod 6755 $S/t 2>&1; echo rc=\$?")
check "chmod 6755 too" contains "$out" "Operation not permitted"
is "$(stat -c %a "$S/t")" 755 "the host's file has no set-id bit"
in_sbx "$a" "chmod 0700 $S/t" >/dev/null 2>&1
is "$(stat -c %a "$S/t")" 700 "twin: a plain chmod works and reaches the host"
py() { in_sbx "$a" "python3 -c '$1' 2>&1 | tail -1"; }
out=$(py "import os; os.open(\"$S/o\", os.O_CREAT | os.O_WRONLY, 0o4755)")
check "open(O_CREAT) with a set-uid mode is refused" contains "$out" PermissionError
check "and nothing was created" [ ! -e "$S/o" ]
out=$(py "import os; os.mknod(\"$S/n\", 0o104755)")
check "mknod of a set-uid file is refused" contains "$out" PermissionError
out=$(in_sbx "$a" "install -m 4755 /bin/true $S/i 2>&1; echo rc=\$?")
check "install -m 4755 is refused" contains "$out" "rc=1"
check "and leaves no set-uid file" [ ! -u "$S/i" ]
out=$(py "import os; fd = os.open(\"$S/p\", os.O_CREAT | os.O_WRONLY, 0o755); print(\"made\")")
is "$(stat -c %a "$S/p" 2>&1)/$out" 755/made "twin: open(O_CREAT) with a plain mode works"
is "$(in_sbx "$a" "awk -v p=$S '\$5 == p { print \$6 }' /proc/self/mountinfo" | tr , '\n' | grep -c '^nosuid$')" 1 \
    "the write bind is mounted nosuid inside"

cp /bin/true "$T/suidfile"
chmod 4755 "$T/suidfile"
ctl put "$a" "$T/suidfile" s >/dev/null
is "$(in_sbx "$a" 'stat -c %a s')" 755 "put of a set-uid file stores it without the bit"
in_sbx "$a" 'cp /bin/true g; chmod 755 g' >/dev/null
ctl get "$a" g "$T/got" >/dev/null
is "$(stat -c %a "$T/got")" 644 "get stores no mode bit but read and write"
ctl destroy "$a" >/dev/null
done_testing
