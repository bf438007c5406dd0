#!/bin/sh
# sandboxctl ls, stat, mkdir, rm, put -r and get -r (cmd/runnerd/fileops.c,
# lib/fstree.c): a tree goes in and comes back equal, links are copied as
# links and never followed out of the workspace, ".." is refused, and a
# put -r past the quota leaves nothing behind.  Each refusal sits next to
# an allowed twin that works.
. "$(dirname "$0")/../lib/common.sh"
need_root
plan 51

setup_users
write_sandbox_conf 'policy "small" {
	limits { workspace 1M }
}'
check "suite starts" suite_start
s=$(sbx_create)

# refused DESC PATTERN ARGS...: sandboxctl fails with 125 saying PATTERN.
refused() {
	d=$1; p=$2; shift 2
	out=$(ctl "$@" 2>&1); rc=$?
	if [ $rc -eq 125 ] && contains "$out" "$p"; then ok "$d"
	else notok "$d"; diag "exit $rc: $out"; fi
}

# --- mkdir, ls, stat, rm on a tree
check "mkdir -p makes a path of directories" ctl mkdir -p "$s" a/b/c
check "mkdir -m makes one with a mode" ctl mkdir -m 0700 "$s" a/priv
refused "mkdir of an existing directory says so" "already exists" \
    mkdir "$s" a/b
in_sbx "$s" 'echo hello > a/b/f; ln -s f a/b/l'
out=$(ctl ls "$s" a/b)
check "ls shows a directory's entries with type and size" sh -c '
    printf "%s\n" "$1" | grep -q "^drwxr-xr-x .* c$" &&
    printf "%s\n" "$1" | grep -q "^-rw-r--r-- *6 .* f$" &&
    printf "%s\n" "$1" | grep -q "^lrwxrwxrwx .* l -> f$"' - "$out"
