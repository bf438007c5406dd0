#!/bin/sh
# The sandbox uid range shares no id with the host's: the default lies
# outside login.defs' subordinate id span and systemd's ranges; a host
# user given a subordinate range as useradd does cannot map a sandbox's
# uid; a configured range overlapping /etc/subuid, /etc/subgid or
# /etc/passwd is refused naming the file and entry; a change of
# /etc/subuid while running is logged as an error.  The host's files are
# never touched: the test runs in its own mount namespace, with copies
# bound over /etc's.
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root"
	exit 0
fi
if [ -z "${SBXT_IDRANGE_MNTNS:-}" ]; then
	SBXT_IDRANGE_MNTNS=1 exec unshare -m --propagation private \
	    /bin/sh "$0" "$@"
fi
. "$(dirname "$0")/../lib/common.sh"
plan 17

setup_users
write_conf ""

# login.defs' value of KEY, or shadow's built-in default.
logindefs() {
	v=$(awk -v k="$1" '$1 == k { print $2 }' /etc/login.defs)
	echo "${v:-$2}"
}

# overlaps A_START A_COUNT B_START B_COUNT
overlaps() { [ "$1" -lt $(($3 + $4)) ] && [ "$3" -lt $(($1 + $2)) ]; }

# The default range, as sandboxd prints it.
set -- $("$SANDBOXD" -nv -f "$T/sandboxd.conf" 2>/dev/null |
    awk '$1 == "uid-range" { print $2, $3 }')
base=${1:-0} count=${2:-0}
check "the default range is 0x78000000, 65536 ids ($base $count)" \
    test "$base" = 2013265920 -a "$count" = 65536

sub_ok=1
for k in UID GID; do
	min=$(logindefs SUB_${k}_MIN 100000)
	max=$(logindefs SUB_${k}_MAX 600100000)
	# useradd hands out ranges inside [min, max].
	overlaps "$base" "$count" "$min" $((max - min + 1)) && sub_ok=0
	diag "login.defs SUB_${k}: $min..$max"
done
check "the default range is disjoint from login.defs' SUB_UID/SUB_GID span" \
    [ $sub_ok = 1 ]

# systemd.io/UIDS-GIDS: the 16-bit ids, containers, the foreign range,
# and the ids negative as signed 32-bit integers.
sd_ok=1
for r in "0 65536" "524288 $((0x6FFFFFFF - 524288 + 1))" \
    "$((0x7FFE0000)) 65536" "2147483648 2147483648"; do
	overlaps "$base" "$count" $r && { sd_ok=0; diag "overlaps $r"; }
done
check "the default range is disjoint from systemd's documented ranges" \
    [ $sd_ok = 1 ]

# A host user made as useradd makes one, in copies of /etc's files.
P=$T/prefix
mkdir -p "$P/etc"
for f in passwd group shadow gshadow login.defs; do
	cp -p "/etc/$f" "$P/etc/$f"
done
: >"$P/etc/subuid"
: >"$P/etc/subgid"
check "useradd makes host user sbxtenant with its default subordinate ids" \
    useradd --prefix "$P" -M sbxtenant
for f in passwd group shadow gshadow subuid subgid; do
	mount --bind "$P/etc/$f" "/etc/$f" || notok "bind $f over /etc/$f"
done
ent=$(grep '^sbxtenant:' /etc/subuid)
sub_start=$(echo "$ent" | cut -d: -f2)
sub_count=$(echo "$ent" | cut -d: -f3)
check "sbxtenant holds subordinate uids ($ent)" [ -n "$sub_start" ]

# Configured ranges: the default loads; overlaps are refused, named.
loads() { "$SANDBOXD" -n -f "$T/sandboxd.conf" 2>/dev/null; }
check "sandboxd -n loads the default range next to sbxtenant's entry" loads

refused() {	# RANGE PATTERN
	write_conf "uid-range $1"
	out=$("$SANDBOXD" -n -f "$T/sandboxd.conf" 2>&1)
	rc=$?
	[ $rc != 0 ] && contains "$out" "$2" || { diag "rc $rc: $out"; false; }
}
check "a range overlapping /etc/subuid is refused naming the entry" \
    refused "$((sub_start + sub_count - 1)) 10" \
    "/etc/subuid:1: sbxtenant:$sub_start:$sub_count: overlaps uid-range"
echo "sbxgroup:3000000000:10" >>"$P/etc/subgid"
check "a range overlapping /etc/subgid is refused naming the entry" \
    refused "2999999995 10" \
    "/etc/subgid:2: sbxgroup:3000000000:10: overlaps uid-range"
check "a range holding a passwd uid (nobody) is refused naming it" \
    refused "65530 10" "/etc/passwd:[0-9]*: nobody:x:65534:"
write_conf "uid-range $((sub_start + sub_count)) 10"
check "a range just past sbxtenant's entry loads (allowed twin)" loads

# sbxtenant against a live sandbox's uid.
write_conf ""
check "suite starts with the default range" suite_start
id=$(sbx_create)
u=$(in_sbx "$id" 'id -u')
check "the sandbox runs as uid $u, inside the default range" \
    test "${u:-0}" -ge "$base" -a "${u:-0}" -lt $((base + count))
as_tenant() { setpriv --reuid sbxtenant --regid sbxtenant --clear-groups "$@"; }
check "sbxtenant maps its own subordinate uid $sub_start (allowed twin)" \
    as_tenant unshare --map-users="$sub_start,0,1" true
out=$(as_tenant unshare --map-users="$u,0,1" true 2>&1)
rc=$?
check "sbxtenant cannot map the sandbox's uid $u: $out" [ $rc != 0 ]
out=$(as_tenant unshare --map-users="$base,0,$count" true 2>&1)
rc=$?
check "sbxtenant cannot map any of the range: $out" [ $rc != 0 ]

# The files change under the running master.
echo "sbxother:700000000:65536" >>"$P/etc/subuid"
check "a harmless change of /etc/subuid is logged as such" \
    wait_for 12 grep -q "/etc/subuid changed; no entry overlaps" "$LOG"
echo "sbxlate:$u:1" >>"$P/etc/subuid"
check "an overlapping change of /etc/subuid is logged as an error" \
    wait_for 12 grep -q "error: /etc/subuid changed: /etc/subuid:3: sbxlate:$u:1: overlaps" "$LOG"
done_testing
