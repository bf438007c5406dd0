#!/bin/sh
# Run inside the guest by the image's sbxtest.service, from vm-run's 9p
# share: wait for the boot to finish, install the tree the host built,
# enable and start sandboxd as an operator would, run the script, leave
# its output and status in the share and power off.  This harness's own
# lines go to harness.log, which vm-run prints on its standard error.
share=/run/sbxtest
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export SBX_SRC="$share/src"
exec >>"$share/harness.log" 2>&1

up() { cut -d' ' -f1 /proc/uptime; }

state=$(systemctl is-system-running --wait)
echo "booted: $state after $(up) s, kernel $(uname -r)"
[ "$state" = running ] || systemctl --no-pager --failed

# Over merged /usr: /lib is a link, which cp -a would not follow.
tar -C "$share/root" -cf - . | tar -C / --keep-directory-symlink -xf -
systemd-sysusers
systemd-tmpfiles --create
systemctl daemon-reload
if systemctl enable --now sandboxd 2>&1; then
	echo "sandboxd started at $(up) s: $(systemctl is-active sandboxd)"
else
	echo "systemctl enable --now sandboxd failed:"
	systemctl --no-pager status sandboxd
	journalctl --no-pager -b -u sandboxd | tail -n 30
fi

cd "$SBX_SRC"
"$share/script" >>"$share/out" 2>&1 </dev/null
rc=$?
sync
echo "$rc" >"$share/status.tmp"
mv "$share/status.tmp" "$share/status"
echo "script exit $rc at $(up) s; powering off"
systemctl poweroff
