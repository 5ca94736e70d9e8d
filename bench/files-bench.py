#!/usr/bin/env python3
"""Units read from files, like for like with `systemd-analyze verify`.

The corpus (../shared/corpus) is laid out as one DESTDIR root
(tests/tools/corpus-root.py); its unit files (not drop-ins, not symlinks)
are the N units of every comparison. Every comparison runs two commands
pair by pair, alternating which goes first, each a fresh process timed
with wait4 (CPU = user + system); medians, and medians of the pairwise
ratios or differences.

1. The same N units, one process each side:
     unitguard check FILE...           (built-in default policy)
     systemd-analyze verify --man=no FILE...
   (--man=no: verify would otherwise run man(1) for every Documentation=
   entry, which unitguard does not check.)
2. Marginal cost of one more unit read from files, from pairwise
   differences:
   - distinct units: `check FILE...` (the N files) minus `check FILE`
     (one of them), over N-1: every unit is new, as in a packager's
     DESTDIR or at boot;
   - a tree: `check TREE` (the N files copied K times into K
     directories) minus `check FILE`, over K*N-1 units. Nine in ten of
     its units repeat one seen before; the memo of judgements (off
     while every file is new, started once files come again) answers
     the lines of eight in ten: cheaper than distinct units;
   - --root: `check --root CORPUS-ROOT` minus `check --root` of a root
     holding one of the units, over the root's other units, as
     `unitguard units --root --format json` lists them (one per unit:
     its aliases and drop-ins are not units of their own);
   - systemd-analyze verify: all N files minus one file, over N-1.
   Beside the distinct and the tree figures, two floors on the same
   inputs: bench/read-files (open, read, close each file, directories
   walked; nothing else), the kernel's part of any per-file tool; and
   read-files --batch, the same through unitguard's own reader (io_uring
   batches, each given file looked at first as `check FILE...` does), the
   part of unitguard's figure that no change above the reader can take
   away.

Usage: files-bench.py [UNITGUARD] [--runs N] [--copies K]
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
def root_units(ug, root):
    """The units of the root as systemd would know them: one JSON line
    each (the text listing adds a line per file, alias and drop-in)."""
    p = subprocess.run([ug, 'units', '--root', root, '--format', 'json'], capture_output=True, text=True,
                       check=True)
    return len(p.stdout.splitlines())


def ms(s):
    return s * 1e3


def report(label, pairs, a_name, b_name):
    for side, name in (('a', a_name), ('b', b_name)):
        print(f'  {name:62s} CPU {ms(pairs.median(side, 1)):8.1f} ms  wall {ms(pairs.median(side, 0)):8.1f} ms'
              f'  exit {",".join(map(str, pairs.codes(side)))}')


def marginal_us(pairs, units, what):
    """Median over the pairs of (b - a) / units, in microseconds."""
    return statistics.median((rb[what] - ra[what]) / units for ra, rb in zip(pairs.a, pairs.b)) * 1e6


def floors(floor, one, many, count, what, runs):
    """The two floors on the same inputs: plain blocking reads, and
    unitguard's own reader (read-files --batch: io_uring batches)."""
    for mode, label in (([], 'plain reads'), (['--batch'], "unitguard's reader")):
        f = benchlib.Pairs([floor] + mode + one, [floor] + mode + many, runs)
        report('', f, f'read-files {" ".join(mode + ["ONE"])} (floor, {label})',
               f'read-files {" ".join(mode + ["ALL"])} (floor, {label}, {count + 1} files)')
        print(f'  -> floor, {label}, {what}: {marginal_us(f, count, 1):.2f} us CPU, '
              f'{marginal_us(f, count, 0):.2f} us wall per file')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('unitguard', nargs='?', default=os.path.join(TOP, 'build', 'src', 'cli', 'unitguard'))
    ap.add_argument('--runs', type=int, default=21, help='pairs per comparison')
    ap.add_argument('--copies', type=int, default=10, help='copies of the units in the tree')
    args = ap.parse_args()
    ug = os.path.abspath(args.unitguard)
    floor = os.path.join(os.path.dirname(ug), '..', '..', 'bench', 'read-files')
    if not os.access(floor, os.X_OK):
        sys.exit(f'{floor} is missing: build it (ninja -C build bench/read-files)')
    verify = shutil.which('systemd-analyze')
    if not verify:
        sys.exit('systemd-analyze is needed (Debian package systemd)')

    with tempfile.TemporaryDirectory(prefix='ug-files-bench-') as tmp:
        shown_ug, shown_floor = ug, os.path.normpath(floor)
        ug, floor = benchlib.staged(ug, tmp, 'unitguard'), benchlib.staged(floor, tmp, 'read-files')
        root = os.path.join(tmp, 'root')
        subprocess.run([sys.executable, os.path.join(TOP, 'tests', 'tools', 'corpus-root.py'), CORPUS, root],
                       check=True, stdout=subprocess.DEVNULL)
        files = benchlib.unit_files(root)
        n = len(files)
        tree = os.path.join(tmp, 'tree')
        for k in range(args.copies):
            d = os.path.join(tree, 'copy%02d' % k)
            os.makedirs(d)
            for i, f in enumerate(files):
                shutil.copyfile(f, os.path.join(d, '%04d-%s' % (i, os.path.basename(f))))
        small = os.path.join(tmp, 'one-unit-root')
        os.makedirs(os.path.join(small, 'etc/systemd/system'))
        os.makedirs(os.path.join(small, 'usr/lib/systemd/system'))
        shutil.copyfile(files[0], os.path.join(small, 'usr/lib/systemd/system', os.path.basename(files[0])))
        in_root = root_units(ug, root)
        one = files[0]

        print(f'machine: {benchlib.machine()}')
        print(f'binaries: unitguard {shown_ug}; floor {shown_floor} (each run from a copy in {tmp}); {verify} '
              f'({subprocess.run([verify, "--version"], capture_output=True, text=True).stdout.splitlines()[0]})')
        print(f'inputs:  CORPUS-ROOT = {root}; FILE... = its {n} unit files; FILE = {one}; TREE = {tree}; '
              f'ONE-UNIT-ROOT = {small} (removed after the run)')
        print(f'units:   {n} unit files from {os.path.normpath(CORPUS)} laid out as one root '
              f'({in_root} units in that root: the fragments, masks and units with drop-ins only); '
              f'tree: {args.copies} copies = {n * args.copies} files')
        print(f'each comparison: {args.runs} pairs alternating; CPU = user+sys; medians')
        print()

        ug_all = [ug, 'check'] + files
        sd_all = [verify, 'verify', '--man=no'] + files
        p = benchlib.Pairs(ug_all, sd_all, args.runs)
        print(f'1. the same {n} units, one process each side')
        report('', p, f'unitguard check FILE... ({n})', f'systemd-analyze verify --man=no FILE... ({n})')
        print(f'  systemd-analyze / unitguard: CPU {p.ratio(1):.1f}x, wall {p.ratio(0):.1f}x '
              f'(median of pairwise ratios)')
        print()

        print('2. marginal cost of one more unit (median of pairwise differences)')
        pd = benchlib.Pairs([ug, 'check', one], ug_all, args.runs)
        report('', pd, 'unitguard check FILE (1 unit)', f'unitguard check FILE... ({n} distinct units)')
        print(f'  -> unitguard, distinct units: {marginal_us(pd, n - 1, 1):.2f} us CPU, '
              f'{marginal_us(pd, n - 1, 0):.2f} us wall per unit')
        floors(floor, [one], files, n - 1, 'distinct files', args.runs)
        pt = benchlib.Pairs([ug, 'check', one], [ug, 'check', tree], args.runs)
        report('', pt, 'unitguard check FILE (1 unit)', f'unitguard check TREE ({n * args.copies} units)')
        print(f'  -> unitguard, files from a directory tree: {marginal_us(pt, n * args.copies - 1, 1):.2f} us CPU, '
              f'{marginal_us(pt, n * args.copies - 1, 0):.2f} us wall per unit')
        floors(floor, [one], [tree], n * args.copies - 1, 'files from a directory tree', args.runs)
        pr = benchlib.Pairs([ug, 'check', '--root', small], [ug, 'check', '--root', root], args.runs)
        report('', pr, 'unitguard check --root ONE-UNIT-ROOT', f'unitguard check --root CORPUS-ROOT ({in_root} units)')
        print(f'  -> unitguard, --root: {marginal_us(pr, in_root - 1, 1):.2f} us CPU, '
              f'{marginal_us(pr, in_root - 1, 0):.2f} us wall per unit')
        pv = benchlib.Pairs([verify, 'verify', '--man=no', one], sd_all, max(5, args.runs // 3))
        report('', pv, 'systemd-analyze verify --man=no FILE (1 unit)', f'systemd-analyze verify --man=no FILE... ({n})')
        print(f'  -> systemd-analyze verify: {marginal_us(pv, n - 1, 1):.1f} us CPU, '
              f'{marginal_us(pv, n - 1, 0):.1f} us wall per unit')
    return 0


if __name__ == '__main__':
    sys.exit(main())
