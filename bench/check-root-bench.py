#!/usr/bin/env python3
"""check --root against systemd-analyze verify --root, like for like.

Two roots: the shared corpus laid out as one DESTDIR root
(tests/tools/corpus-root.py), and a synthetic root of N services with drop-ins
(etc/ overrides, dash-prefix and type-wide directories, aliases, masks).
Each side is one process over the same root and the same units: unitguard
judges the whole unit set with the default policy; systemd-analyze verifies
every unit name unitguard found (in one process), with --man=no (verify
would otherwise run man(1) for every Documentation= entry, which unitguard
does not check: on the corpus root that alone took verify 19 s of 20).
The two commands run pair by pair, alternating which goes first, each a
fresh process timed with wait4 (benchlib): CPU (user+sys) and wall
medians, the median of the pairwise ratios, exit codes, and peak RSS from
one more run of each. Prints the machine, the commands and the counts;
under a minute with the defaults.

Usage: check-root-bench.py UNITGUARD [--runs N] [--units N]
  --runs N    pairs on the corpus root (default 11); the synthetic root
              gets a third of them, at least one
  --units N   services in the synthetic root (default 5000)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import benchlib  # noqa: E402
CORPUS = os.path.join(HERE, '..', '..', 'shared', 'corpus')


def synthetic_root(path, n):
    sysdir = os.path.join(path, 'usr/lib/systemd/system')
    etc = os.path.join(path, 'etc/systemd/system')
    os.makedirs(sysdir)
    os.makedirs(etc)
    for d in ('service.d', 'app-.service.d'):
        os.makedirs(os.path.join(sysdir, d))
        with open(os.path.join(sysdir, d, '10-defaults.conf'), 'w') as f:
            f.write('[Service]\nPrivateTmp=yes\n')
    for i in range(n):
        name = 'app-%05d.service' % i
        with open(os.path.join(sysdir, name), 'w') as f:
            f.write('[Unit]\nDescription=synthetic %d\n\n[Service]\nExecStart=/usr/bin/app --id %d\n'
                    'User=app%d\nProtectSystem=strict\n\n[Install]\nWantedBy=multi-user.target\n' % (i, i, i % 50))
        if i % 4 == 0:
            d = os.path.join(etc, name + '.d')
            os.makedirs(d)
            with open(os.path.join(d, 'override.conf'), 'w') as f:
                f.write('[Service]\nNice=5\nEnvironment=ID=%d\n' % i)
        if i % 20 == 1:
            os.symlink(name, os.path.join(sysdir, 'alias-%05d.service' % i))
        if i % 40 == 2:
            os.symlink('/dev/null', os.path.join(etc, name))


def unit_names(exe, root):
    """The loaded, non-template units of the root as unitguard lists them."""
    p = subprocess.run([exe, 'units', '--root', root, '--format', 'json'], capture_output=True, text=True,
                       check=True)
    units = [json.loads(line) for line in p.stdout.splitlines()]
    return [u['id'] for u in units if u['state'] == 'loaded' and '@.' not in u['id']]


def compare(label, exe, root, runs):
    names = unit_names(exe, root)
    ug = [exe, 'check', '--root', root, '--policy', 'default']
    sd = ['systemd-analyze', '--root=' + root, 'verify', '--man=no'] + names
    print(f'{label}: {len(names)} units judged by both, {runs} pairs')
    print(f'  $ {" ".join(ug)}')
    print(f'  $ {" ".join(sd[:4])} UNIT... ({len(names)} names from `unitguard units --root`)')
    pairs = benchlib.Pairs(ug, sd, runs)
    peaks = (benchlib.peak_rss_mib(ug), benchlib.peak_rss_mib(sd))
    for side, name, peak in (('a', 'unitguard', peaks[0]), ('b', 'systemd-analyze', peaks[1])):
        print(f'  {name:16s} CPU {pairs.median(side, 1) * 1e3:9.1f} ms  wall {pairs.median(side, 0) * 1e3:9.1f} ms'
              f'  peak {peak:6.1f} MiB  exit {",".join(map(str, pairs.codes(side)))}')
    print(f'  systemd-analyze / unitguard: CPU {pairs.ratio(1):.1f}x, wall {pairs.ratio(0):.1f}x'
          f' (median of {runs} pairwise ratios)')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('unitguard')
    ap.add_argument('--runs', type=int, default=11)
    ap.add_argument('--units', type=int, default=5000)
    args = ap.parse_args()
    version = subprocess.run(['systemd-analyze', '--version'], capture_output=True, text=True).stdout.splitlines()[0]
    print(f'machine: {benchlib.machine()}')
    print(f'reference: systemd-analyze ({version})')
    with tempfile.TemporaryDirectory(prefix='ug-bench-root-') as tmp:
        exe = benchlib.staged(os.path.abspath(args.unitguard), tmp, 'unitguard')   # run from a copy, as installed
        print(f'unitguard: {os.path.abspath(args.unitguard)} (run from a copy in {tmp})')
        corpus_root = os.path.join(tmp, 'corpus')
        subprocess.run([sys.executable, os.path.join(HERE, '..', 'tests', 'tools', 'corpus-root.py'), CORPUS,
                        corpus_root], check=True)
        compare('shared corpus as one root', exe, corpus_root, args.runs)
        synth = os.path.join(tmp, 'synthetic')
        synthetic_root(synth, args.units)
        compare(f'synthetic root, {args.units} services', exe, synth, max(1, args.runs // 3))
    return 0


if __name__ == '__main__':
    sys.exit(main())
