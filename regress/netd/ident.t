#!/bin/sh
# Network identities (cmd/netd/ident.c): deterministic per id, /30s of
# the node subnet, interface names within IFNAMSIZ, locally
# administered MACs, collisions, release and reuse.  No root needed.
. "$(dirname "$0")/../lib/common.sh"
"$B/regress/netd/netd_test" selftest 2>/dev/null
