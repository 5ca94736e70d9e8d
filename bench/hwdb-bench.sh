#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# hwdb benchmark, one run:
#   1. batch lookups per second on hwdb.bin and on the text sources
#      (modalias-shaped key mix, see tests/hwdb/hwdb-keys.py --realistic)
#   2. one `unitguard hwdb query` process vs one `systemd-hwdb query` process,
#      with /bin/true as the process-start baseline
#   3. `unitguard hwdb compile` vs `systemd-hwdb update` on the full hwdb
#      sources: wall time and peak RSS (GNU time)
#
# Usage: bench/hwdb-bench.sh [UNITGUARD] [SOURCES-DIR]
#   UNITGUARD    the binary (default: build/src/cli/unitguard)
#   SOURCES-DIR  .hwdb sources (default: /lib/udev/hwdb.d)
# Environment: HWDB_BENCH_KEYS (distinct keys, default 100000),
#   HWDB_BENCH_REPEAT (passes over them, default 10), HWDB_BENCH_RUNS (process
#   and compile runs per tool, default 200 and 7).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
ug=${1:-$top/build/src/cli/unitguard}
src=${2:-/lib/udev/hwdb.d}
nkeys=${HWDB_BENCH_KEYS:-100000}
repeat=${HWDB_BENCH_REPEAT:-10}
pruns=${HWDB_BENCH_RUNS:-200}
cruns=7

[ -x "$ug" ] || { echo "no unitguard binary at $ug (build first, or pass it)" >&2; exit 2; }
[ -d "$src" ] || { echo "no hwdb sources in $src" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
have_sd=0
command -v systemd-hwdb >/dev/null && have_sd=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A root with the sources, compiled by unitguard (and by systemd-hwdb).
mkdir -p "$tmp/root/lib/udev" "$tmp/root/etc/udev"
cp -r "$src" "$tmp/root/lib/udev/hwdb.d"
"$ug" hwdb compile --root "$tmp/root" -o "$tmp/ug.bin"
bin="$tmp/ug.bin"
if [ $have_sd = 1 ]; then
        systemd-hwdb update --root="$tmp/root"
        bin="$tmp/root/etc/udev/hwdb.bin"
        cp "$bin" "$tmp/sd.bin"
fi

python3 "$top/tests/hwdb/hwdb-keys.py" --realistic --dir "$src" --count "$nkeys" > "$tmp/keys1"
i=0
: > "$tmp/keys"
while [ $i -lt "$repeat" ]; do cat "$tmp/keys1" >> "$tmp/keys"; i=$((i + 1)); done
total=$((nkeys * repeat))

# seconds CMD...: wall time of one run, in seconds (GNU time).
seconds() {
        /usr/bin/time -f "%e" -o "$tmp/t" "$@" > /dev/null 2>&1
        cat "$tmp/t"
}
rate() { python3 -c "import sys; n, t = float(sys.argv[1]), float(sys.argv[2]); print('%.0f' % (n / t) if t > 0 else 'inf')" "$1" "$2"; }

echo "== batch lookups ($total lookups: $nkeys distinct modalias-shaped keys x $repeat)"
t_bin=$(seconds "$ug" hwdb query --stdin --bin "$bin" < "$tmp/keys")
if [ $have_sd = 1 ]; then label="hwdb.bin (systemd-compiled):   "; else label="hwdb.bin (unitguard-compiled): "; fi
echo "$label $t_bin s  $(rate $total $t_bin) lookups/s"
t_ugbin=$(seconds "$ug" hwdb query --stdin --bin "$tmp/ug.bin" < "$tmp/keys")
echo "hwdb.bin (unitguard-compiled):  $t_ugbin s  $(rate $total $t_ugbin) lookups/s"
t_load=$(seconds "$ug" hwdb query --hwdb-dir "$tmp/root/lib/udev/hwdb.d" pci:v00008086)
t_text=$(seconds "$ug" hwdb query --stdin --hwdb-dir "$tmp/root/lib/udev/hwdb.d" < "$tmp/keys")
echo "text sources:                   $t_text s  $(rate $total $t_text) lookups/s (includes $t_load s to load the sources)"
python3 -c "import sys; a, b, n = map(float, sys.argv[1:]); print('text sources after loading:    %.0f lookups/s' % (n / (a - b)) if a > b else '')" "$t_text" "$t_load" "$total"

# One process per query: median over many runs, spawned from Python (the
# same spawning cost for every command).
echo
echo "== one query per process (median of $pruns runs)"
key=$(sed -n 1p "$tmp/keys1")
python3 - "$pruns" "$ug" "$bin" "$key" "$have_sd" "$tmp/root" <<'PY'
import os, statistics, subprocess, sys, time
runs, ug, binpath, key, have_sd, root = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] == "1", sys.argv[6]
devnull = os.open(os.devnull, os.O_WRONLY)
def median_ms(argv):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
        os.waitpid(pid, 0)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000
true_ms = median_ms(["/bin/true"])
ug_ms = median_ms([ug, "hwdb", "query", "--bin", binpath, key])
ug_root_ms = median_ms([ug, "hwdb", "query", "--root", root, key])
print("/bin/true:                               %.3f ms" % true_ms)
print("unitguard hwdb query --bin FILE:         %.3f ms (%.3f ms above process start)" % (ug_ms, ug_ms - true_ms))
print("unitguard hwdb query --root (search):    %.3f ms (%.3f ms above process start)" % (ug_root_ms, ug_root_ms - true_ms))
if have_sd:
    sd_ms = median_ms(["/usr/bin/systemd-hwdb", "query", "--root=" + root, key])
    print("systemd-hwdb query --root:               %.3f ms (%.3f ms above process start)" % (sd_ms, sd_ms - true_ms))
    print("ratio unitguard / systemd-hwdb:          %.2f" % (ug_ms / sd_ms))
PY

echo
echo "== compile the full sources ($(ls "$src"/*.hwdb | wc -l) files, $(cat "$src"/*.hwdb | wc -c) bytes; median of $cruns runs)"
# measure NAME CMD...: median wall seconds and median peak RSS (MB).
measure() {
        name=$1
        shift
        : > "$tmp/m"
        i=0
        while [ $i -lt $cruns ]; do
                /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" > /dev/null 2>&1
                cat "$tmp/t" >> "$tmp/m"
                i=$((i + 1))
        done
        python3 - "$name" "$tmp/m" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[2]) if l.strip()]
t = statistics.median(float(r[0]) for r in rows)
m = statistics.median(int(r[1]) for r in rows) / 1024
print("%-32s %.3f s  %.1f MB peak RSS" % (sys.argv[1] + ":", t, m))
PY
}
measure "unitguard hwdb compile" "$ug" hwdb compile --root "$tmp/root" -o "$tmp/out.bin"
ls -l "$tmp/out.bin" | awk '{print "  unitguard hwdb.bin: " $5 " bytes"}'
if [ $have_sd = 1 ]; then
        measure "systemd-hwdb update" systemd-hwdb update --root="$tmp/root"
        ls -l "$tmp/root/etc/udev/hwdb.bin" | awk '{print "  systemd hwdb.bin:   " $5 " bytes"}'
fi
