#!/usr/bin/env python3
"""The verdicts on the whole Debian corpus under every shipped policy, kept
as a golden file: one line per unit and policy with the verdict, systemd's predicted
load state (and 'root' when it would run as root), and the rules of its
warnings and errors. Any change in what unitguard decides
about real units shows up as a diff.

The corpus is judged in a scratch copy with its symlinks rebuilt from
SYMLINKS.tsv (tests/tools/corpus-root.py), so the result is the same
whether the links arrive as links or as small files holding the target.

Usage: corpus-verdicts.py UNITGUARD CORPUS_DIR GOLDEN_FILE [--update]"""
import collections
import json
import os
import subprocess
import sys
import tempfile

LAYOUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools', 'corpus-root.py')

POLICIES = ['default', 'posix', 'debian', 'hardened', 'strict', 'systemd-233', 'systemd-234', 'systemd-252']


def verdicts(exe, corpus, policy):
    r = subprocess.run([exe, 'filter', '--policy', policy, '--format', 'json', corpus],
                       capture_output=True, timeout=300)
    if r.returncode not in (0, 1):
        raise SystemExit(f'{policy}: exit {r.returncode}: {r.stderr[-500:]!r}')
    units = collections.OrderedDict()
    for line in r.stdout.splitlines():
        obj = json.loads(line)
        # A unit is its directory and name; drop-ins live one level down.
        d = os.path.dirname(os.path.relpath(obj['path'], corpus))
        unit = os.path.join(os.path.dirname(d) if obj['dropin'] else d, obj['unit'] or '?')
        entry = units.setdefault(unit, [obj['verdict'], set()])
        if 'systemd' in obj:
            sd = obj['systemd']
            entry[0] = f"{obj['verdict']}\t{sd['load_state']}{' root' if sd['runs_as_root'] else ''}"
        for d in obj['diagnostics'] + obj['unit_diagnostics']:
            if d['severity'] in ('error', 'warning'):
                entry[1].add(d['rule'])
    return units


def main():
    exe, corpus, golden = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    if not os.path.isdir(corpus):
        print(f'corpus not found at {corpus} (CI always has it)')
        sys.exit(1)
    lines = []
    with tempfile.TemporaryDirectory(prefix='ug-corpus-') as tmp:
        subprocess.run([sys.executable, LAYOUT, corpus, os.path.join(tmp, 'debian'), '--per-package'], check=True)
        for policy in POLICIES:
            for unit, (verdict, rules) in verdicts(exe, tmp, policy).items():
                lines.append(f'{policy}\t{unit}\t{verdict}\t{" ".join(sorted(rules))}'.rstrip())
    text = '\n'.join(lines) + '\n'
    if '--update' in sys.argv:
        with open(golden, 'w') as f:
            f.write(text)
        return
    want = open(golden).read()
    if want != text:
        import difflib
        sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                                   'expected', 'got', n=0))
        sys.exit(1)
    counts = collections.Counter((l.split('\t')[0], l.split('\t')[2]) for l in lines)
    for policy in POLICIES:
        print(policy, {v: counts[(policy, v)] for v in ('accepted', 'changed', 'rejected')})


main()
