#!/bin/sh
# The compat corpus (issue 15): real developer workloads run bare, as an
# unprivileged user in a fresh directory, and under sandboxd's default
# policy, compared by outcome: the exit status (zero or not) and the
# line that shows the tool did its work.  A case that passes bare must
# pass under sandboxd.  The cases are regress/compat/cases.sh's, those
# the guest runs too and the lab's own (valgrind, node, java).
#
# Then python's own test suite (Debian's libpython3.11-testsuite), the
# same modules bare, under bwrap --unshare-all and under sandboxd, all
# as nobody in a fresh directory: compared by the names of the tests
# that fail or err, not by counts; none may fail under sandboxd that
# passes bare.  make test runs a fast set of modules; make compat
# (COMPAT_FULL=1) the longer list of issue 15; COMPAT_PYMODS, a list of
# one's own.
. "$(dirname "$0")/../lib/common.sh"
need_root

. "$ROOT/regress/compat/cases.sh"

PYMODS="test_select test_mmap test_resource test_pty test_fcntl"
[ "${COMPAT_FULL:-0}" = 1 ] && PYMODS="$PYMODS test_os test_subprocess
    test_signal test_socket test_threading test_tempfile test_shutil
    test_posix test_asyncio"
PYMODS=$(echo ${COMPAT_PYMODS:-$PYMODS})	# one line, for sh -c
PY=/usr/bin/python3	# Debian's, whose test package is installed
CASES=${COMPAT_ONLY:-$cases $cases_lab}	# COMPAT_ONLY: those cases alone

plan $(($(echo $CASES | wc -w) * 2 + 1 + 5))
setup_users
# "compat": the default policy but for its timeout, which the python
# suite in full (make compat) outlasts.
write_sandbox_conf "policy \"compat\" {
	limits { timeout 30m max 30m }
}"
check "suite starts" suite_start

COMPAT_CASES=$CASES compat_compare "$T" "$SANDBOXCTL" -s "$SOCK"

# The python test suite: regrtest writes a JUnit file; after it, the
# tests that failed or erred, one a line ("FAILED test.MODULE.CLASS.
# NAME"), and each module that failed whole ("test MODULE failed" or
# "crashed", from regrtest's own output).
JUNITPY='
import sys, xml.etree.ElementTree as ET
try:
    cases = list(ET.parse(sys.argv[1]).iter("testcase"))
except (OSError, ET.ParseError) as e:
    print("FAILED junit:", e)
    cases = []
for tc in cases:
    if tc.find("failure") is not None or tc.find("error") is not None:
        print("FAILED", tc.get("name"))
'
PYRUN="$PY -m test -j0 --junit-xml=junit.xml $PYMODS; rc=\$?;
    $PY -c '$JUNITPY' junit.xml; echo \"regrtest exit \$rc\""
# pyfails < OUTPUT: the failing names, sorted.
pyfails() {
	awk '$1 == "FAILED" { print $2; next }
	    /test_[a-z0-9_]+ (crashed|failed \(uncaught exception\))/ {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^test_/) { print "module:" $i; break } }' |
	    sort -u
}
# Intentional differences (runnerd(8), COMPATIBILITY): tests that pass
# bare and fail under the default policy by its design, each with why.
INTENDED="test.test_resource.ResourceTest.test_fsize_ismax"
# pyrun KEY CMD...: the modules under CMD..., as nobody in a fresh
# directory; $T/py.KEY the output, $T/py.KEY.fails the failing names.
pyrun() {
	_k=$1; shift
	_d=$T/py.$_k.d
	mkdir "$_d" && chown nobody "$_d"
	(cd "$_d" && "$@") > "$T/py.$_k" 2>&1
	echo "rc $?" >> "$T/py.$_k"
	pyfails < "$T/py.$_k" > "$T/py.$_k.fails"
	diag "$_k: $(grep -E '^(Tests result|regrtest exit|rc )' "$T/py.$_k" |
	    tr '\n' ' ')"
}
asnobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups env -i \
	    PATH=/usr/local/bin:/usr/bin:/bin HOME="$PWD" "$@"
}
pyrun bare asnobody sh -c "$PYRUN"
pyrun bwrap asnobody bwrap --unshare-all --die-with-parent \
    --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp \
    --bind "$T/py.bwrap.d" "$T/py.bwrap.d" --chdir "$T/py.bwrap.d" \
    sh -c "$PYRUN"
pyrun sandboxd ctl run -p compat -- sh -c "cd /workspace && $PYRUN"
# ran KEY: regrtest ran to its end and its JUnit file was read.
ran() {
	grep -q '^Tests result: ' "$T/py.$1" &&
	    ! grep -q '^FAILED junit:' "$T/py.$1"
}
check "python's test modules ran bare ($PYMODS)" ran bare
check "and under sandboxd" ran sandboxd
check "and under bwrap" ran bwrap
printf '%s\n' $INTENDED | sort > "$T/py.intended"
# worse A B: failing under B (less the intended), passing under A.
worse() {
	comm -13 "$T/py.$1.fails" "$T/py.$2.fails" | comm -23 - "$T/py.intended"
}
is "$(worse bare sandboxd | tr '\n' ' ')" "" \
    "no test fails under sandboxd that passes bare, but the intended"
is "$(worse bwrap sandboxd | tr '\n' ' ')" "" \
    "none that passes under bwrap --unshare-all"
diag "intended, failing under sandboxd: $(comm -12 "$T/py.intended" \
    "$T/py.sandboxd.fails" | tr '\n' ' ')"
for k in bare bwrap sandboxd; do
	[ -s "$T/py.$k.fails" ] && diag "failing $k: $(tr '\n' ' ' < "$T/py.$k.fails")"
	grep -q '^Tests result: SUCCESS' "$T/py.$k" ||
	    grep -E -A3 'FAIL|ERROR|failed|crashed|Error' "$T/py.$k" | tail -n 30 |
	    sed "s/^/$k: /" | while read -r l; do diag "$l"; done
done
done_testing
