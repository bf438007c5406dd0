#!/bin/sh
# With stderr the stream $JOURNAL_STREAM names (as systemd sets it), each
# line of the master and of every child starts with its sd-daemon(3)
# priority; with a $JOURNAL_STREAM that names another file, none does.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 10

setup_users
write_conf ""
: > "$LOG"
export JOURNAL_STREAM="$(stat -c '%d:%i' "$LOG")"
check "suite starts with JOURNAL_STREAM naming its stderr" suite_start
unset JOURNAL_STREAM
echo 'bogus' >> "$T/sandboxd.conf"
ctl reload >/dev/null 2>&1
write_conf ""
ctl reload >/dev/null 2>&1

check "the master's info lines carry <6>" grep -q '^<6>sandboxd\[[0-9]*\]: started' "$LOG"
check "its errors carry <3>" grep -q '^<3>sandboxd\[[0-9]*\]: .*unknown keyword "bogus"' "$LOG"
for p in netd runnerd; do
	check "$p's lines carry them too" grep -q "^<6>$p\\[[0-9]*\\]: config generation" "$LOG"
done
is "$(grep -c -v '^<[0-7]>' "$LOG")" 0 "every line has a prefix"
check "suite stops" suite_stop
ip netns del "$NS"

# Another file's dev:ino: stderr is not the journal, no prefixes.
: > "$LOG"
export JOURNAL_STREAM="$(stat -c '%d:%i' "$T/sandboxd.conf")"
check "suite starts with JOURNAL_STREAM naming another file" suite_start
unset JOURNAL_STREAM
is "$(grep -c '^<[0-7]>' "$LOG")" 0 "no line has a prefix"
check "suite stops" suite_stop
done_testing
