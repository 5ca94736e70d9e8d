#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""hwdb benchmark: unitguard's hwdb reader and compiler, like for like.

Every comparison runs its two commands alternately, pair by pair (A B, B A,
A B, ... so neither always runs on the warmer machine), each run a fresh
process timed by os.wait4: wall time and CPU time (user + system) of that
child alone. Printed per command are the medians, and per comparison the
median of the pairwise ratios A/B for wall and for CPU time: a machine
that gets busier halfway through moves both runs of a pair, not one side.

  1. batch lookups (`query --stdin`) on systemd's hwdb.bin, with keys made
     from the real match patterns of the sources (hwdb-keys.py) and with
     the realistic modalias mix (hwdb-keys.py --realistic); the same keys
     on unitguard's own hwdb.bin and on the text sources
  2. one query per process: `unitguard hwdb query` against `systemd-hwdb
     query` on the same root and key, and against /bin/true
  3. compiling the full sources: `unitguard hwdb compile` against
     `systemd-hwdb update` (peak RSS too)
  4. one 64 MiB key line on --stdin (refused) against cat of the same bytes
  5. ways of holding hwdb.bin in fresh processes (bench/hwdb-open-bench)
  6. with --instructions: instructions per batch lookup (callgrind's
     "Collected", deterministic, unlike time on a shared machine), for
     both key sets and, with --baseline, for the baseline too

Usage: hwdb-bench.py [UNITGUARD] [--sources DIR] [--keys N] [--repeat N]
                     [--pairs N] [--query-pairs N] [--baseline UNITGUARD] [--quick]
                     [--instructions]
  UNITGUARD  default build/src/cli/unitguard; hwdb-open-bench is taken
             from the same build directory
  --baseline another build to compare with (before/after), pair by pair
