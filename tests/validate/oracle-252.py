#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Compares the judge's systemd-252 predictions with "systemd-analyze verify"
# of the installed systemd, one unit file per assignment. Skipped (77)
# unless systemd-analyze reports version 252.
# Usage: oracle-252.py JUDGE_CLI
import os
import re
import shutil
import subprocess
import sys
import tempfile

SAMPLE = [
    # (unit, section, key, value)
    ('a.service', 'Service', 'User', '0day'),
    ('a.service', 'Service', 'User', 'a:b'),
    ('a.service', 'Service', 'User', 'root'),
    ('a.service', 'Service', 'User', '65535'),
    ('a.service', 'Service', 'User', '007'),
    ('a.service', 'Service', 'User', '.'),
    ('a.service', 'Service', 'User', '%Z'),
    ('a.service', 'Service', 'User', '%i'),
    ('a.service', 'Service', 'Group', 'x\\y'),
    ('a.service', 'Service', 'SupplementaryGroups', 'a b 0day c:d'),
    ('a.service', 'Service', 'SupplementaryGroups', 'wheel 0bad'),
    ('a.service', 'Service', 'DynamicUser', 'perhaps'),
    ('a.service', 'Service', 'DynamicUser', ''),
    ('a.service', 'Service', 'DynamicUser', 'YES'),
    ('a.service', 'Service', 'PrivateTmp', 'maybe'),
    ('a.service', 'Service', 'ProtectSystem', 'bogus'),
    ('a.service', 'Service', 'ProtectSystem', 'strict'),
    ('a.service', 'Service', 'ProtectHome', 'read-only'),
    ('a.service', 'Service', 'NoNewPrivileges', 'perhaps'),
    ('a.service', 'Service', 'Restart', 'sometimes'),
    ('a.service', 'Service', 'Restart', 'on-failure'),
    ('a.service', 'Service', 'KillMode', 'mixed'),
    ('a.service', 'Service', 'NotifyAccess', 'everyone'),
    ('a.service', 'Service', 'WorkingDirectory', 'relative'),
    ('a.service', 'Service', 'WorkingDirectory', '-relative'),
    ('a.service', 'Service', 'WorkingDirectory', '-~'),
    ('a.service', 'Service', 'WorkingDirectory', '/a/../b'),
    ('a.service', 'Service', 'RootDirectory', 'relative'),
    ('a.service', 'Service', 'RootDirectory', '-/srv'),
    ('a.service', 'Service', 'RootImage', 'rel.img'),
    ('a.service', 'Service', 'RootImage', '%Z'),
    ('a.service', 'Service', 'SELinuxContext', '%Z'),
    ('a.service', 'Service', 'SELinuxContext', '-%Z'),
    ('a.service', 'Service', 'AppArmorProfile', '%Z'),
    ('a.service', 'Service', 'SmackProcessLabel', '%Z'),
    ('a.service', 'Service', 'TTYPath', 'tty1'),
    ('a.service', 'Service', 'StandardOutput', 'file:rel'),
    ('a.service', 'Service', 'StandardOutput', 'bogus'),
    ('a.service', 'Service', 'StandardOutput', 'journal+console'),
    ('a.service', 'Service', 'StandardInput', 'fd:a:b'),
    ('a.service', 'Service', 'ExecStartPre', 'bin/true'),
    ('a.service', 'Service', 'ExecStartPre', '-bin/true'),
    ('a.service', 'Service', 'ExecStartPre', '"/bin/true'),
    ('a.service', 'Service', 'ExecStartPre', '/bin/true "x'),
    ('a.service', 'Service', 'ExecStartPre', '@/bin/true'),
    ('a.service', 'Service', 'ExecStartPre', '/bin/'),
    ('a.service', 'Service', 'ExecStartPre', '/bin/true %Z'),
    ('a.service', 'Service', 'ExecStartPre', '|/bin/true'),
    ('a.service', 'Service', 'ExecStartPre', '!!+/bin/true'),
    ('a.service', 'Service', 'ExecStartPre', '--/bin/true'),
    ('a.service', 'Service', 'ExecStartPre', '/bin/true\\nX'),
    ('a.service', 'Service', 'ExecStartPre', ':+/bin/true x'),
    ('a.service', 'Service', 'Slice', 'foo.service'),
    ('a.service', 'Service', 'Slice', 'foo.slice'),
    ('a.service', 'Unit', 'Wants', 'bad name.service'),
    ('a.service', 'Unit', 'After', ''),
    ('a.service', 'Unit', 'Wants', 'x@.service'),
    ('a.service', 'Service', 'Bogus', 'x'),
    ('a.service', 'Service', 'X-Bogus', 'x'),
    ('a.socket', 'Socket', 'Service', 'foo.socket'),
    ('a.socket', 'Socket', 'Service', 'foo@.service'),
    ('a.socket', 'Socket', 'SocketUser', 'a:b'),
    ('a.socket', 'Socket', 'ExecStartPre', 'rel/x'),
    ('a@x.service', 'Service', 'User', '%I'),
    ('a@a\\x3ab.service', 'Service', 'User', '%I'),
    ('a@a\\x3ab.service', 'Service', 'User', '%i'),
]


def systemd_says(tmp, unit, section, key, value):
    path = os.path.join(tmp, unit)
    body = f'[{section}]\n{key}={value}\n'
    if unit.endswith('.service'):
        sect = '' if section == 'Service' else '[Service]\n'
        body += f'{sect}Type=oneshot\nExecStart=/bin/true\n'
    else:
        sect = '' if section == 'Socket' else '[Socket]\n'
        body += f'{sect}ListenStream=/run/oracle-test.sock\n'
    with open(path, 'w') as f:
        f.write(body)
    p = subprocess.run(['systemd-analyze', 'verify', '--man=no', path], capture_output=True, text=True,
                       timeout=60)
    out = p.stdout + p.stderr
    os.unlink(path)
    if 'fatal error' in out or 'bad-setting' in out:
        return 'fatal'
    line2 = [m for m in out.splitlines() if f'{unit}:2:' in m]
    if any(re.search(r'ignoring|Failed|Invalid|Unknown|not valid|must be|not absolute|not normalized', m) for m in line2):
        return 'ignored'
    return 'ok'


def main():
    try:
        v = subprocess.run(['systemd-analyze', '--version'], capture_output=True, text=True).stdout
    except OSError:
        v = ''
    if not v.startswith('systemd 252'):
        print('systemd-analyze 252 not available, skipping')
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix='unitguard-oracle-')
    try:
        lines = ''.join(f'252\t{u}\t{s}\t{k}\t{val}\n' for u, s, k, val in SAMPLE)
        judged = subprocess.run([sys.argv[1]], input=lines, capture_output=True, text=True,
                                check=True).stdout.splitlines()
        bad = 0
        for (u, s, k, val), j in zip(SAMPLE, judged):
            ours = j.split('\t')[0]
            # A notice or a reset is a loaded unit with the line in effect.
            mapped = {'notice': 'ok', 'reset': 'ok'}.get(ours, ours)
            # Ignored without being invalid (an empty dependency) is silent.
            if ours == 'ignored' and not val and 'i' not in j.split('\t')[1]:
                mapped = 'ok'
            theirs = systemd_says(tmp, u, s, k, val)
            if mapped != theirs:
                bad += 1
                print(f'MISMATCH {u} [{s}] {k}={val}: judge {ours}, systemd {theirs} ({j})')
        print(f'{len(SAMPLE)} assignments compared, {bad} mismatches')
        sys.exit(1 if bad else 0)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
