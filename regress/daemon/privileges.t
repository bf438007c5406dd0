#!/bin/sh
# Every child runs with exactly what the Privileges section of its man
# page (netd.8, envd.8, runnerd.8, dnspind.8) gives it, read from the
# kernel's own view in /proc/PID/status.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 34

setup_users
write_conf ""
check "suite starts in namespace $NS" suite_start

# CAP_CHOWN DAC_OVERRIDE FOWNER KILL SETGID SETUID SETPCAP NET_ADMIN
# SYS_CHROOT SYS_ADMIN
runnerd_caps=$(printf '%016x' $(( (1<<0)|(1<<1)|(1<<3)|(1<<5)|(1<<6)|(1<<7)|
    (1<<8)|(1<<12)|(1<<18)|(1<<21) )))
netd_caps=$(printf '%016x' $((1<<12)))
none=0000000000000000

expect() {	# name user caps root bounding
	pid=$(child_field "$1" pid)
	uid=$(id -u "$2")
	is "$(proc_status "$pid" Uid)" "$uid" "$1 runs as $2"
	is "$(awk '$1 == "Uid:" { print $2$3$4$5 }' /proc/$pid/status)" \
	    "$uid$uid$uid$uid" "$1 real, effective, saved and fs uid all $2"
	is "$(proc_status "$pid" CapEff)" "$3" "$1 CapEff $3"
	is "$(proc_status "$pid" CapBnd)" "$5" "$1 bounding set $5"
	is "$(proc_status "$pid" NoNewPrivs)" 1 "$1 NoNewPrivs 1"
	is "$(proc_status "$pid" Seccomp)" 2 "$1 Seccomp 2 (filter)"
	is "$(readlink /proc/$pid/root)" "$4" "$1 root directory is $4"
}

# A process that changed uid keeps nothing in its bounding set.
expect netd _sbxnetd "$netd_caps" /var/empty "$none"
expect envd _sbxenvd "$none" /var/empty "$none"
expect dnspind _sbxdnspind "$none" /var/empty "$none"
expect runnerd root "$runnerd_caps" / "$runnerd_caps"

# Only envd needs the daemon's environment; the others start with none.
for p in netd dnspind runnerd; do
	pid=$(child_field "$p" pid)
	is "$(wc -c < /proc/$pid/environ)" 0 "$p has an empty environment"
done
pid=$(child_field netd pid)
is "$(readlink /proc/$pid/ns/net)" "$(ip netns exec "$NS" readlink /proc/self/ns/net)" \
    "children live in the test's network namespace"
check "suite stops" suite_stop
done_testing
