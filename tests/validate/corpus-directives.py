#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Lists every (unit type, section, key) used in the corpus unit files and
# drop-ins. With a checker program as second argument, feeds it the list
# ("type<TAB>section<TAB>key" per line) and passes on its exit status; the
# checker fails when a directive is missing from the table.
# Usage: corpus-directives.py CORPUS_DIR [CHECKER]
import os
import subprocess
import sys

TYPES = ('service', 'socket', 'timer', 'mount', 'path', 'slice', 'automount', 'target', 'swap')


def unit_type(dirpath, fname):
    ext = fname.rsplit('.', 1)[-1]
    if ext in TYPES:
        return ext
    if ext == 'conf' and dirpath.endswith('.d'):
        t = os.path.basename(dirpath)[:-2].rsplit('.', 1)[-1]
        if t in TYPES:
            return t
    return None


def collect(root):
    found = set()
    for dirpath, _, files in os.walk(root):
        for fname in files:
            path = os.path.join(dirpath, fname)
            if os.path.islink(path):
                continue  # masks and aliases; never follow them
            t = unit_type(dirpath, fname)
            if not t:
                continue
            section = None
            with open(path, encoding='utf-8', errors='replace') as f:
                for line in f:
                    s = line.strip()
                    if not s or s[0] in '#;':
                        continue
                    if s.startswith('[') and s.endswith(']'):
                        section = s[1:-1]
                    elif '=' in s and section and not section.startswith('X-'):
                        key = s.split('=', 1)[0].strip()
                        if not key.startswith('X-'):
                            found.add((t, section, key))
    return sorted(found)


def main():
    if not os.path.isdir(sys.argv[1]):
        print('corpus not found, CI always has it, so this fails')
        sys.exit(1)
    rows = collect(sys.argv[1])
    text = ''.join('\t'.join(r) + '\n' for r in rows)
    if len(sys.argv) < 3:
        sys.stdout.write(text)
        return
    p = subprocess.run([sys.argv[2]], input=text, text=True)
    print(f'{len(rows)} corpus directives checked')
    sys.exit(p.returncode)


main()
