#!/bin/sh
# The environment of an exec, built by envd, layer by layer: started
# under an environment full of credentials and bad variables, a sandbox
# sees exactly the documented set, byte for byte; each offending
# variable is skipped and logged by name and reason, never by value.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 19
setup_users

big=$(python3 -c 'print("v" * 5000)')
write_sandbox_conf '
policy "layers" {
	env {
		pass BUILD_NUMBER
		set CI "true"
		set TERM "dumb"
		set HTTP_PROXY "http://policy:8080"
		unset TZ
	}
}'
suite_start_env \
    PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root USER=root \
    SHELL=/bin/bash LANG=C.UTF-8 TERM=xterm-sbx TZ=Europe/Paris \
    TMPDIR=/var/tmp BUILD_NUMBER=42 \
    AWS_SECRET_ACCESS_KEY=secret-aws-7f3a GITHUB_TOKEN=secret-ghp-91c2 \
    RANDOM_q8Zx=secret-rnd-55e1 \
    SANDBOX_DATABASE_URL=postgres://u:secret-db-0b4d@db/x \
    SANDBOX_ENV_HTTP_PROXY=http://proxy:3128 \
    SANDBOX_ENV_NO_PROXY=localhost \
    "SANDBOX_ENV_BIG=$big" \
    "SANDBOX_ENV_A B=secret-space-1d0e" \
    SANDBOX_ENV_EQ=a=b=c \
    "$(printf 'SANDBOX_ENV_BIN=secret-bin-\377\376')" \
    SANDBOX_ENV_=secret-empty-2b7c \
    "$(printf 'SANDBOX_ENV_CTRL=secret-ctl-\001x')" -- ||
    { notok "suite started"; exit 1; }
ok "suite started under a hostile environment"

base="EQ=a=b=c
HOME=/workspace
HTTP_PROXY=http://proxy:3128
LANG=C.UTF-8
LOGNAME=sandbox
NO_PROXY=localhost
PATH=/usr/local/bin:/usr/bin:/bin
SANDBOXD_BROKER=/run/sandboxd/broker.sock
SANDBOXD_BROKER_FD=3
SHELL=/bin/bash
TERM=xterm-sbx
TMPDIR=/var/tmp
TZ=Europe/Paris
USER=sandbox"

out=$(run_sbx -- env)
is "$out" "$base" "system allowlist, the sandbox's own HOME/USER/LOGNAME/PATH and prefix-forwarded variables: exactly"
diag "$out"

want=$(printf '%s\n' "$base" | sed -e 's|^HTTP_PROXY=.*|HTTP_PROXY=http://policy:8080|' \
    -e 's|^TERM=.*|TERM=dumb|' -e '/^TZ=/d'; echo BUILD_NUMBER=42; echo CI=true)
want=$(printf '%s\n' "$want" | sort)
out=$(run_sbx -p layers -- env)
is "$out" "$want" "the policy's pass, set and unset come next"

want=$(printf '%s\n' "$want" | sed -e 's|^CI=.*|CI=false|' \
    -e 's|^HOME=.*|HOME=/home/x|'; echo FOO=bar)
want=$(printf '%s\n' "$want" | sort)
out=$(run_sbx -p layers -e CI=false -e FOO=bar -e 'BAD KEY=1' \
    -e HOME=/home/x -e SANDBOXD_BROKER_FD=9 -- env)
is "$out" "$want" "the exec's -e come last; the broker's variables cannot be overridden"

out=$(run_sbx -- python3 -c 'import sys; sys.stdout.write(
    open("/proc/self/environ").read().replace("\0", "\n"))')
is "$out" "$base" "/proc/self/environ holds the same, in that order, nothing more"
id=$(ctl create)
pid1=$(ctl -j show "$id" | jfield pid sandbox)
is "$(wc -c <"/proc/$pid1/environ")" 0 "the sandbox's pid 1 has an empty environment (read from the host)"
out=$(in_sbx "$id" 'cat /proc/1/environ 2>&1; echo "rc=$?"')
check "inside, /proc/1/environ cannot be read ($(echo $out))" \
    sh -c "printf '%s' '$out' | grep -q 'Permission denied'"
ctl destroy "$id" >/dev/null

log_has() { grep -qF -- "$1" "$LOG"; }
check "an oversized value is skipped and logged" \
    log_has 'prefix variable "BIG" skipped: value longer than 4095 bytes'
check "a name with a space is skipped and logged" \
    log_has 'prefix variable "A B" skipped: name is not of the form'
check "a value that is not UTF-8 is skipped and logged" \
    log_has 'prefix variable "BIN" skipped: value is not UTF-8'
check "an empty name is skipped and logged" \
    log_has 'prefix variable "" skipped: empty name'
check "a control character is skipped and logged" \
    log_has 'prefix variable "CTRL" skipped: value holds a control character'
check "an exec's bad name is skipped and logged" \
    log_has 'exec variable "BAD KEY" skipped: name is not of the form'
check "no credential or skipped value is ever logged" \
    sh -c "! grep -a -e secret- -e vvvvvvvvvv '$LOG'"
check "variables outside the allowlist and the prefix never pass" \
    sh -c "! run_sbx() { :; }; ! printf '%s' '$out' | grep -q -e AWS -e GITHUB -e RANDOM -e DATABASE"

# The budget: the broker's and the sandbox's own first, then the exec's,
# then the rest while it fits.
sed -i 's/^policy "default"/env { budget 250 }\npolicy "default"/' "$T/sandboxd.conf"
ctl reload >/dev/null
wait_for 10 all_ready
x=$(python3 -c 'print("x" * 100)')
out=$(run_sbx -e "BIG=$x" -e FOO=bar -- env)
want="BIG=$x
HOME=/workspace
LOGNAME=sandbox
PATH=/usr/local/bin:/usr/bin:/bin
SANDBOXD_BROKER=/run/sandboxd/broker.sock
SANDBOXD_BROKER_FD=3
USER=sandbox"
is "$out" "$want" "a 250-byte budget keeps the top layers whole and drops what does not fit"
check "each variable over the budget is logged" \
    log_has 'exec variable "FOO" skipped: over the environment budget'
check "... down to the lowest layer" \
    log_has 'system variable "LANG" skipped: over the environment budget'
bytes=$(run_sbx -e "BIG=$x" -e FOO=bar -- env | wc -c)
check "the block is within the budget ($bytes bytes with newlines)" \
    test "$bytes" -le 250

done_testing
