# The compat corpus's cases (issue 15), shared by regress/compat/tools.t
# on the lab host and regress/host/guest/compat.t under the installed
# unit: real developer workloads, each a plain sh script run in an empty
# working directory, compared bare and under sandboxd by outcome.

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
add mvln 'moved and linked' '
mkdir a b && echo x > a/f && ln a/f b/hard && python3 -c "import os; os.rename(\"a/f\", \"b/f\")" &&
[ "$(cat b/f b/hard)" = "x
x" ] && echo "moved and linked"'
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

# The lab host's cases beyond those (regress/compat/tools.t): tools
# the guest image (regress/host/mkimage.sh) does not hold.
# cases_lab: valgrind's leak check, node's child processes, files and
# worker threads, and java (a class run from source: the JRE's
# launcher compiles it, no JDK needed) with threads and a child.
cases_lab= nlab=0
add_lab() {
	_c=$cases _n=$ncases
	add "$@"
	cases=$_c ncases=$_n nlab=$((nlab + 1)) cases_lab="$cases_lab $1"
}
add_lab valgrind 'definitely lost: 64 bytes' '
printf "#include <stdlib.h>\nvoid *keep;\nint main(void) { keep = malloc(64); keep = 0; return 0; }\n" > leak.c
gcc -g -o leak leak.c && valgrind --leak-check=full --error-exitcode=0 ./leak'
add_lab node 'node ok child 499999500000' '
cat > n.js <<"JS"
const { execFileSync } = require("child_process");
const fs = require("fs");
const { Worker } = require("worker_threads");
fs.writeFileSync("f.txt", "x".repeat(1000));
if (fs.readFileSync("f.txt", "utf8").length !== 1000) process.exit(1);
const out = execFileSync("sh", ["-c", "echo child"]).toString().trim();
const w = new Worker("const { parentPort } = require(\"worker_threads\");" +
    "let s = 0; for (let i = 0; i < 1e6; i++) s += i; parentPort.postMessage(s);",
    { eval: true });
w.on("message", (s) => console.log("node ok", out, s));
w.on("error", (e) => { console.error(e); process.exit(1); });
JS
node n.js'
add_lab java 'java ok 42 child 0' '
cat > Hello.java <<"JAVA"
import java.util.concurrent.*;
public class Hello {
    public static void main(String[] a) throws Exception {
        ExecutorService ex = Executors.newFixedThreadPool(4);
        Future<Integer> f = ex.submit(() -> 6 * 7);
        Process p = new ProcessBuilder("sh", "-c", "echo child").start();
        String c = new String(p.getInputStream().readAllBytes()).trim();
        System.out.println("java ok " + f.get() + " " + c + " " + p.waitFor());
        ex.shutdown();
    }
}
JAVA
java -XX:TieredStopAtLevel=1 -XX:-UsePerfData Hello.java'

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

# compat_compare TMPDIR SANDBOXCTL...: each case bare, as nobody in a
# fresh directory below TMPDIR, then with SANDBOXCTL... run under the
# default policy: two TAP lines a case (ok, is from the caller's lib).
# COMPAT_CASES: the cases (default $cases).
compat_compare() {
	_tmp=$1; shift
	for c in ${COMPAT_CASES:-$cases}; do
		eval "m=\$marker_$c; s=\$script_$c"
		d=$(mktemp -d "$_tmp/bare.XXXXXX")
		chown nobody "$d"
		out=$(cd "$d" && setpriv --reuid=nobody --regid=nogroup \
		    --clear-groups env -i PATH=/usr/local/bin:/usr/bin:/bin \
		    HOME="$d" sh -c "$s" 2>&1)
		rc=$?
		bare=$(printf '%s\n' "$out" | outcome "$m")
		is "$bare" pass "$c passes bare"
		out=$("$@" run -- sh -c "cd /workspace; $s" 2>&1)
		rc=$?
		got=$(printf '%s\n' "$out" | outcome "$m")
		is "$got" "$bare" "$c: the same outcome under sandboxd"
		[ "$got" = "$bare" ] ||
		    printf '%s\n' "$out" | head -n 5 | sed 's/^/# /'
	done
}
