#!/usr/bin/env python3
"""Standard output of the CLI.

  * Help and version text that cannot be written (stdout on /dev/full) is
    an error: exit 3 and one message, for the top level and every verb. A
    reader that went away (closed pipe) is not.
  * Standard output and standard error on one pipe: diagnostics are written
    as soon as their unit is judged, before it, after the units before it.

Usage: cli-output.py UNITGUARD"""
import os
import subprocess
import sys

# Every place that prints help or the version (-h and --help share each).
HELP_COMMANDS = [
    ['--help'], ['--version'],
    ['filter', '--help'], ['policy', '--help'], ['hwdb', '--help'],
    ['hwdb', 'query', '--help'], ['hwdb', 'compile', '--help'], ['hwdb', 'check', '-h'],
]


def check(name, ok, detail=''):
    print(f'{"ok" if ok else "FAIL"} {name}' + (f': {detail}' if detail and not ok else ''))
    return 0 if ok else 1


def main():
    exe = os.path.abspath(sys.argv[1])
    failures = 0
    # Standard output and standard error on one pipe ("2>&1"): each unit's
    # diagnostics right before it and after the units before it.
    stream = (b'# /etc/systemd/system/a.service\n[Service]\nExecStart=/bin/true\nBogus\n'
              b'\n# /etc/systemd/system/b.service\n[Service]\nExecStart=/bin/true\n'
              b'\n# /etc/systemd/system/c.service\n[Service]\nExecStart=/bin/true\nAlso bogus\n')
    r = subprocess.run([exe, 'filter', '--no-policy'], input=stream, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=20)
    order = [l.split(b':')[0] if b': warning: ' in l else l for l in r.stdout.splitlines() if l.startswith(b'# /') or
             b': warning: ' in l]
    want = [b'/etc/systemd/system/a.service', b'# /etc/systemd/system/a.service', b'# /etc/systemd/system/b.service',
            b'/etc/systemd/system/c.service', b'# /etc/systemd/system/c.service']
    failures += check('diagnostics next to their unit on one pipe', r.returncode == 0 and order == want,
                      f'rc={r.returncode} order={order!r}')

    # The same over a stream far larger than one write (the one buffer is
    # written in large pieces): every third unit has a finding, which comes
    # right before its unit's header; and on two pipes the same units and
    # the same diagnostics, each on its own output.
    units = []
    for i in range(3000):
        units.append(b'# /etc/systemd/system/u%04d.service\n[Service]\nExecStart=/bin/true %d\n%s' %
                     (i, i, b'Bogus line\n' if i % 3 == 0 else b''))
    stream = b'\n'.join(units)
    r = subprocess.run([exe, 'filter', '--no-policy'], input=stream, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=60)
    lines = [l for l in r.stdout.splitlines() if l.startswith(b'# /') or b': warning: ' in l]
    want = []
    for i in range(3000):
        name = b'/etc/systemd/system/u%04d.service' % i
        if i % 3 == 0:
            want.append(name)
        want.append(b'# ' + name)
    got = [l.split(b':')[0] if b': warning: ' in l else l for l in lines]
    failures += check('3000 units on one pipe, each finding right before its unit',
                      r.returncode == 0 and got == want and len(r.stdout) > 262144,
                      f'rc={r.returncode} lines={len(got)} first difference at '
                      f'{next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))}')
    split = subprocess.run([exe, 'filter', '--no-policy'], input=stream, capture_output=True, timeout=60)
    merged_diags = [l for l in r.stdout.splitlines() if b': warning: ' in l]
    merged_units = b'\n'.join(l for l in r.stdout.splitlines() if b': warning: ' not in l)
    failures += check('one pipe and two pipes: the same units and diagnostics',
                      split.returncode == 0 and split.stderr.splitlines() == merged_diags and
                      split.stdout.rstrip(b'\n') == merged_units.rstrip(b'\n'),
                      f'rc={split.returncode}')

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
