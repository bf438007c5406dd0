#!/bin/sh
# sandboxd.conf grammar: each ok/*.in prints exactly its .ok with -nv
# (and no warning before the kernel report on stderr) and that output is
# a fixed point; each err/*.in is refused with at least
# the file:line errors of its .ok; etc/sandboxd.conf parses.
cd "$(dirname "$0")/../.." || exit 1
SANDBOXD="${SANDBOXD_BUILD:-build}/sandboxd"
D=regress/config
T=$(mktemp -d /tmp/sbxconf.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

if [ ! -x "$SANDBOXD" ]; then
	echo "1..0 # SKIP $SANDBOXD not built"
	exit 0
fi

n=0
failed=0
ok()	{ n=$((n + 1)); echo "ok $n - $*"; }
notok()	{ n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
diag()	{ sed 's/^/# /' "$@"; }

# fixed_point FILE: the -nv output of FILE's -nv output is the same.
fixed_point() {
	"$SANDBOXD" -nv -f "$1" >"$T/first" 2>"$T/err1" &&
	    "$SANDBOXD" -nv -f "$T/first" >"$T/second" 2>"$T/err2" &&
	    cmp -s "$T/first" "$T/second"
}

# A config naming the secrets file gets one of its own, root's, 0600.
with_secrets() {
	sed "s|/etc/sandboxd.secrets|$T/secrets|" "$1" >"$2"
}

check_ok() {
	in=$1
	want=${in%.in}.ok
	if grep -q /etc/sandboxd.secrets "$in"; then
		if [ "$(id -u)" != 0 ]; then
			ok "$in # SKIP its secrets file must be root's"
			ok "$in # SKIP its secrets file must be root's"
			return
		fi
		: >"$T/secrets"
		chmod 0600 "$T/secrets"
		with_secrets "$in" "$T/$(basename "$in")"
		with_secrets "$want" "$T/$(basename "$want")"
		in=$T/$(basename "$in")
		want=$T/$(basename "$want")
	fi
	# Nothing on stderr before the kernel report -nv ends with.
	if "$SANDBOXD" -nv -f "$in" >"$T/out" 2>"$T/err" &&
	    [ -z "$(sed '/^kernel [^ ]*:$/,$d' "$T/err")" ] &&
	    grep -q '^kernel [^ ]*:$' "$T/err" && cmp -s "$T/out" "$want"; then
		ok "$in prints $want"
	else
		notok "$in prints $want"
		diag "$T/err"
		diff -u "$want" "$T/out" | diag
	fi
	if fixed_point "$in"; then
		ok "$in: output is a fixed point"
	else
		notok "$in: output is a fixed point"
		cat "$T/err1" "$T/err2" | diag
		diff -u "$T/first" "$T/second" | diag
	fi
}

# Every expected line must appear in what the parser said.
check_err() {
	in=$1
	want=${in%.in}.ok
	if "$SANDBOXD" -n -f "$in" >"$T/out" 2>"$T/err"; then
		notok "$in is refused"
		return
	fi
	missing=0
	while IFS= read -r line; do
		grep -qF -- "$line" "$T/err" && continue
		missing=1
		echo "missing: $line" | diag
	done <"$want"
	if [ "$missing" = 0 ] && [ -s "$want" ]; then
		ok "$in is refused with every error of $want"
	else
		notok "$in is refused with every error of $want"
		diag "$T/err"
	fi
}

set -- $D/ok/*.in
nok=$#
set -- $D/err/*.in
plan=$((2 * nok + $# + 4))
echo "1..$plan"

for f in $D/ok/*.in; do
	check_ok "$f"
done
for f in $D/err/*.in; do
	check_err "$f"
done

if "$SANDBOXD" -n -f /nonexistent/sandboxd.conf 2>"$T/err" ||
    ! grep -qF "/nonexistent/sandboxd.conf: No such file or directory" \
    "$T/err"; then
	notok "a missing config file is refused"
else
	ok "a missing config file is refused"
fi
if "$SANDBOXD" -nv -f $D/ok/macros.in -D net=10.99.0.0 >"$T/out" 2>&1 &&
    grep -qx "subnet 10.99.0.0/16" "$T/out"; then
	ok "-D overrides a macro of the file"
else
	notok "-D overrides a macro of the file"
	diag "$T/out"
fi
if "$SANDBOXD" -n -f etc/sandboxd.conf >"$T/out" 2>"$T/err"; then
	ok "etc/sandboxd.conf parses"
else
	notok "etc/sandboxd.conf parses"
	diag "$T/err"
fi
if fixed_point etc/sandboxd.conf; then
	ok "etc/sandboxd.conf: output is a fixed point"
else
	notok "etc/sandboxd.conf: output is a fixed point"
	diff -u "$T/first" "$T/second" | diag
fi

[ "$failed" = 0 ]
