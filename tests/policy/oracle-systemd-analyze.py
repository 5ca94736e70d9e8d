#!/usr/bin/env python3
"""Checks the systemd-252 policy's predictions against systemd 252 itself.

For each sample unit (parser corner cases and policy-table rows), runs
`systemd-analyze verify` on it and classifies what systemd did:
  refused  - "fatal error" / "bad unit file setting" / failed to load,
  warned   - a message naming the file and a line,
  clean    - nothing;
and requires `unitguard filter --policy systemd-252` to agree: exit 1 for
refused, a warning or error on the same line for warned, no warning for
clean. Skips (77) when systemd-analyze is missing or is not version 252.

Usage: oracle-systemd-analyze.py UNITGUARD"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

T = '[Unit]\nDescription=t\n\n[Service]\nType=oneshot\nExecStart=/bin/true\n'

CASES = [
    # name, unit text (bytes), drop-in text or None
    ('user-ok', T + 'User=nobody\n', None),
    ('user-0day', T + 'User=0day\n', None),
    ('user-colon', T + 'User=a:b\n', None),
    ('user-dot', T + 'User=.\n', None),
    ('user-65535', T + 'User=65535\n', None),
    ('user-007', T + 'User=007\n', None),
    ('user-empty', T + 'User=app\nUser=\n', None),
    ('user-space', T + 'User=foo bar\n', None),
    ('group-bad', T + 'Group=a/b\n', None),
    ('suppl-bad', T + 'SupplementaryGroups=a b c:d\n', None),
    ('suppl-relaxed', T + 'SupplementaryGroups=wheel 0bad\n', None),
    ('exec-relative', '[Service]\nExecStart=bin/true\n', None),
    ('exec-relative-dash', '[Service]\nType=oneshot\nExecStart=-bin/true\n', None),
    ('exec-name', '[Service]\nExecStart=true\n', None),
    ('exec-dir', '[Service]\nExecStart=/bin/\n', None),
    ('exec-spec', '[Service]\nExecStart=/bin/true %Z\n', None),
    ('exec-quote-first', '[Service]\nType=oneshot\nExecStart=/bin/true\nExecStartPre="/bin/true\n', None),
    ('exec-quote-later', '[Service]\nExecStart=/bin/true "unterminated\n', None),
    ('exec-empty-argv', '[Service]\nExecStart=@/bin/true\n', None),
    ('exec-pipe', '[Service]\nExecStart=|/bin/true\n', None),
    ('exec-plusbang', '[Service]\nExecStart=+!/bin/true\n', None),
    ('exec-doubledash', '[Service]\nType=oneshot\nExecStart=/bin/true\nExecStartPre=--/bin/true\n', None),
    ('workdir-rel', T + 'WorkingDirectory=relative\n', None),
    ('workdir-dash-rel', T + 'WorkingDirectory=-relative\n', None),
    ('dynamicuser-maybe', T + 'DynamicUser=maybe\n', None),
    ('dynamicuser-empty', T + 'DynamicUser=\n', None),
    ('privatetmp-maybe', T + 'PrivateTmp=maybe\n', None),
    ('protectsystem-bogus', T + 'ProtectSystem=bogus\n', None),
    ('rootdir-rel', T + 'RootDirectory=relative\n', None),
    ('rootimage-spec', T + 'RootImage=%Z\n', None),
    ('selinux-spec', T + 'SELinuxContext=%Z\n', None),
    ('selinux-dash-spec', T + 'SELinuxContext=-%Z\n', None),
    ('unknown-key', T + 'Frobnicate=1\n', None),
    ('x-key', T + 'X-Vendor=1\n', None),
    # Parser corner cases.
    ('lone-cr', T + 'User=bin\rGroup=a:b\n', None),
    ('nul', T + 'User=bin\0Group=a:b\n', None),
    ('comment-in-continuation', '[Service]\nType=oneshot\nExecStart=/bin/true\nEnvironment=A=1 \\\n# c\nUser=a:b\n', None),
    ('blank-ends-continuation', '[Service]\nType=oneshot\nEnvironment=A=1 \\\n\nExecStart=/bin/true\n', None),
    ('hash-is-data', T + 'User=bin # x\n', None),
    ('bad-section-header', T + '[Install] # c\n', None),
    ('invalid-utf8', '[Unit]\nDescription=caf\xe9\n' + T, None),
    ('noncharacter', '[Unit]\nDescription=\ufffe\n' + T, None),
    ('unknown-section', T + '[Servise]\nUser=x\n', None),
    ('outside-section', 'User=root\n' + T, None),
    ('missing-equals', T + 'foo\n', None),
    # The 1 MiB limits, at the boundary: a physical line of 1048575 bytes
    # loads, 1048576 fails the file; a joined line may be 1048576 bytes.
    ('line-1048575', '[Unit]\nDescription=' + 'a' * (1048575 - 12) + '\n' + T, None),
    ('line-1048576', '[Unit]\nDescription=' + 'a' * (1048576 - 12) + '\n' + T, None),
    ('joined-1048576', '[Unit]\nDescription=x\\\n' + 'b' * (1048576 - 14) + '\n' + T, None),
    ('joined-1048577', '[Unit]\nDescription=x\\\n' + 'b' * (1048577 - 14) + '\n' + T, None),
    # Drop-ins: fatal errors there are not fatal for systemd.
    ('dropin-user-colon', T, '[Service]\nUser=a:b\n'),
    ('dropin-bad-header', T, '[Service\nUser=x\n'),
]


def systemd_outcome(out, name):
    if re.search(r'fatal error|bad unit file setting|failed to load|Failed to load', out):
        return 'refused', None
    m = re.search(re.escape(name) + r'\.service(?:\.d/[^:]*)?:(\d+):', out)
    if m:
        return 'warned', int(m.group(1))
    return 'clean', None


def unitguard_outcome(rc, err):
    if rc == 1:
        return 'refused', None
    m = re.search(r':(\d+): (warning|error): ', err)
    if m:
        return 'warned', int(m.group(1))
    return 'clean', None


def main():
    exe = os.path.abspath(sys.argv[1])
    analyze = shutil.which('systemd-analyze')
    if not analyze:
        print('systemd-analyze not installed; skipping')
        sys.exit(77)
    version = subprocess.run([analyze, '--version'], capture_output=True, text=True).stdout
    if not version.startswith('systemd 252'):
        print(f'systemd-analyze is not 252 ({version.split(chr(10))[0]}); skipping')
        sys.exit(77)

    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, dropin in CASES:
            d = os.path.join(tmp, name)
            os.mkdir(d)
            unit = os.path.join(d, f'{name}.service')
            with open(unit, 'wb') as f:
                f.write(text.encode('utf-8', 'surrogateescape') if isinstance(text, str) else text)
            if 'invalid-utf8' in name:
                with open(unit, 'wb') as f:
                    f.write(text.encode('latin-1'))
            args = [unit]
            if dropin is not None:
                os.mkdir(unit + '.d')
                with open(os.path.join(unit + '.d', '10-x.conf'), 'w') as f:
                    f.write(dropin)
                args = [d]
            r = subprocess.run([analyze, 'verify', '--man=no', '--recursive-errors=no', unit],
                               capture_output=True, text=True, errors='replace', timeout=60)
            sysd = systemd_outcome(r.stdout + r.stderr, name)
            u = subprocess.run([exe, 'filter', '--policy', 'systemd-252'] + args, capture_output=True,
                               text=True, errors='replace', timeout=60)
            ours = unitguard_outcome(u.returncode, u.stderr)
            agree = sysd[0] == ours[0] and (sysd[1] is None or ours[1] is None or sysd[1] == ours[1])
            print(f'{"ok" if agree else "FAIL"} {name}: systemd {sysd}, unitguard {ours}')
            if not agree:
                failures += 1
                print('    systemd: ' + (r.stdout + r.stderr).strip().replace('\n', '\n             '))
                print('    unitguard: ' + u.stderr.strip().replace('\n', '\n               '))
    sys.exit(1 if failures else 0)


main()