n=$(ctl -j ls "$s" a | python3 -c '
import json, sys
e = [json.loads(l) for l in sys.stdin]
d = {x["name"]: x for x in e if x["event"] == "entry"}
assert d["b"]["type"] == "dir" and d["priv"]["mode"] == "0700", d
assert e[-1]["event"] == "result" and e[-1]["ok"], e[-1]
print(len(d))')
is "$n" 2 "ls -j gives one JSON object per entry, and a result"
out=$(ctl -j stat "$s" a/b/l)
check "stat of a link describes the link, not its target" sh -c '
    printf "%s\n" "$1" | python3 -c "
import json, sys
e = json.loads(sys.stdin.readline())
assert e[\"type\"] == \"link\" and e[\"target\"] == \"f\" and e[\"size\"] == 1, e"' - "$out"
is "$(ctl stat "$s" a/b/f | sed -n 2p | awk '{print $2}')" \
    "$(in_sbx "$s" 'id -u')" "stat shows the owner: the sandbox's uid"
refused "stat of a missing path says so" "no such file" stat "$s" a/nope
is "$(ctl ls "$s" a/b/f | awk '{print $1, $2, $5}')" "-rw-r--r-- 6 a/b/f" \
    "ls of a file lists it alone"

refused "rm of a non-empty directory without -r is refused" "not empty" \
    rm "$s" a/b
check "rm of a file works" ctl rm "$s" a/b/f
check "rm -r of a tree works" ctl rm -r "$s" a
is "$(in_sbx "$s" 'ls -A /workspace')" "" "the workspace is empty again"

# --- put -r and get -r of a tree: files, subdirs, empty dir, modes, links
src=$T/src
mkdir -p "$src/sub/deeper" "$src/empty"
head -c 200000 /dev/urandom > "$src/blob"
printf 'x\n' > "$src/sub/small"
printf '#!/bin/sh\necho run\n' > "$src/sub/deeper/run.sh"
chmod 0755 "$src/sub/deeper/run.sh"
chmod 0600 "$src/sub/small"
chmod 0750 "$src/sub"
ln -s ../blob "$src/sub/up"
ln -s /etc/shadow "$src/abs"
check "put -r of a tree works" ctl put -r "$s" "$src" tree
is "$(in_sbx "$s" 'sha256sum < tree/blob')" "$(sha256sum < "$src/blob")" \
    "a file arrives intact"
is "$(in_sbx "$s" 'stat -c "%a %u" tree/sub tree/sub/small tree/sub/deeper/run.sh | tr "\n" " "')" \
    "750 $(in_sbx "$s" 'id -u') 600 $(in_sbx "$s" 'id -u') 755 $(in_sbx "$s" 'id -u') " \
    "modes are kept, owner is the sandbox's uid"
is "$(in_sbx "$s" 'readlink tree/abs; readlink tree/sub/up' | tr '\n' ' ')" \
    "/etc/shadow ../blob " "local links were sent as links"
is "$(in_sbx "$s" 'tree/sub/deeper/run.sh')" "run" "an executable runs"
refused "put -r onto an existing path is refused" "already exists" \
    put -r "$s" "$src" tree
check "get -r of the tree works" ctl get -r "$s" tree "$T/back"
check "the round trip is equal (diff -r, links as links)" \
    diff -r --no-dereference "$src" "$T/back"
is "$(stat -c %a "$T/back/sub" "$T/back/sub/small" | tr '\n' ' ')" \
    "750 600 " "modes come back"
is "$(find "$T/back" | wc -l)" "$(find "$src" | wc -l)" \
    "nothing more or less came back"

# --- links inside the sandbox that point out
in_sbx "$s" 'mkdir -p out; ln -s /etc out/etc; ln -s /etc/shadow out/shadow;
    ln -s ../../../../../../etc out/up; ln -s . out/self; echo in > out/file'
check "get -r of a tree with links pointing out works" \
    ctl get -r "$s" out "$T/out"
is "$(readlink "$T/out/shadow") $(readlink "$T/out/up")" \
    "/etc/shadow ../../../../../../etc" "they come back as links"
check "nothing behind them was copied" sh -c "
    [ -L '$T/out/etc' ] && [ -L '$T/out/up' ] && [ -L '$T/out/shadow' ] &&
    [ \$(find '$T/out' -type f | wc -l) = 1 ]"
refused "ls through an absolute link out is refused" "escapes" \
    ls "$s" out/etc
refused "ls through a ../ link out is refused" "escapes" ls "$s" out/up
check "ls through a link that stays inside works" sh -c "$SANDBOXCTL -s $SOCK ls $s out/self | grep -q ' file$'"
refused "get -r through a link out is refused" "escapes" \
    get -r "$s" out/up "$T/x1"
refused "put -r beneath a link out is refused" "escapes" \
    put -r "$s" "$src" out/etc/sbxput
refused "mkdir beneath a link out is refused" "escapes" \
    mkdir "$s" out/up/tmp/sbxmk
refused "mkdir -p through a link is refused" "symbolic link" \
    mkdir -p "$s" out/etc/sbxmk
check "mkdir -p through plain directories works" ctl mkdir -p "$s" out/d/e
refused "rm beneath a link out is refused" "escapes" rm "$s" out/etc/passwd
check "rm of the link itself works and leaves its target" sh -c "
    $SANDBOXCTL -s $SOCK rm $s out/shadow && [ -f /etc/shadow ]"
check "nothing was made or removed on the host" sh -c "
    [ ! -e /etc/sbxput ] && [ ! -e /tmp/sbxmk ] && [ ! -e /etc/sbxmk ] &&
    [ ! -e '$T/x1' ] && grep -q '^root:' /etc/passwd"

# A put -r stream sandboxctl never sends, from a raw client: a link to
# /tmp (or to ../../..) and then a file through it; a ".." entry.
evil() { python3 "$ROOT/regress/workspace/evilput.py" "$SOCK" "$s" "$@"; }
out=$(evil e1 linkthrough "$T")
check "a put -r stream writing through its own link to /tmp is refused ($out)" \
    contains "$out" "symbolic link"
out=$(evil e2 linkthrough ../../../../..)
check "a put -r stream writing through its own ../ link is refused ($out)" \
    contains "$out" "symbolic link"
out=$(evil e3 dotdot)
check "a put -r stream with a .. entry is refused ($out)" \
    contains "$out" "bad entry"
out=$(evil e4 plain)
check "the same raw client with a plain tree succeeds ($out)" \
    contains "$out" "^0 put -r e4: 2 entries"
is "$(in_sbx "$s" 'cat e4/d/ok; ls -A /workspace | grep -c "^e[1-3]\|sandboxd-put"')" \
    "hi
0" "the refused streams left nothing in the workspace"
check "and nothing outside it" sh -c "[ ! -e '$T/pwned' ] && [ ! -e /pwned ]"

# --- ".." and absolute paths
refused "ls with .. is refused" "must not contain '..'" ls "$s" out/../..
refused "rm of an absolute path is refused" "relative" rm -r "$s" /etc
refused "put -r with .. is refused" "'..'" put -r "$s" "$src" ../x
check "ls of the workspace itself works" sh -c "$SANDBOXCTL -s $SOCK ls $s . | grep -q ' tree$'"

# --- the quota: a put -r past it fails and leaves nothing
q=$(sbx_create small)
big=$T/big
mkdir -p "$big/d"
head -c 400000 /dev/urandom > "$big/d/one"
head -c 400000 /dev/urandom > "$big/d/two"
head -c 400000 /dev/urandom > "$big/d/three"
refused "put -r past the workspace quota fails with a clear error" \
    "quota" put -r "$q" "$big" big
is "$(in_sbx "$q" 'ls -A /workspace')" "" "nothing of it was kept"
rm "$big/d/three"
check "the same tree within the quota goes in" ctl put -r "$q" "$big" big
ctl destroy "$q" >/dev/null
ctl destroy "$s" >/dev/null
done_testing
