#!/bin/sh
# The message table (lib/msgtab.c): its own checks, then every message
# type of lib/sandboxd_imsg.h has exactly one row: a new type needs one;
# and each sender a row names has code that sends it.
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

# Each sender a row names sends it: its code (cmd/PROGRAM, or lib/,
# which every program links; not the table itself) names the type
# other than as a case label or in a comparison, which is receiving.
# A row that lists a mere relay or receiver as a sender fails.
sends() {
	find "$top/cmd/$2" "$top/lib" -name '*.[cy]' ! -name msgtab.c \
	    -exec grep -h -w "IMSG_$1" {} + |
	    grep -v -E -e "case[[:space:]]+IMSG_$1\>" \
	    -e "[=!]=[[:space:]]*IMSG_$1\>" -e "IMSG_$1[[:space:]]*[=!]=" |
	    grep -q .
}
bad=$("$B/regress/msgtab/msgtab_test" -s | while read -r name prog; do
	sends "$name" "$prog" || echo "$name $prog"
done)
n=$((n + 1))
if [ -z "$bad" ] && "$B/regress/msgtab/msgtab_test" -s | grep -q .; then
	echo "ok $n - every sender of a row has code that sends it"
else
	echo "not ok $n - senders in the table whose code never sends it:"
	printf '%s\n' "$bad" | sed 's/^/#   /'
	rc=1
fi
echo "1..$n"
exit $rc
