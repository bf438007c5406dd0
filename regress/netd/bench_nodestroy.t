#!/bin/sh
# bench.t with netd deleting as on a kernel before 6.3 (no
# NFT_MSG_DESTROY*): the cost per sandbox still does not grow.
SBX_WITHOUT=nft-destroy exec sh "$(dirname "$0")/bench.t"
