#!/usr/bin/env python3
"""Differential test of the parser and the systemd-252 predictions against
systemd 252 itself, on randomly assembled unit files (fixed seed).

Each file mixes the constructs where a naive parser goes wrong: CR, CR LF,
LF CR and NUL line ends, continuations (escaped or not, ended by blank
lines, carrying comment lines), comments, a byte order mark, broken section
headers, and assignments whose validity decides whether systemd refuses
the unit (Group=a:b is fatal, Group=daemon is not). For each file,
`systemd-analyze verify` says whether the unit is refused; unitguard with
the systemd-252 policy must say the same (exit 1 exactly when refused).
Skips (77) without systemd-analyze 252.

Usage: oracle-random.py UNITGUARD [COUNT]"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

PIECES = [
    b'[Service]', b'[Unit]', b'[Install]', b'[Service] # x', b'[Servi"ce]',
    b'ExecStart=/bin/true', b'ExecStart=/bin/true \\', b'Type=oneshot',
    b'User=bin', b'Group=a:b', b'Group=daemon', b'Group=a:b \\', b'User=bin # x',
    b'Environment=A=1 \\', b'Environment=B=2 \\\\', b'Environment=C=3 \\ ',
    b'# comment', b'; comment', b'   # indented \\', b'#Group=a:b', b'',
    b'   ', b'Description=d', b'Nice=5', b'X-Key=1', b'novalue', b'=x',
]
ENDS = [b'\n', b'\n', b'\n', b'\n', b'\r\n', b'\r', b'\0', b'\n\r']


def make(rng):
    lines = [b'[Service]', b'Type=oneshot', b'ExecStart=/bin/true']
    for _ in range(rng.randrange(2, 9)):
        lines.insert(rng.randrange(1, len(lines) + 1), rng.choice(PIECES))
    out = b''.join(line + rng.choice(ENDS) for line in lines)
    if rng.random() < 0.1:
        out = b'\xef\xbb\xbf' + out
    if rng.random() < 0.2:
        out = out.rstrip(b'\n')
    return out


def refused_by_systemd(out):
    return re.search(r'fatal error|bad unit file setting|failed to load|Failed to load', out) is not None


def main():
    exe = os.path.abspath(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    analyze = shutil.which('systemd-analyze')
    if not analyze:
        print('systemd-analyze not installed; skipping')
        sys.exit(77)
    if not subprocess.run([analyze, '--version'], capture_output=True, text=True).stdout.startswith('systemd 252'):
        print('systemd-analyze is not version 252; skipping')
        sys.exit(77)
    rng = random.Random(int(os.environ.get("ORACLE_SEED", "252")))
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(count):
            data = make(rng)
            path = os.path.join(tmp, f'r{i}.service')
            with open(path, 'wb') as f:
                f.write(data)
            s = subprocess.run([analyze, 'verify', '--man=no', '--recursive-errors=no', path],
                               capture_output=True, text=True, errors='replace', timeout=60)
            sysd = refused_by_systemd(s.stdout + s.stderr)
            u = subprocess.run([exe, 'filter', '--policy', 'systemd-252', path], capture_output=True,
                               text=True, errors='replace', timeout=60)
            ours = u.returncode == 1
            if u.returncode not in (0, 1) or sysd != ours:
                failures += 1
                print(f'FAIL r{i}: systemd refused={sysd}, unitguard exit {u.returncode}; input {data!r}')
                print('    systemd: ' + (s.stdout + s.stderr).strip().replace('\n', '\n             '))
                print('    unitguard: ' + u.stderr.strip().replace('\n', '\n               '))
    print(f'{count - failures}/{count} random units agree with systemd-analyze verify')
    sys.exit(1 if failures else 0)


main()
