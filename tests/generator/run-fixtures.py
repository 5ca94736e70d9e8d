#!/usr/bin/env python3
"""Golden test of unitguard-generator on the fixture roots of fixtures.py:
the generator runs with --root over each, and the whole output (every
directory, symlink and file of the three output directories, with
contents and modes) and its log must match golden/NAME.txt exactly. Each
unit it wrote something for is also given to `systemd-analyze verify`
(masked ones must show as masked, the others load cleanly); a complaint
shows up as a VERIFY: line, which no golden file has.

Usage: run-fixtures.py GENERATOR [--update]"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixtures  # noqa: E402


def verify(root, out):
    """systemd-analyze verify of every unit the generator wrote something
    for, with its early directory first in the search path (then the
    fixture's, then the host's for sysinit.target and the like): masked
    ones must be reported masked, the rest must load without a word.
    Returns a list of problems."""
    if not shutil.which('systemd-analyze'):
        return []
    early = os.path.join(out, 'early')
    masked = sorted(n for n in os.listdir(early) if os.path.islink(os.path.join(early, n)))
    others = sorted({n[:-2] if n.endswith('.d') else n for n in os.listdir(early)} - set(masked))
    path = ':'.join([early, os.path.join(root, 'etc/systemd/system'), os.path.join(root, 'lib/systemd/system')]) + ':'
    env = dict(os.environ, SYSTEMD_UNIT_PATH=path)
    problems = []
    for unit in masked + others:
        p = subprocess.run(['systemd-analyze', 'verify', unit], capture_output=True, text=True, env=env, cwd=early)
        # systemd's warning about the fixtures' lax user names is expected.
        text = '\n'.join(l for l in (p.stdout + p.stderr).strip().split('\n')
                         if not l.startswith("Accepting user/group name '0day'"))
        want = 'Unit %s is masked.' % unit if unit in masked else ''
        if text != want:
            problems.append('systemd-analyze verify %s: %r, expected %r' % (unit, text, want))
    return problems


def run_fixture(gen, name, work):
    root = os.path.join(work, name, 'root')
    out = os.path.join(work, name, 'out')
    os.makedirs(root)
    fixtures.build(root, name)
    dirs = [os.path.join(out, d) for d in ('normal', 'early', 'late')]
    for d in dirs:
        os.makedirs(d)
    # As systemd runs it: three directories and $SYSTEMD_SCOPE; the log
    # goes to stderr all the same (no /dev/kmsg for tests).
    env = dict(os.environ, SYSTEMD_SCOPE='system', SYSTEMD_IN_INITRD='0', SYSTEMD_FIRST_BOOT='0')
    p = subprocess.run([gen, '--root', root, '--log=stderr'] + dirs, capture_output=True, text=True, env=env,
                       timeout=60)
    log = re.sub(r'; [0-9.]+ ms$', '; N ms', p.stderr, flags=re.M)
    for problem in verify(root, out):
        log += 'VERIFY: %s\n' % problem
    return ('exit status %d\n-- log --\n%s-- output --\n%s' % (p.returncode, log, fixtures.listing(out)))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    gen = os.path.abspath(sys.argv[1])
    update = '--update' in sys.argv[2:]
    failed = 0
    work = tempfile.mkdtemp(prefix='ug-gen-fixtures-')
    try:
        for name in sorted(fixtures.FIXTURES):
            got = run_fixture(gen, name, work)
            golden = os.path.join(HERE, 'golden', name + '.txt')
            if update:
                os.makedirs(os.path.dirname(golden), exist_ok=True)
                with open(golden, 'w') as f:
                    f.write(got)
                print('updated %s' % golden)
                continue
            with open(golden) as f:
                want = f.read()
            if got != want:
                failed += 1
                print('FAIL: %s differs from %s' % (name, golden))
                import difflib
                sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                           'expected', 'got'))
            else:
                print('ok: %s' % name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
