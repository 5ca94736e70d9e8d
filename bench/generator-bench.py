#!/usr/bin/env python3
"""unitguard-generator on a boot-like root beside systemd's own
systemd-getty-generator, as systemd runs them at boot.

The root: ../shared/corpus laid out as one root (tests/tools/corpus-root.py)
and cut down to about 300 unit files, with the built-in default policy (no
site policy under the root). Each run gets fresh, empty output directories.
The commands are run pair by pair, alternating which goes first; per run
the CPU time (user + system, from the resource usage of the child) and
the wall time are taken, and the report gives the medians and the median
of the pairwise ratios. Peak memory (maximum resident set) comes from GNU
time (/usr/bin/time -f %M), in separate alternating runs. /bin/true is the
floor: what starting any process costs on this machine.

Usage: generator-bench.py GENERATOR [GENERATOR...] [--runs N] [--units N]
Several GENERATOR binaries (e.g. a statically linked build) are each
compared with systemd-getty-generator."""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import benchlib  # noqa: E402
LAYOUT = os.path.join(HERE, '..', 'tests', 'tools', 'corpus-root.py')
CORPUS = os.path.join(HERE, '..', '..', 'shared', 'corpus')
GETTY = '/lib/systemd/system-generators/systemd-getty-generator'
SUFFIXES = ('.service', '.socket', '.target', '.timer', '.path', '.mount', '.automount', '.swap', '.slice',
            '.scope', '.device')


def boot_root(work, units):
    root = os.path.join(work, 'root')
    subprocess.run([sys.executable, LAYOUT, CORPUS, root], check=True, stdout=subprocess.DEVNULL)
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        for n in filenames:
            p = os.path.join(dirpath, n)
            if n.endswith(SUFFIXES) and not os.path.islink(p) and '.d' not in os.path.basename(dirpath):
                files.append(p)
    files.sort()
    for p in files[units:]:
        os.unlink(p)
    # Links that now lead nowhere would be reported as tree errors: drop them.
    for dirpath, dirnames, filenames in os.walk(root):
        for n in filenames + dirnames:
            p = os.path.join(dirpath, n)
            if os.path.islink(p) and not os.path.exists(p) and os.readlink(p) != '/dev/null':
                os.unlink(p)
    return root, min(units, len(files))


def one_run(cmd, work):
    out = tempfile.mkdtemp(dir=work)
    dirs = [os.path.join(out, d) for d in ('normal', 'early', 'late')]
    for d in dirs:
        os.mkdir(d)
    env = dict(os.environ, SYSTEMD_SCOPE='system', SYSTEMD_IN_INITRD='0', SYSTEMD_FIRST_BOOT='0')
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd + dirs, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(out)
    if p.returncode != 0:
        sys.exit('%s failed with %d' % (' '.join(cmd), p.returncode))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu * 1e3, wall * 1e3


def peak_kb(cmd, work):
    out = tempfile.mkdtemp(dir=work)
    p = subprocess.run(['/usr/bin/time', '-f', '%M'] + cmd + [out], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    shutil.rmtree(out)
    return int(p.stderr.strip().split('\n')[-1])


def compare(name, cmd, ref_cmd, runs, work):
    a_cpu, a_wall, b_cpu, b_wall, r_cpu, r_wall = [], [], [], [], [], []
    for i in range(runs):
        if i % 2 == 0:
            a = one_run(cmd, work)
            b = one_run(ref_cmd, work)
        else:
            b = one_run(ref_cmd, work)
            a = one_run(cmd, work)
        a_cpu.append(a[0]); a_wall.append(a[1]); b_cpu.append(b[0]); b_wall.append(b[1])
        if b[0] > 0:
            r_cpu.append(a[0] / b[0])
        r_wall.append(a[1] / b[1])
    a_mem, b_mem = [], []
    for i in range(min(runs, 15)):
        order = [(cmd, a_mem), (ref_cmd, b_mem)]
        for c, acc in (order if i % 2 == 0 else order[::-1]):
            acc.append(peak_kb(c, work))
    med = statistics.median
    print('%-34s CPU %6.2f ms  wall %6.2f ms  peak %5d KB' % (name, med(a_cpu), med(a_wall), med(a_mem)))
    print('%-34s CPU %6.2f ms  wall %6.2f ms  peak %5d KB' % ('  systemd-getty-generator', med(b_cpu), med(b_wall),
                                                             med(b_mem)))
    print('%-34s CPU %6.2fx     wall %6.2fx' % ('  ratio (median of pairs)', med(r_cpu) if r_cpu else float('nan'),
                                               med(r_wall)))


def main():
    args = sys.argv[1:]
    runs, units = 41, 300
    if '--runs' in args:
        i = args.index('--runs')
        runs = int(args[i + 1])
        del args[i:i + 2]
    if '--units' in args:
        i = args.index('--units')
        units = int(args[i + 1])
        del args[i:i + 2]
    if not args or args[0] in ('-h', '--help'):
        sys.exit(__doc__)
    work = tempfile.mkdtemp(prefix='ug-gen-bench-')
    try:
        root, n = boot_root(work, units)
        print('machine: ' + benchlib.machine())
        print('root: %d unit files from the corpus, built-in default policy; %d pairs per comparison' % (n, runs))
        print('each command gets three fresh, empty output directories (NORMAL EARLY LATE) as its last arguments')
        print('  $ %s NORMAL EARLY LATE' % GETTY)
        for k, gen in enumerate(args):
            cmd = [benchlib.staged(os.path.abspath(gen), work, 'generator-%d' % k), '--root', root, '--log=stderr']
            print('generator: %s (run from a copy, as installed)' % os.path.abspath(gen))
            print('  $ %s NORMAL EARLY LATE' % ' '.join(cmd))
            compare(os.path.basename(gen) + ' (%s)' % os.path.dirname(os.path.abspath(gen))[-20:], cmd, [GETTY],
                    runs, work)
        compare('/bin/true (floor)', ['/bin/true'], [GETTY], runs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
