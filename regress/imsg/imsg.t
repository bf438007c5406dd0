#!/bin/sh
exec "${SANDBOXD_BUILD:-build}/regress/imsg/imsg_test"
