#!/usr/bin/env python3
"""The 64 MiB file cap in a `systemctl cat` stream, through the whole
filter, read from a regular file and from a pipe: one rule for both.

A drop-in over the cap makes the input unreadable (exit 3), and the unit
it belongs to is not written at all -- not even its fragment, which was
read completely before the drop-in. A unit before it that is complete
still comes out; nothing after it does (the stream ends there). The
diagnostic names the drop-in. The same holds for a unit file over the cap.
(The exact boundary, 64 MiB passes and one byte more does not, is tested
with small caps in test-cat-stream.c and at 64 MiB in fuzz/test-limits.c.)

Usage: stream-limits.py UNITGUARD"""
import os
import subprocess
import sys
import tempfile

CAP = 64 * 1024 * 1024
LINE = b'#' * 63 + b'\n'

Z = b'# /etc/systemd/system/z.service\n[Service]\nExecStart=/bin/true\n'
A = b'\n# /etc/systemd/system/a.service\n[Service]\nExecStart=/bin/true\n'
DROPIN = b'/etc/systemd/system/a.service.d/10-user.conf'
B = b'\n# /etc/systemd/system/b.service\n[Service]\nExecStart=/bin/true\n'


def oversized(head):
    """head, then comment lines: one byte over the cap in all, ending in a newline."""
    full, rest = divmod(CAP + 1 - len(head), len(LINE))
    if rest == 1:
        full, rest = full - 1, rest + len(LINE)
    return head + LINE * full + (b'#' * (rest - 1) + b'\n' if rest else b'')


def run(exe, path, via_pipe):
    with open(path, 'rb') as f:
        if not via_pipe:
            return subprocess.run([exe, 'filter'], stdin=f, capture_output=True, timeout=300)
        cat = subprocess.Popen(['cat'], stdin=f, stdout=subprocess.PIPE)
        r = subprocess.run([exe, 'filter'], stdin=cat.stdout, capture_output=True, timeout=300)
        cat.stdout.close()
        cat.wait()
        return r


def main():
    exe = os.path.abspath(sys.argv[1])
    failures = 0
    content = oversized(b'[Service]\nUser=app\nProtectSystem=strict\n')
    assert len(content) == CAP + 1 and content.endswith(b'\n')
    cases = {
        # The drop-in that sets User= is too large: a.service must not pass
        # without it. Far over the cap, so that it is read in large chunks
        # from a file and in 64 KiB ones from a pipe.
        'drop-in 1 MiB over the cap': (Z + A + b'\n# ' + DROPIN + b'\n' + content + LINE * 16384 + B,
                                       DROPIN, b'/etc/systemd/system/a.service: error: unit rejected'),
        # A unit file one byte over the cap: nothing of it is written.
        'unit file over the cap': (Z + b'\n# /etc/systemd/system/a.service\n' + content + B,
                                   b'/etc/systemd/system/a.service', None),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name, (stream, bad_path, extra) in cases.items():
            path = os.path.join(tmp, 'stream')
            with open(path, 'wb') as f:
                f.write(stream)
            outcomes = []
            for via_pipe in (False, True):
                how = 'pipe' if via_pipe else 'file'
                r = run(exe, path, via_pipe)
                err = r.stderr.decode('utf-8', 'replace')
                problems = []
                if r.returncode != 3:
                    problems.append(f'exit {r.returncode}, not 3')
                if r.stdout != Z:
                    problems.append(f'stdout is {len(r.stdout)} bytes, not just z.service ({r.stdout[:120]!r})')
                if (bad_path + b': error: ') not in r.stderr or b'larger than 64 MiB' not in r.stderr:
                    problems.append(f'no error naming {bad_path.decode()}: {err[:300]!r}')
                if extra and extra not in r.stderr:
                    problems.append(f'no {extra.decode()!r}')
                if b'b.service' in r.stdout:
                    problems.append('b.service written after the unreadable file')
                outcomes.append((r.returncode, r.stdout, r.stderr))
                print(f'{"FAIL" if problems else "ok"} {name}, from a {how}: ' + '; '.join(problems))
                failures += bool(problems)
            if outcomes[0] != outcomes[1]:
                print(f'FAIL {name}: a file and a pipe give different results')
                failures += 1
    sys.exit(1 if failures else 0)


main()
