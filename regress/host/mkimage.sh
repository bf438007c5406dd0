#!/bin/sh
# Build (once) the Debian 12 guest image the VM tier boots, and print the
# directory that holds it: rootfs.img (ext4, the whole root file system),
# vmlinuz and initrd.img (Debian's own kernel, booted with -kernel).
#
# Debian's packages only, through mmdebstrap; the mirror is read at run
# time from this machine's own apt sources, never written here.  The
# image is cached outside the tree, in $SBX_TEST_CACHE (default
# /var/cache/sandboxd-test), under a key that hashes the package list
# and this script: a second run only prints the directory.
#
# The image holds no part of sandboxd: regress/host/vm-run installs the
# current tree into each boot over a 9p share (see sbxtest-boot below).
set -eu

cache=${SBX_TEST_CACHE:-/var/cache/sandboxd-test}
suite=bookworm

# systemd as process 1 and Debian's kernel; sandboxd's runtime libraries
# (the Makefile's PKGS); and what a person or a test drives it with.
pkgs="systemd systemd-sysv dbus udev kmod linux-image-amd64 initramfs-tools
    libbsd0 libseccomp2 libcap-ng0 libevent-2.1-7 libjansson4 libnftnl11
    libmnl0
    python3 perl iproute2 nftables procps psmisc strace gdb bubblewrap
    gcc make libc6-dev git
    busybox socat iputils-ping util-linux passwd e2fsprogs"

log() { echo "mkimage: $*" >&2; }

# mmdebstrap's customize hook: boot settings and vm-run's bootstrap unit.
customize() {
	r=$1
	echo sbxguest >"$r/etc/hostname"
	printf '127.0.0.1\tlocalhost\n127.0.1.1\tsbxguest\n' >"$r/etc/hosts"
	echo '/dev/vda / ext4 rw,errors=remount-ro 0 1' >"$r/etc/fstab"
	# An initrd with only what mounts the root: unpacking Debian's
	# MODULES=most one takes 20 s of a TCG boot.
	printf '%s\n' virtio_pci virtio_blk crc32c_generic ext4 \
	    >>"$r/etc/initramfs-tools/modules"
	echo MODULES=list >"$r/etc/initramfs-tools/conf.d/sbxtest"
	chroot "$r" update-initramfs -u -k all
	# A fixed id: every boot of the snapshot is not a first boot.
	echo 5bd0b0c1a5e0400c8e4c3b0f5e1d2a77 >"$r/etc/machine-id"
	# A getty on the serial console hangs it up under a service
	# writing to it; timers only slow a short-lived guest down.
	for u in serial-getty@ttyS0.service getty@tty1.service \
	    apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer \
	    fstrim.timer man-db.timer dpkg-db-backup.timer; do
		ln -sf /dev/null "$r/etc/systemd/system/$u"
	done
	# As on a server with Debian's own firewall: the stock ruleset.
	chroot "$r" systemctl enable nftables.service
	mkdir -p "$r/usr/lib/sbxtest"
	cat >"$r/usr/lib/sbxtest/boot" <<'BOOT'
#!/bin/sh
# vm-run's bootstrap: mount the run's 9p share (tag sbxtest) and hand
# over to the guest-run.sh it holds; without one, just power off.
share=/run/sbxtest
mkdir -p "$share"
# udev may still be loading 9pnet_virtio: the kernel registers the
# transport before it probes the device, so a mount in between finds
# "no channels available".  Let udev settle, then try for 30 s.
udevadm settle -t 30 || true
n=0
until mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 \
    sbxtest "$share"; do
	n=$((n + 1))
	if [ "$n" -ge 30 ]; then
		echo "sbxtest-boot: no 9p share sbxtest after $n tries," \
		    "powering off" >/dev/console
		exec systemctl poweroff
	fi
	sleep 1
done
[ "$n" -eq 0 ] ||
    echo "sbxtest-boot: 9p share mounted after $n retries" >/dev/console
exec /bin/sh "$share/guest-run.sh"
BOOT
	chmod 0755 "$r/usr/lib/sbxtest/boot"
	cat >"$r/etc/systemd/system/sbxtest.service" <<'UNIT'
[Unit]
Description=vm-run test script from the host's 9p share
After=basic.target

[Service]
# exec, not oneshot: the script waits for the boot to finish.
Type=exec
ExecStart=/usr/lib/sbxtest/boot
# As from a shell: a script's "cmd | head" must not meet EPIPE instead.
IgnoreSIGPIPE=no
StandardOutput=journal+console

[Install]
WantedBy=multi-user.target
UNIT
	chroot "$r" systemctl enable sbxtest.service
}
if [ "${1:-}" = --customize ]; then
	customize "$2"
	exit 0
