#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Table test: every fixture root in hwdb/ is queried with its keys file, from
# the text sources (default directories and explicit --hwdb-dir), from a
# hwdb.bin that unitguard compiled, and from one systemd-hwdb compiled; the
# answers must equal golden/<name>.out. When systemd-hwdb is installed the
# golden files themselves are re-checked against it, and systemd-hwdb must
# read unitguard's hwdb.bin with the same answers.
#
# Usage: hwdb-fixtures.sh UNITGUARD SRCDIR
set -eu
ug=$1
top=$2
here="$top/tests/hwdb"
. "$here/hwdb-lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
have_sd=0
command -v systemd-hwdb >/dev/null && have_sd=1

check() {
        # check NAME WHAT FILE
        if cmp -s "$here/golden/$1.out" "$3"; then
                echo "ok   $1: $2"
        else
                echo "FAIL $1: $2"
                diff -u "$here/golden/$1.out" "$3" | head -40
                fail=1
        fi
}

for dir in "$top"/hwdb/*/; do
        name=$(basename "$dir")
        dir=${dir%/}
        [ -f "$dir/keys" ] || continue
        out="$tmp/$name"
        mkdir -p "$out"

        "$ug" hwdb query --stdin --root "$dir" < "$dir/keys" > "$out/text-root"
        check "$name" "text sources (--root)" "$out/text-root"

        "$ug" hwdb query --stdin --hwdb-dir "$dir/etc/udev/hwdb.d" \
                --hwdb-dir "$dir/lib/udev/hwdb.d" < "$dir/keys" > "$out/text-dirs"
        check "$name" "text sources (--hwdb-dir)" "$out/text-dirs"

        mkdir -p "$out/ugroot/etc/udev"
        "$ug" hwdb compile --root "$dir" -o "$out/ugroot/etc/udev/hwdb.bin" 2>/dev/null
        "$ug" hwdb check --bin "$out/ugroot/etc/udev/hwdb.bin" >/dev/null
        "$ug" hwdb query --stdin --bin "$out/ugroot/etc/udev/hwdb.bin" < "$dir/keys" > "$out/ug-bin"
        check "$name" "unitguard hwdb.bin" "$out/ug-bin"

        if [ $have_sd = 1 ]; then
                sd_compile "$dir" "$out/sdroot"
                "$ug" hwdb query --stdin --bin "$out/sdroot/etc/udev/hwdb.bin" < "$dir/keys" > "$out/sd-bin"
                check "$name" "systemd hwdb.bin" "$out/sd-bin"
                sd_answers "$out/sdroot" "$dir/keys" > "$out/sd-sd"
                check "$name" "golden file vs systemd-hwdb (re-check)" "$out/sd-sd"
                sd_answers "$out/ugroot" "$dir/keys" > "$out/sd-ug"
                check "$name" "systemd-hwdb reading unitguard hwdb.bin" "$out/sd-ug"

                # The same warnings at the same places as systemd-hwdb update.
                "$ug" hwdb check --root "$dir" 2>&1 | grep ': warning: ' | \
                        grep -v -e hwdb.glob-too-long -e hwdb.not-a-file > "$out/ug.log" || true
                warning_lines "$out/sdroot.log" > "$out/sd.lines"
                warning_lines "$out/ug.log" > "$out/ug.lines"
                if cmp -s "$out/sd.lines" "$out/ug.lines"; then
                        echo "ok   $name: warnings at the places systemd-hwdb reports ($(wc -l < "$out/sd.lines"))"
                else
                        echo "FAIL $name: warnings differ from systemd-hwdb update"
                        diff "$out/sd.lines" "$out/ug.lines" | head -20
                        fail=1
                fi
        fi
done

[ $have_sd = 1 ] || echo "note: systemd-hwdb not installed, golden files not re-checked"
exit $fail
