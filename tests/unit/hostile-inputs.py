#!/usr/bin/env python3
"""Hostile input for `unitguard filter`: every case must end with its
documented exit code and expected diagnostic, within a time limit, without
a crash, and with either the exact input or nothing on stdout. The JSON
view of every case must parse.

Usage: hostile-inputs.py UNITGUARD"""
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile

rng = random.Random(20261203)
garbage = bytes(rng.randrange(256) for _ in range(200000))

# name: (content, expected rc, regex the stderr must match or None for empty)
CASES = {
    'garbage.service': (garbage, 1, r'garbage\.service:\d+: error: .*\(syntax\.(invalid-utf8|invalid-section-header|bad-section-name|line-too-long)\)'),
    'nul-only.service': (b'\0' * 5000, 0, r'nul-only\.service:1: warning: NUL byte.*\n(.*\n){99}.*note: 4900 further diagnostics'),
    'huge-line.service': (b'[Service]\nEnvironment=' + b'x' * (2 * 1024 * 1024) + b'\nUser=root\n', 1,
                          r'huge-line\.service:2: error: Line is 1 MiB or longer'),
    'invalid-utf8.service': (b'[Unit]\nDescription=\xc3\x28\n', 1, r'invalid-utf8\.service:2: error: Line is not valid UTF-8'),
    'truncated-continuation.service': (b'[Service]\nExecStart=/bin/echo \\', 0,
                                       r'truncated-continuation\.service:2: note: Continuation still open'),
    'empty.service': (b'', 0, r'empty\.service: note: Empty unit file: systemd treats the unit as masked'),
    'only-cr.service': (b'\r' * 300, 0, r'only-cr\.service:1: warning: Carriage return'),
    'deep-continuation.service': (b'[Service]\nEnvironment=' + b'a \\\n' * 200000 + b'b\n', 0, None),
    'many-keys.service': (b'[Service]\n' + b''.join(b'Environment=K%d=v\n' % i for i in range(100000)), 0, None),
    'header-junk.service': (b'[\xff\xfe]\n', 1, r'header-junk\.service:1: error: Line is not valid UTF-8'),
    'bad-header.service': (b'[Unit]\n[Service\n', 1, r'bad-header\.service:2: error: Invalid section header'),
}


def main():
    exe = os.path.abspath(sys.argv[1])
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (content, want_rc, want_err) in CASES.items():
            path = os.path.join(tmp, name)
            with open(path, 'wb') as f:
                f.write(content)
            try:
                r = subprocess.run([exe, 'filter', '--no-policy', name], cwd=tmp, capture_output=True, timeout=20)
            except subprocess.TimeoutExpired:
                print(f'FAIL {name}: timed out')
                failures += 1
                continue
            ok = r.returncode == want_rc
            ok = ok and (r.stdout == content if want_rc == 0 else r.stdout == b'')
            err = r.stderr.decode('utf-8', 'replace')
            ok = ok and (re.search(want_err, err) is not None if want_err else err == '')
            # Every diagnostic is one line: PATH[:LINE]: severity: ...
            ok = ok and all(re.match(r'^[^:]+(:\d+)?: (error|warning|note): ', line) for line in err.splitlines())
            j = subprocess.run([exe, 'filter', '--no-policy', '--format', 'json', name], cwd=tmp, capture_output=True, timeout=20)
            try:
                objs = [json.loads(line) for line in j.stdout.splitlines()]
                ok = ok and len(objs) == 1 and j.returncode == want_rc
            except ValueError as e:
                print(f'  json: {e}')
                ok = False
            print(f'{"ok" if ok else "FAIL"} {name}: rc={r.returncode} stderr={err[:160]!r}')
            failures += not ok

        # Unreadable input: exit 3 with a one-line error.
        d = os.path.join(tmp, 'unreadable.service')
        os.mkdir(d + '.dir')
        r = subprocess.run([exe, 'filter', '--no-policy', 'nonexistent.service'], cwd=tmp, capture_output=True, timeout=20)
        ok = r.returncode == 3 and re.fullmatch(rb'nonexistent\.service: error: cannot open: .*\n', r.stderr)
        print(f'{"ok" if ok else "FAIL"} unreadable: rc={r.returncode}')
        failures += not ok

        # Output to a full disk: clear error, exit 3.
        with open('/dev/full', 'wb') as full:
            r = subprocess.run([exe, 'filter', '--no-policy', 'many-keys.service'], cwd=tmp, stdout=full,
                               stderr=subprocess.PIPE, timeout=20)
        ok = r.returncode == 3 and b'No space left on device' in r.stderr
        print(f'{"ok" if ok else "FAIL"} /dev/full: rc={r.returncode} {r.stderr[:100]!r}')
        failures += not ok

        # The drop-in cap, at the boundary: 4096 drop-ins pass, 4097 reject.
        for count, want in ((4096, 0), (4097, 1)):
            parts = [b'# /etc/systemd/system/d.service\n[Service]\nExecStart=/bin/true\n']
            parts += [b'\n# /etc/systemd/system/d.service.d/%05d.conf\n[Service]\nNice=1\n' % i for i in range(count)]
            stream = b''.join(parts)
            r = subprocess.run([exe, 'filter'], input=stream, capture_output=True, timeout=60)
            ok = r.returncode == want and (r.stdout == stream if want == 0 else
                                           b'(limit.dropins)' in r.stderr and r.stdout == b'')
            print(f'{"ok" if ok else "FAIL"} {count} drop-ins: rc={r.returncode} {r.stderr[-120:]!r}')
            failures += not ok

        # A reader that goes away: quiet, prompt exit, no signal death.
        big = os.path.join(tmp, 'big.txt')
        with open(big, 'wb') as f:
            for i in range(20000):
                f.write(b'%s# /etc/systemd/system/u%d.service\n[Service]\nExecStart=/bin/true\n' % (b'\n' if i else b'', i))
        p = subprocess.Popen([exe, 'filter'], stdin=open(big, 'rb'), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        p.stdout.readline()
        p.stdout.close()
        try:
            p.wait(timeout=20)
            err = p.stderr.read()
            ok = p.returncode >= 0 and err == b''
        except subprocess.TimeoutExpired:
            p.kill()
            ok = False
        print(f'{"ok" if ok else "FAIL"} closed pipe: rc={p.returncode}')
        failures += not ok
    sys.exit(1 if failures else 0)


main()
