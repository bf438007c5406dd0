#!/bin/sh
# A child's end of a direct channel to another child (lib/peerch.c):
# a peer that breaks the message table loses its channel and the
# master is told; the child goes on (regress/peerch/peerch_test.c).
# No root needed.
. "$(dirname "$0")/../lib/common.sh"
"$B/regress/peerch/peerch_test"
