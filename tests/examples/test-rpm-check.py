#!/usr/bin/env python3
"""examples/rpm/unitguard-check.spec: the %check body, run the way rpmbuild
runs it (/bin/sh -e) with the macros it uses expanded as on Fedora and
%{buildroot} pointing at a fake install tree."""
import re

from common import Test, GOOD_USER_SERVICE, BAD_DROPIN_ERROR

MACROS = {
    '_unitdir': '/usr/lib/systemd/system',
    '_userunitdir': '/usr/lib/systemd/user',
    '_sysconfdir': '/etc',
}

t = Test()
spec = open(t.example('examples', 'rpm', 'unitguard-check.spec')).read()
t.expect(re.search(r'^BuildRequires:\s*unitguard\b', spec, re.M) is not None,
         'the spec build-requires unitguard')

# The %check section: up to the next section line (%files, %changelog, ...)
# or the end.
body = []
in_check = False
for line in spec.splitlines():
    if re.match(r'^%(check|prep|build|install|files|changelog|package|description|pre|post)\b', line):
        in_check = line.strip() == '%check'
        continue
    if in_check:
        body.append(line)
t.expect(any('unitguard check' in line for line in body), 'the %check section runs unitguard check')


def check(buildroot):
    macros = dict(MACROS, buildroot=buildroot)
    script = re.sub(r'%\{(\w+)\}', lambda m: macros[m.group(1)], '\n'.join(body) + '\n')
    t.expect('%' not in script, 'every macro expanded: ' + script)
    return t.run(['/bin/sh', '-e', '-c', script])


p = check(t.good_root('good'))
t.expect_rc(p, 0, 'good buildroot')
t.expect_in('unitguard: 1 units, 0 rejected', p.stdout, 'good buildroot', p)

p = check(t.bad_root('bad'))
t.expect_rc(p, 1, 'buildroot with a rejected unit')
t.expect_in(BAD_DROPIN_ERROR, p.stdout, 'the drop-in in etc/ is reported', p)

# User units only: the system check is skipped (it would exit 3, no units),
# the user check runs.
t.write('user/usr/lib/systemd/user/app.service', GOOD_USER_SERVICE)
p = check(t.path('user'))
t.expect_rc(p, 0, 'buildroot with user units only')
t.expect(p.stdout.count('unitguard: 1 units') == 1, 'one check ran', p)

t.write('both/usr/lib/systemd/user/app.service', GOOD_USER_SERVICE)
t.good_root('both')
t.write('both/usr/lib/systemd/user/app.service.d/10-user.conf', '[Service]\nUser=0day\n')
p = check(t.path('both'))
t.expect_rc(p, 1, 'a rejected user unit')
t.expect_in('/usr/lib/systemd/user/app.service.d/10-user.conf:2: error: ', p.stdout, 'user drop-in', p)

# Nothing systemd-related: nothing to check.
t.write('none/usr/bin/app', '')
p = check(t.path('none'))
t.expect_rc(p, 0, 'buildroot without units')
t.expect(p.stdout == '', 'no check ran', p)

t.finish()
