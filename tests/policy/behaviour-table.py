#!/usr/bin/env python3
"""The required-behaviour table of the policy issue, one row per case, one
column per shipped policy (default, posix, systemd-233, systemd-252).

Each cell says what must happen: the exit status, whether the unit comes
out unchanged, changed (a line gone or rewritten) or not at all, and a
pattern the diagnostics must contain.

Usage: behaviour-table.py UNITGUARD"""
import os
import re
import subprocess
import sys

SVC = '[Unit]\nDescription=t\n\n[Service]\nType=oneshot\nExecStart=/bin/true\n'

# Outcomes: ('same'|'rejected'|'changed', rc, stderr-regex, [line that must be absent], [line that must be present])
def same(rx=None):
    return ('same', 0, rx, [], [])


def rejected(rx):
    return ('rejected', 1, rx, [], [])


def changed(rx, absent=(), present=()):
    return ('changed', 0, rx, list(absent), list(present))


ROOT = r'names User=, but systemd \d+ would run it as root'

ROWS = [
    ('User=0day', 'u.service', [(SVC + 'User=0day\n', None)], {
        'default': rejected(r"User '0day' breaks the policy's user-name rule.*\(default:invalid\.User\)"),
        'posix': same(),
        'systemd-233': changed(ROOT, absent=['User=0day']),
        'systemd-252': same(r'note: .*0day'),
    }),
    # A valid ExecStart= stays, so that dropping the bad line leaves a unit
    # systemd loads (with none at all, every version refuses the service).
    ('ExecStart=bin/true', 'u.service', [('[Service]\nType=oneshot\nExecStart=/bin/true\nExecStart=bin/true\n', None)], {
        'default': rejected(r'\(default:invalid\.ExecStart\)'),
        'posix': rejected(r'\(posix:invalid\.ExecStart\)'),
        'systemd-233': changed(r'systemd 233 ignores the line', absent=['ExecStart=bin/true']),
        'systemd-252': rejected(r'\(systemd-252:mirror\)'),
    }),
    ('ExecStart=-bin/true', 'u.service', [('[Service]\nType=oneshot\nExecStart=/bin/true\nExecStart=-bin/true\n', None)], {
        'default': changed(r'warning: .*line removed.*\(default:dash-prefix\)', absent=['ExecStart=-bin/true']),
        'posix': changed(r'warning: .*\(posix:dash-prefix\)', absent=['ExecStart=-bin/true']),
        'systemd-233': changed(r'warning: ', absent=['ExecStart=-bin/true']),
        'systemd-252': changed(r'warning: ', absent=['ExecStart=-bin/true']),
    }),
    ('WorkingDirectory=-relative', 'u.service', [(SVC + 'WorkingDirectory=-relative\n', None)], {
        'default': changed(r'warning: .*\(default:dash-prefix\)', absent=['WorkingDirectory=-relative']),
        'posix': changed(r'warning: ', absent=['WorkingDirectory=-relative']),
        'systemd-233': changed(r'warning: ', absent=['WorkingDirectory=-relative']),
        'systemd-252': changed(r'warning: ', absent=['WorkingDirectory=-relative']),
    }),
    ('DynamicUser=maybe', 'u.service', [(SVC + 'DynamicUser=maybe\n', None)], {
        'default': rejected(r'\(default:invalid\.DynamicUser\)'),
        'posix': rejected(r'\(posix:invalid\.DynamicUser\)'),
        'systemd-233': changed(r'warning: ', absent=['DynamicUser=maybe']),
        'systemd-252': rejected(r'\(systemd-252:mirror\)'),
    }),
    ('PrivateTmp=maybe', 'u.service', [(SVC + 'PrivateTmp=maybe\n', None)], {
        'default': changed(r'warning: .*\(default:invalid\.PrivateTmp\)', absent=['PrivateTmp=maybe']),
        'posix': changed(r'warning: ', absent=['PrivateTmp=maybe']),
        'systemd-233': changed(r'warning: ', absent=['PrivateTmp=maybe']),
        'systemd-252': changed(r'warning: ', absent=['PrivateTmp=maybe']),
    }),
    ('[Socket] Service=foo.socket', 'u.socket', [('[Socket]\nListenStream=/run/u.sock\nService=foo.socket\n', None)], {
        'default': rejected(r'\(default:invalid\.Service\)'),
        'posix': rejected(r'\(posix:invalid\.Service\)'),
        'systemd-233': changed(r'warning: ', absent=['Service=foo.socket']),
        'systemd-252': changed(r'warning: ', absent=['Service=foo.socket']),
    }),
    ('SupplementaryGroups=wheel 0bad', 'u.service', [(SVC + 'SupplementaryGroups=wheel 0bad\n', None)], {
        'default': rejected(r"SupplementaryGroups '0bad'.*\(default:invalid\.SupplementaryGroups\)"),
        'posix': same(),
        'systemd-233': changed(r'warning: .*0bad', absent=['SupplementaryGroups=wheel 0bad'],
                               present=['SupplementaryGroups=wheel']),
        'systemd-252': same(r'note: .*0bad'),
    }),
    ('drop-in with User=a:b', 'u.service', [(SVC, None), ('[Service]\nUser=a:b\nNice=5\n', 'u.service.d/10-user.conf')], {
        'default': rejected(r'10-user\.conf:2: error: .*\(default:invalid\.User\)'),
        'posix': rejected(r'10-user\.conf:2: error: .*\(posix:invalid\.User\)'),
        'systemd-233': changed(ROOT, absent=['User=a:b']),
        'systemd-252': changed(r'skips the rest of this drop-in(.|\n)*' + ROOT, absent=['User=a:b', 'Nice=5']),
    }),
    ('User= (empty) after User=app', 'u.service', [(SVC + 'User=app\nUser=\n', None)], {
        'default': rejected(r'Empty User= resets it.*\(default:user-names\.empty-user\)'),
        'posix': rejected(r'\(posix:user-names\.empty-user\)'),
        'systemd-233': same(ROOT),
        'systemd-252': same(ROOT),
    }),
    ('User=%i in a template', 'u@.service', [(SVC + 'User=%i\n', None)], {
        'default': same(r'note: .*instance.*\(default:deferred\)'),
        'posix': same(r'\(posix:deferred\)'),
        'systemd-233': same(r'\(systemd-233:deferred\)'),
        'systemd-252': same(r'\(systemd-252:deferred\)'),
    }),
    ('User=%i, instance 0day', 'u@0day.service', [(SVC + 'User=%i\n', None)], {
        'default': rejected(r"\(default:invalid\.User\)"),
        'posix': same(),
        'systemd-233': changed(ROOT, absent=['User=%i']),
        'systemd-252': same(r'note: '),
    }),
]


