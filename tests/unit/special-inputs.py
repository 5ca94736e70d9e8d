#!/usr/bin/env python3
"""Inputs and outputs that are not plain files.

  * A FIFO, a socket or a device named as an input file is refused at
    once (exit 3, "not a regular file"), instead of blocking forever on a
    FIFO without a writer; the other inputs are still processed. Standard
    input may be anything (`-` from a FIFO works).
  * Help and version text that cannot be written (stdout on /dev/full) is
    an error: exit 3 and one message, for the top level and every verb. A
    reader that went away (closed pipe) is not.

Usage: special-inputs.py UNITGUARD"""
import os
import re
import socket
import subprocess
import sys
import tempfile

UNIT = b'[Service]\nExecStart=/bin/true\n'
HELP_COMMANDS = [
    ['--help'], ['-h'], ['help'], ['--version'],
    ['filter', '--help'], ['filter', '-h'],
    ['policy', '--help'], ['policy', '-h'],
    ['hwdb', '--help'], ['hwdb', 'help'],
    ['hwdb', 'query', '--help'], ['hwdb', 'compile', '--help'], ['hwdb', 'check', '-h'],
]


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

        # Standard input may be a FIFO.
        fifo = os.path.join(tmp, 'fifo.service')
        writer = subprocess.Popen(['sh', '-c', 'printf "[Service]\\nExecStart=/bin/true\\n" > "$1"', 'sh', fifo])
        with open(fifo, 'rb') as f:
            r = subprocess.run([exe, 'filter', '--no-policy', '-'], stdin=f, capture_output=True, timeout=20)
        writer.wait(timeout=20)
        failures += check('a FIFO as standard input', r.returncode == 0 and r.stdout == UNIT,
                          f'rc={r.returncode} stderr={r.stderr!r}')
        sock.close()

    for args in HELP_COMMANDS:
        name = ' '.join(args)
        with open('/dev/full', 'wb') as full:
            r = subprocess.run([exe] + args, stdout=full, stderr=subprocess.PIPE, timeout=20)
        lines = r.stderr.splitlines()
        failures += check(f'{name} > /dev/full', r.returncode == 3 and len(lines) == 1 and
                          b'No space left on device' in r.stderr, f'rc={r.returncode} stderr={r.stderr!r}')
        r = subprocess.run([exe] + args, capture_output=True, timeout=20)
        failures += check(f'{name}', r.returncode == 0 and r.stdout and not r.stderr,
                          f'rc={r.returncode} stderr={r.stderr!r}')
        # A reader that is already gone: quiet, as for filter output.
        rfd, wfd = os.pipe()
        os.close(rfd)
        r = subprocess.run([exe] + args, stdout=wfd, stderr=subprocess.PIPE, timeout=20)
        os.close(wfd)
        failures += check(f'{name} into a closed pipe', r.returncode == 0 and not r.stderr,
                          f'rc={r.returncode} stderr={r.stderr!r}')
    sys.exit(1 if failures else 0)


main()
