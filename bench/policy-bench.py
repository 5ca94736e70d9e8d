#!/usr/bin/env python3
"""Policy benchmarks (issue 9, findings 6 and 11), CPU time beside wall time:

  * loading: `policy check` on policies of 10,000, 20,000 and 40,000
    rewrite rules, in three shapes: plain `add` rules, `remove` rules with a
    `matching:` regex, and every id of the first shape overridden by a
    second file through `extends:`; with the growth factor from one size to
    the next (2.0 is linear, 4.0 quadratic). (invalid.directives cannot
    grow that far: its keys are the few hundred directive names, each at
    most once);
  * the rewrite regexes, PCRE2 JIT against the interpreter (which the
    default build uses): `filter` over a systemctl-cat stream of the corpus
    (>= 20 MB) with a policy whose `matching:` rewrites look at entries of
    almost every unit, the same stream with the default policy as the
    baseline, and the load of a policy with 10,000 `matching:` rules; runs
    alternate between the two binaries, and the median of each is reported
    with the ratio.

The JIT binary is a build configured with -Dpcre2-jit=enabled; without
--jit, one is set up in build-bench-jit/ (ninja -j2).

Usage: bench/policy-bench.py [--unitguard PATH] [--jit PATH] [--runs N] [--skip-jit]
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import benchlib  # noqa: E402
CORPUS = os.path.join(TOP, '..', 'shared', 'corpus', 'debian')
MAKE_STREAM = os.path.join(TOP, 'tests', 'tools', 'make-cat-stream.py')
SIZES = (10000, 20000, 40000)


def timed(argv, stdin=None):
    """(wall s, CPU s (user + system), exit status) of one run, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdin or os.devnull, 'rb') as fin, open(os.devnull, 'wb') as fout:
        t0 = time.perf_counter()
        p = subprocess.run(argv, stdin=fin, stdout=fout, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.returncode


def median_of(argv, runs, stdin=None):
    results = [timed(argv, stdin) for _ in range(runs)]
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
            results[0][2])


def rule(i, shape):
    if shape == 'matching':
        return (f'  - id: r{i}\n    when: {{units: ["nomatch-{i}-*.service"]}}\n'
                f'    remove: {{section: Service, key: Environment, matching: "^R{i}=(?:1|yes|true)$"}}\n')
    return (f'  - id: r{i}\n    when: {{units: ["nomatch-{i}-*.service"]}}\n'
            f'    add: {{section: Service, key: Environment, value: "R{i}=1"}}\n')


def write_policies(tmp, n):
    """The policy files of one size: {shape: path}."""
    paths = {}
    for shape in ('add', 'matching'):
        path = os.path.join(tmp, f'{shape}-{n}.yaml')
        with open(path, 'w') as f:
            f.write('version: 1\nextends: default\nrewrites:\n')
            f.writelines(rule(i, shape) for i in range(n))
        paths[shape] = path
    # Every id of the parent overridden: the merge path of extends.
    path = os.path.join(tmp, f'override-{n}.yaml')
    with open(path, 'w') as f:
        f.write(f'version: 1\nextends: add-{n}.yaml\nrewrites:\n')
        f.writelines(rule(i, 'add') for i in reversed(range(n)))
    paths['extends+override'] = path
    return paths


def load_scaling(ug, tmp, runs):
    print(f'policy check, median of {runs} runs (CPU = user + system)')
    times = {}
    for n in SIZES:
        for shape, path in write_policies(tmp, n).items():
            wall, cpu, rc = median_of([ug, 'policy', 'check', path], runs)
            if rc != 0:
                sys.exit(f'policy check {path} failed with exit {rc}')
            times.setdefault(shape, []).append((wall, cpu))
    for shape, row in times.items():
        cells = '  '.join(f'{n // 1000:2d}k {cpu:6.3f} s CPU {wall:6.3f} s wall' for n, (wall, cpu) in zip(SIZES, row))
        growth = ' '.join(f'x{row[i + 1][1] / row[i][1]:.2f}' for i in range(len(row) - 1))
        print(f'  {shape:17s} {cells}  growth per doubling (CPU) {growth}')


