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
# Its debug lines (-v) say when it came and went: on a loaded host
# polling for the process alone could miss its second of idleness.
forked() { sed -n 's/.*unmounter \([0-9]*\) forked.*/\1/p' "$LOG" | tail -n 1; }
went() { grep -q "unmounter $1 idle: it goes" "$LOG" &&
    ! ps -o pid= -p "$1" > /dev/null; }
mounted() { grep -q -F "$T/state/$1/" /proc/$rpid/mountinfo; }

id=$(ctl create)
dir="$(state_dir)/$id"
check "the sandbox has its directory" test -d "$dir"
ctl destroy "$id" > /dev/null
has_forked() { [ -n "$(forked)" ]; }
# Once its pid 1 is dead.
wait_for 10 has_forked
up=$(forked)
check "a destroy forks the unmounter" test -n "$up"
gone() { [ ! -e "$dir" ] && ! mounted "$id"; }
wait_for 10 gone
check "its workspace is unmounted and its directory removed" gone
wait_for 10 went "$up"
check "the unmounter goes once idle" went "$up"

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
check "SIGTERM stops the suite" suite_stop
left=$(ls "$T/state" | grep -v -e '^kept$' -e '^ws$' | wc -l)
is "$left $(ps -o pid= -p "$(forked)" | wc -l)" "0 0" \
    "after a stop no directory and no unmounter is left"
done_testing
