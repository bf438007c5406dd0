#!/bin/sh
# Run by make test-host through vm-run: the whole guest suite, as root
# inside the guest, against the installed tree.
exec prove -r regress/host/guest
