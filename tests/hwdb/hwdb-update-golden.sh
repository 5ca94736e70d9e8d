#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerates tests/hwdb/golden/*.out from systemd-hwdb (the oracle). Run it
# by hand after changing a fixture in hwdb/, and review the diff.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/hwdb-lib.sh"

command -v systemd-hwdb >/dev/null || { echo "systemd-hwdb is needed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for dir in "$top"/hwdb/*/; do
        name=$(basename "$dir")
        [ -f "$dir/keys" ] || continue
        sd_compile "$dir" "$tmp/$name"
        sd_answers "$tmp/$name" "$dir/keys" > "$here/golden/$name.out"
        echo "golden/$name.out: $(grep -c . "$dir/keys") keys"
done
