#!/bin/sh
# A child killed with SIGKILL comes back with a new pid and the same
# privileges; a crash loop gives up and says so; reload retries it.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 16

setup_users
write_conf ""
check "suite starts" suite_start

restarted() {	# name oldpid
	p=$(child_field "$1" pid)
	[ -n "$p" ] && [ "$p" != 0 ] && [ "$p" != "$2" ] &&
	    [ "$(child_field "$1" state)" = running ]
}

for p in netd envd runnerd dnspind; do
	old=$(child_field $p pid)
	kill -KILL "$old"
	if wait_for 10 restarted $p "$old"; then
		ok "$p is back with a new pid after SIGKILL"
	else
		notok "$p is back with a new pid after SIGKILL"
	fi
done

pid=$(child_field netd pid)
is "$(proc_status "$pid" CapEff)" 0000000000001000 "restarted netd keeps only CAP_NET_ADMIN"
is "$(proc_status "$pid" Seccomp)$(proc_status "$pid" NoNewPrivs)" 21 \
    "restarted netd has its seccomp filter and NoNewPrivs"
is "$(readlink /proc/$pid/root)" /var/empty "restarted netd is chrooted"
is "$(child_field netd restarts)" 1 "status counts the restart"
wait_for 5 all_ready
ok "the restarted children acknowledged the config again"

# Crash loop: keep killing dnspind until the master gives up.
gaveup=0
for i in 1 2 3 4 5 6 7; do
	old=$(child_field dnspind pid)
	[ "$(child_field dnspind state)" = failed ] && { gaveup=1; break; }
	[ -n "$old" ] && [ "$old" != 0 ] && kill -KILL "$old"
	wait_for 15 sh -c "s=\$($SANDBOXCTL -s $SOCK -j status | grep '\"dnspind\"'); \
	    echo \"\$s\" | grep -q '\"state\":\"failed\"' || \
	    { echo \"\$s\" | grep -q '\"state\":\"running\"' && \
	      ! echo \"\$s\" | grep -q '\"pid\":$old,'; }"
done
[ "$(child_field dnspind state)" = failed ] && gaveup=1
is "$gaveup" 1 "a crash loop makes the master give up on dnspind"
check "the give-up is logged with the count" grep -q "giving up on dnspind: 5 restarts" "$LOG"
is "$(child_field dnspind pid)" 0 "no dnspind is running after the give-up"
check "the other children keep running" sh -c \
    "[ \"\$($SANDBOXCTL -s $SOCK -j status | grep -c '\"state\":\"running\"')\" = 4 ]"
ctl reload >/dev/null
check "reload retries the failed child" wait_for 10 all_ready
check "suite stops" suite_stop
done_testing
