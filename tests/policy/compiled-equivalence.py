#!/usr/bin/env python3
"""Shipped policies are compiled into the binaries at build time
(policies/policy-compile); the YAML loader stays for policy files. The two
must be the same policy. For every shipped policy:
- `policy show NAME` (the compiled form) is the `policy show` of the policy
  loaded from YAML, extends: chain included (policy-compile --show NAME);
- `filter` over the whole corpus gives the same output, units and JSON,
  stdout and stderr, with --policy NAME and with --policy policies/NAME.yaml
  (the file through the YAML loader).

Usage: compiled-equivalence.py UNITGUARD POLICY_COMPILE POLICIES_DIR CORPUS_DIR"""
import os
import subprocess
import sys
import tempfile

LAYOUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools', 'corpus-root.py')


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, timeout=300)
    return r.returncode, r.stdout, r.stderr


def main():
    exe, compiler, policies, corpus = sys.argv[1:5]
    names = [line.split()[0] for line in run([exe, 'policy', 'list'])[1].decode().splitlines()]
    if len(names) != len([f for f in os.listdir(policies) if f.endswith('.yaml')]):
        sys.exit(f'policy list names {names}, the policies directory holds other files')
    failures = 0
    with tempfile.TemporaryDirectory(prefix='ug-compiled-') as tmp:
        root = os.path.join(tmp, 'debian')
        subprocess.run([sys.executable, LAYOUT, corpus, root, '--per-package'], check=True)
        for name in names:
            before = failures
            compiled = run([exe, 'policy', 'show', name])
            yaml = run([compiler, '--show', name])
            if compiled != yaml:
                print(f'{name}: policy show differs:\ncompiled: {compiled}\nyaml: {yaml}')
                failures += 1
            path = os.path.join(policies, name + '.yaml')
            for fmt in ('unit', 'json'):
                a = run([exe, 'filter', '--policy', name, '--format', fmt, tmp])
                b = run([exe, 'filter', '--policy', path, '--format', fmt, tmp])
                if a != b:
                    print(f'{name}: filter --format {fmt} differs between the compiled policy and {path} '
                          f'(exit {a[0]} / {b[0]}, stdout {len(a[1])} / {len(b[1])} bytes, '
                          f'stderr {len(a[2])} / {len(b[2])} bytes)')
                    failures += 1
                elif a[0] not in (0, 1) or not a[1]:
                    print(f'{name}: filter --format {fmt}: exit {a[0]}, {len(a[1])} bytes: {a[2][-300:]!r}')
                    failures += 1
            if failures == before:
                print(f'{name}: same')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
