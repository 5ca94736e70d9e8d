#!/usr/bin/env python3
"""A unit never leaves without all of its files: the N-th read (or
allocation, or write) of `unitguard filter` fails, for every N, while it
reads a `systemctl cat` stream whose unit a.service has a drop-in large
enough to be read in several pieces. Whatever fails, standard output holds
whole units only -- it is the fault-free output cut at a unit boundary,
never a.service without its drop-in -- and a failed read is reported with
exit 3, naming the file that could not be read.

Usage: stream-read-errors.py UNITGUARD FAILINJECT_SO"""
import os
import re
import subprocess
import sys
import tempfile

DROPIN = b'/etc/systemd/system/a.service.d/10-user.conf'
UNITS = [
    b'# /etc/systemd/system/z.service\n[Service]\nExecStart=/bin/true\n',
    b'\n# /etc/systemd/system/a.service\n[Service]\nExecStart=/bin/true\n'
    b'\n# ' + DROPIN + b'\n[Service]\nUser=app\nProtectSystem=strict\n' + b'# padding padding padding\n' * 12000,
    b'\n# /etc/systemd/system/b.service\n[Service]\nExecStart=/bin/true\n',
]
STREAM = b''.join(UNITS)
LINE = re.compile(rb'^[^\n]*: (error|warning|note): [^\n]*$')


def run(exe, stdin_path, env):
    with open(stdin_path, 'rb') as f:
        return subprocess.run([exe, 'filter', '--no-policy'], stdin=f, capture_output=True, env=env, timeout=30)


def main():
    exe, shim = (os.path.abspath(a) for a in sys.argv[1:3])
    boundaries = {0}
    for u in UNITS:
        boundaries.add(max(boundaries) + len(u))
    failures = 0
    named_dropin = 0
    with tempfile.TemporaryDirectory() as tmp:
        stdin_path = os.path.join(tmp, 'stream')
        counter = os.path.join(tmp, 'count')
        with open(stdin_path, 'wb') as f:
            f.write(STREAM)
        ref = run(exe, stdin_path, dict(os.environ))
        assert ref.returncode == 0 and ref.stdout == STREAM, ref
        run(exe, stdin_path, dict(os.environ, LD_PRELOAD=shim, UNITGUARD_FAIL_COUNT=counter))
        calls = int(open(counter).read().split()[0])
        for n in range(1, calls + 1):
            p = run(exe, stdin_path, dict(os.environ, LD_PRELOAD=shim, UNITGUARD_FAIL_AT=str(n)))
            problems = []
            if p.returncode < 0:
                problems.append(f'killed by signal {-p.returncode}')
            if not STREAM.startswith(p.stdout) or len(p.stdout) not in boundaries:
                problems.append(f'stdout ({len(p.stdout)} bytes) is not a sequence of whole units')
            if (p.returncode, p.stdout, p.stderr) != (ref.returncode, ref.stdout, ref.stderr):
                if p.returncode != 3:
                    problems.append(f'exit {p.returncode}, not 3')
                if not all(LINE.match(l) or l.startswith(b'unitguard ') for l in p.stderr.splitlines()):
                    problems.append(f'stderr not one diagnostic per line: {p.stderr[-300:]!r}')
            if DROPIN + b': error: cannot read' in p.stderr:
                named_dropin += 1
                if b'/etc/systemd/system/a.service: error: unit rejected' not in p.stderr:
                    problems.append('a.service not reported as rejected')
            if problems:
                failures += 1
                print(f'FAIL N={n}: ' + '; '.join(problems))
    # The test means something only if some read failed inside the drop-in.
    if named_dropin == 0:
        failures += 1
        print('FAIL no run failed while reading the drop-in')
    print(f'{"FAIL" if failures else "ok"}: {calls} injection points, {named_dropin} failed inside the drop-in')
    sys.exit(1 if failures else 0)


main()
