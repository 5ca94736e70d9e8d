#!/usr/bin/env python3
"""Hostile device sources: a sysfs tree with symlink loops, links out of
the tree, a huge modalias file, uevent files that cannot be read (a FIFO, a
dangling link, a directory), binary attribute files and a deeper tree than
unitguard walks; a profile with more devices than the cap. Every run must
end quickly (no hang on a FIFO, no endless loop), count exactly the devices
that are there, and name each bad file in one warning.

Usage: hostile-sysfs.py UNITGUARD"""
import json
import os
import subprocess
import sys
import tempfile

exe = os.path.abspath(sys.argv[1])
failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL: ' + what)


tmp = tempfile.mkdtemp(prefix='unitguard-hostile-sysfs-')
unit = os.path.join(tmp, 'app.service')
open(unit, 'w').write('[Service]\nExecStart=/usr/bin/app\nUser=app\n')
policy = os.path.join(tmp, 'policy.yaml')
open(policy, 'w').write('version: 1\nname: hw\nrequire:\n  - id: gpu\n'
                        '    severity: warning\n    hardware: {modalias: "pci:v000010DE*"}\n')


def device(rel, modalias=None, uevent=None):
    d = os.path.join(sysfs, rel)
    os.makedirs(d, exist_ok=True)
    if modalias is not None:
        open(os.path.join(d, 'modalias'), 'wb').write(modalias)
    if uevent is not None:
        open(os.path.join(d, 'uevent'), 'wb').write(uevent)
    return d


def run(*args):
    p = subprocess.run([exe, 'check', unit, '--policy', policy, '--format', 'json'] + list(args),
                       capture_output=True, timeout=60)
    return p.returncode, json.loads(p.stdout) if p.stdout else None, p.stderr.decode()


sysfs = os.path.join(tmp, 'sysfs')
a = device('devices/a', b'pci:v000010DEd00002204\n', b'DRIVER=nvidia\n')
# Directory symlinks everywhere: to the parent, itself, the root of the
# file system, the top of the tree. None may be followed.
os.symlink('..', os.path.join(a, 'loop'))
os.symlink('.', os.path.join(a, 'self'))
os.symlink('/', os.path.join(a, 'root'))
os.symlink('../..', os.path.join(a, 'top'))
os.symlink('/etc/passwd', os.path.join(a, 'driver'))  # its name is all that is read
# A huge modalias file (1 MiB): a warning, the device stays (its uevent is fine).
device('devices/huge', b'pci:v' + b'0' * (1 << 20), b'DRIVER=x\n')
# uevent files that cannot be read.
fifo = device('devices/fifo', b'pci:v00001111d00000001\n')
os.mkfifo(os.path.join(fifo, 'uevent'))
dangling = device('devices/dangling', b'pci:v00001111d00000002\n')
os.symlink('/nonexistent', os.path.join(dangling, 'uevent'))
isdir = device('devices/isdir', b'pci:v00001111d00000003\n')
os.mkdir(os.path.join(isdir, 'uevent'))
# Attribute files that are not text.
device('devices/nul', b'pci:v1\x00x\n', b'DRIVER=y\n')
device('devices/utf8', b'pci:\xc3\x28\n', b'DRIVER=y\n')
device('devices/ctrl', b'pci:v1\x1b[31m\n', b'DRIVER=y\n')
# Deeper than the walk goes: directories up to 64 levels below devices/
# are read (deep is level 1, d0 level 2, ..., d62 level 64).
deep = 'devices/deep'
for i in range(80):
    deep += '/d%d' % i
    device(deep, b'pci:v00002222d%08X\n' % i)
# dev/char links out of the tree and into it: a unit bound to /dev/char/1:1
# finds no device (the link leaves the tree, and is not followed), one bound
# to /dev/char/4:64 finds devices/a.
os.makedirs(os.path.join(sysfs, 'dev', 'char'))
os.symlink('../../../../etc', os.path.join(sysfs, 'dev', 'char', '1:1'))
os.symlink('../../devices/a', os.path.join(sysfs, 'dev', 'char', '4:64'))
open(unit, 'w').write('[Unit]\nBindsTo=dev-char-1:1.device\nAfter=dev-char-4:64.device\n'
                      '[Service]\nExecStart=/usr/bin/app\nUser=app\n')

rc, doc, err = run('--sysfs', sysfs, '-v', '--devices')
expect(rc == 0, 'hostile tree: exit 0, got %d (%s)' % (rc, err))
if doc:
    hw = doc.get('hardware') or {}
    # a, huge, fifo, dangling, isdir, nul, utf8, ctrl, and deep/d0..d62
    expect(hw.get('devices') == 8 + 63, 'device count %r, want %d' % (hw.get('devices'), 8 + 63))
    warnings = [f for f in doc['findings'] if f['rule'] == 'hardware.sysfs']
    paths = sorted(os.path.relpath(f['path'], sysfs) for f in warnings)
    want = sorted(['devices/huge/modalias', 'devices/fifo/uevent', 'devices/dangling/uevent',
                   'devices/isdir/uevent', 'devices/nul/modalias', 'devices/utf8/modalias',
                   'devices/ctrl/modalias'])
    expect(paths == want, 'warnings for %r, want %r' % (paths, want))
    for f in warnings:
        expect(f['severity'] == 'warning' and f['line'] is None, 'one warning per file: %r' % f)
    ties = doc['units'][0].get('device_ties', []) if doc['units'] else []
    present = {t['device']: t['present'] for t in ties}
    expect(present.get('/dev/char/1:1') is False, 'a dev/char link out of the tree finds nothing: %r' % ties)
    expect((present.get('/dev/char/4:64') or {}).get('syspath') == '/sys/devices/a',
           'dev/char/4:64 leads to /sys/devices/a: %r' % ties)
    conds = hw.get('conditions', [])
    expect(len(conds) == 1 and conds[0]['holds'] and conds[0]['device']['syspath'] == '/sys/devices/a',
           'the GPU is found once, at /sys/devices/a: %r' % conds)

# devices/ itself a symlink: refused, nothing judged, exit 3.
link_sysfs = os.path.join(tmp, 'linked')
os.makedirs(link_sysfs)
os.symlink(os.path.join(sysfs, 'devices'), os.path.join(link_sysfs, 'devices'))
rc, doc, err = run('--sysfs', link_sysfs)
expect(rc == 3, 'devices/ as a symlink: exit 3, got %d' % rc)
expect(doc and doc['summary']['units'] == 0 and doc['findings'][0]['rule'] == 'hardware.unreadable',
       'devices/ as a symlink: one error, no unit judged: %r' % (doc and doc['findings']))

# A profile over the device cap: one error at the line past it.
profile = os.path.join(tmp, 'many.profile')
open(profile, 'w').write('pci:v1\n' * 65537)
rc, doc, err = run('--hardware', profile)
expect(rc == 3, 'profile over the cap: exit 3, got %d' % rc)
expect(doc and doc['findings'][0]['line'] == 65537 and 'more than 65536 devices' in doc['findings'][0]['message'],
       'profile over the cap names line 65537: %r' % (doc and doc['findings']))

# A profile that is a FIFO: refused at once, not waited on.
fifo_profile = os.path.join(tmp, 'fifo.profile')
os.mkfifo(fifo_profile)
rc, doc, err = run('--hardware', fifo_profile)
expect(rc == 3 and doc and 'not a regular file' in doc['findings'][0]['message'],
       'FIFO profile: exit 3 with "not a regular file": %d %r' % (rc, doc and doc['findings']))

subprocess.run(['rm', '-rf', tmp])
print('%d failures' % len(failures))
sys.exit(1 if failures else 0)
