#!/usr/bin/env python3
"""Fault injection: for every N over a representative run, make the N-th
allocation, read or write fail (LD_PRELOAD shim failinject.so) and require
that unitguard
  * does not crash (no signal) and exits with a documented code;
  * either succeeds exactly as without the fault, or reports the error:
    exit 2 or 3, a non-empty standard error whose every line is a
    well-formed diagnostic;
  * writes to standard output only a prefix of the fault-free output (no
    half-written unit), and leaves no partial file behind (hwdb compile);
  * frees what it holds: no more allocations are live at exit than in the
    fault-free run (the shim counts them; the sanitizers cannot be used
    together with it).

Usage: fault-injection.py UNITGUARD FAILINJECT_SO HWDB_ROOT"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

STREAM = (b'# /etc/systemd/system/a.service\n[Service]\nExecStart=/bin/true\nUser=app\n\n'
          b'# /etc/systemd/system/a.service.d/x.conf\n[Service]\nNice=1\n\n'
          b'# /etc/systemd/system/b.service\n[Service]\nUser=0day\nExecStart=/bin/true\n\n'
          b'# /etc/systemd/system/c@.service\n[Unit]\nDescription=%i\n[Service]\nExecStart=/bin/echo %i\n')
POLICY = (b'version: 1\nextends: hardened\nuser-names: {rule: regex, regex: "^[a-z_][a-z0-9_.-]*$"}\n'
          b'rewrites:\n  - id: nice\n    set: {section: Service, key: Nice, value: "5", matching: "^1$"}\n')
ASSERT_POLICY = (b'version: 1\nextends: strict\nrewrites:\n  - id: t\n    when: {any: [{unit: "a*"}, {path: "*/b*"}]}\n'
                 b'    add: {section: Service, key: PrivateTmp, value: "yes"}\n'
                 b'forbid:\n  - id: env\n    key: Service.ExecStart\n    regex: "true$"\n    match: all\n'
                 b'waivers:\n  - {rule: root-service, unit: "b.service", reason: legacy}\n'
                 b'  - {rule: env, unit: "none", reason: unused}\n')
ASSERT_STREAM = (STREAM + b'\n# /etc/systemd/system/d.service\n# unitguard: allow require.private-tmp -- shares /tmp\n'
                 b'[Service]\nExecStart=/bin/d\n# unitguard: allow protect-system\nProtectSystem=yes\n'
                 b'\n# /etc/systemd/system/e.service\n[Service]\nExecStart=/bin/e\nUser=e\nNoNewPrivileges=yes\n'
                 b'ProtectSystem=strict\nPrivateTmp=yes\n')
HW_POLICY = (b'version: 1\nname: hw\nextends: default\ndevice-units: ["b*"]\nrequire:\n'
             b'  - id: gpu\n    when: {unit: a.service}\n    hardware: {property: ID_VENDOR_FROM_DATABASE, glob: "NV*"}\n'
             b'  - id: bound\n    when: {device-tied: bound}\n    hardware: {bound-device: true, subsystem: tty}\n'
             b'rewrites:\n  - id: allow\n    when: {device-tied: bound}\n'
             b'    add: {section: Service, key: DeviceAllow, value: "{device-node} rw"}\n'
             b'  - id: private\n    when: {device-tied: false}\n    add: {section: Service, key: PrivateDevices, value: "yes"}\n')
HW_STREAM = (b'# /etc/systemd/system/a.service\n[Service]\nExecStart=/bin/true\nUser=app\n'
             b'\n# /etc/systemd/system/tty.service\n[Unit]\nBindsTo=dev-ttyS0.device\n'
             b'ConditionVirtualization=no\n[Service]\nExecStart=/bin/t\nUser=t\n')
HW_PROFILE = (b'pci:v000010DEd00002204 SUBSYSTEM=pci DRIVER=nvidia\n'
              b'- SUBSYSTEM=tty DEVNAME=ttyS0 MAJOR=4 MINOR=64\n')
HW_HWDB = b'pci:v000010DE*\n ID_VENDOR_FROM_DATABASE=NVIDIA Corporation\n'
LINE = re.compile(rb'^[^\n]*: (error|warning|note): [^\n]*$')


def run(cmd, env, cwd, stdin=b''):
    return subprocess.run(cmd, input=stdin, capture_output=True, env=env, cwd=cwd, timeout=30)


def count_calls(cmd, shim, cwd, stdin, fail_at=0):
    """Runs cmd under the shim; returns (process, calls, live allocations at exit)."""
    counter = os.path.join(cwd, 'count')
    env = dict(os.environ, LD_PRELOAD=shim, UNITGUARD_FAIL_COUNT=counter, UNITGUARD_FAIL_AT=str(fail_at))
    if os.path.exists(counter):
        os.unlink(counter)
    p = run(cmd, env, cwd, stdin)
    calls, live = open(counter).read().split()
    return p, int(calls), int(live)


def scenario(name, cmd, shim, cwd, stdin=b'', output=None, report_on_stdout=False):
    """report_on_stdout: the verb (check) writes its findings and summary to
    standard output, so an injected failure changes it: every line of both
    streams must then be a diagnostic or a 'unitguard' line."""
    ref = run(cmd, dict(os.environ), cwd, stdin)
    ref_file = open(os.path.join(cwd, output), 'rb').read() if output else None
    _, n, base_live = count_calls(cmd, shim, cwd, stdin)
    failures = 0
    outcomes = {}
    for i in range(1, n + 1):
        if output and os.path.exists(os.path.join(cwd, output)):
            os.unlink(os.path.join(cwd, output))
        p, _, live = count_calls(cmd, shim, cwd, stdin, fail_at=i)
        problems = []
        if live > base_live:
            problems.append(f'{live - base_live} allocation(s) not freed')
        same = p.returncode == ref.returncode and p.stdout == ref.stdout and p.stderr == ref.stderr
        if p.returncode < 0:
            problems.append(f'killed by signal {-p.returncode}')
        elif not same:
            if p.returncode not in (2, 3):
                problems.append(f'exit {p.returncode} without the expected output')
            said = p.stdout + p.stderr if report_on_stdout else p.stderr
            told = p.stderr or (report_on_stdout and b': error: ' in p.stdout)
            if not told or not all(LINE.match(l) or l.startswith(b'unitguard')
                                       for l in said.splitlines()):
                problems.append(f'stderr not one diagnostic per line: {said[-300:]!r}')
            if not report_on_stdout and not ref.stdout.startswith(p.stdout):
                problems.append('stdout is not a prefix of the fault-free output')
        if output:
            path = os.path.join(cwd, output)
            if os.path.exists(path) and open(path, 'rb').read() != ref_file:
                problems.append('partial output file')
            leftovers = [f for f in os.listdir(cwd) if '.unitguard-' in f]
            if leftovers:
                problems.append(f'temporary files left: {leftovers}')
        key = 'same' if same else f'exit {p.returncode}'
        outcomes[key] = outcomes.get(key, 0) + 1
        if problems:
            failures += 1
            print(f'FAIL {name} N={i}: ' + '; '.join(problems))
    print(f'{"ok" if not failures else "FAIL"} {name}: {n} injection points, outcomes {outcomes}')
    return failures


def main():
    exe, shim, hwdb_root = (os.path.abspath(a) for a in sys.argv[1:4])
    failures = 0
    tmp = tempfile.mkdtemp(prefix='ug-fault-')
    try:
        with open(os.path.join(tmp, 'site.yaml'), 'wb') as f:
            f.write(POLICY)
        failures += scenario('filter stream, default policy', [exe, 'filter'], shim, tmp, STREAM)
        failures += scenario('filter stream, json, site policy',
                             [exe, 'filter', '--format', 'json', '--policy', 'site.yaml'], shim, tmp, STREAM)
        failures += scenario('policy check', [exe, 'policy', 'check', 'site.yaml'], shim, tmp)
        with open(os.path.join(tmp, 'assert.yaml'), 'wb') as f:
            f.write(ASSERT_POLICY)
        failures += scenario('filter stream, require/forbid/waivers',
                             [exe, 'filter', '--policy', 'assert.yaml'], shim, tmp, ASSERT_STREAM)
        os.mkdir(os.path.join(tmp, 'hwdb.d'))
        for name, data in (('hw.yaml', HW_POLICY), ('hw.profile', HW_PROFILE), ('hwdb.d/v.hwdb', HW_HWDB)):
            with open(os.path.join(tmp, name), 'wb') as f:
                f.write(data)
        failures += scenario('filter stream, hardware conditions and device ties',
                             [exe, 'filter', '--policy', 'hw.yaml', '--hardware', 'hw.profile', '--hwdb', 'hwdb.d',
                              '--devices'], shim, tmp, HW_STREAM)
        # A tree and a root, judged unit after unit in recycled allocations,
        # their small files lent by the batch reader: a failure at any point
        # (a unit's group, its parse, a drop-in) leaks nothing.
        for unit_dir in ('tree', 'root/etc/systemd/system'):
            d = os.path.join(tmp, unit_dir)
            os.makedirs(os.path.join(d, 'a.service.d'))
            os.makedirs(os.path.join(d, 'service.d'))
            os.makedirs(os.path.join(d, 'orphan.service.d'))
            files = {'a.service': b'[Service]\nExecStart=/bin/a\nUser=app\n',
                     'a.service.d/x.conf': b'[Service]\nNice=1\n',
                     'service.d/all.conf': b'[Service]\nPrivateTmp=yes\n',
                     'orphan.service.d/y.conf': b'[Service]\nNice=2\n',
                     'b.service': b'[Service]\nUser=0day\nExecStart=/bin/true\n',
                     'c@.service': b'[Service]\nExecStart=/bin/echo %i\n',
                     'big.service': b'[Service]\nExecStart=/bin/big\n' + b'# padding\n' * 600,
                     'd.socket': b'[Socket]\nListenStream=/run/d\n',
                     'e.timer': b'[Timer]\nOnCalendar=daily\n'}
            for name, data in files.items():
                with open(os.path.join(d, name), 'wb') as f:
                    f.write(data)
        failures += scenario('check tree', [exe, 'check', '--policy', 'default', 'tree'], shim, tmp,
                             report_on_stdout=True)
        failures += scenario('check --root', [exe, 'check', '--policy', 'default', '--root', 'root'], shim, tmp,
                             report_on_stdout=True)
        # No --policy: the site policy is looked for under the root first.
        failures += scenario('check --root, site policy looked for', [exe, 'check', '--root', 'root'], shim, tmp,
                             report_on_stdout=True)
        failures += scenario('hwdb compile', [exe, 'hwdb', 'compile', '--root', hwdb_root, '-o', 'out.bin'],
                             shim, tmp, output='out.bin')
        subprocess.run([exe, 'hwdb', 'compile', '--root', hwdb_root, '-o', 'db.bin'], cwd=tmp, check=True)
        failures += scenario('hwdb query --stdin (mapped, refused line)',
                             [exe, 'hwdb', 'query', '--stdin', '--bin', 'db.bin'], shim, tmp,
                             b'd:dup\nk:order\nnothing\n' + b'x' * 20000 + b'\nd:dup')
        failures += scenario('hwdb check --bin (read)', [exe, 'hwdb', 'check', '--bin', 'db.bin'], shim, tmp)
    finally:
        shutil.rmtree(tmp)
    sys.exit(1 if failures else 0)


main()
