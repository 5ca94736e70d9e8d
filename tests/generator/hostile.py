#!/usr/bin/env python3
"""unitguard-generator on hostile trees and in hostile conditions: symlink
loops, unreadable files, over-long unit names, a drop-in "directory" that
is a file, a broken site policy, a read-only and a full output directory,
the initrd, the user manager, and the bound on log lines. It must never
crash, exit 0 for problems of units, write only complete files into its
output directory, and log each problem on one line.

Usage: hostile.py GENERATOR"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixtures  # noqa: E402

LIB = fixtures.LIB
ETC = fixtures.ETC
FAILURES = []
AS_NOBODY = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'] if os.geteuid() == 0 else []


def check(ok, what, detail=''):
    print(('ok: ' if ok else 'FAIL: ') + what)
    if not ok:
        FAILURES.append(what)
        if detail:
            print('    ' + detail.replace('\n', '\n    '))


def write_tree(root, files, policy=None):
    for rel, content in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(content, tuple):
            os.symlink(content[1], path)
        else:
            with open(path, 'w') as f:
                f.write(content)
    if policy is not None:
        os.makedirs(os.path.join(root, 'etc/unitguard'), exist_ok=True)
        with open(os.path.join(root, 'etc/unitguard/policy.yaml'), 'w') as f:
            f.write(policy)


def run(gen, root, out, env=None, prefix=(), args=()):
    e = {k: v for k, v in os.environ.items() if not k.startswith('SYSTEMD_')}
    e.update(env or {})
    p = subprocess.run(list(prefix) + [gen, '--root', root, '--log=stderr'] + list(args) + [out],
                       capture_output=True, text=True, env=e, timeout=60)
    return p


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


def crashed(p):
    return p.returncode < 0


def lines_ok(stderr):
    return all(l.startswith('unitguard-generator: ') for l in stderr.splitlines())


def scratch(work, name):
    d = os.path.join(work, name)
    os.makedirs(os.path.join(d, 'root'))
    os.makedirs(os.path.join(d, 'out'))
    return os.path.join(d, 'root'), os.path.join(d, 'out')


def nobody_can_run(gen):
    """As root the unprivileged runs use setpriv; under a test wrapper
    (valgrind's shim in a private directory) nobody may not reach the
    program: then those checks are skipped."""
    if not AS_NOBODY:
        return True
    return subprocess.run(AS_NOBODY + ['test', '-x', gen], capture_output=True).returncode == 0


def main():
    gen = os.path.abspath(sys.argv[1])
    unprivileged = nobody_can_run(gen)
    work = tempfile.mkdtemp(prefix='ug-gen-hostile-')
    os.chmod(work, 0o755)
    try:
        # Symlink loops: an alias loop, a self-linked drop-in directory, a
        # unit file linked to itself; a healthy unit beside them is still
        # sanitized.
        root, out = scratch(work, 'loops')
        write_tree(root, {
            ETC + 'a.service': ('link', 'b.service'),
            ETC + 'b.service': ('link', 'a.service'),
            ETC + 'self.service': ('link', '/etc/systemd/system/self.service'),
            LIB + 'fine.service.d': ('link', '/lib/systemd/system/fine.service.d'),
            LIB + 'fine.service': '[Service]\nExecStart=/bin/true\nEnvironment=DEBUG=1\n',
        }, fixtures.POLICY)
        p = run(gen, root, out)
        got = outputs(out)
        check(p.returncode == 0 and not crashed(p) and lines_ok(p.stderr), 'symlink loops: exit 0, log lines only',
              p.stderr)
        check(set(got) == {'fine.service'} and 'DEBUG' not in got['fine.service'],
              'symlink loops: only the healthy unit is written, sanitized', repr(got))

        # A 300-character unit name (no file system holds such a file
        # name: it comes as the target of an alias and of a wants link;
        # systemd loads no such unit) and one of 255 characters, the
        # longest systemd accepts, that needs a sanitized copy (its
        # temporary name stays within NAME_MAX).
        root, out = scratch(work, 'names')
        long_ok = 'l' * (255 - len('.service')) + '.service'
        long_bad = 'x' * 292 + '.service'
        write_tree(root, {
            ETC + 'alias.service': ('link', '/lib/systemd/system/' + long_bad),
            ETC + 'multi-user.target.wants/' + 'w.service': ('link', '/lib/systemd/system/' + long_bad),
            LIB + 'multi-user.target': '[Unit]\n',
            LIB + long_ok: '[Service]\nExecStart=/bin/true\nEnvironment=DEBUG=1\n',
        }, fixtures.POLICY)
        p = run(gen, root, out)
        got = outputs(out)
        check(p.returncode == 0 and not crashed(p) and lines_ok(p.stderr) and '1 tree errors' in p.stderr,
              'long names: exit 0, the bad alias counted as a tree error', p.stderr)
        check(got == {long_ok: '[Service]\nExecStart=/bin/true\n'},
              'long names: the 300-character name is left alone, the 255-character unit sanitized',
              repr(got) + '\n' + p.stderr)

        # Units in the root's generator directories (the output of other
        # generators, or of an earlier run) are not judged.
        root, out = scratch(work, 'generated')
        write_tree(root, {
            'run/systemd/generator/made.service': '[Service]\nExecStart=/bin/true\nUser=0day\n',
            'run/systemd/generator.early/early.service': '[Service]\nExecStart=/bin/true\nUser=0day\n',
            'run/systemd/generator.late/late.service': '[Service]\nExecStart=/bin/true\nUser=0day\n',
            LIB + 'lax.service': '[Service]\nExecStart=/bin/true\nUser=0day\n',
        })
        p = run(gen, root, out)
        check(p.returncode == 0 and outputs(out) == {'lax.service': '-> /dev/null'} and '1 units judged' in p.stderr,
              'generator directories of the root are left out', p.stderr)

        # A drop-in "directory" that is a regular file: ignored, as systemd does.
        root, out = scratch(work, 'dropin-file')
        write_tree(root, {
            LIB + 'plain.service': '[Service]\nExecStart=/bin/true\nEnvironment=DEBUG=1\n',
            LIB + 'plain.service.d': '[Service]\nUser=0day\n',
        }, fixtures.POLICY)
        p = run(gen, root, out)
        got = outputs(out)
        check(p.returncode == 0 and set(got) == {'plain.service'},
              'drop-in directory that is a file: ignored, the unit sanitized', repr(got) + '\n' + p.stderr)

        # Unreadable files (as an unprivileged user): a unit whose file or
        # drop-in cannot be read is not vouched for: masked.
        if not unprivileged:
            print('skipped: unreadable files, read-only output directory (nobody cannot run %s)' % gen)
        root, out = scratch(work, 'unreadable')
        write_tree(root, {
            LIB + 'secret.service': '[Service]\nExecStart=/bin/true\n',
            LIB + 'half.service': '[Service]\nExecStart=/bin/true\n',
            LIB + 'half.service.d/x.conf': '[Service]\nNice=1\n',
            LIB + 'ok.service': '[Service]\nExecStart=/bin/true\n',
        }, fixtures.POLICY)
        os.chmod(os.path.join(root, LIB + 'secret.service'), 0)
        os.chmod(os.path.join(root, LIB + 'half.service.d/x.conf'), 0)
        for dirpath, dirnames, filenames in os.walk(os.path.dirname(out)):
            os.chmod(dirpath, 0o777)
        p = run(gen, root, out, prefix=AS_NOBODY) if unprivileged else None
        err = p.stderr if p else ''
        got = outputs(out)
        check(not p or p.returncode == 0 and got == {'secret.service': '-> /dev/null', 'half.service': '-> /dev/null'},
              'unreadable files: exit 0, both units masked', repr(got) + '\n' + err)
        check(not p or 'secret.service: masked: a file of it could not be read' in p.stderr and
              re.search(r'2 unreadable', p.stderr) is not None, 'unreadable files: logged', err)

        # A broken site policy: logged with its position, the built-in
        # default applies (it rejects User=0day).
        root, out = scratch(work, 'broken-policy')
        write_tree(root, {LIB + 'lax.service': '[Service]\nExecStart=/bin/true\nUser=0day\n'},
                   'version: 1\nrewrites: [\n')
        p = run(gen, root, out)
        got = outputs(out)
        check(p.returncode == 0 and got == {'lax.service': '-> /dev/null'},
              'broken site policy: the built-in default applies', repr(got) + '\n' + p.stderr)
        check(re.search(r'^unitguard-generator: \S+/etc/unitguard/policy.yaml:\d+:\d+: error: .*; the built-in default policy applies$',
                        p.stderr, re.M) is not None and 'site policy broken' in p.stderr,
              'broken site policy: one line with file:line:col', p.stderr)

        # The initrd: nothing, unless the policy says so.
        root, out = scratch(work, 'initrd')
        write_tree(root, {LIB + 'lax.service': '[Service]\nExecStart=/bin/true\nUser=0day\n'})
        p = run(gen, root, out, env={'SYSTEMD_IN_INITRD': '1', 'SYSTEMD_SCOPE': 'system'})
        check(p.returncode == 0 and outputs(out) == {} and p.stderr == '', 'initrd: nothing done, nothing logged',
              p.stderr)
        write_tree(root, {}, 'version: 1\nextends: default\ngenerator:\n  initrd: true\n')
        p = run(gen, root, out, env={'SYSTEMD_IN_INITRD': '1', 'SYSTEMD_SCOPE': 'system'})
        check(p.returncode == 0 and outputs(out) == {'lax.service': '-> /dev/null'},
              'initrd: acts when the policy has generator.initrd: true', p.stderr)

        # The user manager: left alone.
        root, out = scratch(work, 'user')
        write_tree(root, {LIB + 'lax.service': '[Service]\nExecStart=/bin/true\nUser=0day\n'})
        p = run(gen, root, out, env={'SYSTEMD_SCOPE': 'user'})
        check(p.returncode == 0 and outputs(out) == {} and p.stderr == '', 'user scope: nothing done')

        # The log is bounded: 60 rejected units, 50 lines, one "N more".
        root, out = scratch(work, 'many')
        write_tree(root, {LIB + 'r%02d.service' % i: '[Service]\nExecStart=/bin/true\nUser=0day\n' for i in range(60)})
        p = run(gen, root, out)
        lines = p.stderr.splitlines()
        check(len(outputs(out)) == 60 and len(lines) == 52 and
              lines[-2] == 'unitguard-generator: 10 more masked or changed units not logged (at most 50 lines per run)',
              'log bound: 50 unit lines, then one line with the rest', '\n'.join(lines[-3:]))

        # Usage errors: exit 2, one line, nothing written.
        root, out = scratch(work, 'usage')
        for args in ([out, out], [], ['--bogus', out], ['--root'], ['--log=syslog', out]):
            p = subprocess.run([gen] + args, capture_output=True, text=True)
            check(p.returncode == 2 and len(p.stderr.splitlines()) == 1 and
                  p.stderr.startswith('unitguard-generator: ') and outputs(out) == {},
                  'usage error %r: exit 2, one line' % args, p.stderr)

        # A read-only output directory: exit 1, each failure logged, nothing written.
        root, out = scratch(work, 'read-only')
        fixtures.build(root, 'basic')
        os.chmod(out, 0o555)
        p = run(gen, root, out, prefix=AS_NOBODY) if unprivileged else None
        err = p.stderr if p else ''
        check(not p or p.returncode == 1 and not crashed(p) and outputs(out) == {} and lines_ok(p.stderr) and
              'Permission denied' in p.stderr and re.search(r'[1-9]\d* write errors', p.stderr) is not None,
              'read-only output directory: exit 1, logged, nothing written', err)

        # A full output directory (a tmpfs with room for 3 inodes, in a
        # private mount namespace): every output is complete or absent.
        root, out = scratch(work, 'full')
        fixtures.build(root, 'basic')
        ref = os.path.join(work, 'full', 'ref')
        os.makedirs(ref)
        run(gen, root, ref)
        want = outputs(ref)
        # The generator's exit status, then what it left: symlinks with
        # their target, files with their content.
        script = ('mount -t tmpfs -o size=64k,nr_inodes=4 tmpfs "$1" || exit 99; "$2" --root "$3" --log=stderr "$1"; '
                  'echo "rc $?"; cd "$1" && find . -type l -printf "L %P %l\\n"; '
                  'find . -type f | while read -r f; do echo "F ${f#./}"; cat "$f"; echo "@@END"; done')
        if os.geteuid() == 0 and subprocess.run(['unshare', '-m', 'true'], capture_output=True).returncode == 0:
            p = subprocess.run(['unshare', '-m', 'sh', '-c', script, 'sh', out, gen, root], capture_output=True, text=True)
            rc = re.search(r'^rc (\d+)$', p.stdout, re.M)
            check(rc and rc.group(1) == '1' and lines_ok(p.stderr) and 'No space left on device' in p.stderr,
                  'full output directory: exit 1, logged', p.stdout + p.stderr)
            left = {m.group(1): '-> ' + m.group(2) for m in re.finditer(r'^L (\S+) (\S+)$', p.stdout, re.M)}
            left.update({m.group(1): m.group(2) for m in re.finditer(r'^F (\S+)\n(.*?)@@END$', p.stdout, re.M | re.S)})
            check(left and all(want.get(k) == v or v == '-> /dev/null' for k, v in left.items()),
                  'full output directory: what was written is complete: as in a run with room, or a mask',
                  repr(left) + '\n' + repr(want))
            done = re.findall(r'^unitguard-generator: (\S+): (?:masked|sanitized)', p.stderr, re.M)
            failed = re.findall(r'^unitguard-generator: (\S+): (?:the mask could not|the sanitized copy could not)', p.stderr, re.M)
            check(set(done) | set(failed) >= {'bad.service', 'dropbad.service', 'fixme.service'},
                  'full output directory: every unit is reported done or failed', p.stderr)
        else:
            print('skipped: full output directory (needs root and unshare -m)')
    finally:
        for dirpath, dirnames, filenames in os.walk(work):
            os.chmod(dirpath, 0o755)
        shutil.rmtree(work, ignore_errors=True)
    return 1 if FAILURES else 0


if __name__ == '__main__':
    sys.exit(main())
