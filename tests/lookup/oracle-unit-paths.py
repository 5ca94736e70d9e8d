#!/usr/bin/env python3
"""The search path unitguard models against systemd's own.

`unitguard units --paths [--user]` must list exactly the directories
`systemd-analyze [--user] unit-paths` prints, in the same order, leaving out
for the user manager the directories below $HOME and $XDG_RUNTIME_DIR (a root
has no user's home; unitguard does not model them). HOME and XDG_RUNTIME_DIR
point at scratch directories with recognisable names, and the XDG_* overrides
are unset, so that systemd prints its defaults.

Usage: oracle-unit-paths.py UNITGUARD
Exits 77 (skipped) when systemd-analyze is not installed.
"""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    exe = sys.argv[1]
    if shutil.which('systemd-analyze') is None:
        print('systemd-analyze not installed')
        return 77
    failed = 0
    with tempfile.TemporaryDirectory(prefix='ug-unit-paths-') as tmp:
        home = os.path.join(tmp, 'home')
        runtime = os.path.join(tmp, 'runtime')
        os.makedirs(home)
        os.makedirs(runtime, mode=0o700)
        env = {k: v for k, v in os.environ.items() if not k.startswith('XDG_') and not k.startswith('SYSTEMD_')}
        env.update(HOME=home, XDG_RUNTIME_DIR=runtime)
        for scope in ('--system', '--user'):
            theirs = subprocess.run(['systemd-analyze', scope, 'unit-paths'], env=env, capture_output=True,
                                    text=True, check=True).stdout.split()
            theirs = [d for d in theirs if not d.startswith(tmp)]
            ours = subprocess.run([exe, 'units', '--paths', scope], capture_output=True, text=True,
                                  check=True).stdout.split()
            if len(theirs) < 5:
                print('%s: systemd-analyze printed too little to compare: %r' % (scope, theirs))
                failed += 1
            elif ours != theirs:
                print('%s: search path differs\n  systemd-analyze: %s\n  unitguard:       %s'
                      % (scope, ' '.join(theirs), ' '.join(ours)))
                failed += 1
            else:
                print('%s: %d directories agree' % (scope, len(ours)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
