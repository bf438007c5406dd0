#!/bin/sh
# The DNS message core of dnspind (cmd/dnspind/dns*.c): the anchor
# rule and exact names, port unions, queries and every way they are
# refused, upstream answers (CNAME chains, unrelated owners, TC,
# compression loops), the answers dnspind builds.  No root needed.
. "$(dirname "$0")/../lib/common.sh"
"$B/regress/dnspind/dns_test"
