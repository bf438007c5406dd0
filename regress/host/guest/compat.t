#!/bin/sh
# The compat corpus (regress/compat/cases.sh) under the installed,
# hardened unit: every restriction of sandboxd.service is inherited by
# each sandbox, so a workload that passes bare in this guest (as nobody,
# in a fresh directory) must pass under sandboxd's default policy as
# installed from etc/sandboxd.conf too: LeakSanitizer, strace, gdb,
# gcc and make -j, git, python.
. "${SBX_SRC:-.}/regress/host/guest/lib.sh"
. "$SBX_SRC/regress/compat/cases.sh"

TMP=$(mktemp -d /var/tmp/compat.XXXXXX)
chmod 0755 "$TMP"
trap 'rm -rf "$TMP"' EXIT

plan $((ncases * 2 + 1))
check "sandboxd.service is active and answers" wait_for 60 sbx_ready
compat_compare "$TMP" sandboxctl
done_testing
