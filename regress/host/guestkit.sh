# A minimal Linux guest for the tests that need a real VM on a tap:
# Debian's own kernel (the package linux-image-amd64 depends on, fetched
# with apt-get download and unpacked, never installed: the host's /boot
# and bootloader are not touched) and an initramfs made at test time
# from Debian's busybox-static, the virtio network modules of that same
# kernel and a test's /init.  Source it after common.sh.
#
# The kernel is cached in $SBX_TEST_CACHE (default
# /var/cache/sandboxd-test, shared: ours are the guestkit* names), under
# a lock, keyed by package and version;
# SBX_TEST_KERNEL_PKG names another linux-image package.

GK_CACHE=${SBX_TEST_CACHE:-/var/cache/sandboxd-test}
# The NIC the guest gets, and the modules it needs on Debian's kernel
# (CONFIG_VIRTIO_PCI=m, CONFIG_VIRTIO_NET=m): dependencies come first.
GK_MODULES="virtio_pci virtio_net"
GK_KDIR=

gk_log() { echo "$*" >> "$T/guestkit.log"; }

# gk_pkg: the kernel package and its candidate version, "PKG VERSION",
# asked of apt at most once a day: apt-cache reads its whole cache each
# time (11 s for the two calls on a loaded machine).
gk_pkg() {
	_r="$GK_CACHE/guestkit.kernel"
	if [ -n "${SBX_TEST_KERNEL_PKG:-}" ]; then
		gk_pkg_apt
	elif [ -s "$_r" ] && [ -n "$(find "$_r" -mmin -1440)" ]; then
		cat "$_r"
	elif gk_pkg_apt > "$_r.new"; then
		mv "$_r.new" "$_r" && cat "$_r"
	else
		rm -f "$_r.new"
		return 1
	fi
}

gk_pkg_apt() {
	_p=${SBX_TEST_KERNEL_PKG:-$(apt-cache depends linux-image-amd64 \
	    2>/dev/null | awk '$1 == "Depends:" && $2 ~ /^linux-image-/ {
	    print $2; exit }')}
	[ -n "$_p" ] || return 1
	_v=$(apt-cache policy "$_p" 2>/dev/null |
	    awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }')
	[ -n "$_v" ] && echo "$_p $_v"
}

# gk_modfile DIR NAME: the module's file under DIR (- and _ are one).
gk_modfile() {
	_g=$(echo "$2" | sed 's/[_-]/[_-]/g')
	find "$1" \( -name "$_g.ko" -o -name "$_g.ko.xz" \) | head -n 1
}

# gk_closure DIR NAME...: module files in load order, each after what
# it depends on (the "depends=" of its .modinfo), each once.  The
# recursion runs in a subshell: sh has no local variables.
gk_closure() {
	_dir=$1; shift
	for _m in "$@"; do
		_f=$(gk_modfile "$_dir" "$_m")
		[ -n "$_f" ] || { gk_log "module $_m: not found"; return 1; }
		grep -qxF "$_f" "$T/gk.order" 2>/dev/null && continue
		_deps=$(gk_cat "$_f" | tr '\0' '\n' |
		    sed -n 's/^depends=//p' | head -n 1 | tr , ' ')
		[ -z "$_deps" ] || (gk_closure "$_dir" $_deps) || return 1
		echo "$_f" >> "$T/gk.order"
	done
}

gk_cat() {
	case "$1" in
	*.xz)	xz -dc "$1";;
	*)	cat "$1";;
	esac
}

# gk_vmlinux BZIMAGE OUT: the ELF kernel inside an xz bzImage.  With
# CONFIG_PVH, qemu boots it directly: no BIOS real-mode setup and no
# decompression under emulation (a TCG boot went from 28 s to 6.5 s on
# a loaded machine).
gk_vmlinux() {
	python3 -c '
import lzma, sys
d = open(sys.argv[1], "rb").read()
i = d.find(b"\xfd7zXZ\x00")
if i < 0:
    sys.exit("no xz payload")
k = lzma.LZMADecompressor().decompress(d[i:])
if k[:4] != b"\x7fELF":
    sys.exit("the payload is not an ELF kernel")
open(sys.argv[2], "wb").write(k)' "$1" "$2"
}

