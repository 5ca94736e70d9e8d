#!/usr/bin/env python3
"""SIGTERM, SIGINT or SIGHUP at a random moment while `unitguard filter`
writes a long stream into a pipe: what it wrote is always a sequence of
whole units -- the expected output cut at a unit boundary, every file
complete, the framing intact -- and the signal ends the program as a
signal does (no exit status of its own).

The reader stops reading after a random number of bytes, so that the
filter is usually blocked in the middle of a write when the signal comes;
then the signal is sent (after a random short pause, sometimes twice), and
the rest is drained. Random but seeded: a failure can be replayed.

Usage: stream-signals.py UNITGUARD [RUNS]"""
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

rng = random.Random(20260512)


def make_units():
    """Units of very different sizes, most with drop-ins."""
    units = []
    for i in range(80):
        parts = [b'%s# /etc/systemd/system/u%03d.service\n[Unit]\nDescription=unit %d\n[Service]\nExecStart=/bin/true\n'
                 % (b'\n' if i else b'', i, i)]
        # Some units are larger than a pipe's buffer and the filter's output buffer.
        lines = rng.choice((0, 3, 50, 400, 4000))
        parts.append(b''.join(b'Environment=K%d=%s\n' % (k, b'v' * rng.randrange(1, 60)) for k in range(lines)))
        for d in range(rng.randrange(0, 3)):
            parts.append(b'\n# /etc/systemd/system/u%03d.service.d/%02d.conf\n[Service]\nNice=%d\n' % (i, d, d)
                         + b'# filler\n' * rng.choice((0, 10, 3000)))
        units.append(b''.join(parts))
    return units


def read_exactly(fd, n):
    got = bytearray()
    while len(got) < n:
        chunk = os.read(fd, min(65536, n - len(got)))
        if not chunk:
            break
        got += chunk
    return bytes(got)


def drain(fd):
    got = bytearray()
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            return bytes(got)
        got += chunk


def main():
    exe = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    units = make_units()
    stream = b''.join(units)
    boundaries = {0}
    pos = 0
    for u in units:
        pos += len(u)
        boundaries.add(pos)
    failures = 0
    killed = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'stream')
        with open(path, 'wb') as f:
            f.write(stream)
        ref = subprocess.run([exe, 'filter', '--no-policy'], stdin=open(path, 'rb'), capture_output=True, timeout=120)
        assert ref.returncode == 0 and ref.stdout == stream, 'the stream does not pass unchanged'

        for run in range(runs):
            sig = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)[run % 3]
            first = rng.randrange(0, len(stream) // 2)
            pause = rng.choice((0, 0.001, 0.005, 0.02))
            twice = rng.random() < 0.3
            with open(path, 'rb') as f:
                p = subprocess.Popen([exe, 'filter', '--no-policy'], stdin=f, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
            fd = p.stdout.fileno()
            out = read_exactly(fd, first)
            time.sleep(pause)
            p.send_signal(sig)
            if twice:
                p.send_signal(sig)
            out += drain(fd)
            p.stdout.close()
            rc = p.wait(timeout=120)
            problems = []
            if rc not in (-sig, 0):
                problems.append(f'exit status {rc}, not killed by {sig.name}')
            if not stream.startswith(out):
                problems.append('output is not what went in')
            elif len(out) not in boundaries:
                cut = len(out)
                problems.append(f'output ({cut} bytes) ends inside a unit: ...{out[-60:]!r}')
            killed += rc == -sig
            print(f'{"FAIL" if problems else "ok"} run {run}: {sig.name} after {first} bytes, '
                  f'{len(out)} bytes out, rc {rc}' + ('; ' + '; '.join(problems) if problems else ''))
            failures += bool(problems)
    if killed == 0:
        print('FAIL no run was ended by the signal')
        failures += 1
    sys.exit(1 if failures else 0)


main()
