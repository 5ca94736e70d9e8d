#!/usr/bin/env python3
"""examples/hardware/: the policy over the example root, once against the
sysfs fixture (a desktop: NVIDIA GPU, Intel CPU, ttyS0, a disk, no
Bluetooth) and once against the laptop profile (Intel CPU and graphics, a
USB Bluetooth controller, no NVIDIA GPU, no serial port), with the hwdb
from the example's .hwdb source and from a hwdb.bin compiled from it."""
import json

from common import Test

t = Test()
ex = t.example('examples', 'hardware')
base = ['unitguard', 'check', '--root', ex + '/root', '--policy', ex + '/policy.yaml']


def check(*args):
    p = t.run(base + list(args) + ['--format', 'json'])
    doc = json.loads(p.stdout) if p.stdout.startswith('{') else None
    t.expect(doc is not None, 'check %s writes a JSON document' % ' '.join(args), p)
    return p, doc or {'units': [], 'findings': [], 'hardware': None}


def verdicts(doc):
    return {u['id']: u['verdict'] for u in doc['units']}


def rules(doc, unit):
    return {f['rule'].split(':', 1)[-1] for f in doc['findings'] if f['unit'] == unit}


# The desktop, from its sysfs tree.
p, doc = check('--sysfs', ex + '/sysfs', '--hwdb', ex)
t.expect_rc(p, 1, 'desktop: bluetooth.service is rejected')
v = verdicts(doc)
t.expect(v.get('bluetooth.service') == 'rejected', 'desktop: no Bluetooth controller: %r' % v)
t.expect(v.get('nvidia-persistenced.service') == 'accepted', 'desktop: the NVIDIA GPU is there: %r' % v)
t.expect(v.get('thermald.service') == 'accepted', 'desktop: an Intel CPU: %r' % v)
t.expect(v.get('report.service') == 'changed', 'desktop: report.service gets PrivateDevices=yes: %r' % v)
getty = [u for u in doc['units'] if u['id'] == 'serial-getty@ttyS0.service']
t.expect(getty and getty[0]['device_ties'][0]['device'] == '/dev/ttyS0' and
         getty[0]['device_ties'][0]['present']['syspath'] == '/sys/devices/platform/serial8250/tty/ttyS0',
         'desktop: serial-getty@ttyS0 is tied to /dev/ttyS0, which is present: %r' % getty)
t.expect('rewrite.device-allow' in rules(doc, 'serial-getty@ttyS0.service'),
         'desktop: serial-getty@ttyS0 gets DeviceAllow=/dev/ttyS0')
hw = doc['hardware'] or {}
t.expect(hw.get('devices') == 6 and hw.get('devices_from', '').startswith('sysfs '),
         'desktop: 6 devices from sysfs: %r' % hw)

# The same with the hwdb compiled to hwdb.bin.
hwdb_bin = t.path('hwdb.bin')
p = t.run(['unitguard', 'hwdb', 'compile', '--hwdb-dir', ex, '-o', hwdb_bin])
t.expect_rc(p, 0, 'hwdb compile of the example source')
p, doc2 = check('--sysfs', ex + '/sysfs', '--hwdb-bin', hwdb_bin)
t.expect(verdicts(doc2) == v, 'hwdb.bin and .hwdb sources decide alike: %r' % verdicts(doc2))

# The laptop, from its profile.
p, doc = check('--hardware', ex + '/laptop.profile', '--hwdb', ex)
t.expect_rc(p, 1, 'laptop: nvidia-persistenced.service is rejected')
v = verdicts(doc)
t.expect(v.get('nvidia-persistenced.service') == 'rejected', 'laptop: no NVIDIA GPU: %r' % v)
t.expect(v.get('bluetooth.service') != 'rejected', 'laptop: a Bluetooth controller: %r' % v)
t.expect(v.get('thermald.service') == 'accepted', 'laptop: an Intel CPU: %r' % v)
t.expect('require.bound-device-present' in rules(doc, 'serial-getty@ttyS0.service'),
         'laptop: no ttyS0, a warning for serial-getty@ttyS0')

# Text output agrees: -v names the ties and what decided each condition.
p = t.run(base + ['--hardware', ex + '/laptop.profile', '--hwdb', ex, '-v'])
t.expect_in('hardware condition {property: "ID_VENDOR_FROM_DATABASE", glob: "NVIDIA*"} of require.nvidia-gpu: '
            'does not hold: no device matches', p.stdout, 'laptop: the NVIDIA decision in text', p)
t.expect_in('device-tied (policy): device-units: nvidia-*.service', p.stdout, 'laptop: the policy tie in text', p)

# filter writes the approved units; --devices reports ties on stderr.
p = t.run(['unitguard', 'filter', '--root', ex + '/root', '--policy', ex + '/policy.yaml',
           '--sysfs', ex + '/sysfs', '--hwdb', ex, '--devices'])
t.expect_rc(p, 1, 'filter: bluetooth.service is rejected')
t.expect_in('DeviceAllow=/dev/ttyS0 rw', p.stdout, 'filter writes the added DeviceAllow=', p)
t.expect('Bluetooth service' not in p.stdout, 'filter leaves the rejected unit out')
t.expect_in('device-tied (dependency): BindsTo=dev-ttyS0.device -> /dev/ttyS0', p.stderr,
            'filter --devices reports ties', p)
t.finish()
