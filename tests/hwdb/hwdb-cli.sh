#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The hwdb verbs as a user sees them: exit codes, batch framing, atomic
# compile, check, corrupt databases, closed pipes, long globs.
# Usage: hwdb-cli.sh UNITGUARD SRCDIR
set -u
ug=$1
top=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# expect DESCRIPTION WANTED-EXIT COMMAND...: runs the command, keeps stdout
# in $tmp/out and stderr in $tmp/err.
expect() {
        desc=$1 want=$2
        shift 2
        n=$((n + 1))
        "$@" > "$tmp/out" 2> "$tmp/err"
        got=$?
        if [ "$got" = "$want" ]; then
                echo "ok   $desc"
        else
                echo "FAIL $desc: exit $got, wanted $want"
                sed 's/^/     stderr: /' "$tmp/err" | head -5
                fail=1
        fi
}
same() {
        # same DESCRIPTION FILE-A FILE-B
        if cmp -s "$2" "$3"; then echo "ok   $1"; else echo "FAIL $1"; diff "$2" "$3" | head -10; fail=1; fi
}
grep_err() {
        if grep -a -q -- "$1" "$tmp/err"; then echo "ok   stderr mentions '$1'"; else
                echo "FAIL stderr lacks '$1':"; head -3 "$tmp/err"; fail=1; fi
}

