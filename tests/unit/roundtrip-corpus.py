#!/usr/bin/env python3
"""Every unit file and drop-in of the Debian corpus passes through
`unitguard filter` byte for byte: one by one, as one systemctl-cat stream
(without a cat.merged-header warning), and as the directory tree (whose
framed output, read back as a stream, comes out unchanged again). The JSON
view of the whole stream parses.

Usage: roundtrip-corpus.py UNITGUARD CORPUS_DIR MAKE_STREAM_SCRIPT"""
import json
import os
import subprocess
import sys

SUFFIXES = ('.service', '.socket', '.target', '.mount', '.automount', '.swap', '.timer',
            '.path', '.slice', '.scope', '.device')


def main():
    exe, corpus, make_stream = sys.argv[1:4]
    if not os.path.isdir(corpus):
        print(f'corpus not found at {corpus}; CI always has it, so this fails')
        sys.exit(1)
    failures = 0
    files = []
    for root, dirs, names in os.walk(corpus):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(root, n)
            if os.path.islink(p):
                continue
            if n.endswith(SUFFIXES) or (n.endswith('.conf') and root.endswith('.d')):
                files.append(p)
    assert len(files) > 500, f'only {len(files)} corpus files found'

    for p in files:
        data = open(p, 'rb').read()
        r = subprocess.run([exe, 'filter', '--no-policy', p], capture_output=True, timeout=30)
        if r.stdout != data or r.returncode not in (0, 1):
            failures += 1
            print(f'FAIL one-by-one {p}: rc={r.returncode} {len(r.stdout)} vs {len(data)} bytes')
    print(f'one by one: {len(files)} files, {failures} failures')

    made = subprocess.run([sys.executable, make_stream, corpus], capture_output=True, check=True)
    stream, n_files = made.stdout, int(made.stderr.split()[0])
    r = subprocess.run([exe, 'filter', '--no-policy'], input=stream, capture_output=True, timeout=60)
    if r.stdout != stream or r.returncode != 0:
        failures += 1
        print(f'FAIL stream: rc={r.returncode}, {len(r.stdout)} vs {len(stream)} bytes')
    else:
        print(f'stream: {len(stream)} bytes identical')
    # Written like systemctl cat: every file ends with a newline, so no two
    # files can have merged, and a comment is no header.
    merged = [l for l in r.stderr.splitlines() if l.endswith(b'(cat.merged-header)')]
    if merged:
        failures += 1
        print(f'FAIL stream: {len(merged)} cat.merged-header warnings, first: {merged[0][:200]!r}')

    r = subprocess.run([exe, 'filter', '--no-policy', '--format', 'json'], input=stream, capture_output=True, timeout=60)
    lines = r.stdout.splitlines()
    for line in lines:
        json.loads(line)
    if len(lines) != n_files:
        failures += 1
        print(f'FAIL json: {len(lines)} objects for {n_files} files')
    else:
        print(f'json: {len(lines)} objects parse')

    tree = subprocess.run([exe, 'filter', '--no-policy', corpus], capture_output=True, timeout=60)
    again = subprocess.run([exe, 'filter', '--no-policy'], input=tree.stdout, capture_output=True, timeout=60)
    if tree.returncode != 0 or again.stdout != tree.stdout:
        failures += 1
        print(f'FAIL tree: rc={tree.returncode}, re-read differs: {again.stdout != tree.stdout}')
    else:
        print(f'tree: {tree.stdout.count(b"# /")} files framed, re-read identical')
    sys.exit(1 if failures else 0)


main()