def stream(name, files):
    """A systemctl-cat stream of the unit and its drop-ins."""
    out = []
    for text, dropin in files:
        path = f'/etc/systemd/system/{dropin or name}'
        out.append(f'# {path}\n{text}')
    return '\n'.join(out)


def main():
    exe = os.path.abspath(sys.argv[1])
    failures = 0
    for label, name, files, cells in ROWS:
        data = stream(name, files).encode()
        for policy, (kind, rc, rx, absent, present) in cells.items():
            p = subprocess.run([exe, 'filter', '--policy', policy], input=data, capture_output=True, timeout=30)
            out, err = p.stdout.decode(), p.stderr.decode()
            problems = []
            if p.returncode != rc:
                problems.append(f'exit {p.returncode}, want {rc}')
            if kind == 'same' and p.stdout != data:
                problems.append('output differs from input')
            if kind == 'rejected' and p.stdout != b'':
                problems.append('rejected unit was written')
            if kind == 'changed' and p.stdout == data:
                problems.append('output unchanged')
            for line in absent:
                if line in out.splitlines():
                    problems.append(f'line {line!r} still there')
            for line in present:
                if line not in out.splitlines():
                    problems.append(f'line {line!r} missing')
            if rx and not re.search(rx, err):
                problems.append(f'stderr does not match {rx!r}')
            status = 'ok' if not problems else 'FAIL'
            print(f'{status} {label} / {policy}' + ('' if not problems else ': ' + '; '.join(problems)))
            if problems:
                print('    stderr: ' + err.replace('\n', '\n            '))
                failures += 1
    sys.exit(1 if failures else 0)


main()
