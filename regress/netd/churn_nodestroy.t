#!/bin/sh
# churn.t with netd deleting as on a kernel before 6.3 (no
# NFT_MSG_DESTROY*): only what exists, checked or known.
SBX_WITHOUT=nft-destroy exec sh "$(dirname "$0")/churn.t"
