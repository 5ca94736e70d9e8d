# SPDX-License-Identifier: LGPL-2.1-or-later
# Helpers shared by the hwdb shell tests (sourced).

# sd_answers ROOT KEYS: what `systemd-hwdb query --root ROOT` prints for each
# key of the file KEYS, in unitguard's batch format (one block per key, each
# followed by an empty line).
sd_answers() {
        while IFS= read -r key; do
                systemd-hwdb query --root="$1" "$key" || echo "<systemd-hwdb failed: $?>"
                echo
        done < "$2"
}

# sd_compile SRC DEST: copy the fixture root SRC to DEST and compile it with
# systemd-hwdb (into DEST/etc/udev/hwdb.bin); its warnings go to DEST.log.
sd_compile() {
        mkdir -p "$2"
        cp -a "$1"/. "$2"/
        systemd-hwdb update --root="$2" 2>"$2.log"
}

# warning_lines: "FILE:LINE" of every warning in a log (systemd's or
# unitguard's), file names without directories, sorted.
warning_lines() {
        sed -n 's|^.*/\([^/:]*\):\([0-9][0-9]*\): .*$|\1:\2|p' "$1" | sort
}
