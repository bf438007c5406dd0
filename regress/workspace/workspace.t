#!/bin/sh
# sandboxctl put/get beneath a workspace (cmd/runnerd/workspace.c).  The
# test mounts a 1 MiB tmpfs and a proc, so it runs in a private mount
# namespace of its own: nothing reaches the host's mount table.
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root"
	exit 0
fi
exec unshare -m --propagation private \
    "${SANDBOXD_BUILD:-build}/regress/workspace/workspace_test"