Takes about a minute on 2 cores (--quick: a few seconds, for a smoke test).
"""
import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import benchlib  # noqa: E402

DEVNULL = os.open(os.devnull, os.O_RDWR)


def run(argv, stdin_path=None, ok=(0,)):
    """One run as a fresh process: (wall s, cpu s, peak RSS MiB)."""
    fin = os.open(stdin_path, os.O_RDONLY) if stdin_path else DEVNULL
    actions = [(os.POSIX_SPAWN_DUP2, fin, 0), (os.POSIX_SPAWN_DUP2, DEVNULL, 1),
               (os.POSIX_SPAWN_DUP2, DEVNULL, 2)]
    t = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    if stdin_path:
        os.close(fin)
    code = os.waitstatus_to_exitcode(status)
    if code not in ok:
        sys.exit("benchmark command failed (exit %d): %s" % (code, " ".join(argv)))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def show_cmd(argv, stdin_path=None):
    return " ".join(argv) + (" < " + os.path.basename(stdin_path) if stdin_path else "")


def compare(a, b, pairs, stdin_path=None, per=0, unit="ms", rss=False, ok=(0,)):
    """a and b are (label, argv). Alternates them pairs times; prints the
    medians and the median of the pairwise ratios a/b. Returns the ratios
    (wall, cpu)."""
    (la, xa), (lb, xb) = a, b
    ra, rb = [], []
    for i in range(pairs):
        if i % 2 == 0:
            ra.append(run(xa, stdin_path, ok))
            rb.append(run(xb, stdin_path, ok))
        else:
            rb.append(run(xb, stdin_path, ok))
            ra.append(run(xa, stdin_path, ok))
    scale = 1e3 if unit == "ms" else 1.0
    for label, argv, r in ((la, xa, ra), (lb, xb, rb)):
        wall = statistics.median(x[0] for x in r)
        cpu = statistics.median(x[1] for x in r)
        line = "  %-34s wall %9.3f %s  cpu %9.3f %s" % (label, wall * scale, unit, cpu * scale, unit)
        if per:
            line += "  %6.3f M/s cpu  %6.3f M/s wall" % (per / max(cpu, 1e-9) / 1e6, per / wall / 1e6)
        if rss:
            line += "  peak RSS %6.1f MiB" % statistics.median(x[2] for x in r)
        print(line)
        print("      $ " + show_cmd(argv, stdin_path))
    rw = statistics.median(x[0] / y[0] for x, y in zip(ra, rb))
    rc = statistics.median(x[1] / max(y[1], 1e-6) for x, y in zip(ra, rb))
    print("  ratio %s / %s: wall %.2f  cpu %.2f  (median of %d pairwise ratios)" % (la, lb, rw, rc, pairs))
    return rw, rc


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()
    return "%s, %s, %d CPUs, load %.2f %.2f %.2f" % (platform.platform(), model or platform.machine(),
                                                     os.cpu_count(), *load)


def write_keys(path, sources, count, repeat, realistic):
    args = [sys.executable, os.path.join(TOP, "tests", "hwdb", "hwdb-keys.py"), "--dir", sources,
            "--count", str(count)]
    if realistic:
        args.append("--realistic")
    keys = subprocess.run(args, check=True, stdout=subprocess.PIPE).stdout
    with open(path, "wb") as f:
        for _ in range(repeat):
            f.write(keys)
    return keys.count(b"\n") * repeat, keys


def collected(argv, stdin_path):
    """Instructions callgrind counts for one run of argv, or None."""
    with open(stdin_path, "rb") as f:
        p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv,
                           stdin=f, stdout=DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in p.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip())
    return None


def instructions(a, ug, base, bin_main, who, key_sets):
    if not shutil.which("valgrind"):
        print("== 6. skipped: no valgrind")
        return
    print("== 6. instructions per batch lookup (callgrind, whole process) on %s hwdb.bin" % who)
    for path, n, label in key_sets:
        print("-- %s: %d lookups" % (label, n))
        counts = {}
        for name, exe in (("unitguard", ug), ("baseline", base)):
            if not exe:
                continue
            argv = [exe, "hwdb", "query", "--stdin", "--bin", bin_main]
            counts[name] = collected(argv, path)
            c = counts[name]
            print("  %-10s %s Ir  %s Ir/lookup" % (name, "{:,}".format(c) if c else "?",
                                                  "{:,.0f}".format(c / n) if c else "?"))
            print("      $ valgrind --tool=callgrind --callgrind-out-file=/dev/null %s < %s" % (
                " ".join(argv), os.path.basename(path)))
        if counts.get("unitguard") and counts.get("baseline"):
            print("  ratio unitguard / baseline: %.3f" % (counts["unitguard"] / counts["baseline"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("unitguard", nargs="?", default=os.path.join(TOP, "build", "src", "cli", "unitguard"))
    ap.add_argument("--sources", default="/lib/udev/hwdb.d")
    ap.add_argument("--keys", type=int, default=50000, help="distinct keys per key set")
    ap.add_argument("--repeat", type=int, default=2, help="passes over the keys per batch run")
    ap.add_argument("--pairs", type=int, default=7, help="pairs per batch and compile comparison")
    ap.add_argument("--query-pairs", type=int, default=100, help="pairs of one-query processes")
    ap.add_argument("--baseline", help="another unitguard binary (say, an older build): batch lookups "
                    "and one-query processes are also compared with it")
    ap.add_argument("--quick", action="store_true", help="tiny counts: checks that the bench runs")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the instructions of the batch lookups under valgrind (callgrind)")
    a = ap.parse_args()
    if a.quick:
        a.keys, a.repeat, a.pairs, a.query_pairs = 500, 1, 2, 4

    ug = os.path.abspath(a.unitguard)
    if not os.access(ug, os.X_OK):
        sys.exit("no unitguard binary at %s (build first, or pass it)" % ug)
    if not os.path.isdir(a.sources):
        sys.exit("no hwdb sources in %s" % a.sources)
    open_bench = os.path.join(os.path.dirname(ug), "..", "..", "bench", "hwdb-open-bench")
    sd = shutil.which("systemd-hwdb")
    t_start = time.perf_counter()

    print("machine: " + machine())
    print("unitguard: " + ug)
    base = os.path.abspath(a.baseline) if a.baseline else None
    if base:
        print("baseline: " + base)
    if sd:
        v = subprocess.run(["systemd-hwdb", "--version"], capture_output=True, text=True).stdout
        print("reference: %s (%s)" % (sd, v.splitlines()[0] if v else "?"))
    else:
        print("reference: no systemd-hwdb, comparisons with it are skipped")

    with tempfile.TemporaryDirectory(prefix="ug-hwdb-bench-") as tmp:
        # Run from copies (benchlib.staged()), as installed binaries are.
        ug = benchlib.staged(ug, tmp, "unitguard")
        if base:
            base = benchlib.staged(base, tmp, "unitguard-baseline")
        root = os.path.join(tmp, "root")
        hwdbd = os.path.join(root, "lib", "udev", "hwdb.d")
        os.makedirs(os.path.join(root, "etc", "udev"))
        shutil.copytree(a.sources, hwdbd)
        ugbin = os.path.join(tmp, "ug.bin")
        subprocess.run([ug, "hwdb", "compile", "--root", root, "-o", ugbin], check=True)
        sdbin = None
        if sd:
            subprocess.run(["systemd-hwdb", "update", "--root=" + root], check=True)
            sdbin = os.path.join(tmp, "sd.bin")
            shutil.copy(os.path.join(root, "etc", "udev", "hwdb.bin"), sdbin)
        files = [f for f in os.listdir(hwdbd) if f.endswith(".hwdb")]
        size = sum(os.path.getsize(os.path.join(hwdbd, f)) for f in files)
        print("sources: %s, %d files, %d bytes; hwdb.bin: systemd %s bytes, unitguard %d bytes" % (
            a.sources, len(files), size, os.path.getsize(sdbin) if sdbin else "-", os.path.getsize(ugbin)))

        pat_keys = os.path.join(tmp, "keys-patterns")
        mix_keys = os.path.join(tmp, "keys-modalias")
        n_pat, pat_raw = write_keys(pat_keys, hwdbd, a.keys, a.repeat, False)
        n_mix, mix_raw = write_keys(mix_keys, hwdbd, a.keys, a.repeat, True)
        bin_main = sdbin or ugbin
        who = "systemd's" if sdbin else "unitguard's"

        print()
        print("== 1. batch lookups (query --stdin), %d pairs per comparison" % a.pairs)
        for label, path, n in (("keys from the match patterns", pat_keys, n_pat),
                               ("realistic modalias mix", mix_keys, n_mix)):
            print("-- %s: %d lookups (%d distinct keys x %d) on %s hwdb.bin" % (
                label, n, n // a.repeat, a.repeat, who))
            compare(("on %s hwdb.bin" % who, [ug, "hwdb", "query", "--stdin", "--bin", bin_main]),
                    ("on unitguard's hwdb.bin", [ug, "hwdb", "query", "--stdin", "--bin", ugbin]),
                    a.pairs, path, per=n, unit="s", ok=(0, 1))
            if base:
                compare(("unitguard", [ug, "hwdb", "query", "--stdin", "--bin", bin_main]),
                        ("baseline", [base, "hwdb", "query", "--stdin", "--bin", bin_main]),
                        a.pairs, path, per=n, unit="s", ok=(0, 1))
        print("-- text sources vs hwdb.bin, %d lookups (pattern keys)" % n_pat)
        compare(("text sources", [ug, "hwdb", "query", "--stdin", "--hwdb-dir", hwdbd]),
                ("unitguard's hwdb.bin", [ug, "hwdb", "query", "--stdin", "--bin", ugbin]),
                a.pairs, pat_keys, per=n_pat, unit="s", ok=(0, 1))

        print()
        key = next(k for k in mix_raw.split(b"\n") if k.startswith(b"pci:")).decode()
        print("== 2. one query per process, %d pairs each, key %s" % (a.query_pairs, key))
        if sd:
            compare(("unitguard hwdb query", [ug, "hwdb", "query", "--root", root, key]),
                    ("systemd-hwdb query", ["systemd-hwdb", "query", "--root=" + root, key]),
                    a.query_pairs)
            compare(("systemd-hwdb query", ["systemd-hwdb", "query", "--root=" + root, key]),
                    ("/bin/true", ["/bin/true"]), a.query_pairs)
        compare(("unitguard hwdb query", [ug, "hwdb", "query", "--root", root, key]),
                ("/bin/true", ["/bin/true"]), a.query_pairs)
        if base:
            compare(("unitguard hwdb query", [ug, "hwdb", "query", "--root", root, key]),
                    ("baseline hwdb query", [base, "hwdb", "query", "--root", root, key]), a.query_pairs)
            if sd:
                compare(("baseline hwdb query", [base, "hwdb", "query", "--root", root, key]),
                        ("systemd-hwdb query", ["systemd-hwdb", "query", "--root=" + root, key]),
                        a.query_pairs)

        print()
        print("== 3. compile the full sources, %d pairs" % a.pairs)
        out = os.path.join(tmp, "out.bin")
        ref = (("systemd-hwdb update", ["systemd-hwdb", "update", "--root=" + root]) if sd
               else ("/bin/true", ["/bin/true"]))
        compare(("unitguard hwdb compile", [ug, "hwdb", "compile", "--root", root, "-o", out]), ref,
                a.pairs, unit="s", rss=True)

        print()
        print("== 4. one 64 MiB key line on --stdin (refused: exit 1) vs cat, %d pairs" % a.pairs)
        line = os.path.join(tmp, "longline")
        with open(line, "wb") as f:
            f.write(b"k" * ((1 if a.quick else 64) << 20) + b"\n")
        compare(("unitguard hwdb query --stdin", [ug, "hwdb", "query", "--stdin", "--bin", ugbin]),
                ("cat", ["cat"]), a.pairs, line, ok=(0, 1))

        print()
        if os.access(open_bench, os.X_OK):
            with open(os.path.join(tmp, "keys-one"), "w") as f:
                f.write(key + "\n")
            with open(os.path.join(tmp, "keys-1000"), "wb") as f:
                f.write(b"\n".join(pat_raw.split(b"\n")[:1000]) + b"\n")
            print("== 5. holding hwdb.bin (%d bytes), each way alternating with the mmap reference" %
                  os.path.getsize(bin_main))
            rounds = (2, 2) if a.quick else (30, 10)
            for keys, n in (("keys-one", rounds[0]), ("keys-1000", rounds[1])):
                p = subprocess.run([open_bench, bin_main, os.path.join(tmp, keys), str(n)], check=True,
                                   capture_output=True, text=True)
                sys.stdout.write("".join("  " + l + "\n" for l in p.stdout.splitlines()))
        else:
            print("== 5. skipped: no %s (build first)" % open_bench)

        if a.instructions:
            print()
            instructions(a, ug, base, bin_main, who, ((pat_keys, n_pat, "keys from the match patterns"),
                                                      (mix_keys, n_mix, "realistic modalias mix")))

    print()
    print("total %.0f s" % (time.perf_counter() - t_start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
