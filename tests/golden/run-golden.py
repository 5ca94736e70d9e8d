#!/usr/bin/env python3
"""Golden tests: each directory under cases/ holds one input and the whole
expected result of running unitguard on it.

  cases/NAME/args      the command line after 'unitguard' (one line; the
                       word INPUT stands for the input file); default:
                       'filter INPUT'
  cases/NAME/input.*   the input (exactly one file or directory named input*)
  cases/NAME/stdin     optional: fed to standard input
  cases/NAME/expected.stdout, expected.stderr, expected.rc

The absolute path of the case directory is written as @CASE@ in outputs.

Every command runs with the case directory as working directory, so paths
in diagnostics are stable. Whole outputs are compared byte for byte.
Lines of --format json output must also parse as JSON objects.

Usage: run-golden.py UNITGUARD CASES_DIR [--update]
"""
import json
import os
import shlex
import subprocess
import sys


def run_case(exe, case):
    argsfile = os.path.join(case, 'args')
    args = open(argsfile).read().strip() if os.path.exists(argsfile) else 'filter INPUT'
    inputs = sorted(n for n in os.listdir(case) if n.startswith('input'))
    argv = [exe]
    for word in shlex.split(args):
        argv.append(inputs[0] if word == 'INPUT' and inputs else word)
    stdin_path = os.path.join(case, 'stdin')
    stdin = open(stdin_path, 'rb').read() if os.path.exists(stdin_path) else b''
    p = subprocess.run(argv, cwd=case, input=stdin, capture_output=True, timeout=60)
    # Absolute paths of the checkout would make the files machine-specific.
    here = os.path.abspath(case).encode()
    out = p.stdout.replace(here, b'@CASE@')
    err = p.stderr.replace(here, b'@CASE@')
    return out, err, str(p.returncode).encode() + b'\n', args


def main():
    exe, cases_dir = os.path.abspath(sys.argv[1]), sys.argv[2]
    update = '--update' in sys.argv[3:]
    failures = 0
    names = sorted(os.listdir(cases_dir))
    for name in names:
        case = os.path.join(cases_dir, name)
        if not os.path.isdir(case):
            continue
        out, err, rc, args = run_case(exe, case)
        got = {'expected.stdout': out, 'expected.stderr': err, 'expected.rc': rc}
        if '--format json' in args or '-f json' in args:
            for i, line in enumerate(out.splitlines()):
                try:
                    obj = json.loads(line)
                    assert isinstance(obj, dict)
                except Exception as e:  # noqa: BLE001
                    print(f'FAIL {name}: stdout line {i + 1} is not a JSON object: {e}')
                    failures += 1
        for fname, data in got.items():
            path = os.path.join(case, fname)
            if update:
                with open(path, 'wb') as f:
                    f.write(data)
                continue
            want = open(path, 'rb').read() if os.path.exists(path) else None
            if want != data:
                failures += 1
                print(f'FAIL {name}: {fname} differs')
                print('--- expected'); print((want or b'<missing>').decode(errors='replace'))
                print('--- got'); print(data.decode(errors='replace'))
        if not update:
            print(f'ok {name}')
    if failures:
        print(f'{failures} failure(s)')
        sys.exit(1)


main()