# gk_unpack DEB DEST: the kernel image (as "kernel": the ELF one if the
# kernel can boot it, else the bzImage), its config and the closure of
# $GK_MODULES, uncompressed, with "load" listing them in order.
gk_unpack() {
	_x="$T/gk.deb"
	rm -rf "$_x" "$T/gk.order"
	mkdir -p "$_x" "$2.new/modules" || return 1
	dpkg-deb -x "$1" "$_x" || return 1
	cp "$_x"/boot/config-* "$2.new/config" || return 1
	if ! grep -qx CONFIG_PVH=y "$2.new/config" ||
	    ! gk_vmlinux "$_x"/boot/vmlinuz-* "$2.new/kernel"; then
		cp "$_x"/boot/vmlinuz-* "$2.new/kernel" || return 1
	fi
	gk_closure "$_x/lib/modules" $GK_MODULES || return 1
	: > "$2.new/load"
	while read -r _f; do
		_b=$(basename "$_f" .xz)
		gk_cat "$_f" > "$2.new/modules/$_b" || return 1
		echo "$_b" >> "$2.new/load"
	done < "$T/gk.order"
	rm -rf "$_x"
	mv "$2.new" "$2"
}

# gk_fetch: download and unpack the kernel unless cached; sets GK_KDIR.
# Run under the cache lock.
gk_fetch() {
	pv=$(gk_pkg)
	if [ -z "$pv" ]; then
		gk_log "apt knows no kernel package: apt-get update"
		apt-get update -qq >> "$T/guestkit.log" 2>&1
		pv=$(gk_pkg)
	fi
	if [ -z "$pv" ]; then
		# Offline with no package lists: what the cache holds.
		GK_KDIR=$(ls -d "$GK_CACHE"/guestkit-linux-image-*/ 2>/dev/null |
		    tail -n 1)
		GK_KDIR=${GK_KDIR%/}
		[ -n "$GK_KDIR" ] && gk_log "using cached $GK_KDIR"
		[ -n "$GK_KDIR" ]
		return
	fi
	GK_KDIR="$GK_CACHE/guestkit-$(echo "$pv" | tr ' :' '__')"
	[ -f "$GK_KDIR/load" ] && [ -f "$GK_KDIR/kernel" ] && return 0
	rm -rf "$GK_KDIR.new" "$GK_CACHE/guestkit.dl"
	mkdir -p "$GK_CACHE/guestkit.dl" || return 1
	gk_log "fetching $pv"
	(cd "$GK_CACHE/guestkit.dl" && apt-get download "${pv% *}=${pv#* }") \
	    >> "$T/guestkit.log" 2>&1 || return 1
	gk_unpack "$GK_CACHE"/guestkit.dl/*.deb "$GK_KDIR" \
	    >> "$T/guestkit.log" 2>&1 || { rm -rf "$GK_KDIR.new"; return 1; }
	rm -rf "$GK_CACHE/guestkit.dl"
	# One kernel kept: the others are older candidates.
	for _d in "$GK_CACHE"/guestkit-linux-image-*; do
		[ "$_d" = "$GK_KDIR" ] || rm -rf "$_d"
	done
}

# gk_kernel: GK_KDIR set to a cached kernel, fetched if need be, under
# an exclusive lock on the cache (released when the fd closes, even on
# a kill).
gk_kernel() {
	mkdir -p "$GK_CACHE" || return 1
	exec 8> "$GK_CACHE/guestkit.lock"
	if ! flock -w 600 8; then
		gk_log "cache lock: timed out"
		exec 8>&-
		return 1
	fi
	gk_fetch
	_rc=$?
	exec 8>&-
	return $_rc
}

# gk_initramfs INIT OUT [FILE...]: an uncompressed newc archive (the
# kernel unpacks it fastest) with busybox, the modules and INIT as
# /init; each FILE is copied to its root too.
gk_initramfs() {
	_r="$T/gk.root"
	rm -rf "$_r"
	mkdir -p "$_r/bin" "$_r/dev" "$_r/proc" "$_r/sys" "$_r/tmp" \
	    "$_r/lib/modules" || return 1
	cp /bin/busybox "$_r/bin/busybox" || return 1
	# busybox-static: the dynamic one would need its libraries too.
	if ldd "$_r/bin/busybox" > /dev/null 2>&1; then
		gk_log "/bin/busybox is not static (install busybox-static)"
		return 1
	fi
	mknod "$_r/dev/console" c 5 1 || return 1
	cp "$GK_KDIR"/modules/*.ko "$GK_KDIR/load" "$_r/lib/modules/" ||
	    return 1
	cp "$1" "$_r/init" && chmod 0755 "$_r/init" || return 1
	_out=$2; shift 2
	for _f in "$@"; do
		cp "$_f" "$_r/" || return 1
	done
	(cd "$_r" && find . | cpio -o -H newc --quiet) > "$_out"
}
