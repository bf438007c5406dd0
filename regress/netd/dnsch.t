#!/bin/sh
# netd's end of the pin channel from dnspind: malformed requests are
# dropped and the channel kept, a broken stream closes it, netd never
# exits (regress/netd/dnsch_test.c).  No root needed.
. "$(dirname "$0")/../lib/common.sh"
"$B/regress/netd/dnsch_test"
