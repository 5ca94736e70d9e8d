#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# hwdb benchmark. Every comparison runs the two commands alternately, pair
# by pair (A B, B A, A B, ... so neither always runs on a warm or a cold
# machine), and reports for each command the median wall and CPU time
# (user + system, from wait4) and the median of the pairwise ratios A/B.
#
#   1. batch lookups (query --stdin): unitguard on systemd's hwdb.bin vs on
#      its own, and on the text sources vs on hwdb.bin
#   2. one query per process: unitguard vs systemd-hwdb, both against
#      /bin/true as the process-start baseline
#   3. compile the full sources: unitguard vs systemd-hwdb update (with peak
#      RSS)
#   4. one 64 MiB key line on --stdin vs cat of the same bytes: the line is
#      scanned once and dropped, not buffered
#   5. holding hwdb.bin: open + lookups, read into memory (what unitguard
#      does) vs mmap (what systemd does), with and without a full check at
#      open (bench/hwdb-open-bench.c)
#
# Usage: bench/hwdb-bench.sh [UNITGUARD] [SOURCES-DIR]
#   UNITGUARD    the binary (default: build/src/cli/unitguard); hwdb-open-bench
#                is taken from the same build directory
#   SOURCES-DIR  .hwdb sources (default: /lib/udev/hwdb.d)
# Environment: HWDB_BENCH_KEYS (distinct keys, default 100000),
#   HWDB_BENCH_REPEAT (passes over them per batch run, default 3),
#   HWDB_BENCH_PAIRS (pairs per batch and compile comparison, default 7),
#   HWDB_BENCH_RUNS (pairs of one-query processes, default 200).
# Takes about a minute on 2 cores.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
ug=${1:-$top/build/src/cli/unitguard}
src=${2:-/lib/udev/hwdb.d}
nkeys=${HWDB_BENCH_KEYS:-100000}
repeat=${HWDB_BENCH_REPEAT:-3}
pairs=${HWDB_BENCH_PAIRS:-7}
pruns=${HWDB_BENCH_RUNS:-200}

[ -x "$ug" ] || { echo "no unitguard binary at $ug (build first, or pass it)" >&2; exit 2; }
[ -d "$src" ] || { echo "no hwdb sources in $src" >&2; exit 2; }
ug=$(cd "$(dirname "$ug")" && pwd)/$(basename "$ug")
open_bench=$(dirname "$ug")/../../bench/hwdb-open-bench
have_sd=0
command -v systemd-hwdb >/dev/null && have_sd=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A root with the sources, compiled by unitguard (and by systemd-hwdb).
mkdir -p "$tmp/root/lib/udev" "$tmp/root/etc/udev"
cp -r "$src" "$tmp/root/lib/udev/hwdb.d"
"$ug" hwdb compile --root "$tmp/root" -o "$tmp/ug.bin"
if [ $have_sd = 1 ]; then
        systemd-hwdb update --root="$tmp/root"
        cp "$tmp/root/etc/udev/hwdb.bin" "$tmp/sd.bin"
fi

python3 "$top/tests/hwdb/hwdb-keys.py" --realistic --dir "$src" --count "$nkeys" > "$tmp/keys1"
i=0
: > "$tmp/keys"
while [ $i -lt "$repeat" ]; do cat "$tmp/keys1" >> "$tmp/keys"; i=$((i + 1)); done
head -n 1000 "$tmp/keys1" > "$tmp/keys1000"
head -n 1 "$tmp/keys1" > "$tmp/keys-one"

python3 - "$ug" "$tmp" "$have_sd" "$nkeys" "$repeat" "$pairs" "$pruns" "$src" <<'PY'
import os, statistics, subprocess, sys, time

ug, tmp, have_sd, nkeys, repeat, pairs, pruns, src = sys.argv[1:]
have_sd = have_sd == "1"
nkeys, repeat, pairs, pruns = int(nkeys), int(repeat), int(pairs), int(pruns)
devnull = os.open(os.devnull, os.O_WRONLY)


