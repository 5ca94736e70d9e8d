#!/usr/bin/env python3
"""unitguard-generator with hardware conditions: the root of
examples/hardware (its units and udev rules), its sysfs fixture as
ROOT/sys, its policy as the site policy and its hwdb compiled into
ROOT/etc/udev/hwdb.bin (where systemd looks). Checked:
- desktop (the fixture as shipped): bluetooth.service is masked (no
  Bluetooth controller: a subsystem/modalias condition);
  nvidia-persistenced.service is not (an NVIDIA GPU, found through the
  hwdb's ID_VENDOR_FROM_DATABASE);
- the same desktop without its NVIDIA GPU: nvidia-persistenced.service is
  masked too (a hwdb property condition removes it);
- in each, the generator masks exactly what `unitguard check` rejects with
  the same sysfs tree and hwdb;
- with no /sys under the root: the built-in default policy (no hardware
  condition) reads nothing and logs no hardware line; the hardware policy
  logs that the devices cannot be read, and masks the units whose
  hardware conditions stay undecided.

Usage: hardware.py GENERATOR UNITGUARD"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, '..', '..', 'examples', 'hardware')
GPU = 'devices/pci0000:00/0000:00:01.0/0000:01:00.0'
HW_UNITS = {'bluetooth.service', 'nvidia-persistenced.service', 'thermald.service'}


def build(work, name, sysfs=True, site_policy=True, drop_gpu=False):
    root = os.path.join(work, name)
    shutil.copytree(os.path.join(EXAMPLE, 'root'), root, symlinks=True)
    if sysfs:
        shutil.copytree(os.path.join(EXAMPLE, 'sysfs'), os.path.join(root, 'sys'), symlinks=True)
        if drop_gpu:
            shutil.rmtree(os.path.join(root, 'sys', GPU))
    if site_policy:
        os.makedirs(os.path.join(root, 'etc', 'unitguard'))
        shutil.copy(os.path.join(EXAMPLE, 'policy.yaml'), os.path.join(root, 'etc', 'unitguard', 'policy.yaml'))
    os.makedirs(os.path.join(root, 'etc', 'udev'), exist_ok=True)
    return root


def generate(gen, root, work):
    out = tempfile.mkdtemp(dir=work)
    dirs = [os.path.join(out, d) for d in ('normal', 'early', 'late')]
    for d in dirs:
        os.mkdir(d)
    p = subprocess.run([gen, '--root', root, '--log=stderr'] + dirs, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f'generator failed ({p.returncode}): {p.stderr}')
    early = dirs[1]
    masked = {n for n in os.listdir(early)
              if os.path.islink(os.path.join(early, n)) and os.readlink(os.path.join(early, n)) == '/dev/null'}
    return masked, p.stderr


def check_rejects(ug, root):
    p = subprocess.run([ug, 'check', '--root', root, '--policy', os.path.join(root, 'etc/unitguard/policy.yaml'),
                        '--sysfs', os.path.join(root, 'sys'), '--hwdb-bin', os.path.join(root, 'etc/udev/hwdb.bin'),
                        '--format', 'json'], capture_output=True, text=True, timeout=60)
    rejected = set()
    doc = json.loads(p.stdout)
    for u in doc['units']:
        if u['verdict'] == 'rejected':
            rejected.add(u['id'])
    return rejected


def main():
    gen, ug = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    failures = []

    def expect(what, got, want):
        if got != want:
            failures.append(f'{what}: got {sorted(got) if isinstance(got, set) else got!r}, '
                            f'expected {sorted(want) if isinstance(want, set) else want!r}')

    with tempfile.TemporaryDirectory(prefix='ug-gen-hw-') as work:
        for name, drop_gpu, want in (('desktop', False, {'bluetooth.service'}),
                                     ('no-gpu', True, {'bluetooth.service', 'nvidia-persistenced.service'})):
            root = build(work, name, drop_gpu=drop_gpu)
            subprocess.run([ug, 'hwdb', 'compile', '--hwdb-dir', EXAMPLE, '-o',
                            os.path.join(root, 'etc/udev/hwdb.bin')], check=True, timeout=60)
            masked, log = generate(gen, root, work)
            expect(f'{name}: masked', masked, want)
            expect(f'{name}: masked like check rejects', masked, check_rejects(ug, root))
            for unit in want:
                if f'{unit}: masked: ' not in log:
                    failures.append(f'{name}: no log line for {unit}: {log}')

        root = build(work, 'no-sys-default', sysfs=False, site_policy=False)
        masked, log = generate(gen, root, work)
        expect('no /sys, default policy: masked', masked & HW_UNITS, set())
        expect('no /sys, default policy: hardware lines', [l for l in log.splitlines() if 'sys' in l.split(':')[1:2]
                                                             or 'hardware' in l], [])

        root = build(work, 'no-sys-hardware', sysfs=False)
        masked, log = generate(gen, root, work)
        expect('no /sys, hardware policy: masked', masked & HW_UNITS, HW_UNITS)
        if 'cannot read' not in log or '/sys' not in log:
            failures.append(f'no /sys, hardware policy: the unreadable devices are not logged: {log}')

    for f in failures:
        print(f)
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
