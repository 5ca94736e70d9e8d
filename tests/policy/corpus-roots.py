#!/usr/bin/env python3
"""The shared corpus as DESTDIR roots, checked with `check --root`.

Lays ../shared/corpus out as real roots (tests/tools/corpus-root.py rebuilds
the symlinks listed in SYMLINKS.tsv, whether the corpus carries them as
links or as small files holding the target): one root with every package,
checked under every shipped policy (one line per unit: policy, unit,
verdict, systemd's load state and whether it would run as root), and one
root per package, checked under the default policy (its summary line).
The whole output is compared with the golden file.

Usage: corpus-roots.py UNITGUARD CORPUS_DIR GOLDEN [--update]
The corpus is required: CI always has it, so a missing corpus fails.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LAYOUT = os.path.join(HERE, '..', 'tools', 'corpus-root.py')


def policies(exe):
    out = subprocess.run([exe, 'policy', 'list'], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def main():
    exe, corpus, golden = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    if not os.path.isdir(os.path.join(corpus, 'debian')):
        print('corpus not found at %s (CI always has it)' % corpus)
        return 1
    lines = []
    with tempfile.TemporaryDirectory(prefix='ug-corpus-roots-') as tmp:
        all_root = os.path.join(tmp, 'all')
        per_pkg = os.path.join(tmp, 'pkg')
        subprocess.run([sys.executable, LAYOUT, corpus, all_root], check=True)
        subprocess.run([sys.executable, LAYOUT, corpus, per_pkg, '--per-package'], check=True)
        for policy in policies(exe):
            p = subprocess.run([exe, 'check', '--root', all_root, '--policy', policy, '--format', 'json'],
                               capture_output=True, text=True)
            doc = json.loads(p.stdout)
            s = doc['summary']
            lines.append('%s\tALL\texit %d\t%d units, %d rejected, %d changed, %d masked' % (
                policy, p.returncode, s['units'], s['rejected'], s['changed'], s['masked']))
            for u in doc['units']:
                sd = u['systemd'] or {}
                lines.append('%s\t%s\t%s\t%s%s' % (policy, u['id'], u['verdict'], sd.get('load_state', '-'),
                                                   ' root' if sd.get('runs_as_root') else ''))
        for pkg in sorted(os.listdir(per_pkg)):
            p = subprocess.run([exe, 'check', '--root', os.path.join(per_pkg, pkg)], capture_output=True, text=True)
            summary = p.stdout.splitlines()[-1] if p.stdout else ''
            lines.append('default\t%s\texit %d\t%s' % (pkg, p.returncode, summary.split(': ', 1)[-1]))
    text = '\n'.join(lines) + '\n'
    if '--update' in sys.argv:
        open(golden, 'w').write(text)
        return 0
    want = open(golden).read()
    if want != text:
        import difflib
        sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), text.splitlines(True), 'expected', 'got'))
        return 1
    print('%d lines as expected' % len(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
