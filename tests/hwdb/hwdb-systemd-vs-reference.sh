#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Places where systemd-hwdb 252 behaves differently from what
# ../shared/reference/hwdb.md says. systemd-hwdb wins: each case asserts
# systemd's behaviour and that unitguard does the same. Skips (77) without
# systemd-hwdb.
#
# Usage: hwdb-systemd-vs-reference.sh UNITGUARD
set -u
ug=$1
command -v systemd-hwdb >/dev/null || { echo "systemd-hwdb not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

both() {
        # both DESCRIPTION ROOT KEY WANTED-OUTPUT
        sd=$(systemd-hwdb query --root="$2" "$3" 2>/dev/null)
        ugo=$("$ug" hwdb query --root "$2" "$3" 2>/dev/null)
        if [ "$sd" = "$4" ] && [ "$ugo" = "$4" ]; then echo "ok   $1"; else
                echo "FAIL $1: systemd-hwdb '$sd', unitguard '$ugo', expected '$4'"; fail=1; fi
}

# 1. Reference §1: "directories are skipped, including one named x.hwdb".
#    True for its (absent) content, but a directory in /etc still hides the
#    file of the same name in /lib, like a /dev/null link.
r="$tmp/dirmask"
mkdir -p "$r/etc/udev/hwdb.d/50-x.hwdb" "$r/lib/udev/hwdb.d"
printf 'b:x\n K=from-lib\n' > "$r/lib/udev/hwdb.d/50-x.hwdb"
printf 'b:y\n K=other\n' > "$r/lib/udev/hwdb.d/60-y.hwdb"
systemd-hwdb update --root="$r"
both "directory named x.hwdb in /etc masks /lib/x.hwdb" "$r" b:x ""
both "other files still load" "$r" b:y "K=other"
rm -r "$r/etc/udev/hwdb.bin"

# 2. Reference §2: lines are split at LF and a CR only matters as trailing
#    white space. systemd's reader also ends a line at a lone CR and at a
#    NUL byte, so "K1=a<CR>b:cr" is a property line and a match line.
r="$tmp/eol"
mkdir -p "$r/lib/udev/hwdb.d"
printf 'b:cr\n K1=a\rb:cr2\n K2=c\n\nb:nul\n N1=a\0 N2=b\n\nb:lfcr\n L1=x\n\r L2=y\n' > "$r/lib/udev/hwdb.d/60-eol.hwdb"
systemd-hwdb update --root="$r" 2>/dev/null
both "lone CR ends a line" "$r" b:cr "K1=a"
both "nothing after the CR belongs to the value" "$r" b:cr2 ""
both "NUL ends a line" "$r" b:nul "$(printf 'N1=a\nN2=b')"
both "LF CR is one line break" "$r" b:lfcr "$(printf 'L1=x\nL2=y')"

# 3. Reference §3: systemd-hwdb "dies on an assertion (exit 134)" for glob
#    tails longer than its 2,048-byte buffer. In fact a tail of 2,046 bytes
#    still works, 2,047 bytes crash with SIGSEGV (139) and 2,048 or more
#    abort on the assertion (134). unitguard answers all of them.
r="$tmp/glob"
mkdir -p "$r/lib/udev/hwdb.d"
for n in 2046 2047 2048; do
        printf 'g%d:*%s\n K=%d\n\n' $n "$(python3 -c "print('a' * ($n - 1))")" $n
done > "$r/lib/udev/hwdb.d/10-glob.hwdb"
systemd-hwdb update --root="$r"
for n in 2046 2047 2048; do
        key="g$n:$(python3 -c "print('a' * ($n - 1))")"
        systemd-hwdb query --root="$r" "$key" > "$tmp/sd-out" 2>/dev/null
        rc=$?
        ugo=$("$ug" hwdb query --root "$r" "$key")
        case $n in 2046) want=0 ;; 2047) want=139 ;; *) want=134 ;; esac
        if [ $rc = $want ] && [ "$ugo" = "K=$n" ]; then echo "ok   glob tail of $n bytes: systemd-hwdb exit $rc, unitguard answers"; else
                echo "FAIL glob tail of $n bytes: systemd-hwdb exit $rc (expected $want), unitguard '$ugo'"; fail=1; fi
done

# 4. Not in the reference: systemd stops reading a source file at a line of
#    1 MiB or more (silently, exit 0); records before it stay.
r="$tmp/long"
mkdir -p "$r/lib/udev/hwdb.d"
python3 - "$r/lib/udev/hwdb.d/10-long.hwdb" <<'PY'
import sys
L = 1 << 20
open(sys.argv[1], "wb").write(b"a:before\n K=1\n\na:ok\n V=" + b"x" * (L - 4) + b"\n\n"
                              b"a:bad\n V=" + b"y" * (L - 3) + b"\n\na:after\n K=3\n")
PY
systemd-hwdb update --root="$r"
both "record before an overlong line is kept" "$r" a:before "K=1"
both "line of 1 MiB - 1 bytes is fine" "$r" a:ok "V=$(python3 -c "print('x' * ((1 << 20) - 4))")"
both "line of 1 MiB ends the file" "$r" a:bad ""
both "records after it are gone" "$r" a:after ""

exit $fail
