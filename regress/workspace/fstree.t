#!/bin/sh
# The tree stream of put -r and get -r (lib/fstree.c) on crafted input:
# writing through a link the stream made, "..", absolute and empty
# components, a stream cut short; and a plain tree that arrives as sent.
exec "${SANDBOXD_BUILD:-build}/regress/workspace/fstree_test"