REGEX_POLICY = r'''version: 1
extends: default
rewrites:
  - id: exec-from-opt
    when: {present: [Service.ExecStart]}
    set: {section: Service, key: ExecStart, value: /bin/false, matching: "^[-@:+!]*/opt/(?:[^/ ]+/)*bin/[^ ]+(?: .*)?$"}
  - id: debug-env
    remove: {section: Service, key: Environment, matching: "^\"?(?:DEBUG|TRACE|VERBOSE)=(?:1|yes|true)\"?$"}
  - id: legacy-description
    rename: {section: Unit, key: Description, to: X-Legacy-Description, matching: "(?i)\\b(?:deprecated|obsolete|legacy)\\b"}
  - id: stray-after
    remove: {section: Unit, key: After, matching: "(?:^|\\s)nonexistent-[a-z0-9-]+\\.target(?:\\s|$)"}
  - id: wanted-by-legacy
    remove: {section: Install, key: WantedBy, matching: "^(?:[a-z0-9-]+\\.target\\s+)*legacy\\.target(?:\\s+[a-z0-9-]+\\.target)*$"}
'''


def alternate(label, argvs, runs, stdin=None):
    """Runs the argv of each binary in turn, runs times; reports medians."""
    results = {name: [] for name in argvs}
    for _ in range(runs):
        for name, argv in argvs.items():
            results[name].append(timed(argv, stdin))
    med = {name: (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs), rs[0][2])
           for name, rs in results.items()}
    for name, (wall, cpu, rc) in med.items():
        print(f'  {label:38s} {name:7s} {cpu:7.3f} s CPU {wall:7.3f} s wall  exit {rc}')
    jit, interp = med['jit'][1], med['no-jit'][1]
    print(f'  {label:38s} JIT / interpreter CPU: {jit / interp:.3f}')


def ensure_jit(path):
    if path:
        return path
    build = os.path.join(TOP, 'build-bench-jit')
    if not os.path.exists(os.path.join(build, 'build.ninja')):
        subprocess.run(['meson', 'setup', build, TOP, '-Dpcre2-jit=enabled'], check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run(['ninja', '-C', build, '-j2', 'src/cli/unitguard'], check=True, stdout=subprocess.DEVNULL)
    return os.path.join(build, 'src', 'cli', 'unitguard')


def jit_comparison(jit, ug, tmp, runs):
    small = os.path.join(tmp, 'one.txt')
    with open(small, 'wb') as f:
        subprocess.run([sys.executable, MAKE_STREAM, CORPUS], stdout=f, stderr=subprocess.DEVNULL, check=True)
    repeat = max(1, -(-20 * 1000 * 1000 // os.path.getsize(small)))
    stream = os.path.join(tmp, 'stream.txt')
    with open(stream, 'wb') as f:
        subprocess.run([sys.executable, MAKE_STREAM, '--repeat', str(repeat), CORPUS], stdout=f,
                       stderr=subprocess.DEVNULL, check=True)
    pol = os.path.join(tmp, 'regex.yaml')
    with open(pol, 'w') as f:
        f.write(REGEX_POLICY)
    binaries = {'jit': jit, 'no-jit': ug}
    print(f'PCRE2 JIT against the interpreter, alternating, median of {runs} runs each')
    alternate(f'filter, {os.path.getsize(stream) / 1e6:.0f} MB stream, 5 matching rewrites',
              {k: [b, 'filter', '--policy', pol] for k, b in binaries.items()}, runs, stdin=stream)
    alternate('filter, same stream, default policy',
              {k: [b, 'filter'] for k, b in binaries.items()}, runs, stdin=stream)
    many = write_policies(tmp, SIZES[0])['matching']
    alternate('policy check, 10k matching rules',
              {k: [b, 'policy', 'check', many] for k, b in binaries.items()}, runs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--unitguard', default=os.path.join(TOP, 'build', 'src', 'cli', 'unitguard'))
    ap.add_argument('--jit', help='a unitguard built with -Dpcre2-jit=enabled')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--skip-jit', action='store_true', help='only the loading benchmark')
    args = ap.parse_args()
    ug = os.path.abspath(args.unitguard)
    with tempfile.TemporaryDirectory(prefix='ug-policy-bench-') as tmp:
        # Run from copies (benchlib.staged()), as installed binaries are.
        ug = benchlib.staged(ug, tmp, 'unitguard')
        load_scaling(ug, tmp, args.runs)
        if not args.skip_jit:
            jit_comparison(benchlib.staged(os.path.abspath(ensure_jit(args.jit)), tmp, 'unitguard-jit'), ug, tmp,
                           args.runs)


main()
