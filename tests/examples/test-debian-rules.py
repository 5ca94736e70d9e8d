#!/usr/bin/env python3
"""examples/debian/rules: dh runs its execute_after_dh_installsystemd target
after dh_installsystemd. A stub `dh` does just that for `binary`, and a stub
dh_listpackages names the binary packages, so make runs the snippet as a
package build would, on fake debian/PACKAGE trees."""
import shutil

from common import Test, GOOD_USER_SERVICE, BAD_DROPIN_ERROR

t = Test()
if shutil.which('make') is None:
    t.skip('make is not installed')  # scripts/setup-deps installs it

pkg = t.path('src')
t.write('src/debian/rules', open(t.example('examples', 'debian', 'rules')).read(), 0o755)
# What dh does for `binary`, as far as the snippet is concerned: it runs
# execute_after_dh_installsystemd when debian/rules defines it explicitly.
t.stub('dh', '''case "$1" in
binary)
        if make -f debian/rules -npq _unitguard_no_such_target 2>/dev/null |
                grep -q '^execute_after_dh_installsystemd:'; then
                exec make -f debian/rules execute_after_dh_installsystemd
        fi ;;
*) echo "stub dh: unexpected $*" >&2; exit 2 ;;
esac
''')
t.stub('dh_listpackages', 'for p in $PACKAGES; do echo "$p"; done\n')

t.good_root('src/debian/hello')
t.bad_root('src/debian/hello-bad')
t.write('src/debian/hello-doc/usr/share/doc/hello-doc/README', 'no units here\n')
t.write('src/debian/hello-user/usr/lib/systemd/user/app.service', GOOD_USER_SERVICE)


def build(packages, options=None):
    env = dict(t.env, PACKAGES=packages)
    if options:
        env['DEB_BUILD_OPTIONS'] = options
    return t.run(['./debian/rules', 'binary'], cwd=pkg, env=env)


p = build('hello hello-doc hello-user')
t.expect_rc(p, 0, 'good packages')
t.expect_in('unitguard: checking debian/hello\n', p.stdout, 'good packages', p)
t.expect_in('unitguard: checking debian/hello-user (user units)\n', p.stdout, 'good packages', p)
t.expect('hello-doc' not in p.stdout, 'a package without units is skipped', p)
t.expect(p.stdout.count('unitguard: 1 units, 0 rejected') == 2, 'both units checked', p)

p = build('hello hello-bad')
t.expect(p.returncode != 0, 'a package with a rejected unit fails the build', p)
t.expect_in('unitguard: checking debian/hello-bad\n', p.stdout, 'bad package', p)
t.expect_in(BAD_DROPIN_ERROR, p.stdout, 'the drop-in in etc/ is reported', p)
t.expect_in('1 rejected', p.stdout, 'bad package', p)

# A user unit that names another user: a warning, not a failure.
t.write('src/debian/hello-user/usr/lib/systemd/user/app.service.d/user.conf', '[Service]\nUser=bob\n')
p = build('hello-user')
t.expect_rc(p, 0, 'user unit with a warning')
t.expect_in('User=bob in a user unit', p.stdout, 'user rules applied', p)

p = build('hello-bad', 'nocheck parallel=2')
t.expect_rc(p, 0, 'DEB_BUILD_OPTIONS=nocheck skips the check')
t.expect('unitguard' not in p.stdout, 'nothing checked under nocheck', p)

t.finish()
