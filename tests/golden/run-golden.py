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

A case whose command has --fix (check --fix rewrites its input) runs on a
fresh copy of its input* (and stdin) files in a scratch directory, and has one more
expected file: cases/NAME/expected.tree/, the whole input tree after the
run (files, their bytes, symlinks and their targets, directories); the
scratch directory is written as @CASE@ too.

Every command runs with the case directory as working directory, so paths
in diagnostics are stable. Whole outputs are compared byte for byte.
Lines of --format json output must also parse as JSON objects.

Usage: run-golden.py UNITGUARD CASES_DIR [--update]
"""
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile


def copy_inputs(case, dest):
    for n in sorted(os.listdir(case)):
        if not n.startswith('expected') and n != 'args':
            src = os.path.join(case, n)
            if os.path.isdir(src) and not os.path.islink(src):
                shutil.copytree(src, os.path.join(dest, n), symlinks=True)
            else:
                shutil.copy2(src, os.path.join(dest, n), follow_symlinks=False)


def tree(top):
    """{relative path: ('dir',) | ('link', target) | ('file', bytes)}"""
    out = {}
    for dirpath, dirnames, filenames in os.walk(top):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, top)
            if os.path.islink(p):
                out[rel] = ('link', os.readlink(p))
            elif os.path.isdir(p):
                out[rel] = ('dir',)
            else:
                out[rel] = ('file', open(p, 'rb').read())
    return out


def compare_trees(name, got, want):
    problems = []
    for rel in sorted(set(got) | set(want)):
        if rel not in want:
            problems.append('%s: unexpected %s' % (rel, got[rel][0]))
        elif rel not in got:
            problems.append('%s: missing' % rel)
        elif got[rel] != want[rel]:
            problems.append('%s: %r, expected %r' % (rel, got[rel][-1][:200], want[rel][-1][:200]))
    for p in problems:
        print('FAIL %s: expected.tree: %s' % (name, p))
    return len(problems)


def run_case(exe, case, workdir=None):
    argsfile = os.path.join(case, 'args')
    args = open(argsfile).read().strip() if os.path.exists(argsfile) else 'filter INPUT'
    if workdir:
        copy_inputs(case, workdir)
        case = workdir
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
        argsfile = os.path.join(case, 'args')
        fix = argsfile and os.path.exists(argsfile) and '--fix' in shlex.split(open(argsfile).read())
        with tempfile.TemporaryDirectory(prefix='ug-golden-') as tmp:
            work = os.path.realpath(tmp) if fix else None
            out, err, rc, args = run_case(exe, case, work)
            got = {'expected.stdout': out, 'expected.stderr': err, 'expected.rc': rc}
            if fix:
                result = tree(work)
                want_dir = os.path.join(case, 'expected.tree')
                if update:
                    shutil.rmtree(want_dir, ignore_errors=True)
                    os.mkdir(want_dir)
                    for n in os.listdir(work):
                        if n.startswith('input'):
                            src = os.path.join(work, n)
                            if os.path.isdir(src) and not os.path.islink(src):
                                shutil.copytree(src, os.path.join(want_dir, n), symlinks=True)
                            else:
                                shutil.copy2(src, os.path.join(want_dir, n), follow_symlinks=False)
                else:
                    result = {k: v for k, v in result.items() if k.startswith('input')}
                    failures += compare_trees(name, result, tree(want_dir) if os.path.isdir(want_dir) else {})
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
