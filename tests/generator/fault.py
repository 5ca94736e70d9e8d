#!/usr/bin/env python3
"""Fault injection for unitguard-generator: the N-th allocation, read or
write fails (LD_PRELOAD shim tests/fault/failinject.c; a failed write
stands for a full or broken output directory), for every N over a run on
the 'typewide' fixture. The generator must
  * not crash, and exit 0 (as without the fault) or 1 (an output could
    not be written, or out of memory);
  * leave in its output directory only complete outputs: every file
    exactly as in the fault-free run, every other entry a mask (the
    fallback when a copy cannot be written, and for a unit it could not
    read), no temporary file;
  * log on lines of its own, and free what it holds (no more allocations
    live at exit than in the fault-free run).

Usage: fault.py GENERATOR FAILINJECT_SO"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixtures  # noqa: E402


def outputs(out):
    got = {}
    for dirpath, dirnames, filenames in os.walk(out):
        for n in dirnames + filenames:
            path = os.path.join(dirpath, n)
            rel = os.path.relpath(path, out)
            if os.path.islink(path):
                got[rel] = '-> ' + os.readlink(path)
            elif os.path.isfile(path):
                with open(path) as f:
                    got[rel] = f.read()
    return got


def run(gen, shim, root, out, counter, fail_at):
    env = {k: v for k, v in os.environ.items() if not k.startswith('SYSTEMD_')}
    env.update(LD_PRELOAD=shim, UNITGUARD_FAIL_COUNT=counter, UNITGUARD_FAIL_AT=str(fail_at))
    if os.path.exists(counter):
        os.unlink(counter)
    p = subprocess.run([gen, '--root', root, '--log=stderr', out], capture_output=True, text=True, env=env,
                       timeout=60)
    calls, live = open(counter).read().split()
    return p, int(calls), int(live)


def main():
    gen, shim = (os.path.abspath(a) for a in sys.argv[1:3])
    work = tempfile.mkdtemp(prefix='ug-gen-fault-')
    failures, outcomes = 0, {}
    try:
        root = os.path.join(work, 'root')
        os.makedirs(root)
        fixtures.build(root, 'typewide')
        counter = os.path.join(work, 'count')
        ref_out = os.path.join(work, 'ref')
        os.makedirs(ref_out)
        ref, n, base_live = run(gen, shim, root, ref_out, counter, 0)
        want = outputs(ref_out)
        if ref.returncode != 0 or not want:
            sys.exit('fault-free run failed: %d\n%s' % (ref.returncode, ref.stderr))
        for i in range(1, n + 1):
            out = os.path.join(work, 'out%d' % i)
            os.makedirs(out)
            p, _, live = run(gen, shim, root, out, counter, i)
            got = outputs(out)
            problems = []
            if p.returncode < 0:
                problems.append('killed by signal %d' % -p.returncode)
            elif p.returncode not in (0, 1):
                problems.append('exit %d' % p.returncode)
            if live > base_live:
                problems.append('%d allocation(s) not freed' % (live - base_live))
            for k, v in got.items():
                if '.unitguard-' in k:
                    problems.append('temporary file left: %s' % k)
                elif v != want.get(k) and v != '-> /dev/null':
                    problems.append('%s: not as in the fault-free run: %r' % (k, v[:80]))
            if not all(l.startswith('unitguard-generator: ') for l in p.stderr.splitlines()):
                problems.append('log not line by line: %r' % p.stderr[-300:])
            key = 'same' if got == want and p.returncode == 0 else 'exit %d' % p.returncode
            outcomes[key] = outcomes.get(key, 0) + 1
            if problems:
                failures += 1
                print('FAIL N=%d: %s' % (i, '; '.join(problems)))
            shutil.rmtree(out)
        print('%s: %d injection points, outcomes %s' % ('ok' if not failures else 'FAIL', n, outcomes))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
