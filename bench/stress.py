#!/usr/bin/env python3
"""Stress runs for unitguard (issue 5), each reported with wall time and
peak RSS (GNU time), all in one run:

  * systemctl-cat streams of 10 MB, 100 MB and 1 GB through `filter`
    (default policy): memory must stay flat;
  * 100,000 units in one directory;
  * one unit with 100,000 keys;
  * a policy with 10,000 rewrite rules, applied to the corpus;
  * the Debian hwdb queried with 1,000,000 keys in batch mode.

Usage: bench/stress.py [--unitguard PATH] [--quick]   (--quick: 1 GB -> 200 MB)"""
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


def timed(argv, stdin=None, cwd=None):
    with open(stdin or os.devnull, 'rb') as fin, open(os.devnull, 'wb') as fout:
        t0 = time.perf_counter()
        p = subprocess.run(['/usr/bin/time', '-f', '%M %x'] + argv, stdin=fin, stdout=fout,
                           stderr=subprocess.PIPE, cwd=cwd)
        t = time.perf_counter() - t0
    rss, rc = p.stderr.decode().split()[-2:]
    return t, int(rss) / 1024, int(rc)


def report(label, t, rss, rc, extra=''):
    print(f'{label:44s} {t:8.2f} s  peak RSS {rss:7.1f} MiB  exit {rc}{extra}')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--unitguard', default=os.path.join(TOP, 'build', 'src', 'cli', 'unitguard'))
    ap.add_argument('--quick', action='store_true')
    args = ap.parse_args()
    ug = os.path.abspath(args.unitguard)
    tmp = tempfile.mkdtemp(prefix='ug-stress-')
    try:
        one = os.path.join(tmp, 'one.txt')
        with open(one, 'wb') as f:
            subprocess.run([sys.executable, MAKE_STREAM, CORPUS], stdout=f, stderr=subprocess.DEVNULL, check=True)
        copy = os.path.getsize(one)
        sizes = [10, 100, 200 if args.quick else 1000]
        for mb in sizes:
            path = os.path.join(tmp, f'stream{mb}.txt')
            with open(path, 'wb') as f:
                subprocess.run([sys.executable, MAKE_STREAM, '--repeat', str(max(1, mb * 1000000 // copy)), CORPUS],
                               stdout=f, stderr=subprocess.DEVNULL, check=True)
            t, rss, rc = timed([ug, 'filter'], stdin=path)
            size = os.path.getsize(path)
            report(f'filter, {size / 1e6:.0f} MB stream', t, rss, rc, f'  ({size / t / 1e6:.0f} MB/s)')
            os.unlink(path)

        d = os.path.join(tmp, 'many')
        os.mkdir(d)
        for i in range(100000):
            with open(os.path.join(d, f'u{i}.service'), 'w') as f:
                f.write(f'[Unit]\nDescription=unit {i}\n\n[Service]\nExecStart=/bin/true\nUser=u{i}\n')
        t, rss, rc = timed([ug, 'filter', d])
        report('filter, 100,000 units in one directory', t, rss, rc)
        shutil.rmtree(d)

        big = os.path.join(tmp, 'keys.service')
        with open(big, 'w') as f:
            f.write('[Service]\nExecStart=/bin/true\n')
            for i in range(100000):
                f.write(f'Environment=K{i}=v{i}\n')
        t, rss, rc = timed([ug, 'filter', big])
        report('filter, one unit with 100,000 keys', t, rss, rc)

        pol = os.path.join(tmp, 'rules.yaml')
        with open(pol, 'w') as f:
            f.write('version: 1\nextends: default\nrewrites:\n')
            for i in range(10000):
                f.write(f'  - id: r{i}\n    when: {{units: ["nomatch-{i}-*.service"]}}\n'
                        f'    add: {{section: Service, key: Environment, value: "R{i}=1"}}\n')
        t, rss, rc = timed([ug, 'policy', 'check', pol])
        report('policy check, 10,000 rewrite rules', t, rss, rc)
        t, rss, rc = timed([ug, 'filter', '--policy', pol, CORPUS])
        report('filter corpus with 10,000 rewrite rules', t, rss, rc)

        if os.path.isdir('/lib/udev/hwdb.d') and os.path.exists(os.path.join(TOP, 'tests', 'hwdb', 'hwdb-keys.py')):
            keys = os.path.join(tmp, 'keys.txt')
            with open(keys, 'wb') as f:
                r = subprocess.run([sys.executable, os.path.join(TOP, 'tests', 'hwdb', 'hwdb-keys.py'),
                                    '--realistic', '--count', '100000', '--dir', '/lib/udev/hwdb.d'],
                                   capture_output=True)
                lines = r.stdout.splitlines(True)
                if r.returncode != 0 or not lines:
                    print('hwdb: could not derive keys:', r.stderr.decode()[-200:])
                for _ in range(10):
                    f.writelines(lines)
            n = sum(1 for _ in open(keys, 'rb'))
            binpath = os.path.join(tmp, 'hwdb.bin')
            subprocess.run([ug, 'hwdb', 'compile', '--hwdb-dir', '/lib/udev/hwdb.d', '-o', binpath], check=True)
            t, rss, rc = timed([ug, 'hwdb', 'query', '--bin', binpath, '--stdin'], stdin=keys)
            report(f'hwdb query --stdin, {n:,} keys', t, rss, rc, f'  ({n / t:,.0f} keys/s)')
    finally:
        shutil.rmtree(tmp)


main()
