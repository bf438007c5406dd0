#!/bin/sh
# runnerd keeps the environment envd built for a policy's exec without
# -e and gives it to the next sandbox's first exec (envcache.c): that
# exec's environment is byte for byte what envd builds, its broker
# channel on fd 3 is its own and answers, an exec with -e is neither
# served from nor put into the cache, and a reload that changes the
# policy's env is seen by the very next run.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 10
setup_users

npm="s3cr3t-npm-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
printf 'NPM_TOKEN=%s\n' "$npm" >"$T/secrets"
chmod 0600 "$T/secrets"
C=$ROOT/regress/envd
conf() {
	write_sandbox_conf "
secrets \"$T/secrets\"
policy \"p\" {
	filesystem { read \"$C\" }
	env { set GREETING \"$1\" }
	secrets { permit \"NPM_TOKEN\" }
}"
}
conf hello
suite_start || { notok "suite started"; exit 1; }
ok "suite started"
cached() { grep -c "environment of policy p from the cache" "$LOG"; }

first=$(ctl run -p p -- env)
n0=$(cached)
second=$(ctl run -p p -- env)
n1=$(cached)
check "the second run's environment came from the cache" [ "$n1" -gt "$n0" ]
is "$second" "$first" "and is byte for byte the one envd built"
diag "$second"

sha=$(printf '%s' "$npm" | sha256sum | cut -d' ' -f1)
out=$(ctl run -p p -- python3 "$C/client.py" -f call secrets.get NPM_TOKEN)
check "a cached run's broker channel on fd 3 answers" contains "$out" "$sha"
check "it was a cached run" [ "$(cached)" -gt "$n1" ]

n2=$(cached)
out=$(ctl run -p p -e EXTRA=1 -- env)
check "a run with -e has its variable" contains "$out" '^EXTRA=1$'
check "and was built by envd, not taken from the cache" [ "$(cached)" = "$n2" ]
out=$(ctl run -p p -- env)
check "the next run without -e does not have it" \
    sh -c '! printf "%s\n" "$1" | grep -q "^EXTRA="' _ "$out"

conf bye
ctl reload >/dev/null
out=$(ctl run -p p -- env)
check "after a reload, the very next run has the new policy env" \
    contains "$out" '^GREETING=bye$'
out=$(ctl run -p p -- env)
check "and so has the run after it" contains "$out" '^GREETING=bye$'
done_testing
