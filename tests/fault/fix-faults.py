#!/usr/bin/env python3
"""check --fix when the world gets in the way (LD_PRELOAD shim failinject.so):

  - a full disk: every write to the temporary file fails with ENOSPC;
  - the file changes after it was judged: just before it is read again to
    be compared, and just before the rename (after the new content was
    written);
  - SIGTERM while the new content is written: the file is still replaced
    whole, then unitguard ends by the signal, leaving no temporary file;
each of the others gives one 'PATH: error: ...' line naming the file and the cause, exit
status 3, the file exactly as it was (the other one is still fixed when it
can be), and no temporary file left behind. Then every allocation, read
and write of a `check --fix` run fails in turn: each run either succeeds
as the fault-free one does or fails with 2 or 3, every file is either as it
was or exactly as the fault-free run left it, no temporary file remains,
and nothing more is left allocated than in the fault-free run.

Usage: fix-faults.py UNITGUARD FAILINJECT_SO
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

POLICY = ('version: 1\nextends: default\nrewrites:\n'
          '  - id: nice\n    set: {section: Service, key: Nice, value: "5", matching: "^1$"}\n')
FILES = {
    't/a.service': '[Service]\nExecStart=/bin/a\nNice=1\n',
    't/a.service.d/10-x.conf': '[Service]\nNice=1\n',
    't/b.service': '[Service]\nExecStart=/bin/b\nUser=0day\nNice=1\n',
}
FIXED = {
    't/a.service': '[Service]\nExecStart=/bin/a\nNice=5\n',
    't/a.service.d/10-x.conf': '[Service]\nNice=5\n',
}
CMD = ['check', '--fix', '--policy', 'policy.yaml', 't']
LINE = re.compile(r'^[^\n]*: (error|warning|note): [^\n]*$')
failures = 0


def expect(cond, what, p=None):
    global failures
    if cond:
        print('ok   ' + what)
        return
    failures += 1
    print('FAIL ' + what)
    if p is not None:
        print('  exit %d\n  stdout: %s\n  stderr: %s' % (p.returncode, p.stdout, p.stderr))


def reset(top):
    shutil.rmtree(top, ignore_errors=True)
    for rel, text in FILES.items():
        os.makedirs(os.path.dirname(os.path.join(top, rel)), exist_ok=True)
        with open(os.path.join(top, rel), 'w') as f:
            f.write(text)
    with open(os.path.join(top, 'policy.yaml'), 'w') as f:
        f.write(POLICY)


def contents(top):
    return {rel: open(os.path.join(top, rel)).read() for rel in FILES}


def leftovers(top):
    return [n for _, _, ns in os.walk(top) for n in ns if '.unitguard-' in n]


def run(exe, top, env):
    return subprocess.run([exe] + CMD, cwd=top, capture_output=True, text=True, env=dict(os.environ, **env), timeout=30)


def fix_lines(p):
    return [l for l in p.stdout.splitlines() if '(fix.' in l]


def targeted(exe, shim, top):
    # A full disk.
    reset(top)
    p = run(exe, top, {'LD_PRELOAD': shim, 'UNITGUARD_WRITE_ERRNO': '28', 'UNITGUARD_WRITE_ERRNO_PATH': '.unitguard-'})
    expect(p.returncode == 3, 'ENOSPC: exit status 3', p)
    expect(fix_lines(p) == ['t/a.service: error: cannot write: No space left on device; not rewritten, left as it was (fix.failed)',
                            't/a.service.d/10-x.conf: error: cannot write: No space left on device; not rewritten, left as it was (fix.failed)'],
           'ENOSPC: one line per file, naming it and the cause', p)
    expect(contents(top) == FILES and not leftovers(top), 'ENOSPC: the files as they were, no temporary file')

    # Changed after it was judged: before it is read again (the 2nd open
    # of the drop-in), and after the new content was written (the 3rd:
    # reading its attributes, just before the rename).
    for n, when in (('2', 'before it is read again'), ('3', 'just before the rename')):
        reset(top)
        p = run(exe, top, {'LD_PRELOAD': shim, 'UNITGUARD_CHANGE_PATH': '10-x.conf', 'UNITGUARD_CHANGE_AT_OPEN': n})
        changed = FILES['t/a.service.d/10-x.conf'] + '# changed meanwhile\n'
        expect(p.returncode == 3, 'changed %s: exit status 3' % when, p)
        expect(fix_lines(p) == ["t/a.service: note: rewritten to the policy's sanitized form (fix.applied)",
                                't/a.service.d/10-x.conf: error: changed since it was read; not rewritten, left as it was (fix.failed)'],
               'changed %s: one error line for it, the other file fixed' % when, p)
        got = contents(top)
        expect(got['t/a.service.d/10-x.conf'] == changed and got['t/a.service'] == FIXED['t/a.service'] and not leftovers(top),
               'changed %s: the other writer\'s content kept, no temporary file' % when)


def signal_in_write(exe, shim, top):
    reset(top)
    p = run(exe, top, {'LD_PRELOAD': shim, 'UNITGUARD_SIGTERM_ON_WRITE_PATH': '.unitguard-'})
    got = contents(top)
    expect(p.returncode == -15, 'SIGTERM in mid-write: unitguard ends by the signal', p)
    expect(got['t/a.service'] == FIXED['t/a.service'] and not leftovers(top),
           'SIGTERM in mid-write: that file replaced whole, no temporary file: %r' % got)


def sweep(exe, shim, top):
    counter = os.path.join(os.path.dirname(top), 'count')

    def counted(fail_at):
        reset(top)
        env = {'LD_PRELOAD': shim, 'UNITGUARD_FAIL_COUNT': counter, 'UNITGUARD_FAIL_AT': str(fail_at)}
        p = run(exe, top, env)
        calls, live = open(counter).read().split()
        return p, int(calls), int(live)

    reset(top)
    ref = run(exe, top, {})
    ref_files = contents(top)
    expect(ref.returncode == 1 and all(ref_files[k] == v for k, v in FIXED.items()), 'fault-free --fix run', ref)
    _, n, base_live = counted(0)
    bad = 0
    for i in range(1, n + 1):
        p, _, live = counted(i)
        problems = []
        if p.returncode < 0:
            problems.append('killed by signal %d' % -p.returncode)
        elif (p.returncode, p.stdout) != (ref.returncode, ref.stdout):
            if p.returncode not in (2, 3):
                problems.append('exit %d without the expected output' % p.returncode)
            if not all(LINE.match(l) or l.startswith('unitguard') for l in (p.stdout + p.stderr).splitlines()):
                problems.append('output not one diagnostic per line')
        got = contents(top)
        for rel in FILES:
            if got[rel] not in (FILES[rel], ref_files[rel]):
                problems.append('%s is neither as it was nor fixed: %r' % (rel, got[rel]))
        if leftovers(top):
            problems.append('temporary files left: %r' % leftovers(top))
        if live > base_live:
            problems.append('%d allocation(s) not freed' % (live - base_live))
        if problems:
            bad += 1
            print('FAIL N=%d: %s' % (i, '; '.join(problems)))
    expect(bad == 0, 'every fault in a --fix run (%d injection points) handled' % n)


def main():
    exe, shim = (os.path.abspath(a) for a in sys.argv[1:3])
    with tempfile.TemporaryDirectory(prefix='ug-fix-faults-') as tmp:
        top = os.path.join(tmp, 'w')
        targeted(exe, shim, top)
        signal_in_write(exe, shim, top)
        sweep(exe, shim, top)
    print('%d failure(s)' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
