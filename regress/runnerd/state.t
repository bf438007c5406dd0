#!/bin/sh
# runnerd's sandbox state machine (cmd/runnerd/state.c): its table and
# its refusal of an illegal move, from state_test.
B="${SANDBOXD_BUILD:-build}"
exec "$B/regress/runnerd/state_test"
