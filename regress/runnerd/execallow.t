#!/bin/sh
# The exec allowlist holds every way to execute: an unlisted program
# run by path, by an fd (execveat with AT_EMPTY_PATH, O_PATH or not),
# by fexecve(3), by /proc/self/fd/N, or copied into a memfd and run
# from there, is refused; a listed one still runs by each of those
# ways but the memfd, which is never listed.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 16

setup_users
mkdir -p "$T/bin"
cc -O0 -o "$T/bin/execprobe" "$ROOT/regress/runnerd/execprobe.c" || exit 1
chmod -R a+rX "$T/bin"
write_sandbox_conf "policy \"probe\" {
	filesystem { read \"$T/bin\" }
}
policy \"allowlist\" {
	filesystem { read \"$T/bin\"; exec \"$T/bin\"; exec \"/usr/bin/cat\" }
}"
check "suite starts" suite_start

# probe MODE PATH: what the probe prints running PATH that way.
probe() {
	run_sbx -p allowlist -- "$T/bin/execprobe" "$1" "$2" /etc/hostname 2>&1
}
for m in path fd opath fexecve procfd; do
	out=$(probe "$m" /usr/bin/cat)
	check "a listed program runs by $m" contains "$out" "^sbx-"
done
for m in path fd opath fexecve procfd memfd memfdproc; do
	out=$(probe "$m" /usr/bin/head)
	check "an unlisted program is refused by $m ($out)" contains "$out" "^refused"
done
for m in memfd memfdproc; do
	out=$(probe "$m" /usr/bin/cat)
	check "a listed program's copy in a memfd is refused by $m ($out)" \
	    contains "$out" "^refused"
done
out=$(run_sbx -p probe -- "$T/bin/execprobe" memfd /usr/bin/head /etc/hostname 2>&1)
check "twin: without an exec list, a memfd copy runs ($out)" contains "$out" "^sbx-"
done_testing
