#!/usr/bin/env python3
"""Input files that are not regular files: a FIFO, a socket or a device
named as an input is refused at once (exit 3, "not a regular file"),
instead of blocking forever on a FIFO without a writer; the other inputs
are still processed. Standard input may be anything (`-` from a FIFO
works). In a root (--root), a drop-in or a unit that turns out to be a FIFO
is reported the same way, and the rest of the root is judged.

Usage: special-inputs.py UNITGUARD"""
import os
import re
import socket
import subprocess
import sys
import tempfile

UNIT = b'[Service]\nExecStart=/bin/true\n'


def check(name, ok, detail=''):
    print(f'{"ok" if ok else "FAIL"} {name}' + (f': {detail}' if detail and not ok else ''))
    return 0 if ok else 1


def main():
    exe = os.path.abspath(sys.argv[1])
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in ('a.service', 'b.service'):
            with open(os.path.join(tmp, n), 'wb') as f:
                f.write(UNIT)
        os.mkfifo(os.path.join(tmp, 'fifo.service'))
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(os.path.join(tmp, 'sock.service'))

        for name, args in (('a FIFO', ['fifo.service']), ('a socket', ['sock.service']),
                           ('a device', ['/dev/null'])):
            try:
                r = subprocess.run([exe, 'filter', '--no-policy'] + args, cwd=tmp, capture_output=True, timeout=20)
            except subprocess.TimeoutExpired:
                failures += check(f'{name} as input', False, 'blocked')
                continue
            want = args[0].encode() + b': error: cannot read: not a regular file (input.unreadable)\n'
            failures += check(f'{name} as input', r.returncode == 3 and r.stdout == b'' and r.stderr == want,
                              f'rc={r.returncode} stderr={r.stderr!r}')

        # Between two units: both are written, the FIFO is reported.
        try:
            r = subprocess.run([exe, 'filter', '--no-policy', 'a.service', 'fifo.service', 'b.service'], cwd=tmp,
                               capture_output=True, timeout=20)
            ok = (r.returncode == 3 and r.stdout.count(UNIT) == 2 and
                  re.fullmatch(rb'fifo\.service: error: cannot read: not a regular file \(input\.unreadable\)\n',
                               r.stderr))
            failures += check('a FIFO between two units', ok, f'rc={r.returncode} stderr={r.stderr!r}')
        except subprocess.TimeoutExpired:
            failures += check('a FIFO between two units', False, 'blocked')

        # A FIFO drop-in given beside its unit: the unit is not written
        # without it (as in a tree or a root), for filter and for check.
        os.makedirs(os.path.join(tmp, 'a.service.d'))
        os.mkfifo(os.path.join(tmp, 'a.service.d/10-fifo.conf'))
        for verb in ('filter', 'check'):
            try:
                r = subprocess.run([exe, verb, '--no-policy', 'a.service', 'a.service.d/10-fifo.conf'], cwd=tmp,
                                   capture_output=True, timeout=20)
            except subprocess.TimeoutExpired:
                failures += check(f'{verb}: a FIFO drop-in beside its unit', False, 'blocked')
                continue
            report = (r.stderr if verb == 'filter' else r.stdout).decode()
            want = ['a.service.d/10-fifo.conf: error: cannot read: not a regular file (input.unreadable)',
                    'a.service: error: unit not written: a file of it could not be read (unit.incomplete)']
            ok = (r.returncode == 3 and UNIT not in r.stdout and report.splitlines()[:2] == want)
            failures += check(f'{verb}: a FIFO drop-in beside its unit', ok,
                              f'rc={r.returncode} stdout={r.stdout!r} stderr={r.stderr!r}')

        # Standard input may be a FIFO.
        fifo = os.path.join(tmp, 'fifo.service')
        writer = subprocess.Popen(['sh', '-c', 'printf "[Service]\\nExecStart=/bin/true\\n" > "$1"', 'sh', fifo])
        with open(fifo, 'rb') as f:
            r = subprocess.run([exe, 'filter', '--no-policy', '-'], stdin=f, capture_output=True, timeout=20)
        writer.wait(timeout=20)
        failures += check('a FIFO as standard input', r.returncode == 0 and r.stdout == UNIT,
                          f'rc={r.returncode} stderr={r.stderr!r}')
        sock.close()

        # In a root: a FIFO drop-in, a drop-in and a unit linked to a FIFO
        # outside the search path.
        root = os.path.join(tmp, 'root')
        lib = os.path.join(root, 'usr/lib/systemd/system')
        etc = os.path.join(root, 'etc/systemd/system')
        for d in (lib + '/a.service.d', etc + '/a.service.d', root + '/srv'):
            os.makedirs(d)
        for n in ('a.service', 'b.service'):
            with open(os.path.join(lib, n), 'wb') as f:
                f.write(UNIT)
        os.mkfifo(os.path.join(lib, 'a.service.d/10-fifo.conf'))
        os.mkfifo(os.path.join(root, 'srv/x.service'))
        os.symlink('/srv/x.service', os.path.join(etc, 'a.service.d/20-link.conf'))
        os.symlink('/srv/x.service', os.path.join(etc, 'linked.service'))
        for plain in ('1', '0'):
            env = dict(os.environ, UNITGUARD_IO_URING=plain)
            try:
                r = subprocess.run([exe, 'check', '--no-policy', '--root', root], capture_output=True, timeout=20,
                                   env=env)
            except subprocess.TimeoutExpired:
                failures += check('FIFOs in a root', False, 'blocked')
                continue
            err = r.stdout.decode()  # check reports on stdout
            want = [p + ': error: cannot read: not a regular file (input.unreadable)'
                    for p in ('/usr/lib/systemd/system/a.service.d/10-fifo.conf',
                              '/etc/systemd/system/a.service.d/20-link.conf', '/etc/systemd/system/linked.service')]
            ok = (r.returncode == 3 and all(w in err.splitlines() for w in want) and 'Invalid argument' not in err
                  and 'unitguard: 2 units, 1 rejected' in err)
            failures += check(f'FIFOs in a root (UNITGUARD_IO_URING={plain})', ok,
                              f'rc={r.returncode} stdout={r.stdout!r}')

    sys.exit(1 if failures else 0)


main()
