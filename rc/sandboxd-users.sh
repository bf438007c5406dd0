#!/bin/sh
# Create the system users the children drop to, and their empty chroot,
# where systemd-sysusers and systemd-tmpfiles are not used.
set -e
for u in _sbxnetd _sbxenvd _sbxdnspind; do
	getent passwd "$u" >/dev/null && continue
	useradd --system --user-group --no-create-home --home-dir /var/empty \
	    --shell /usr/sbin/nologin --comment "sandboxd ${u#_sbx}" "$u"
done
install -d -m 0755 -o root -g root /var/empty
install -d -m 0700 -o root -g root /var/lib/sandboxd