def run(argv, stdin_path=None):
    """One run: (wall s, cpu s, peak RSS MB)."""
    fin = os.open(stdin_path, os.O_RDONLY) if stdin_path else os.open(os.devnull, os.O_RDONLY)
    actions = [(os.POSIX_SPAWN_DUP2, fin, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
               (os.POSIX_SPAWN_DUP2, devnull, 2)]
    t = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    os.close(fin)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit("benchmark command failed (%d): %s" % (os.waitstatus_to_exitcode(status), " ".join(argv)))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def compare(label_a, a, label_b, b, n, stdin_path=None, per=1, unit="s", rss=False):
    """Alternates a and b n times (a first in even pairs, b first in odd
    ones); prints medians and the median of the pairwise ratios a/b."""
    ra, rb = [], []
    for i in range(n):
        if i % 2 == 0:
            ra.append(run(a, stdin_path))
            rb.append(run(b, stdin_path))
        else:
            rb.append(run(b, stdin_path))
            ra.append(run(a, stdin_path))
    scale = 1000.0 if unit == "ms" else 1.0
    for label, r in ((label_a, ra), (label_b, rb)):
        wall = statistics.median(x[0] for x in r)
        cpu = statistics.median(x[1] for x in r)
        line = "  %-40s wall %9.3f %s  cpu %9.3f %s" % (label + ":", wall * scale, unit, cpu * scale, unit)
        if per > 1:
            line += "  %8.0f /s" % (per / wall)
        if rss:
            line += "  peak RSS %6.1f MB" % statistics.median(x[2] for x in r)
        print(line)
    rw = statistics.median(x[0] / y[0] for x, y in zip(ra, rb))
    rc = statistics.median(x[1] / max(y[1], 1e-6) for x, y in zip(ra, rb))
    print("  %-40s wall %6.2f   cpu %6.2f   (median of %d pairwise ratios)" % ("ratio " + label_a + " / " + label_b + ":", rw, rc, n))
    return ra, rb


total = nkeys * repeat
keys = os.path.join(tmp, "keys")
ugbin = os.path.join(tmp, "ug.bin")
sdbin = os.path.join(tmp, "sd.bin")
hwdbd = os.path.join(tmp, "root/lib/udev/hwdb.d")
print("== 1. batch lookups: %d lookups (%d modalias-shaped keys x %d), %d pairs" % (total, nkeys, repeat, pairs))
if have_sd:
    compare("hwdb.bin by systemd-hwdb", [ug, "hwdb", "query", "--stdin", "--bin", sdbin],
            "hwdb.bin by unitguard", [ug, "hwdb", "query", "--stdin", "--bin", ugbin], pairs, keys, per=total)
compare("text sources", [ug, "hwdb", "query", "--stdin", "--hwdb-dir", hwdbd],
        "hwdb.bin by unitguard", [ug, "hwdb", "query", "--stdin", "--bin", ugbin], pairs, keys, per=total)

print()
print("== 2. one query per process, %d pairs each" % pruns)
key = open(os.path.join(tmp, "keys-one")).read().strip()
compare("unitguard hwdb query --bin", [ug, "hwdb", "query", "--bin", ugbin, key],
        "/bin/true", ["/bin/true"], pruns, unit="ms")
if have_sd:
    root = os.path.join(tmp, "root")
    compare("unitguard hwdb query --root", [ug, "hwdb", "query", "--root", root, key],
            "systemd-hwdb query --root", ["systemd-hwdb", "query", "--root=" + root, key], pruns, unit="ms")

print()
files = [f for f in os.listdir(src) if f.endswith(".hwdb")]
size = sum(os.path.getsize(os.path.join(src, f)) for f in files)
print("== 3. compile the full sources (%d files, %d bytes), %d pairs" % (len(files), size, pairs))
if have_sd:
    compare("unitguard hwdb compile", [ug, "hwdb", "compile", "--root", os.path.join(tmp, "root"),
                                       "-o", os.path.join(tmp, "out.bin")],
            "systemd-hwdb update", ["systemd-hwdb", "update", "--root=" + os.path.join(tmp, "root")],
            pairs, rss=True)
    print("  sizes: unitguard %d bytes, systemd %d bytes" % (os.path.getsize(os.path.join(tmp, "out.bin")),
                                                          os.path.getsize(os.path.join(tmp, "root/etc/udev/hwdb.bin"))))
else:
    compare("unitguard hwdb compile", [ug, "hwdb", "compile", "--root", os.path.join(tmp, "root"),
                                       "-o", os.path.join(tmp, "out.bin")],
            "/bin/true", ["/bin/true"], pairs, rss=True)

print()
print("== 4. one 64 MiB key line on --stdin (refused: exit 1) vs cat, %d pairs" % pairs)
line = os.path.join(tmp, "longline")
with open(line, "wb") as f:
    f.write(b"k" * (64 << 20) + b"\n")
compare("unitguard hwdb query --stdin", [ug, "hwdb", "query", "--stdin", "--bin", ugbin],
        "cat", ["cat"], pairs, line)
PY

echo
if [ -x "$open_bench" ]; then
        bin="$tmp/ug.bin"
        [ $have_sd = 1 ] && bin="$tmp/sd.bin"
        echo "== 5. holding hwdb.bin ($(wc -c < "$bin") bytes): each way alternating with the mmap reference"
        "$open_bench" "$bin" "$tmp/keys-one" 50 | sed 's/^/  /'
        "$open_bench" "$bin" "$tmp/keys1000" 20 | sed 's/^/  /'
else
        echo "== 5. skipped: no $open_bench (build first)"
fi
