# Helpers for the service tests; source after common.sh.
S=$ROOT/regress/services
A="python3 $S/audit.py $LOG"

# svc_field NAME FIELD: one field of sandboxctl -j service status NAME.
svc_field() { ctl -j service status "$1" 2>/dev/null | jfield "$2" service; }

# svc_is NAME FIELD=VALUE...: every field has its value now.
svc_is() {
	_n=$1; shift
	ctl -j service status "$_n" 2>/dev/null | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
r = [x for x in rows if x.get("event") == "service"]
if not r:
    sys.exit(1)
for kv in sys.argv[1:]:
    k, v = kv.split("=", 1)
    got = r[0][k]
    got = str(got).lower() if isinstance(got, bool) else str(got)
    if got != v:
        sys.exit(1)' "$@"
}

# svc_wait SECS NAME FIELD=VALUE...: until svc_is.
svc_wait() { _s=$1; shift; wait_for "$_s" svc_is "$@"; }

# talk NAME CALLS: svc_client.py through service attach NAME.
talk() { python3 "$S/svc_client.py" "$2" "$SANDBOXCTL" -s "$SOCK" service attach "$1"; }
