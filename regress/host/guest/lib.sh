# Shared by the guest-side tests of the VM tier: TAP output and the state
# sandboxd leaves on the host it runs on.
#
# The convention:
#  - a guest test is a TAP script regress/host/guest/NAME.t; it runs only
#    inside the Debian 12 guest, as root, never on the test machine
#    (make test leaves this directory out);
#  - make test-host runs them all in one boot: regress/host/vm-run runs
#    "prove -r regress/host/guest" from a copy of the source tree, which
#    is the working directory and $SBX_SRC;
#  - sandboxd is the tree installed with make install (PREFIX
#    /usr/local), enabled and started by systemd as sandboxd.service with
#    the installed /etc/sandboxd.conf; tests drive it with systemctl and
#    sandboxctl as an operator would, and leave it running (active, with
#    the installed config) for the next test;
#  - one test alone: regress/host/vm-run regress/host/guest/NAME.t;
#  - the guest is slow (TCG, about 10x the host): keep the work modest.
# Source it with: . "${SBX_SRC:-.}/regress/host/guest/lib.sh" (vm-run
# runs a lone script from a copy elsewhere, in the tree's copy)

tap_n=0
tap_failed=0

plan()	{ echo "1..$1"; }
ok()	{ tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
notok()	{ tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1));
	  echo "not ok $tap_n - $*"; }
diag()	{ printf '%s\n' "$*" | sed 's/^/# /'; }
# check DESC CMD...: ok if CMD succeeds.
check()	{ d=$1; shift; if "$@"; then ok "$d"; else notok "$d"; fi; }
# is GOT WANT DESC
is()	{ if [ "$1" = "$2" ]; then ok "$3"; else notok "$3";
	  diag "got '$1', want '$2'"; fi; }
done_testing() { [ "$tap_failed" = 0 ]; exit $?; }

# Only in the guest that vm-run boots: its image has this bootstrap.
if [ ! -x /usr/lib/sbxtest/boot ] || [ "$(id -u)" != 0 ]; then
	echo "Bail out! a guest test: run it with regress/host/vm-run"
	exit 255
fi

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
STATE_DIR=/var/lib/sandboxd
# The configured uid range of the sandboxes (etc/sandboxd.conf).
UID_BASE=$(awk '$1 == "uid-range" { print $2 }' /etc/sandboxd.conf)
UID_COUNT=$(awk '$1 == "uid-range" { print $3 }' /etc/sandboxd.conf)
: "${UID_BASE:=200000}" "${UID_COUNT:=65536}"

# wait_for SECONDS CMD...: until CMD succeeds, at most SECONDS of wall
# time (a check may itself take seconds in this slow guest).
wait_for() {
	_end=$(($(date +%s) + $1)); shift
	until "$@"; do
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.5
	done
}

unit_active() { [ "$(systemctl is-active sandboxd)" = active ]; }
main_pid() { systemctl show -p MainPID --value sandboxd; }
# sbx_ready: the service is active and answers on its socket.
sbx_ready() { unit_active && sandboxctl status >/dev/null 2>&1; }

# What sandboxd leaves on the host, one count each: processes running as
# a sandbox uid, sandboxd's daemons, cgroups of sandboxd (every group
# whose path names it: runnerd's sandboxd or sandboxd-<hash> and the
# unit's own sandboxd.service, with all below them), host-side links netd
# made (interface-prefix sbx), nft table inet sandboxd, and mounts below
# the state directory in any mount namespace.
sbx_procs() {
	ps -eo uid= | awk -v b="$UID_BASE" -v n="$UID_COUNT" \
	    '$1 >= b && $1 < b + n' | wc -l
}
sbx_daemons() {
	ps -eo comm= | grep -cxE 'sandboxd|netd|envd|runnerd|dnspind'
}
sbx_cgroups() {
	find /sys/fs/cgroup -type d -path '*/sandboxd*' 2>/dev/null | wc -l
}
sbx_links() { ip -o link show | grep -c ': sbx'; }
sbx_nft() { nft list tables 2>/dev/null | grep -c '^table inet sandboxd$'; }
sbx_mounts() {
	cat /proc/[0-9]*/mountinfo 2>/dev/null | grep -F " $STATE_DIR/" |
	    sort -u | wc -l
}
# sbx_leftovers: one line per kind of state, "kind count"; the daemons
# are counted apart (sbx_daemons).
sbx_leftovers() {
	echo "procs $(sbx_procs)"
	echo "cgroups $(sbx_cgroups)"
	echo "links $(sbx_links)"
	echo "nft $(sbx_nft)"
	echo "mounts $(sbx_mounts)"
}
# sbx_nothing_left: sandboxd is stopped and left none of the above.
sbx_nothing_left() {
	[ "$(sbx_daemons)" = 0 ] &&
	    [ "$(sbx_leftovers | awk '{ n += $2 } END { print n }')" = 0 ]
}

# sbx_journal [N]: the unit's last N (default 30) journal lines, as diag.
sbx_journal() {
	diag "$(journalctl --no-pager -b -u sandboxd -n "${1:-30}" 2>&1)"
}

# sbx_restore: leave sandboxd running for the next test.
sbx_restore() {
	systemctl reset-failed sandboxd 2>/dev/null
	unit_active || systemctl start sandboxd
	wait_for 30 sbx_ready
}
