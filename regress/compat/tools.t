#!/bin/sh
# The start of the compat corpus (issue 15): real developer workloads
# run bare, as an unprivileged user in a fresh directory, and under
# sandboxd's default policy, compared by outcome: the exit status (zero
# or not) and the line that shows the tool did its work.  A case that
# passes bare must pass under sandboxd.  Fast enough for make test;
# `make compat` runs regress/compat/ alone.  Still missing from the
# issue's list: valgrind, python's own test suite modules
# (libpython3.11-testsuite is not installed), node and java.
. "$(dirname "$0")/../lib/common.sh"
need_root

. "$ROOT/regress/compat/cases.sh"

plan $((ncases * 2 + 1))
setup_users
write_sandbox_conf
check "suite starts" suite_start

compat_compare "$T" "$SANDBOXCTL" -s "$SOCK"
done_testing
