#!/bin/sh
# d_egress.t with sandboxd -x nft-destroy: netd deleting as on a kernel
# before 6.3 (no NFT_MSG_DESTROY*).
SBX_WITHOUT=nft-destroy exec sh "$(dirname "$0")/d_egress.t"
