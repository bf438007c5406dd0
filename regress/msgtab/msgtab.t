#!/bin/sh
# The message table (lib/msgtab.c): its own checks, then every message
# type of lib/sandboxd_imsg.h has exactly one row: a new type needs one.
B="${SANDBOXD_BUILD:-build}"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$("$B/regress/msgtab/msgtab_test"); rc=$?
printf '%s\n' "$out" | grep -v '^1\.\.'
n=$(printf '%s\n' "$out" | grep -c '^ok\|^not ok')
enum=$(sed -n '/^enum imsg_type {/,/^};/p' "$top/lib/sandboxd_imsg.h" |
    sed -n 's/^[[:space:]]*IMSG_\([A-Z0-9_]*\).*/\1/p' | grep -vx NONE |
    sort)
rows=$("$B/regress/msgtab/msgtab_test" -n | sort)
n=$((n + 1))
if [ -n "$enum" ] && [ "$enum" = "$rows" ]; then
	echo "ok $n - each of the $(echo "$enum" | wc -l) types has one row"
else
	echo "not ok $n - the enum and the table differ"
	printf '%s\n' "$enum" >/tmp/msgtab-enum.$$
	printf '%s\n' "$rows" | diff /tmp/msgtab-enum.$$ - | sed 's/^/# /'
	rm -f /tmp/msgtab-enum.$$
	rc=1
fi
echo "1..$n"
exit $rc
