#!/usr/bin/env python3
"""Every unit file of the shared Debian corpus round-trips byte for byte
through `unitguard filter --policy systemd-252`: the mirror policy changes
only what systemd 252 itself would ignore, and real Debian units have none
of that (an empty Requires= or After=, for one, is a silent no-op in 252,
not a line to remove).

The corpus is laid out with its symlinks rebuilt (tests/tools/corpus-root.py);
symlinked units are the files they point to and are skipped.

Usage: corpus-roundtrip.py UNITGUARD CORPUS_DIR"""
import os
import subprocess
import sys
import tempfile

LAYOUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools', 'corpus-root.py')
SUFFIXES = ('.service', '.socket', '.timer', '.path', '.mount', '.automount', '.swap', '.target', '.slice')


def main():
    exe, corpus = os.path.abspath(sys.argv[1]), sys.argv[2]
    if not os.path.isdir(corpus):
        print(f'{corpus}: no corpus; skipping')
        sys.exit(77)
    failures = count = 0
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, LAYOUT, corpus, tmp], check=True, capture_output=True)
        for dirpath, _, files in os.walk(tmp):
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                if not name.endswith(SUFFIXES) or os.path.islink(path):
                    continue
                count += 1
                data = open(path, 'rb').read()
                r = subprocess.run([exe, 'filter', '--policy', 'systemd-252', path], capture_output=True,
                                   timeout=60)
                if r.returncode != 0 or r.stdout != data:
                    failures += 1
                    print(f'FAIL {os.path.relpath(path, tmp)}: exit {r.returncode}, output '
                          f'{"identical" if r.stdout == data else "differs"}')
                    print('    ' + r.stderr.decode(errors='replace').strip().replace('\n', '\n    '))
    print(f'{count - failures}/{count} corpus units round-trip byte for byte under systemd-252')
    sys.exit(1 if failures or not count else 0)


main()
