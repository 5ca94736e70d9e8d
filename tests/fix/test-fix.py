#!/usr/bin/env python3
"""check --fix on scratch trees: what is rewritten, what is kept, and the
errors that leave a file as it was.

  - after --fix, check reports 0 changed (trees and roots), and --fix exits
    as check does without it (1 with a rejected unit);
  - a rewritten file keeps its mode, owner and group (as root) and extended
    attributes (user.*, trusted.* as root, security.selinux where it can be
    set), and is a new inode (replaced by rename, not written in place);
    the files of a rejected unit, unchanged files and symlinks are left
    alone, and no temporary file remains;
  - a read-only file (no write bit, root included) and a read-only
    directory give one 'PATH: error: ...' line each, exit status 3, the
    file unchanged, while the other files are still fixed;
  - with --root, a link that points out of the root (absolute or with ..)
    never leads to a file outside it;
  - --fix on standard input, and `filter --fix`, are usage errors (2);
  - --format json says which fix was applied to which finding.
The full-disk and changed-since-read cases need the fault-injection shim:
tests/fault/fix-faults.py.

Usage: test-fix.py UNITGUARD
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

EXE = os.path.abspath(sys.argv[1])
# f.service is rewritten (Nice=) and then rejected by a forbid: rule: a
# rejected unit that the policy did edit.
POLICY = ('version: 1\nextends: default\nrewrites:\n'
          '  - id: nice\n    set: {section: Service, key: Nice, value: "5", matching: "^1$"}\n'
          'forbid:\n  - id: no-f\n    key: Service.ExecStart\n    regex: "^/bin/f$"\n')
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


def run(args, cwd, stdin=''):
    return subprocess.run([EXE] + args, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=60)


def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    if mode is not None:
        os.chmod(path, mode)


def read(path):
    return open(path).read()


def summary(p):
    lines = p.stdout.splitlines()
    return lines[-1] if lines else ''


def leftovers(top):
    return [os.path.join(d, n) for d, _, ns in os.walk(top) for n in ns if '.unitguard-' in n]


def make_tree(top):
    write(os.path.join(top, 'policy.yaml'), POLICY)
    write(os.path.join(top, 't/a.service'), '[Service]\nExecStart=/bin/a\nNice=1\n', 0o640)
    write(os.path.join(top, 't/a.service.d/10-x.conf'), '[Service]\nNice=1\n')
    write(os.path.join(top, 't/b.service'), '[Service]\nExecStart=/bin/b\nUser=0day\nNice=1\n')
    write(os.path.join(top, 't/c.service'), '[Service]\nExecStart=/bin/c\nNice=5\n')
    write(os.path.join(top, 't/f.service'), '[Service]\nExecStart=/bin/f\nNice=1\n')
    os.symlink('c.service', os.path.join(top, 't/alias.service'))


def test_tree(tmp):
    top = os.path.join(tmp, 'tree')
    make_tree(top)
    a = os.path.join(top, 't/a.service')
    root = os.geteuid() == 0
    if root:
        os.chown(a, 1234, 5678)
    os.setxattr(a, 'user.unitguard-test', b'kept')
    if root:
        os.setxattr(a, 'trusted.unitguard-test', b'kept too')
    try:
        os.setxattr(a, 'security.selinux', b'system_u:object_r:systemd_unit_file_t:s0')
        selinux = os.getxattr(a, 'security.selinux')
    except OSError:
        selinux = None
    ino = os.stat(a).st_ino
    b_before, c_before = read(os.path.join(top, 't/b.service')), read(os.path.join(top, 't/c.service'))
    f_before = read(os.path.join(top, 't/f.service'))

    plain = run(['check', '--policy', 'policy.yaml', 't'], top)
    p = run(['check', '--fix', '--policy', 'policy.yaml', 't'], top)
    expect(p.returncode == 1 and plain.returncode == 1, '--fix exits like check without it (a rejected unit: 1)', p)
    expect(', 2 fixed, ' in summary(p), 'the summary counts 2 fixed files: %r' % summary(p), p)
    expect(read(a) == '[Service]\nExecStart=/bin/a\nNice=5\n', 'the unit file is rewritten')
    expect(read(os.path.join(top, 't/a.service.d/10-x.conf')) == '[Service]\nNice=5\n', 'its drop-in is rewritten')
    expect(read(os.path.join(top, 't/b.service')) == b_before, 'the rejected unit is not rewritten')
    expect(read(os.path.join(top, 't/f.service')) == f_before,
           'a unit the policy edited and then rejected (forbid:) is not rewritten')
    expect(read(os.path.join(top, 't/c.service')) == c_before, 'an unchanged unit is left alone')
    expect(os.readlink(os.path.join(top, 't/alias.service')) == 'c.service', 'the symlink is still a symlink')
    st = os.stat(a)
    expect(st.st_mode & 0o7777 == 0o640, 'mode kept: %o' % (st.st_mode & 0o7777))
    if root:
        expect((st.st_uid, st.st_gid) == (1234, 5678), 'owner and group kept: %d:%d' % (st.st_uid, st.st_gid))
        expect(os.getxattr(a, 'trusted.unitguard-test') == b'kept too', 'trusted.* attribute kept')
    expect(os.getxattr(a, 'user.unitguard-test') == b'kept', 'user.* attribute kept')
    if selinux is not None:
        expect(os.getxattr(a, 'security.selinux') == selinux, 'security.selinux kept')
    else:
        print('skip security.selinux cannot be set here')
    expect(st.st_ino != ino, 'replaced by rename (a new inode), not written in place')
    expect(not leftovers(top), 'no temporary file left: %r' % leftovers(top))

    again = run(['check', '--policy', 'policy.yaml', 't'], top)
    expect(' 0 changed,' in summary(again), 'check after --fix: 0 changed (%r)' % summary(again), again)
    again = run(['check', '--fix', '--policy', 'policy.yaml', 't'], top)
    expect(', 0 changed, 0 fixed,' in summary(again) and 'fix.' not in again.stdout,
           '--fix again: nothing to do', again)


def test_read_only(tmp):
    top = os.path.join(tmp, 'ro')
    make_tree(top)
    a = os.path.join(top, 't/a.service')
    os.chmod(a, 0o444)
    p = run(['check', '--fix', '--policy', 'policy.yaml', 't'], top)
    lines = [l for l in p.stdout.splitlines() if 'fix.' in l]
    expect(p.returncode == 3, 'a read-only file: exit status 3', p)
    expect('t/a.service: error: the file is read-only (mode 0444); not rewritten, left as it was (fix.failed)' in lines,
           'a read-only file: one clear error line', p)
    expect(read(a) == '[Service]\nExecStart=/bin/a\nNice=1\n' and os.stat(a).st_mode & 0o777 == 0o444,
           'a read-only file is left as it was')
    expect(read(os.path.join(top, 't/a.service.d/10-x.conf')) == '[Service]\nNice=5\n',
           'the other changed file is still fixed')

    top = os.path.join(tmp, 'rodir')
    make_tree(top)
    d = os.path.join(top, 't/a.service.d')
    os.chmod(d, 0o555)
    try:
        p = run(['check', '--fix', '--policy', 'policy.yaml', 't'], top)
    finally:
        os.chmod(d, 0o755)
    lines = [l for l in p.stdout.splitlines() if 'fix.' in l]
    expect(p.returncode == 3, 'a read-only directory: exit status 3', p)
    expect('t/a.service.d/10-x.conf: error: directory t/a.service.d is read-only (mode 0555); not rewritten, left as it was (fix.failed)'
           in lines, 'a read-only directory: one clear error line', p)
    expect(read(os.path.join(d, '10-x.conf')) == '[Service]\nNice=1\n' and sorted(os.listdir(d)) == ['10-x.conf'],
           'a file in a read-only directory is left as it was, nothing added beside it')


def test_root(tmp):
    top = os.path.join(tmp, 'root')
    r = os.path.join(top, 'dest')
    outside = os.path.join(tmp, 'outside.conf')
    write(outside, '[Service]\nNice=1\n')
    write(os.path.join(top, 'policy.yaml'), POLICY)
    write(os.path.join(r, 'usr/lib/systemd/system/a.service'), '[Service]\nExecStart=/bin/a\nNice=1\n')
    write(os.path.join(r, 'usr/lib/systemd/system/x.service'), '[Service]\nExecStart=/bin/x\n')
    os.makedirs(os.path.join(r, 'etc/systemd/system/x.service.d'))
    # Taken relative to the root, an absolute link names a file that is
    # not there; '..' stops at the root: neither leads to outside.conf.
    os.symlink(outside, os.path.join(r, 'etc/systemd/system/x.service.d/10-abs.conf'))
    os.symlink('../../../../../outside.conf', os.path.join(r, 'etc/systemd/system/x.service.d/20-rel.conf'))
    p = run(['check', '--fix', '--root', 'dest', '--policy', 'policy.yaml'], top)
    expect(read(outside) == '[Service]\nNice=1\n', '--root: a file outside the root is never touched', p)
    expect(read(os.path.join(r, 'usr/lib/systemd/system/a.service')).endswith('Nice=5\n'), '--root: a unit is fixed', p)
    expect(os.path.islink(os.path.join(r, 'etc/systemd/system/x.service.d/10-abs.conf')), '--root: links stay links')
    again = run(['check', '--root', 'dest', '--policy', 'policy.yaml'], top)
    expect(' 0 changed,' in summary(again), '--root: check after --fix: 0 changed (%r)' % summary(again), again)


def test_usage(tmp):
    top = os.path.join(tmp, 'usage')
    make_tree(top)
    for args, stdin in ((['check', '--fix'], '[Service]\nNice=1\n'), (['check', '--fix', 't', '-'], ''),
                        (['filter', '--fix', 't'], '')):
        p = run(args, top, stdin)
        expect(p.returncode == 2 and p.stdout == '' and p.stderr.count('\n') == 1,
               '%s: usage error' % ' '.join(args), p)
    expect(read(os.path.join(top, 't/a.service')).endswith('Nice=1\n'), 'a usage error rewrites nothing')


def test_json(tmp):
    top = os.path.join(tmp, 'json')
    make_tree(top)
    p = run(['check', '--fix', '--format', 'json', '--policy', 'policy.yaml', 't'], top)
    doc = json.loads(p.stdout)
    fixes = {(f['path'], f['line']): f['fix'] for f in doc['findings'] if f['fix']}
    expect(fixes == {('t/a.service', 3): 'replaced by Nice=5', ('t/a.service.d/10-x.conf', 2): 'replaced by Nice=5'},
           'json: the fixes applied, per finding: %r' % fixes, p)
    applied = sorted(f['path'] for f in doc['findings'] if f['rule'] == 'fix.applied')
    expect(applied == ['t/a.service', 't/a.service.d/10-x.conf'] and doc['summary']['fixed'] == 2,
           'json: fix.applied findings and summary.fixed', p)
    # Without --fix nothing is applied: every "fix" is null.
    p = run(['check', '--format', 'json', '--policy', 'policy.yaml', 't'], top)
    doc = json.loads(p.stdout)
    expect(all(f['fix'] is None for f in doc['findings']) and doc['summary']['fixed'] is None,
           'json without --fix: no fix, summary.fixed null', p)
    top = os.path.join(tmp, 'sarif')
    make_tree(top)
    p = run(['check', '--fix', '--format', 'sarif', '--policy', 'policy.yaml', 't'], top)
    results = json.loads(p.stdout)['runs'][0]['results']
    got = sorted((r['locations'][0]['physicalLocation']['artifactLocation']['uri'],
                  r['properties'].get('fixApplied') or '') for r in results
                 if r.get('properties', {}).get('fixApplied') or r['ruleId'] == 'fix.applied')
    expect(got == [('t/a.service', ''), ('t/a.service', 'replaced by Nice=5'), ('t/a.service.d/10-x.conf', ''),
                   ('t/a.service.d/10-x.conf', 'replaced by Nice=5')],
           'sarif: fix.applied results and fixApplied properties: %r' % got, p)


def main():
    with tempfile.TemporaryDirectory(prefix='ug-fix-') as tmp:
        test_tree(tmp)
        test_read_only(tmp)
        test_root(tmp)
        test_usage(tmp)
        test_json(tmp)
    print('%d failure(s)' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
