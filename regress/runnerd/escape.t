#!/bin/sh
# What a sandbox writes reaches the operator's terminal escaped: control
# characters, C1 controls, bidirectional overrides and ill-formed UTF-8
# become \xNN or \u{NNNN} when sandboxctl's output is a terminal (a
# pty here), while -r, a pipe or a file get the bytes as they are, and
# well-formed text, newlines and tabs pass unchanged.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 15

setup_users
write_sandbox_conf
check "suite starts" suite_start

# on_pty ARGS...: sandboxctl's stdout and stderr on a pty; what the pty
# got, with its \r\n turned back into \n, on stdout.
on_pty() {
	python3 - "$SANDBOXCTL" -s "$SOCK" "$@" <<'PY'
import os, pty, subprocess, sys
m, s = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=s,
    stderr=s)
os.close(s)
out = b""
while True:
    try:
        b = os.read(m, 65536)
    except OSError:
        break
    if not b:
        break
    out += b
p.wait()
sys.stdout.buffer.write(out.replace(b"\r\n", b"\n"))
PY
}
evil='printf "\033]0;pwned\007\033[2Jhi\n"; printf "\302\233c \342\200\256x \377 t\tab\n"; printf "err\033[31m\n" >&2'
out=$(on_pty run -- sh -c "$evil")
check "no ESC byte reaches the terminal" [ -z "$(printf '%s' "$out" | tr -dc '\033')" ]
check "no BEL byte either" [ -z "$(printf '%s' "$out" | tr -dc '\007')" ]
check "the OSC and CSI sequences are shown escaped" contains "$out" \
    '\\x1b]0;pwned\\x07\\x1b\[2Jhi'
check "a C1 control (U+009B, CSI) is escaped" contains "$out" '\\u{009b}c'
check "a bidi override (U+202E) is escaped" contains "$out" '\\u{202e}x'
check "an ill-formed byte is escaped" contains "$out" ' \\xff '
check "a tab passes" contains "$out" "$(printf ' t\tab')"
check "stderr is escaped too" contains "$out" 'err\\x1b\[31m'
out=$(on_pty run -- sh -c 'printf "h\303\251llo \342\234\223 "; sleep 0.3; printf "\303"; sleep 0.3; printf "\251\n"')
is "$out" "héllo ✓ é" "well-formed UTF-8 passes, also a character cut between two reads"
out=$(on_pty -r run -- sh -c "$evil")
check "-r: the raw bytes reach the terminal" contains "$out" "$(printf '\033]0;pwned\007')"
ctl run -- sh -c "$evil" > "$T/pipe.out" 2>&1
check "into a file, the bytes are as they were" grep -q "$(printf '\033\[2Jhi')" "$T/pipe.out"
is "$(ctl run -- sh -c 'printf "\033x\n"' | od -An -c | tr -s ' ')" ' 033 x \n' \
    "into a pipe too"
a=$(sbx_create)
out=$(on_pty exec "$a" -- sh -c 'printf "\033[5mblink\n"')
check "sandboxctl exec escapes as run does" contains "$out" '\\x1b\[5mblink'
ctl destroy "$a" >/dev/null
# attach lingers while the service writes: it writes for 3 s, then waits.
ctl service start e -- sh -c 'for i in $(seq 30); do printf "\033[2Jsvc\n"; sleep 0.1; done; sleep 1000' >/dev/null
sleep 0.5
out=$(on_pty service attach e)
check "service attach escapes too" contains "$out" '\\x1b\[2Jsvc'
ctl service stop e >/dev/null 2>&1
done_testing
