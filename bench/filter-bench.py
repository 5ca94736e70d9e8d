#!/usr/bin/env python3
"""`unitguard filter` on a `systemctl cat` stream against `cat`, like for like.

The stream (>= 50 MB) is built from the Debian corpus in ../shared/corpus
(tests/tools/make-cat-stream.py, the corpus repeated). Each configuration
is compared with `cat` on the same stream, both reading it from a file and
writing to /dev/null (diagnostics to a file, as in `filter > out 2> err`),
the two commands alternating run by run. Reported per configuration: the
median CPU time (user+sys) and wall time, MB/s, and the median of the
pairwise ratios to `cat`, CPU beside wall. Then peak RSS on the stream and
on one four times as long (flat: memory does not grow with the stream).

The per-unit comparison with `systemd-analyze verify` (same units, same
process count) is bench/files-bench.py (unit files) and
bench/check-root-bench.py (a root's unit set).

Usage: bench/filter-bench.py [--unitguard PATH] [--runs N] [--mb N]
                             [--only no-policy,policy,json]
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
CORPUS = os.path.join(TOP, '..', 'shared', 'corpus', 'debian')
MAKE_STREAM = os.path.join(TOP, 'tests', 'tools', 'make-cat-stream.py')

CONFIGS = {
    'no-policy': ['filter', '--no-policy'],
    'policy': ['filter'],
    'json': ['filter', '--format', 'json'],
}


def run(argv, stdin_path, err_path):
    """Wall and CPU seconds (user+sys) of one process; its own rusage."""
    with open(stdin_path, 'rb') as fin, open(os.devnull, 'wb') as fout, open(err_path, 'wb') as ferr:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdin=fin, stdout=fout, stderr=ferr)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    rc = os.waitstatus_to_exitcode(status)
    return wall, ru.ru_utime + ru.ru_stime, rc


def peak_rss_mib(argv, stdin_path):
    """GNU time measures the RSS: a child forked from Python would carry the
    interpreter's peak in ru_maxrss."""
    with open(stdin_path, 'rb') as fin:
        p = subprocess.run(['/usr/bin/time', '-f', '%M'] + argv, stdin=fin, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    return int(p.stderr.strip().splitlines()[-1]) / 1024.0


def make_stream(path, repeat):
    with open(path, 'wb') as f:
        made = subprocess.run([sys.executable, MAKE_STREAM, '--repeat', str(repeat), CORPUS],
                              stdout=f, stderr=subprocess.PIPE, check=True)
    words = made.stderr.split()
    return int(words[0]), int(words[2])


def machine():
    cpu = platform.processor()
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    cpu = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    load = ' '.join(f'{x:.2f}' for x in os.getloadavg())
    return f'{platform.node()}: {cpu}, {os.cpu_count()} CPUs, Linux {platform.release()}, load {load}'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--unitguard', default=os.path.join(TOP, 'build', 'src', 'cli', 'unitguard'))
    ap.add_argument('--runs', type=int, default=7, help='pairs per configuration')
    ap.add_argument('--mb', type=int, default=50, help='stream size in MB')
    ap.add_argument('--only', default=','.join(CONFIGS), help='configurations, comma-separated')
    args = ap.parse_args()
    ug = os.path.abspath(args.unitguard)
    if not os.path.exists('/usr/bin/time'):
        sys.exit('GNU time is needed for peak RSS: apt-get install time')
    cat = shutil.which('cat')

    tmp = tempfile.mkdtemp(prefix='ug-bench-')
    try:
        ug = benchlib.staged(ug, tmp, 'unitguard')     # run from a copy, as installed
        small = os.path.join(tmp, 'one.txt')
        make_stream(small, 1)
        repeat = max(1, -(-args.mb * 1000 * 1000 // os.path.getsize(small)))
        stream = os.path.join(tmp, 'stream.txt')
        n_files, n_units = make_stream(stream, repeat)
        size = os.path.getsize(stream)
        err = os.path.join(tmp, 'stderr.txt')

        print(f'machine: {machine()}')
        print(f'stream:  {size / 1e6:.1f} MB, {n_files} files, {n_units} units '
              f'({repeat} copies of {CORPUS}; symlinks, and the files SYMLINKS.tsv lists as symlinks, left out)')
        print(f'each configuration: {args.runs} pairs, `{cat} < stream > /dev/null` and the command '
              f'alternating; stderr to a file; times are medians, ratios medians of the pairwise ratios')
        print()
        print(f'{"command":48s} {"CPU ms":>8s} {"wall ms":>8s} {"MB/s CPU":>9s} {"x cat CPU":>10s} {"x cat wall":>11s}  exit')
        for name in args.only.split(','):
            argv = [ug] + CONFIGS[name]
            cpu_c, wall_c, cpu_u, wall_u, r_cpu, r_wall = [], [], [], [], [], []
            rc = None
            for _ in range(args.runs):
                wc, cc, _ = run([cat], stream, os.devnull)
                wu, cu, rc = run(argv, stream, err)
                cpu_c.append(cc)
                wall_c.append(wc)
                cpu_u.append(cu)
                wall_u.append(wu)
                # cat's CPU time can round to 0 at the kernel's tick: floor it
                r_cpu.append(cu / max(cc, 1e-3))
                r_wall.append(wu / wc)
            med = statistics.median
            print(f'{"cat":48s} {med(cpu_c) * 1e3:8.1f} {med(wall_c) * 1e3:8.1f} '
                  f'{size / max(med(cpu_c), 1e-3) / 1e6:9.0f}')
            label = 'unitguard ' + ' '.join(CONFIGS[name])
            print(f'{label:48s} {med(cpu_u) * 1e3:8.1f} {med(wall_u) * 1e3:8.1f} '
                  f'{size / med(cpu_u) / 1e6:9.0f} {med(r_cpu):10.1f} {med(r_wall):11.1f}  {rc}')
            print(f'{"":48s} {n_units / med(cpu_u):8.0f} units/s CPU, {med(cpu_u) / n_units * 1e6:.2f} us/unit')

        print()
        rss = peak_rss_mib([ug, 'filter'], stream)
        big = os.path.join(tmp, 'stream4.txt')
        make_stream(big, repeat * 4)
        rss4 = peak_rss_mib([ug, 'filter'], big)
        print(f'peak RSS, unitguard filter (default policy): {rss:.1f} MiB on {size / 1e6:.0f} MB, '
              f'{rss4:.1f} MiB on {os.path.getsize(big) / 1e6:.0f} MB '
              f'({"flat" if rss4 <= rss * 1.1 + 0.5 else "GROWS with the stream"})')
    finally:
        shutil.rmtree(tmp)


main()
