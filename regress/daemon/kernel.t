#!/bin/sh
# What the running kernel supports: sandboxd -nv prints each feature it
# adapts to on stderr (stdout stays the config alone), asked of the
# kernel and not of uname; at start the master logs one line per
# feature missing, and -x names only features a child can do without.
. "$(dirname "$0")/../lib/common.sh"
need_root
fails() { ! "$@"; }

setup_users
write_conf ""
"$SANDBOXD" -nv -f "$T/sandboxd.conf" >"$T/out" 2>"$T/err"
check "sandboxd -nv succeeds" test $? = 0
check "its stdout is the config alone" fails grep -q "^kernel" "$T/out"
for f in nft-destroy nft-table-owner nft-table-persist landlock \
    memfd-noexec-seal so-passrights cgroups; do
	check "stderr reports $f" grep -q -E "^  $f +[a-zA-Z]" "$T/err"
done
check "each with what sandboxd does without it" \
    test "$(grep -c 'without it: ' "$T/err")" = 7
state() { awk -v f="$1" '$1 == f { $1 = ""; sub(/^ /, ""); print }' "$T/err"; }
for f in nft-destroy nft-table-owner nft-table-persist; do
	case $(state $f) in
	yes|no) ok "root gets an answer for $f: $(state $f)" ;;
	*) notok "root gets an answer for $f: $(state $f)" ;;
	esac
done

# Landlock's ABI, asked independently through the raw system call.
abi=$(python3 -c '
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
print(max(libc.syscall(444, None, 0, 1), 0))')
if [ "$abi" -gt 0 ]; then want="ABI $abi"; else want=no; fi
is "$(state landlock)" "$want" "landlock matches the system call's answer"

# Without CAP_NET_ADMIN nf_tables cannot be asked: unknown, not a guess.
cp "$SANDBOXD" "$T/sandboxd.nobody"
chmod 755 "$T" "$T/sandboxd.nobody"
chmod 644 "$T/sandboxd.conf"
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
    "$T/sandboxd.nobody" -nv -f "$T/sandboxd.conf" >/dev/null 2>"$T/err2"
contains "$(awk '$1 == "nft-destroy"' "$T/err2")" "unknown (Operation not permitted)" &&
    ok "unprivileged, nft-destroy is unknown" ||
    { notok "unprivileged, nft-destroy is unknown"; diag "$(cat "$T/err2")"; }

check "-x with an unknown feature is refused" \
    fails "$SANDBOXD" -n -x landlock -f "$T/sandboxd.conf" 2>/dev/null
"$SANDBOXD" -n -x bogus -f "$T/sandboxd.conf" 2>"$T/err3"
check "and named" grep -q -- "-x bogus: unknown kernel feature" "$T/err3"
check "-x nft-destroy is taken" \
    "$SANDBOXD" -n -x nft-destroy -f "$T/sandboxd.conf"

# At start, one log line per feature -nv calls missing.
check "the suite starts" suite_start
missing=$(grep -c -E '^  [a-z-]+ +no$' "$T/err")
# memfd-noexec-seal and so-passrights are unused; owner and persist too.
unused=$(grep -c -E '^  (memfd-noexec-seal|so-passrights|nft-table-owner|nft-table-persist) +no$' "$T/err")
is "$(grep -c 'sandboxd.*kernel .* has no ' "$LOG")" "$((missing - unused))" \
    "the master logged each degradation once"
check "the suite stops" suite_stop
plan $tap_n
done_testing
