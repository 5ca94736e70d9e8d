#!/usr/bin/env python3
"""Writes a `systemctl cat`-style stream of the unit files under the given
directories (or of the given files) to stdout.

Like systemctl cat: each unit file is introduced by "# PATH", followed by its
drop-ins (NAME.d/*.conf, in file-name order), a blank line before every header
but the first, and every file ends with a newline. Symlinks are skipped, and
so are the files listed in a SYMLINKS.tsv found in a directory given or in
one above it (a corpus copied without its symlinks carries each one as a
small file holding the link target, such as "/dev/null": read as a unit,
that is one line outside any section, not a unit systemctl cat would show).
--repeat N writes the whole set N times (for benchmarks). The number of
files written goes to stderr."""
import os
import sys

UNIT_SUFFIXES = ('.service', '.socket', '.target', '.device', '.mount', '.automount',
                 '.swap', '.timer', '.path', '.slice', '.scope')


def stored_links(top):
    """Absolute paths of the symlinks a SYMLINKS.tsv (path<TAB>target, paths
    relative to its directory) in top or above it lists."""
    d = os.path.abspath(top)
    while True:
        tsv = os.path.join(d, 'SYMLINKS.tsv')
        if os.path.isfile(tsv):
            with open(tsv) as f:
                next(f, None)
                return {os.path.join(d, line.split('\t', 1)[0]) for line in f if '\t' in line}
        parent = os.path.dirname(d)
        if parent == d:
            return set()
        d = parent


def units(paths):
    for top in paths:
        if os.path.isfile(top):
            yield os.path.abspath(top), []
            continue
        links = stored_links(top)

        def is_link(path):
            return os.path.islink(path) or os.path.abspath(path) in links

        for root, dirs, files in os.walk(top):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                if not name.endswith(UNIT_SUFFIXES) or is_link(path):
                    continue
                dropdir = path + '.d'
                dropins = []
                if os.path.isdir(dropdir):
                    dropins = [os.path.join(dropdir, d) for d in sorted(os.listdir(dropdir))
                               if d.endswith('.conf') and not is_link(os.path.join(dropdir, d))]
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
