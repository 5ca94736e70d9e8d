#!/usr/bin/env python3
"""Writes a `systemctl cat`-style stream of the unit files under the given
directories (or of the given files) to stdout.

Like systemctl cat: each unit file is introduced by "# PATH", followed by its
drop-ins (NAME.d/*.conf, in file-name order), a blank line before every header
but the first, and every file ends with a newline. Symlinks are skipped.
--repeat N writes the whole set N times (for benchmarks). The number of
files written goes to stderr."""
import os
import sys

UNIT_SUFFIXES = ('.service', '.socket', '.target', '.device', '.mount', '.automount',
                 '.swap', '.timer', '.path', '.slice', '.scope')


def units(paths):
    for top in paths:
        if os.path.isfile(top):
            yield os.path.abspath(top), []
            continue
        for root, dirs, files in os.walk(top):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                if not name.endswith(UNIT_SUFFIXES) or os.path.islink(path):
                    continue
                dropdir = path + '.d'
                dropins = []
                if os.path.isdir(dropdir):
                    dropins = [os.path.join(dropdir, d) for d in sorted(os.listdir(dropdir))
                               if d.endswith('.conf') and not os.path.islink(os.path.join(dropdir, d))]
                yield os.path.abspath(path), [os.path.abspath(d) for d in dropins]


def main():
    args = sys.argv[1:]
    repeat = 1
    if args[:1] == ['--repeat']:
        repeat = int(args[1])
        args = args[2:]
    out = sys.stdout.buffer
    collected = list(units(args))
    first = True
    count = 0
    for _ in range(repeat):
        for unit, dropins in collected:
            for path in [unit] + dropins:
                with open(path, 'rb') as f:
                    data = f.read()
                if not data.endswith(b'\n'):
                    data += b'\n'
                out.write((b'' if first else b'\n') + b'# ' + path.encode() + b'\n' + data)
                first = False
                count += 1
    sys.stderr.write(f'{count} files {len(collected) * repeat} units\n')


main()
