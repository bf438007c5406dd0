#!/bin/sh
# Install the Debian 12 packages the build, the tests and make bench
# need, if missing.  make test runs the bench drivers too, in smoke mode
# (regress/bench/smoke.t): so the DNS server make bench compares dnspind
# with and serves the names from (dnsmasq-base, the program without the
# system service) and the load generator are here for both.  "bench"
# (make bench-deps) asks for nothing more.  With "host", also what make
# test-host needs to build and boot its Debian 12 guest (regress/host/):
# mmdebstrap, qemu, mke2fs and debugfs.  The compat corpus
# (regress/compat/tools.t) runs valgrind, python's own test suite
# (libpython3.11-testsuite), node and java (the JRE runs a class from
# its source: no JDK).
set -e
pkgs="build-essential pkg-config bison mandoc libbsd-dev libnftnl-dev
    libmnl-dev libseccomp-dev libcap-ng-dev libevent-dev libjansson-dev
    iproute2 nftables util-linux passwd procps python3 socat clang
    libclang-rt-14-dev
    bubblewrap crun dnsmasq-base dnsperf strace gdb git
    valgrind libpython3.11-testsuite nodejs default-jre-headless"
# regress/host/tap-guest.t: qemu runs Debian's kernel (fetched with
# apt-get download) on an initramfs of busybox-static, made with cpio.
tapguest_pkgs="qemu-system-x86 busybox-static cpio"
pkgs="$pkgs $tapguest_pkgs"
host_pkgs="mmdebstrap debian-archive-keyring qemu-system-x86 e2fsprogs"
case "${1:-}" in
host)	pkgs="$pkgs $host_pkgs" ;;
esac
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
	    grep -q '^install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "missing packages:$missing (run as root to install them)" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq $missing >/dev/null
