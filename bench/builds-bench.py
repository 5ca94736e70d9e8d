#!/usr/bin/env python3
"""Before and after: two unitguard builds on the same unit workloads, run
alternately pair by pair (A B, B A, ...), each run a fresh process timed
by wait4 (benchlib). Printed per workload: the medians of both sides and
the median of the pairwise ratios NEW/BASE, CPU (user+sys) beside wall,
with the first and third quartile of the CPU ratios to show how noisy
the machine was. Ratios below 1 mean the new build is faster.

The workloads, made from ../shared/corpus in a scratch directory:
  check TREE          ten copies of the corpus's unit files (files-bench's tree)
  check FILES         the corpus's unit files once each: every unit new
  check --root ROOT   the corpus laid out as one root
  check ONE           one small unit (start-up dominated)
  filter < STREAM     a `systemctl cat` stream of about 50 MB (the corpus
                      repeated, as filter-bench makes it): default policy,
                      --no-policy and --format json
  filter < ONCE       the same stream with every file once: lines repeat
                      only as they do on a real host, so the memo hits less

Usage: builds-bench.py BASE NEW [--runs N] [--mb MB] [--only TEXT]...   (about a minute)
  --only TEXT   only the workloads whose name contains TEXT (repeatable), to
                give the ones a change is about more pairs in the same time
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import benchlib  # noqa: E402

CORPUS = os.path.join(TOP, '..', 'shared', 'corpus')
MAKE_STREAM = os.path.join(TOP, 'tests', 'tools', 'make-cat-stream.py')
CORPUS_ROOT = os.path.join(TOP, 'tests', 'tools', 'corpus-root.py')
def make_stream(path, repeat):
    with open(path, 'wb') as f:
        subprocess.run([sys.executable, MAKE_STREAM, '--repeat', str(repeat), CORPUS],
                       stdout=f, stderr=subprocess.DEVNULL, check=True)
    return os.path.getsize(path)


def ratios(pairs, what):
    floor = 1e-3 if what == 1 else 1e-9
    return [rb[what] / max(ra[what], floor) for ra, rb in zip(pairs.a, pairs.b)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('base')
    ap.add_argument('new')
    ap.add_argument('--runs', type=int, default=15, help='pairs per workload')
    ap.add_argument('--mb', type=float, default=50, help='size of the repeated stream')
    ap.add_argument('--only', action='append', default=[], help='workloads whose name contains this')
    args = ap.parse_args()
    base, new = os.path.abspath(args.base), os.path.abspath(args.new)

    with tempfile.TemporaryDirectory(prefix='ug-builds-bench-') as tmp:
        shown_base, shown_new = base, new
        base, new = benchlib.staged(base, tmp, 'unitguard-base'), benchlib.staged(new, tmp, 'unitguard-new')
        root = os.path.join(tmp, 'root')
        subprocess.run([sys.executable, CORPUS_ROOT, CORPUS, root], check=True, stdout=subprocess.DEVNULL)
        files = benchlib.unit_files(root)
        tree = os.path.join(tmp, 'tree')
        for k in range(10):
            d = os.path.join(tree, 'copy%02d' % k)
            os.makedirs(d)
            for i, f in enumerate(files):
                shutil.copyfile(f, os.path.join(d, '%04d-%s' % (i, os.path.basename(f))))
        once = os.path.join(tmp, 'once.txt')
        once_size = make_stream(once, 1)
        stream = os.path.join(tmp, 'stream.txt')
        stream_size = make_stream(stream, max(1, round(args.mb * 1e6 / once_size)))

        print(f'machine: {benchlib.machine()}')
        print(f'base:    {shown_base}\nnew:     {shown_new}\n(each run from a copy in the scratch directory)')
        print(f'inputs:  tree of {10 * len(files)} files, a root of {len(files)} unit files, '
              f'stream {stream_size / 1e6:.1f} MB, corpus once {once_size / 1e3:.0f} kB')
        print(f'each workload: {args.runs} pairs alternating; CPU = user+sys; medians; '
              f'ratio = median of pairwise NEW/BASE')
        print()
        print(f'{"workload":34s} {"base CPU ms":>11s} {"new CPU ms":>10s} {"CPU ratio":>9s} '
              f'{"(q1..q3)":>13s} {"wall ratio":>10s}')
        workloads = [
            ('check TREE', ['check', tree], None),
            ('check FILES', ['check'] + files, None),
            ('check --root ROOT', ['check', '--root', root], None),
            ('check ONE', ['check', files[0]], None),
            ('filter < STREAM', ['filter'], stream),
            ('filter --no-policy < STREAM', ['filter', '--no-policy'], stream),
            ('filter --format json < STREAM', ['filter', '--format', 'json'], stream),
            ('filter < ONCE', ['filter'], once),
        ]
        if args.only:
            workloads = [w for w in workloads if any(t in w[0] for t in args.only)]
        for name, argv, stdin in workloads:
            p = benchlib.Pairs([base] + argv, [new] + argv, args.runs, stdin)
            if p.codes('a') != p.codes('b'):
                sys.exit(f'{name}: the builds exit differently: {p.codes("a")} vs {p.codes("b")}')
            cpu = ratios(p, 1)
            q = statistics.quantiles(cpu, n=4) if len(cpu) > 1 else [cpu[0]] * 3
            print(f'{name:34s} {p.median("a", 1) * 1e3:11.2f} {p.median("b", 1) * 1e3:10.2f} '
                  f'{p.ratio(1):9.3f} {q[0]:6.3f}..{q[2]:5.3f} {p.ratio(0):10.3f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
