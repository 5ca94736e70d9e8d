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
        if grep -q -- "$1" "$tmp/err"; then echo "ok   stderr mentions '$1'"; else
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

# A glob tail over 2 KB (systemd-hwdb crashes on it): right answer here.
long=$(python3 -c 'print("a" * 3000)')
mkdir -p "$tmp/longroot/lib/udev/hwdb.d"
printf 'g:*%s*\n K=long-glob\n' "$long" > "$tmp/longroot/lib/udev/hwdb.d/10-long.hwdb"
expect "long glob tail, matching key" 0 "$ug" hwdb query --root "$tmp/longroot" "g:x${long}y"
printf 'K=long-glob\n' > "$tmp/want"
same "long glob tail answer" "$tmp/want" "$tmp/out"
expect "long glob tail, other key" 0 "$ug" hwdb query --root "$tmp/longroot" "g:x${long%a}by"
[ -s "$tmp/out" ] && { echo "FAIL long glob matched a key it must not match"; fail=1; }

# Output to a closed pipe ends quietly.
yes pci:v00008086d00001234 | head -n 200000 > "$tmp/many"
"$ug" hwdb compile --root "$top/hwdb/classes" -o "$tmp/classes.bin"
( "$ug" hwdb query --stdin --bin "$tmp/classes.bin" < "$tmp/many" 2> "$tmp/err"; echo $? > "$tmp/rc" ) | head -c 10 > /dev/null
if [ "$(cat "$tmp/rc")" = 0 ] && [ ! -s "$tmp/err" ]; then echo "ok   closed pipe ends quietly"; else
        echo "FAIL closed pipe: exit $(cat "$tmp/rc"), stderr: $(head -c 200 "$tmp/err")"; fail=1; fi
if [ -w /dev/full ]; then
        expect "write error is reported" 3 sh -c "\"$ug\" hwdb query --stdin --bin \"$tmp/classes.bin\" < \"$tmp/many\" > /dev/full"
fi

exit $fail
