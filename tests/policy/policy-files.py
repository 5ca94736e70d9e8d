#!/usr/bin/env python3
"""Policy files that are not policies (issue 9, finding 8): a FIFO, a
directory, a character device, and regular files that are not policies,
given as `--policy FILE`, to `policy check`, and through `extends:`.

Every run must end at once (a timeout turns a hang into a failure) with
exit 2 and one line `FILE[:LINE:COL]: error: ...` saying why, and must never
quote the content of a file that is not a policy.

Usage: policy-files.py UNITGUARD"""
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT = 20
LINE = re.compile(r'^[^\n]+?(:\d+:\d+)?: error: [^\n]+\n$')
SECRET = 'Zq9-secret-hash-Xv7'
UNIT = '[Service]\nExecStart=/bin/true\nUser=app\n'

failures = 0


def fail(what, why, p=None):
    global failures
    failures += 1
    print(f'FAIL {what}: {why}')
    if p is not None:
        print(f'  exit {p.returncode}\n  stdout: {p.stdout!r}\n  stderr: {p.stderr!r}')


def run(exe, args, cwd):
    try:
        return subprocess.run([exe] + args, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None


def check(exe, what, args, cwd, must_say, never_say=()):
    p = run(exe, args, cwd)
    if p is None:
        fail(what, f'did not end within {TIMEOUT} s (blocked on the file?)')
        return
    if p.returncode != 2:
        fail(what, 'exit status is not 2', p)
    elif p.stdout:
        fail(what, 'wrote to standard output', p)
    elif not LINE.match(p.stderr):
        fail(what, 'not one well-formed error line', p)
    elif must_say not in p.stderr:
        fail(what, f'the error does not say {must_say!r}', p)
    elif any(s in p.stderr for s in never_say):
        fail(what, 'the error quotes the content of a file that is not a policy', p)
    else:
        print(f'ok {what}')


def main():
    exe = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix='ug-policy-files-') as d:
        with open(os.path.join(d, 'input.service'), 'w') as f:
            f.write(UNIT)
        os.mkfifo(os.path.join(d, 'fifo.yaml'))
        os.symlink('fifo.yaml', os.path.join(d, 'link-to-fifo.yaml'))
        os.mkdir(os.path.join(d, 'dir.yaml'))
        # Files that are not policies, each with something that must not
        # be shown: a shadow-like line (one YAML scalar), a key: value file
        # (a YAML mapping without version), text that is not YAML at all.
        foreign = {
            'shadow.yaml': f'root:{SECRET}:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n',
            'mapping.yaml': f'{SECRET}: admin\npassword: {SECRET}\n',
            'not-yaml.yaml': f'[{SECRET}\n  }}: "{SECRET}\n\t{SECRET}: [\n',
            'sequence.yaml': f'- {SECRET}\n- two\n',
        }
        for name, text in foreign.items():
            with open(os.path.join(d, name), 'w') as f:
                f.write(text)
        targets = {
            'fifo.yaml': 'not a regular file but a FIFO',
            'link-to-fifo.yaml': 'not a regular file but a FIFO',
            'dir.yaml': 'not a regular file but a directory',
            '/dev/null': 'not a regular file but a character device',
        }
        for target, why in targets.items():
            check(exe, f'policy check {target}', ['policy', 'check', target], d, why)
            check(exe, f'filter --policy {target}', ['filter', '--policy', target, 'input.service'], d, why)
            ext = os.path.join(d, 'extends.yaml')
            with open(ext, 'w') as f:
                f.write(f'version: 1\nextends: {target}\n')
            check(exe, f'extends: {target}', ['policy', 'check', 'extends.yaml'], d, why)
            check(exe, f'filter --policy, extends: {target}', ['filter', '--policy', 'extends.yaml', 'input.service'],
                  d, why)
        never = [SECRET, 'root', 'daemon', 'admin', 'password', 'two']
        for name in foreign:
            check(exe, f'policy check {name}', ['policy', 'check', name], d, f'{name}:', never)
            ext = os.path.join(d, 'extends.yaml')
            with open(ext, 'w') as f:
                f.write(f'version: 1\nextends: {name}\n')
            check(exe, f'extends: {name}', ['policy', 'check', 'extends.yaml'], d, f'{name}:', never)
        # A foreign file in place of the policy on the command line too.
        check(exe, 'filter --policy shadow.yaml', ['filter', '--policy', 'shadow.yaml', 'input.service'], d,
              'shadow.yaml:', never)
    if failures:
        print(f'{failures} failure(s)')
        sys.exit(1)


main()
