#!/bin/sh
# The secrets file: refused unless root owns it and no one else may
# read or write it, with a clear message that never quotes a value; a
# failed reload keeps the secrets the daemon had.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 14
setup_users
C=$ROOT/regress/envd
S=$T/secrets
old="s3cr3t-old-$$"
new="s3cr3t-new-$$"
printf 'NPM_TOKEN=%s\n' "$old" >"$S"
chmod 0600 "$S"
write_sandbox_conf "
secrets \"$S\"
policy \"sec\" {
	filesystem { read \"$C\" }
	secrets { permit \"NPM_TOKEN\" }
}"
check_conf() { "$SANDBOXD" -n -f "$T/sandboxd.conf" >"$T/out" 2>&1; }

check "a root-owned 0600 secrets file is accepted" check_conf
chmod 0644 "$S"
check "mode 0644 is refused" sh -c "! '$SANDBOXD' -n -f '$T/sandboxd.conf' >'$T/out' 2>&1"
check "... saying why" grep -qF "secrets file $S: mode 0644 lets others at it; it must be 0600 or 0400" "$T/out"
chmod 0600 "$S"
chown 1:1 "$S"
check_conf
check "a file not owned by root is refused, saying why" \
    grep -qF "secrets file $S: owned by uid 1; it must be owned by root" "$T/out"
chown 0:0 "$S"
ln -s "$S" "$T/link"
sed "s|$S|$T/link|" "$T/sandboxd.conf" >"$T/link.conf"
"$SANDBOXD" -n -f "$T/link.conf" >"$T/out" 2>&1
check "a symbolic link is refused" grep -qF "secrets file $T/link:" "$T/out"
printf 'NPM_TOKEN=%s\nthis line has no equals %s\n' "$old" "$old" >"$T/bad"
chmod 0600 "$T/bad"
sed "s|$S|$T/bad|" "$T/sandboxd.conf" >"$T/bad.conf"
"$SANDBOXD" -n -f "$T/bad.conf" >"$T/out" 2>&1
check "a malformed line is refused with file:line" grep -qF "$T/bad:2: not NAME=value" "$T/out"
printf 'NPM-TOKEN=%s\n' "$old" >"$T/bad"
"$SANDBOXD" -n -f "$T/bad.conf" >"$T/out" 2>&1
check "a bad name is refused with file:line" \
    grep -qF "$T/bad:1: secret \"NPM-TOKEN\": not a valid variable name" "$T/out"
check "no message quotes a value" sh -c "! grep -q '$old' '$T/out'"

chmod 0644 "$S"
ip netns add "$NS"
ip netns exec "$NS" "$SANDBOXD" -d -f "$T/sandboxd.conf" -s "$SOCK" \
    >"$T/start" 2>&1
check "the daemon does not start with a readable secrets file" \
    grep -qF "mode 0644 lets others at it" "$T/start"
ip netns del "$NS"
chmod 0600 "$S"

suite_start || { notok "suite started"; exit 1; }
sha() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
get() { ctl run -p sec -- python3 "$C/client.py" call secrets.get NPM_TOKEN; }
check "the secret is served" contains "$(get)" "sha256:$(sha "$old")"
printf 'NPM_TOKEN=%s\n' "$new" >"$S"
chmod 0640 "$S"
out=$(ctl reload 2>&1)
check "a reload with a group-readable file fails, saying why" \
    contains "$out" "mode 0640 lets others at it.*the running config and secrets are kept"
check "... and the previous secret is still served" \
    contains "$(get)" "sha256:$(sha "$old")"
chmod 0600 "$S"
ctl reload >/dev/null
wait_for 10 all_ready
check "a good reload serves the new value" contains "$(get)" "sha256:$(sha "$new")"
check "no value was logged" sh -c "! grep -a -e '$old' -e '$new' '$LOG'"

done_testing
