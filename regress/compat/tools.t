#!/bin/sh
# The start of the compat corpus (issue 15): real developer workloads
# run bare, as an unprivileged user in a fresh directory, and under
# sandboxd's default policy, compared by outcome: the exit status (zero
# or not) and the line that shows the tool did its work.  A case that
# passes bare must pass under sandboxd.  Fast enough for make test;
# `make compat` runs regress/compat/ alone.  Still missing from the
# issue's list: valgrind, python's own test suite modules
# (libpython3.11-testsuite is not installed), node and java.
. "$(dirname "$0")/../lib/common.sh"
need_root

# add NAME MARKER SCRIPT: one workload; MARKER a grep pattern its output
# must hold.  Each is a plain sh script, self-contained, run in an empty
# working directory.
ncases=0
cases=
add() { ncases=$((ncases + 1)); cases="$cases $1"; eval "marker_$1=\$2; script_$1=\$3"; }

add lsan 'Direct leak of 64 byte' '
printf "#include <stdlib.h>\nvoid *keep;\nint main(void) { keep = malloc(64); keep = 0; return 0; }\n" > leak.c
gcc -fsanitize=address -g -o leak leak.c && ./leak; [ $? -ne 0 ] && echo "leak run failed as it must"'
add strace 'execve("/bin/true"' '
strace -f -e trace=execve sh -c "/bin/true; exit 0"'
add gdb 'received signal SIGSEGV' '
gdb -batch -ex run -ex bt --args sh -c "kill -SEGV \$\$"'
add make 'made: 4' '
for i in 1 2 3 4; do printf "int f$i(void) { return $i; }\n" > f$i.c; done
printf "int f1(void), f2(void), f3(void), f4(void);\nint main(void) { return f1() + f2() + f3() + f4() - 10; }\n" > main.c
printf "p: main.o f1.o f2.o f3.o f4.o\n\tcc -o p main.o f1.o f2.o f3.o f4.o\n" > Makefile
make -s -j2 && ./p && echo "made: $(ls f*.o | wc -l)"'
add git 'two commits' '
export HOME=$PWD GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
git init -q r && cd r && echo a > a && git add a && git commit -qm one &&
echo b >> a && git commit -qam two && [ "$(git log --oneline | wc -l)" = 2 ] &&
git gc -q && git fsck --no-progress && echo "two commits"'
add python 'python ok' '
python3 -c "
import os, subprocess, tempfile, threading, mmap, resource, signal, select, socket
with tempfile.TemporaryDirectory() as d:
    open(os.path.join(d, \"f\"), \"w\").write(\"x\")
t = threading.Thread(target=lambda: None); t.start(); t.join()
m = mmap.mmap(-1, 4096); m[0:1] = b\"x\"
resource.setrlimit(resource.RLIMIT_NOFILE, resource.getrlimit(resource.RLIMIT_NOFILE))
a, b = socket.socketpair(); a.send(b\"x\"); select.select([b], [], [], 1)
assert subprocess.run([\"true\"]).returncode == 0
print(\"python ok\")"'

plan $((ncases * 2 + 1))
setup_users
write_sandbox_conf
check "suite starts" suite_start

# outcome MARKER: "pass" if the output on stdin holds MARKER and the
# status in $rc is 0, else what was missing.
outcome() {
	_o=$(cat)
	if [ "$rc" = 0 ] && printf '%s\n' "$_o" | grep -qF -e "$1"; then
		echo pass
	else
		echo "fail rc=$rc: $(printf '%s\n' "$_o" | tail -3 | tr '\n' '|')"
	fi
}
for c in $cases; do
	eval "m=\$marker_$c; s=\$script_$c"
	d=$(mktemp -d "$T/bare.XXXXXX")
	chown nobody "$d"
	out=$(cd "$d" && setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$d" sh -c "$s" 2>&1)
	rc=$?
	bare=$(printf '%s\n' "$out" | outcome "$m")
	is "$bare" pass "$c passes bare"
	out=$(ctl run -- sh -c "cd /workspace; $s" 2>&1)
	rc=$?
	is "$(printf '%s\n' "$out" | outcome "$m")" "$bare" \
	    "$c: the same outcome under sandboxd"
done
done_testing