fx="$top/hwdb/priorities"
mkdir -p "$tmp/root/lib/udev/hwdb.d"
cp "$fx"/lib/udev/hwdb.d/*.hwdb "$tmp/root/lib/udev/hwdb.d/"

expect "--help" 0 "$ug" hwdb --help
grep -q "hwdb query" "$tmp/out" || { echo "FAIL help text"; fail=1; }
expect "query --help" 0 "$ug" hwdb query --help
expect "no subcommand" 2 "$ug" hwdb
expect "unknown subcommand" 2 "$ug" hwdb frobnicate
expect "unknown option" 2 "$ug" hwdb query --frob x
expect "query without key" 2 "$ug" hwdb query --root "$tmp/root"
expect "compile without -o" 2 "$ug" hwdb compile --root "$tmp/root"
expect "option of another verb" 2 "$ug" hwdb query -o x key
expect "--bin with --hwdb-dir" 2 "$ug" hwdb query --bin x --hwdb-dir y key

# One key prints what systemd-hwdb prints; several are framed.
expect "single key" 0 "$ug" hwdb query --root "$tmp/root" d:dup
printf 'K=second\n' > "$tmp/want"
same "single key output" "$tmp/want" "$tmp/out"
expect "two keys" 0 "$ug" hwdb query --root "$tmp/root" d:dup nothing
printf 'K=second\n\n\n' > "$tmp/want"
same "two keys framed" "$tmp/want" "$tmp/out"
printf 'd:dup\n\nnothing\nk:order' | "$ug" hwdb query --stdin --root "$tmp/root" > "$tmp/out"
printf 'K=second\n\n\n\nALPHA=a\nMIDDLE=m\nZED=z\n\n' > "$tmp/want"
same "batch: empty line after every answer, last line without newline" "$tmp/want" "$tmp/out"

# compile: atomic, readable, no temporary files left behind.
mkdir -p "$tmp/out-dir"
expect "compile" 0 "$ug" hwdb compile --root "$tmp/root" -o "$tmp/out-dir/hwdb.bin"
[ "$(ls "$tmp/out-dir")" = "hwdb.bin" ] && echo "ok   only hwdb.bin in output dir" || { echo "FAIL leftovers: $(ls "$tmp/out-dir")"; fail=1; }
expect "check --bin on compiled file" 0 "$ug" hwdb check --bin "$tmp/out-dir/hwdb.bin"
expect "compile into missing dir" 3 "$ug" hwdb compile --root "$tmp/root" -o "$tmp/nope/hwdb.bin"
cp "$tmp/out-dir/hwdb.bin" "$tmp/keep.bin"
chmod 000 "$tmp/root/lib/udev/hwdb.d/10-base.hwdb"
if ! cat "$tmp/root/lib/udev/hwdb.d/10-base.hwdb" >/dev/null 2>&1; then
        expect "compile with unreadable source" 3 "$ug" hwdb compile --root "$tmp/root" -o "$tmp/out-dir/hwdb.bin"
        same "failed compile leaves the old file alone" "$tmp/keep.bin" "$tmp/out-dir/hwdb.bin"
fi
chmod 644 "$tmp/root/lib/udev/hwdb.d/10-base.hwdb"

# compile -o replaces only a regular file or a free name, never through or
# over a symlink, a FIFO, a device node or a directory (issue 9, finding 4).
sp="$tmp/special"
mkdir -p "$sp/dir"
printf 'keep\n' > "$sp/target"
ln -s target "$sp/link"
ln -s nowhere "$sp/dangling"
mkfifo "$sp/fifo"
expect "compile -o symlink is refused" 3 "$ug" hwdb compile --root "$tmp/root" -o "$sp/link"
grep_err "symbolic link"
expect "compile -o dangling symlink is refused" 3 "$ug" hwdb compile --root "$tmp/root" -o "$sp/dangling"
if [ -L "$sp/link" ] && [ "$(readlink "$sp/link")" = target ] && [ "$(cat "$sp/target")" = keep ] &&
   [ -L "$sp/dangling" ] && [ ! -e "$sp/nowhere" ]; then
        echo "ok   symlinks and their targets untouched"
else
        echo "FAIL a symlink or its target was changed"; ls -l "$sp"; fail=1
fi
expect "compile -o FIFO is refused" 3 "$ug" hwdb compile --root "$tmp/root" -o "$sp/fifo"
grep_err "not a regular file"
[ -p "$sp/fifo" ] && echo "ok   FIFO untouched" || { echo "FAIL FIFO replaced"; fail=1; }
expect "compile -o directory is refused" 3 "$ug" hwdb compile --root "$tmp/root" -o "$sp/dir"
[ -d "$sp/dir" ] && echo "ok   directory untouched" || { echo "FAIL directory replaced"; fail=1; }
# A device node of our own (as root); never one in /dev.
if mknod "$sp/null" c 1 3 2>/dev/null; then
        expect "compile -o device node is refused" 3 "$ug" hwdb compile --root "$tmp/root" -o "$sp/null"
        [ -c "$sp/null" ] && echo "ok   device node untouched" || { echo "FAIL device node replaced"; fail=1; }
        rm -f "$sp/null"
else
        echo "skip compile -o device node: mknod not permitted"
fi
left=$(ls -A "$sp" | tr '\n' ' ')
[ "$left" = "dangling dir fifo link target " ] && echo "ok   no temporary files left" ||
        { echo "FAIL entries after refused compiles: $left"; fail=1; }

# Default search: a hwdb.bin below --root wins over the sources.
mkdir -p "$tmp/root/etc/udev"
printf 'only:bin\n FROM=bin\n' > "$tmp/bin-src.hwdb"
mkdir -p "$tmp/binroot/lib/udev/hwdb.d" && cp "$tmp/bin-src.hwdb" "$tmp/binroot/lib/udev/hwdb.d/"
"$ug" hwdb compile --root "$tmp/binroot" -o "$tmp/root/etc/udev/hwdb.bin"
expect "default search uses hwdb.bin" 0 "$ug" hwdb query --root "$tmp/root" only:bin
printf 'FROM=bin\n' > "$tmp/want"
same "answer from hwdb.bin" "$tmp/want" "$tmp/out"
rm "$tmp/root/etc/udev/hwdb.bin"
expect "no database at all" 3 "$ug" hwdb query --root "$tmp/empty" x

# Corrupt databases: clear message, exit 3, never a crash.
printf 'KSLPHHRHjunk' > "$tmp/short.bin"
expect "truncated hwdb.bin" 3 "$ug" hwdb query --bin "$tmp/short.bin" x
grep_err "shorter than"
head -c $(( $(wc -c < "$tmp/keep.bin") / 2 )) "$tmp/keep.bin" > "$tmp/trunc.bin"
expect "hwdb.bin cut short" 3 "$ug" hwdb query --bin "$tmp/trunc.bin" x
grep_err "size"
{ printf 'XXXXXXXX'; tail -c +9 "$tmp/keep.bin"; } > "$tmp/sig.bin"
expect "wrong signature" 3 "$ug" hwdb query --bin "$tmp/sig.bin" x
grep_err "signature"
expect "check --bin on corrupt file" 3 "$ug" hwdb check --bin "$tmp/sig.bin"
head -c 100000 /dev/urandom > "$tmp/junk.bin"
expect "random junk as hwdb.bin" 3 "$ug" hwdb query --bin "$tmp/junk.bin" x
expect "missing hwdb.bin" 3 "$ug" hwdb query --bin "$tmp/none.bin" x
mkfifo "$tmp/fifo.bin"
expect "FIFO as hwdb.bin: refused, not waited on" 3 timeout 20 "$ug" hwdb query --bin "$tmp/fifo.bin" x
grep_err "not a regular file"
expect "FIFO as hwdb.bin for check" 3 timeout 20 "$ug" hwdb check --bin "$tmp/fifo.bin"
# Root offset past the end, with the size field intact.
python3 - "$tmp/keep.bin" "$tmp/root-off.bin" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<Q", d, 56, len(d) + 4096)
open(sys.argv[2], "wb").write(d)
PY
expect "root offset past the end" 3 "$ug" hwdb query --bin "$tmp/root-off.bin" x
grep_err "root node"

# check: problems give exit 1 and file:line diagnostics.
expect "check clean fixture" 0 "$ug" hwdb check --root "$top/hwdb/classes"
expect "check fixture with warnings" 1 "$ug" hwdb check --root "$top/hwdb/quirks"
grep_err "10-parser.hwdb:11: warning: Match expected but got indented property"
grep_err "hwdb.missing-equals"
expect "check named files" 1 "$ug" hwdb check "$top/hwdb/quirks/lib/udev/hwdb.d/10-parser.hwdb"
expect "check unreadable file" 3 "$ug" hwdb check "$tmp/does-not-exist.hwdb"

# Overlong source lines and binary junk in sources.
python3 - "$tmp/junkroot/lib/udev/hwdb.d" <<'PY'
import os, random, sys
os.makedirs(sys.argv[1])
rng = random.Random(1)
open(os.path.join(sys.argv[1], "10-junk.hwdb"), "wb").write(bytes(rng.randrange(256) for _ in range(200000)))
open(os.path.join(sys.argv[1], "20-long.hwdb"), "wb").write(
    b"ok:before\n K=1\n\nlong:line\n V=" + b"x" * (1 << 20) + b"\n\nok:after\n K=2\n")
PY
expect "query over junk sources" 0 "$ug" hwdb query --root "$tmp/junkroot" ok:before
printf 'K=1\n' > "$tmp/want"
same "records before an overlong line survive" "$tmp/want" "$tmp/out"
expect "check junk sources" 1 "$ug" hwdb check --root "$tmp/junkroot"
grep_err "hwdb.line-too-long"

# A source error that drops records (a line of 1 MiB ends its file in
# systemd) fails compile with exit 1; the old database stays.
cp "$tmp/keep.bin" "$sp/hwdb.bin"
expect "compile with a 1 MiB source line fails" 1 "$ug" hwdb compile --root "$tmp/junkroot" -o "$sp/hwdb.bin"
grep_err "20-long.hwdb:5: error: Line is 1048576 bytes or longer"
grep_err "not written"
same "failed compile keeps the old database" "$tmp/keep.bin" "$sp/hwdb.bin"

# A glob tail over 2 KB (systemd-hwdb crashes on it): right answer here.
long=$(python3 -c 'print("a" * 3000)')
mkdir -p "$tmp/longroot/lib/udev/hwdb.d"
printf 'g:*%s*\n K=long-glob\n' "$long" > "$tmp/longroot/lib/udev/hwdb.d/10-long.hwdb"
expect "long glob tail, matching key" 0 "$ug" hwdb query --root "$tmp/longroot" "g:x${long}y"
printf 'K=long-glob\n' > "$tmp/want"
same "long glob tail answer" "$tmp/want" "$tmp/out"
expect "long glob tail, other key" 0 "$ug" hwdb query --root "$tmp/longroot" "g:x${long%a}by"
[ -s "$tmp/out" ] && { echo "FAIL long glob matched a key it must not match"; fail=1; }

# --stdin key lines are capped at 16383 bytes (udev's 16 KiB line buffer);
# a longer line, or one with a NUL byte, gets one error naming it and an
# empty answer; the other keys are answered and the exit status is 1.
python3 -c 'import sys; sys.stdout.buffer.write(b"d:dup\n" + b"k" * 16383 + b"\n" + b"x" * (32 << 20) +
        b"\nnothing\nd:dup\na\0b\nd:dup")' > "$tmp/longkeys"
expect "over-long key lines are refused one by one" 1 \
        sh -c '"$1" hwdb query --stdin --root "$2" < "$3"' sh "$ug" "$tmp/root" "$tmp/longkeys"
printf 'K=second\n\n\n\n\nK=second\n\n\nK=second\n\n' > "$tmp/want"
same "answers stay in step with the input lines" "$tmp/want" "$tmp/out"
grep_err "^<stdin>:3: error: key is longer than 16383 bytes"
grep_err "^<stdin>:6: error: key contains a NUL byte"
[ "$(wc -l < "$tmp/err")" -eq 2 ] && echo "ok   one error per refused line" ||
        { echo "FAIL stderr:"; head -c 300 "$tmp/err"; fail=1; }
# NUL bytes anywhere in a line (first, last, middle byte, whole line, an
# over-long line), in lines that straddle the reads of a pipe fed in uneven
# pieces, and in a file: exactly those lines are refused, in step with the
# others.
python3 - "$ug" "$tmp/root" "$tmp/nulkeys" <<'PY'
import random, subprocess, sys, threading
ug, root, path = sys.argv[1:4]
rnd = random.Random(7)
lines, want_out, want_err = [], [], []
for i in range(1, 14001):
        kind = rnd.randrange(12)
        if i % 4000 == 0:
                # over-long, NUL bytes in what is dropped of it
                body = (b"\0" + b"x" * 999) * 300
                want_out.append(b"\n")
                want_err.append(b"<stdin>:%d: error: key is longer than 16383 bytes; skipped" % i)
        elif kind == 0:
                body = bytearray(b"d:dup" if rnd.randrange(2) else b"n" * rnd.randrange(1, 60))
                body[rnd.choice([0, len(body) - 1, len(body) // 2])] = 0
                body = bytes(body) if rnd.randrange(8) else b"\0" * rnd.randrange(1, 4)
                want_out.append(b"\n")
                want_err.append(b"<stdin>:%d: error: key contains a NUL byte; skipped" % i)
        elif kind < 6:
                body = b"d:dup"
                want_out.append(b"K=second\n\n")
        else:
                body = b"n" * rnd.randrange(1, 60)
                want_out.append(b"\n")
        lines.append(body)
data = b"\n".join(lines) + b"\n"
open(path, "wb").write(data)
ok = True
for how in ("pipe", "file"):
        if how == "pipe":
                p = subprocess.Popen([ug, "hwdb", "query", "--stdin", "--root", root], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                def feed():
                        at = 0
                        while at < len(data):
                                n = rnd.randrange(1, 70000)
                                p.stdin.write(data[at:at + n])
                                p.stdin.flush()
                                at += n
                        p.stdin.close()
                t = threading.Thread(target=feed)
                t.start()
                out, err = p.stdout.read(), p.stderr.read()
                t.join()
                p.wait()
        else:
                with open(path, "rb") as f:
                        p = subprocess.run([ug, "hwdb", "query", "--stdin", "--root", root], stdin=f,
                                           capture_output=True)
                out, err = p.stdout, p.stderr
        if p.returncode != 1 or out != b"".join(want_out) or err.splitlines() != want_err:
                print("FAIL NUL bytes in --stdin lines (%s): exit %d, %d of %d errors"
                      % (how, p.returncode, len(err.splitlines()), len(want_err)))
                ok = False
if ok:
        print("ok   NUL bytes in %d of 14000 --stdin lines, by pipe and by file" % len(want_err))
sys.exit(0 if ok else 1)
PY
[ $? = 0 ] || fail=1
{ printf 'd:dup\n'; python3 -c 'print("y" * 20000, end="")'; } > "$tmp/longlast"
expect "over-long last line without a line feed" 1 \
        sh -c '"$1" hwdb query --stdin --root "$2" < "$3"' sh "$ug" "$tmp/root" "$tmp/longlast"
grep_err "^<stdin>:2: error: key is longer"
printf 'K=second\n\n\n' > "$tmp/want"
same "answers before an over-long last line" "$tmp/want" "$tmp/out"
expect "over-long key argument" 2 "$ug" hwdb query --root "$tmp/root" "$(python3 -c 'print("k" * 16384)')"
expect "longest key argument" 0 "$ug" hwdb query --root "$tmp/root" "$(python3 -c 'print("k" * 16383)')"

# hwdb.bin truncated in place while `query --stdin` holds it mapped: the
# next lookup is a clean error (exit 3), never death by SIGBUS (issue 9,
# finding 5).
"$ug" hwdb compile --root "$top/hwdb/classes" -o "$tmp/shrinking.bin"
key=$(sed -n 1p "$top/hwdb/classes/keys")
python3 - "$ug" "$tmp/shrinking.bin" "$key" <<'PY'
import os, subprocess, sys
ug, path, key = sys.argv[1], sys.argv[2], sys.argv[3].encode()
p = subprocess.Popen([ug, "hwdb", "query", "--stdin", "--bin", path], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
p.stdin.write(key + b"\n")
p.stdin.flush()
first = b""
while not first.endswith(b"\n\n") and first != b"\n":
    line = p.stdout.readline()
    if not line:
        break
    first += line
os.truncate(path, 0)                    # the process holds the file now
p.stdin.write(key + b"\n" + key + b"\n")
p.stdin.close()
rest, err = p.stdout.read(), p.stderr.read()
p.wait()
if (p.returncode == 3 and len(first) > 1 and rest == b"" and err.count(b"\n") == 1
        and b": error: the file was truncated while in use" in err):
    print("ok   hwdb.bin truncated while queried: one clear error, exit 3")
else:
    print("FAIL hwdb.bin truncated while queried: exit %d, first %r, rest %r, stderr %r"
          % (p.returncode, first[:80], rest[:80], err[:300]))
    sys.exit(1)
PY
[ $? = 0 ] || fail=1

# A cycle in hwdb.bin: a key whose walk takes the bad edge fails like
# check does, instead of answering from the wrong subtree (finding 14).
python3 - "$tmp/keep.bin" "$tmp/cyclic.bin" > "$tmp/cyclic.key" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
root = struct.unpack_from("<Q", d, 56)[0]
prefix_off, = struct.unpack_from("<Q", d, root)
prefix = d[prefix_off:d.index(b"\0", prefix_off)]
edge = d[root + 24]                     # first child entry of the root
struct.pack_into("<Q", d, root + 24 + 8, root)
open(sys.argv[2], "wb").write(d)
sys.stdout.write((prefix + bytes([edge]) + b"x").decode())
PY
ckey=$(cat "$tmp/cyclic.key")
expect "query on a cyclic hwdb.bin fails" 3 "$ug" hwdb query --bin "$tmp/cyclic.bin" "$ckey"
grep_err "corrupt"
expect "query --stdin on a cyclic hwdb.bin fails" 3 \
        sh -c 'printf "%s\n" "$3" | "$1" hwdb query --stdin --bin "$2"' sh "$ug" "$tmp/cyclic.bin" "$ckey"
grep_err "corrupt"
expect "check --bin on a cyclic hwdb.bin fails" 3 "$ug" hwdb check --bin "$tmp/cyclic.bin"
grep_err "cycle"

# --stdin looks a batch of lines up in sorted order; when a lookup in it
# fails, the lines are answered one by one again, so the answers of the
# lines before the failing one are still written (here a key that sorts
# after it) and the error names the failing key.
# The cycle is one level down, below the root's first child: keys through
# the other children are answered.
mkdir -p "$tmp/two"
printf 'a:x1\n A=1\n\na:x2\n A=2\n\nb:y\n B=1\n' > "$tmp/two/two.hwdb"
"$ug" hwdb compile --hwdb-dir "$tmp/two" -o "$tmp/two.bin"
python3 - "$tmp/two.bin" "$tmp/cyclic2.bin" > "$tmp/cyclic2.key" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
def node(off):
    prefix_off, = struct.unpack_from("<Q", d, off)
    return d[prefix_off:d.index(b"\0", prefix_off)], d[off + 8]
root = struct.unpack_from("<Q", d, 56)[0]
rprefix, n = node(root)
assert n >= 2
edge = d[root + 24]
child, = struct.unpack_from("<Q", d, root + 24 + 8)
cprefix, cn = node(child)
assert cn >= 1
struct.pack_into("<Q", d, child + 24 + 8, child)  # its first child: itself
open(sys.argv[2], "wb").write(d)
sys.stdout.write((rprefix + bytes([edge]) + cprefix + bytes([d[child + 24]]) + b"x").decode())
PY
ckey2=$(cat "$tmp/cyclic2.key")
expect "query --stdin batch on a cyclic hwdb.bin fails" 3 \
        sh -c 'printf "b:y\n%s\nb:y\n" "$3" | "$1" hwdb query --stdin --bin "$2"' sh "$ug" "$tmp/cyclic2.bin" "$ckey2"
printf 'B=1\n\n' > "$tmp/want"
same "answers before the failing line written" "$tmp/want" "$tmp/out"
grep_err "corrupt"
if [ "$(wc -l < "$tmp/err")" = 1 ]; then echo "ok   one error"; else echo "FAIL errors: $(cat "$tmp/err")"; fail=1; fi

# A batch whose answers would exceed what is kept at a time (2^18
# properties) is answered key by key instead: same output.
i=0
while [ $i -lt 300 ]; do printf 'k:*\n P%03d=%d\n\n' $i $i; i=$((i + 1)); done > "$tmp/wide.hwdb"
mkdir -p "$tmp/wide"
mv "$tmp/wide.hwdb" "$tmp/wide/"
"$ug" hwdb compile --hwdb-dir "$tmp/wide" -o "$tmp/wide.bin"
seq -f 'k:%04g' 1000 > "$tmp/widekeys"
expect "batch beyond the answer cap" 0 sh -c '"$1" hwdb query --stdin --bin "$2" < "$3"' sh "$ug" "$tmp/wide.bin" "$tmp/widekeys"
mv "$tmp/out" "$tmp/wide.out"
# shellcheck disable=SC2046
expect "the same keys as arguments" 0 "$ug" hwdb query --bin "$tmp/wide.bin" $(cat "$tmp/widekeys")
same "batch beyond the answer cap answers like key by key" "$tmp/out" "$tmp/wide.out"
if [ "$(grep -c '^P000=0$' "$tmp/out")" = 1000 ]; then echo "ok   every key answered"; else echo "FAIL wide answers"; fail=1; fi

# Output to a closed pipe ends quietly.
yes pci:v00008086d00001234 | head -n 200000 > "$tmp/many"
"$ug" hwdb compile --root "$top/hwdb/classes" -o "$tmp/classes.bin"

# From 4096 keys on, --stdin reads hwdb.bin into a private copy (in huge
# pages, where the system has them) instead of reading the mapping: the
# same answers as two runs of half the keys each, which stay below that.
i=0
while [ $i -lt 12 ]; do cat "$top/hwdb/classes/keys"; i=$((i + 1)); done > "$tmp/ckeys"
seq -f 'usb:v%04gp0001' 2500 >> "$tmp/ckeys"
seq -f 'pci:v0000%04gd00001234sv00001234sd00005678bc03sc00i00' 2500 >> "$tmp/ckeys"
half=$(($(wc -l < "$tmp/ckeys") / 2))
head -n "$half" "$tmp/ckeys" > "$tmp/ckeys1"
tail -n +"$((half + 1))" "$tmp/ckeys" > "$tmp/ckeys2"
"$ug" hwdb query --stdin --bin "$tmp/classes.bin" < "$tmp/ckeys1" > "$tmp/cwant"
"$ug" hwdb query --stdin --bin "$tmp/classes.bin" < "$tmp/ckeys2" >> "$tmp/cwant"
expect "query --stdin on $(wc -l < "$tmp/ckeys") keys" 0 \
        sh -c '"$1" hwdb query --stdin --bin "$2" < "$3"' sh "$ug" "$tmp/classes.bin" "$tmp/ckeys"
same "many keys answer as fewer do" "$tmp/cwant" "$tmp/out"
( "$ug" hwdb query --stdin --bin "$tmp/classes.bin" < "$tmp/many" 2> "$tmp/err"; echo $? > "$tmp/rc" ) | head -c 10 > /dev/null
if [ "$(cat "$tmp/rc")" = 0 ] && [ ! -s "$tmp/err" ]; then echo "ok   closed pipe ends quietly"; else
        echo "FAIL closed pipe: exit $(cat "$tmp/rc"), stderr: $(head -c 200 "$tmp/err")"; fail=1; fi
if [ -w /dev/full ]; then
        expect "write error is reported" 3 sh -c "\"$ug\" hwdb query --stdin --bin \"$tmp/classes.bin\" < \"$tmp/many\" > /dev/full"
fi

exit $fail