fi

# The Debian archives this machine's apt uses, as one-line "deb" entries
# for $suite and its -updates and -security suites.
apt_mirrors() {
	{
		[ -f /etc/apt/sources.list ] &&
		    sed -n 's/#.*//; s/\[[^]]*\]//; /^[ 	]*deb[ 	]/p' \
		    /etc/apt/sources.list
		for f in /etc/apt/sources.list.d/*.list; do
			[ -f "$f" ] || continue
			sed -n 's/#.*//; s/\[[^]]*\]//; /^[ 	]*deb[ 	]/p' "$f"
		done
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			deb822_to_lines "$f"
		done
	} | awk -v s="$suite" '$3 == s || $3 == s "-updates" ||
	    $3 == s "-security" { print }' | sort -u
}

# deb822 stanzas (Types/URIs/Suites/Components, Enabled: no skipped) to
# one line per type, URI and suite.
deb822_to_lines() {
	awk '
	function flush() {
		if (types != "" && enabled != "no")
			for (i = 1; i <= nt; i++) if (t[i] == "deb")
				for (j = 1; j <= nu; j++)
					for (k = 1; k <= ns; k++)
						print "deb", u[j], s[k], comps
		types = ""; enabled = ""; comps = ""; nt = nu = ns = 0
	}
	/^[ \t]*#/ { next }
	/^[ \t]*$/ { flush(); next }
	{
		key = tolower($1); sub(/:$/, "", key)
		$1 = ""; sub(/^ +/, "")
		if (key == "types") { types = $0; nt = split($0, t, " ") }
		else if (key == "uris") nu = split($0, u, " ")
		else if (key == "suites") ns = split($0, s, " ")
		else if (key == "components") comps = $0
		else if (key == "enabled") enabled = tolower($0)
	}
	END { flush() }' "$1"
}

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
key=$( (echo "$suite"; echo $pkgs; cat "$0") | sha256sum | cut -c1-16)
dir="$cache/$suite-$key"
if [ -f "$dir/done" ]; then
	echo "$dir"
	exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -f "$dir/done" ]; then
	echo "$dir"
	exit 0
fi

mirrors=$(apt_mirrors)
if [ -z "$mirrors" ]; then
	log "no deb entry for $suite in /etc/apt/sources.list{,.d}"
	exit 1
fi
log "building $dir from:"
echo "$mirrors" | sed 's/^/mkimage:   /' >&2

rm -rf "$dir"
mkdir -p "$dir"
work="$dir/rootfs"
start=$(date +%s)
set --
while IFS= read -r m; do set -- "$@" "$m"; done <<MIRRORS
$mirrors
MIRRORS
include=$(echo $pkgs | tr ' ' ',')
mmdebstrap --mode=root --variant=apt --include="$include" \
    --customize-hook="sh '$self' --customize \"\$1\"" \
    "$suite" "$work" "$@" >&2 ||
    { log "mmdebstrap failed"; exit 1; }
log "rootfs in $(($(date +%s) - start)) s"

cp "$work"/boot/vmlinuz-* "$dir/vmlinuz"
cp "$work"/boot/initrd.img-* "$dir/initrd.img"
chmod 0644 "$dir/vmlinuz" "$dir/initrd.img"
# 4 GiB, sparse: room for what a test run writes (-snapshot keeps it
# off this file anyway).  Standard output carries only the directory.
mke2fs -q -t ext4 -L sbxroot -d "$work" "$dir/rootfs.img" 4G >&2
rm -rf "$work"
echo "$key" >"$dir/done"
log "image ready in $(($(date +%s) - start)) s"
echo "$dir"
