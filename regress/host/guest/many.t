#!/bin/sh
# 1100 live sandboxes under systemd's defaults (the unit as installed,
# nofile 1024 soft for services): each holds descriptors in the daemons,
# so this needs sandboxd to raise its own limit.  Then systemctl stop at
# that scale leaves nothing behind.
. "${SBX_SRC:-.}/regress/host/guest/lib.sh"
plan 7

N=1100
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
check "sandboxd.service is active" wait_for 30 sbx_ready
n0=$(systemctl show -p NRestarts --value sandboxd)
for d in sandboxd runnerd netd; do
	p=$(pgrep -x "$d" | head -n 1)
	[ -n "$p" ] && diag "$d: $(grep "open files" /proc/$p/limits 2>/dev/null)"
done

# Two creators, one per vCPU; each gives up after 10 failures in a row
# or after 15 minutes, so that a slow guest still reports how far it got.
end=$(($(date +%s) + 900))
creator() {
	i=0; bad=0
	while [ "$i" -lt "$1" ] && [ "$bad" -lt 10 ] &&
	    [ "$(date +%s)" -lt "$end" ]; do
		if sandboxctl create >>"$T/ids.$2" 2>>"$T/err"; then
			bad=0
		else
			bad=$((bad + 1))
		fi
		i=$((i + 1))
	done
}
t0=$(date +%s)
creator $((N / 2)) a &
creator $((N - N / 2)) b
wait
made=$(cat "$T"/ids.* | wc -l)
diag "$made sandboxes created in $(($(date +%s) - t0)) s"
is "$made" "$N" "$N sandboxes created"
[ -s "$T/err" ] && diag "first errors: $(sort "$T/err" | uniq -c | head -n 5)"
is "$(sandboxctl ps | tail -n +2 | wc -l)" "$made" "sandboxctl ps lists them all"
check "the last one still runs a command" \
    sandboxctl exec "$(tail -n 1 "$T/ids.b")" -- /bin/true
check "and one more sandboxctl run works" sandboxctl run -- /bin/true
is "$(systemctl show -p NRestarts --value sandboxd) $(sbx_daemons)" "$n0 5" \
    "sandboxd was not restarted and its five daemons run"
[ "$tap_failed" = 0 ] || sbx_journal 20

t0=$(date +%s)
systemctl stop sandboxd
wait_for 30 sbx_nothing_left
diag "systemctl stop with $made sandboxes took $(($(date +%s) - t0)) s"
is "daemons $(sbx_daemons) $(sbx_leftovers | tr '\n' ' ')" \
    "daemons 0 procs 0 cgroups 0 links 0 nft 0 mounts 0 " \
    "systemctl stop leaves nothing of them behind"

sbx_restore
done_testing
