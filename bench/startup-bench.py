#!/usr/bin/env python3
"""Start-up cost of `unitguard filter` on one small unit with the built-in
default policy, beside /bin/true (the floor: what starting any process
costs here), like for like: each is one process reading nothing else,
output to /dev/null.

The two commands run pair by pair, alternating which goes first; per run
the CPU time (user + system of the child, from its resource usage) and
the wall time are taken; the report gives the medians and the median of
the pairwise ratios. Several UNITGUARD binaries (e.g. builds with other
-Dstatic-link settings) are each compared with /bin/true.

Usage: startup-bench.py UNITGUARD [UNITGUARD...] [--runs N] [--policy NAME|FILE]"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

UNIT = '[Unit]\nDescription=Small\n\n[Service]\nExecStart=/usr/bin/sleep 1\nUser=nobody\n'


def one_run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1) or (cmd[0] == '/bin/true' and p.returncode):
        sys.exit('%s failed with %d' % (' '.join(cmd), p.returncode))
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1e3, wall * 1e3


def compare(name, cmd, ref, runs):
    a_cpu, a_wall, b_cpu, b_wall, r_cpu, r_wall = [], [], [], [], [], []
    for i in range(runs):
        if i % 2 == 0:
            a, b = one_run(cmd), one_run(ref)
        else:
            b = one_run(ref)
            a = one_run(cmd)
        a_cpu.append(a[0]); a_wall.append(a[1]); b_cpu.append(b[0]); b_wall.append(b[1])
        if b[0] > 0:
            r_cpu.append(a[0] / b[0])
        r_wall.append(a[1] / b[1])
    med = statistics.median
    print('%-44s CPU %6.2f ms  wall %6.2f ms' % (name, med(a_cpu), med(a_wall)))
    print('%-44s CPU %6.2f ms  wall %6.2f ms' % ('  /bin/true', med(b_cpu), med(b_wall)))
    print('%-44s CPU %6.2fx     wall %6.2fx' % ('  ratio (median of %d pairs)' % runs,
                                               med(r_cpu) if r_cpu else float('nan'), med(r_wall)))


def main():
    args = sys.argv[1:]
    runs, policy = 201, 'default'
    if '--runs' in args:
        i = args.index('--runs')
        runs = int(args[i + 1])
        del args[i:i + 2]
    if '--policy' in args:
        i = args.index('--policy')
        policy = args[i + 1]
        del args[i:i + 2]
    if not args or args[0] in ('-h', '--help'):
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory(prefix='ug-startup-') as work:
        unit = os.path.join(work, 'small.service')
        with open(unit, 'w') as f:
            f.write(UNIT)
        print('machine: %s; %d alternating pairs per command' % (benchlib.machine(), runs))
        for k, exe in enumerate(args):
            cmd = [benchlib.staged(os.path.abspath(exe), work, 'unitguard-%d' % k), 'filter', '--policy', policy, unit]
            print('command: %s (a copy of %s)' % (' '.join(cmd), os.path.abspath(exe)))
            compare(exe, cmd, ['/bin/true'], runs)


if __name__ == '__main__':
    main()
