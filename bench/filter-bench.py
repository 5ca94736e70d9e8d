#!/usr/bin/env python3
"""Benchmark of `unitguard filter` (parse + judge + write), all figures from
one run:

  * a systemctl-cat stream of >= 50 MB built from the Debian corpus is piped
    through `cat`, through `unitguard filter --no-policy` (parse + write) and
    through `unitguard filter` with the default policy (parse + judge +
    write), best of N runs each: MB/s, units/s, the ratio to cat, the cost
    the policy adds, and peak RSS;
  * peak RSS again on a stream 4x as long, to show it does not grow with
    the stream;
  * `systemd-analyze verify` on 50 corpus units in one process, and on one
    unit, against unitguard's cost per unit.

Usage: bench/filter-bench.py [--unitguard PATH] [--policy NAME] [--runs N]
(--policy: the policy of the judged run; default: the built-in default)
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
CORPUS = os.path.join(TOP, '..', 'shared', 'corpus', 'debian')
MAKE_STREAM = os.path.join(TOP, 'tests', 'tools', 'make-cat-stream.py')


def run_timed(argv, stdin_path):
    """Wall seconds and peak RSS (KiB) of one process, output discarded.
    GNU time measures the RSS: a child forked from Python would inherit the
    interpreter's peak in ru_maxrss."""
    with open(stdin_path, 'rb') as fin, open(os.devnull, 'wb') as fout:
        t0 = time.perf_counter()
        p = subprocess.run(['/usr/bin/time', '-f', '%M %x'] + argv, stdin=fin, stdout=fout,
                           stderr=subprocess.PIPE)
        t1 = time.perf_counter()
    rss, rc = p.stderr.decode().split()[-2:]
    return t1 - t0, int(rss), int(rc)


def best(argv, path, runs):
    results = [run_timed(argv, path) for _ in range(runs)]
    return min(r[0] for r in results), max(r[1] for r in results), results[0][2]


def make_stream(path, repeat):
    with open(path, 'wb') as f:
        made = subprocess.run([sys.executable, MAKE_STREAM, '--repeat', str(repeat), CORPUS],
                              stdout=f, stderr=subprocess.PIPE, check=True)
    words = made.stderr.split()
    return int(words[0]), int(words[2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--unitguard', default=os.path.join(TOP, 'build', 'src', 'cli', 'unitguard'))
    ap.add_argument('--policy', default='default', help='policy of the judged run')
    ap.add_argument('--runs', type=int, default=5)
    args = ap.parse_args()
    ug = args.unitguard

    tmp = tempfile.mkdtemp(prefix='ug-bench-')
    try:
        small = os.path.join(tmp, 'stream.txt')
        make_stream(small, 1)
        copy_size = os.path.getsize(small)
        repeat = max(1, -(-50 * 1000 * 1000 // copy_size))
        stream = os.path.join(tmp, 'stream50.txt')
        n_files, n_units = make_stream(stream, repeat)
        size = os.path.getsize(stream)

        print(f'stream: {size / 1e6:.1f} MB, {n_files} files, {n_units} units ({repeat} copies of the corpus)')
        if not os.path.exists('/usr/bin/time'):
            sys.exit('GNU time is needed for peak RSS: apt-get install time')
        t_cat, rss_cat, _ = best(['cat'], stream, args.runs)
        print(f'cat:                 {t_cat * 1000:8.1f} ms  {size / t_cat / 1e6:8.1f} MB/s  peak RSS {rss_cat / 1024:.1f} MiB')

        configs = [('parse+write', [ug, 'filter', '--no-policy']),
                   (f'policy {args.policy}', [ug, 'filter', '--policy', args.policy])]
        per_unit = {}
        times = []
        for label, argv in configs:
            t, rss, rc = best(argv, stream, args.runs)
            per_unit[label] = t / n_units
            times.append(t)
            print(f'unitguard {label:16s} {t * 1000:8.1f} ms  {size / t / 1e6:8.1f} MB/s  '
                  f'{n_units / t:10.0f} units/s  {t / t_cat:6.1f}x cat  peak RSS {rss / 1024:.1f} MiB  (exit {rc})')
        print(f'policy evaluation costs {times[1] / times[0]:.2f}x the parse-only time')

        big = os.path.join(tmp, 'stream200.txt')
        make_stream(big, repeat * 4)
        t4, rss4, _ = best([ug, 'filter', '--policy', args.policy], big, 1)
        print(f'unitguard on {os.path.getsize(big) / 1e6:.0f} MB: peak RSS {rss4 / 1024:.1f} MiB '
              f'(memory does not grow with the stream if this matches the 50 MB figure)')
        os.unlink(big)

        analyze = shutil.which('systemd-analyze')
        if analyze:
            units50 = []
            for root, _, names in os.walk(os.path.join(CORPUS, 'systemd')):
                for n in sorted(names):
                    p = os.path.join(root, n)
                    if n.endswith('.service') and '@' not in n and not os.path.islink(p) and os.path.getsize(p) > 100:
                        units50.append(p)
            units50 = sorted(units50)[:50]
            argv = [analyze, 'verify', '--man=no', '--recursive-errors=no'] + units50
            t0 = time.perf_counter()
            subprocess.run(argv, capture_output=True)
            t50 = time.perf_counter() - t0
            t0 = time.perf_counter()
            for _ in range(5):
                subprocess.run([analyze, 'verify', '--man=no', units50[0]], capture_output=True)
            t1 = (time.perf_counter() - t0) / 5
            print(f'systemd-analyze verify: {len(units50)} units in {t50 * 1000:.1f} ms '
                  f'({t50 / len(units50) * 1000:.3f} ms/unit); one unit {t1 * 1000:.1f} ms')
            for label, pu in per_unit.items():
                print(f'unitguard {label}: {pu * 1e6:.2f} us/unit = {t50 / len(units50) / pu:.0f}x cheaper '
                      f'than verify in batch, {t1 / pu:.0f}x cheaper than verify on one unit')
        else:
            print('systemd-analyze not found: verify comparison skipped')
    finally:
        shutil.rmtree(tmp)


main()
