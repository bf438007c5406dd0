#!/bin/sh
# A destroyed sandbox's workspace is unmounted and its directories are
# removed by runnerd's unmounter, a child forked on demand that goes
# once idle (sandbox_unmount.c): its directory and mount go all the
# same, a service restarted at once gets its id only once they are
# gone, and nothing of the unmounter outlives the work or a stop.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 8

setup_users
write_conf ""
check "suite starts" suite_start
rpid=$(child_field runnerd pid)
unmounter() { for p in $(pgrep -P "$rpid"); do
	[ "$(cat /proc/$p/comm 2>/dev/null)" = runnerd-umount ] && echo "$p"
done; }
has_unmounter() { [ -n "$(unmounter)" ]; }
no_unmounter() { [ -z "$(unmounter)" ]; }
mounted() { grep -q -F "$T/state/$1/" /proc/$rpid/mountinfo; }

id=$(ctl create)
dir="$(state_dir)/$id"
check "the sandbox has its directory" test -d "$dir"
ctl destroy "$id" > /dev/null
# Once pid 1 is dead; it stays a second after its last job.
wait_for 2 has_unmounter
check "a destroy forks the unmounter" has_unmounter
gone() { [ ! -e "$dir" ] && ! mounted "$id"; }
wait_for 5 gone
check "its workspace is unmounted and its directory removed" gone
wait_for 5 no_unmounter
check "the unmounter goes once idle" no_unmounter

# A service's next sandbox has the same id: it waits for the last one's
# directory, then is built.
ctl service start u -- sleep 100 > /dev/null
ctl service restart u > /dev/null 2>&1
running() { ctl service status u | grep -q running; }
wait_for 5 running
check "a service restarted at once runs again under its id" running
ctl service stop u > /dev/null 2>&1

# Work queued at a stop is done before runnerd exits.
for i in 1 2 3; do ctl destroy "$(ctl create)" > /dev/null; done
up=$(unmounter)
check "SIGTERM stops the suite" suite_stop
left=$(ls "$T/state" | grep -v -e '^kept$' -e '^ws$' | wc -l)
is "$left $(ps -o pid= -p "${up:-0}" | wc -l)" "0 0" \
    "after a stop no directory and no unmounter is left"
done_testing
