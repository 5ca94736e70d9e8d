#!/usr/bin/env python3
"""check --root against systemd-analyze verify --root, like for like.

Two roots: the shared corpus laid out as one DESTDIR root
(tests/tools/corpus-root.py), and a synthetic root of N services with drop-ins
(etc/ overrides, dash-prefix and type-wide directories, aliases, masks).
Each side is one process over the same root and the same units: unitguard
judges the whole unit set with the default policy; systemd-analyze verifies
every unit name unitguard found (in one process). The two commands
alternate run by run; wall and CPU time (user+sys) and peak RSS are
reported, with the median of the pairwise ratios.

Usage: check-root-bench.py UNITGUARD [--runs N] [--units N]
"""
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import benchlib  # noqa: E402
CORPUS = os.path.join(HERE, '..', '..', 'shared', 'corpus')


def peak_rss_mib(argv):
    """Peak RSS of the program itself (GNU time: ru_maxrss of a child that
    never was a copy of this Python process)."""
    p = subprocess.run(['/usr/bin/time', '-f', '%M'] + argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, cwd='/')
    return int(p.stderr.strip().splitlines()[-1]) / 1024.0


def run(argv, env=None):
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd='/')
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status)


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
    p = subprocess.run([exe, 'units', '--root', root, '--format', 'json'], capture_output=True, text=True)
    import json
    return [json.loads(l)['id'] for l in p.stdout.splitlines() if '"state":"loaded"' in l and '@.' not in l]


def compare(label, exe, root, runs):
    names = unit_names(exe, root)
    ug = [exe, 'check', '--root', root, '--policy', 'default']
    sd = ['systemd-analyze', '--root=' + root, 'verify'] + names
    rows = {'unitguard': [], 'systemd-analyze': []}
    for _ in range(runs):
        rows['unitguard'].append(run(ug))
        rows['systemd-analyze'].append(run(sd))
    print('%s: %d units judged by both' % (label, len(names)))
    peaks = {'unitguard': peak_rss_mib(ug), 'systemd-analyze': peak_rss_mib(sd)}
    for k, v in rows.items():
        print('  %-16s wall %8.1f ms  cpu %8.1f ms  peak %6.1f MiB   (median of %d)' % (
            k, statistics.median(x[0] for x in v) * 1e3, statistics.median(x[1] for x in v) * 1e3,
            peaks[k], runs))
    wall = statistics.median(s[0] / u[0] for u, s in zip(rows['unitguard'], rows['systemd-analyze']))
    cpu = statistics.median(s[1] / max(u[1], 1e-6) for u, s in zip(rows['unitguard'], rows['systemd-analyze']))
    print('  systemd-analyze / unitguard: wall %.1fx, cpu %.1fx (median of pairwise ratios)' % (wall, cpu))


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ('-h', '--help'):
        sys.exit(__doc__)
    exe = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[sys.argv.index('--runs') + 1]) if '--runs' in sys.argv else 3
    n = int(sys.argv[sys.argv.index('--units') + 1]) if '--units' in sys.argv else 20000
    print('machine: %s, %d CPUs; %s' % (platform.platform(), os.cpu_count(), subprocess.run(
        ['systemd-analyze', '--version'], capture_output=True, text=True).stdout.splitlines()[0]))
    with tempfile.TemporaryDirectory(prefix='ug-bench-root-') as tmp:
        exe = benchlib.staged(exe, tmp, 'unitguard')   # run from a copy, as installed
        corpus_root = os.path.join(tmp, 'corpus')
        subprocess.run([sys.executable, os.path.join(HERE, '..', 'tests', 'tools', 'corpus-root.py'), CORPUS, corpus_root], check=True)
        compare('shared corpus as one root', exe, corpus_root, runs)
        synth = os.path.join(tmp, 'synthetic')
        synthetic_root(synth, n)
        compare('synthetic root, %d services' % n, exe, synth, max(1, runs // 2))
    return 0


if __name__ == '__main__':
    sys.exit(main())
