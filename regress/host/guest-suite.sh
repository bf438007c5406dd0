#!/bin/sh
# Run by make test-host through vm-run: the whole guest suite, as root
# inside the guest, against the installed tree; -v: every line of TAP
# comes back, diagnostics included.
exec prove -v -r regress/host/guest
