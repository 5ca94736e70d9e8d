#!/usr/bin/env python3
"""examples/meson/: a small upstream project whose `meson test` runs
unitguard on its units. Set up and tested in a scratch copy, with the built
unitguard on PATH: passes as shipped, fails on a rejected unit and on a
warning (--fail-on warning), and leaves the test out without unitguard."""
import os
import shutil

from common import Test

t = Test()
meson = shutil.which('meson')
if meson is None:
    t.skip('meson is not installed')

proj = t.path('demo')
shutil.copytree(t.example('examples', 'meson'), proj)
service = os.path.join(proj, 'units', 'demo.service')
shipped = open(service).read()


def meson_test(builddir, env=None):
    env = env or t.env
    p = t.run([meson, 'setup', builddir], cwd=proj, env=env)
    t.expect_rc(p, 0, 'meson setup ' + builddir)
    return t.run([meson, 'test', '-C', builddir, '--print-errorlogs'], cwd=proj, env=env)


p = meson_test('build')
t.expect_rc(p, 0, 'meson test on the shipped units')
t.expect_in('unitguard', p.stdout, 'the unitguard test ran', p)
t.expect_in('Ok:', p.stdout, 'the unitguard test ran', p)

with open(service, 'w') as f:
    f.write(shipped.replace('DynamicUser=yes', 'User=0day'))
p = t.run([meson, 'test', '-C', 'build', '--print-errorlogs'], cwd=proj)
t.expect(p.returncode != 0, 'a rejected unit fails meson test', p)
t.expect_in("User '0day'", p.stdout + p.stderr, 'the finding is in the log', p)

with open(service, 'w') as f:
    f.write(shipped.replace('PrivateTmp=yes', 'PrivateTmp=maybe'))
p = t.run([meson, 'test', '-C', 'build', '--print-errorlogs'], cwd=proj)
t.expect(p.returncode != 0, 'a warning fails meson test (--fail-on warning)', p)
t.expect_in("'maybe' is not a valid value for PrivateTmp=", p.stdout + p.stderr, 'the warning is in the log', p)

# Without unitguard the project still builds and tests (the test is left out).
env = dict(t.env)
env['PATH'] = os.pathsep.join(d for d in env['PATH'].split(os.pathsep)
                              if d != t.bin and not os.path.exists(os.path.join(d, 'unitguard')))
p = meson_test('build-without', env)
t.expect_rc(p, 0, 'meson test without unitguard installed')

t.finish()
