#!/bin/sh
# lib/cgroup_deleg.c: which own cgroup counts as delegated, and the move.
exec "${SANDBOXD_BUILD:-build}/regress/cgroup/deleg_test"
