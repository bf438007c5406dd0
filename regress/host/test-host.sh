#!/bin/sh
# make test-host: the host-side tests of the VM tier (regress/host/*.t)
# under prove here, then the whole guest suite (regress/host/guest/*.t)
# under prove inside one boot of the guest.  Exits non-zero if either
# failed; the guest's prove summary comes last.
set -u
cd "$(dirname "$0")/../.."
t0=$(date +%s)
img=$(sh regress/host/mkimage.sh) || exit 1
echo "test-host: guest image $img ready in $(($(date +%s) - t0)) s"
rc=0
set -- regress/host/*.t
if [ -e "$1" ]; then
	prove "$@" || rc=1
fi
t1=$(date +%s)
regress/host/vm-run regress/host/guest-suite.sh || rc=1
echo "test-host: guest suite in $(($(date +%s) - t1)) s," \
    "all in $(($(date +%s) - t0)) s"
exit $rc
