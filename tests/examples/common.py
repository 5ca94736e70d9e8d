"""Shared set-up for the tests of examples/: a scratch directory, a bin/
directory that puts the built unitguard on PATH as `unitguard` (the way the
examples call it), sample units, and result checks.

Every test is run as: python3 TEST.py UNITGUARD SOURCE_ROOT"""
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77  # meson's exit code for a skipped test

GOOD_SERVICE = """[Unit]
Description=Example daemon

[Service]
ExecStart=/usr/bin/app --foreground
User=app
NoNewPrivileges=yes

[Install]
WantedBy=multi-user.target
"""

# CVE-2017-1000082: systemd 233 started this as root. Rejected by the
# default policy, also when it comes from a drop-in in another directory.
BAD_DROPIN = """[Service]
User=0day
"""
BAD_DROPIN_PATH = 'etc/systemd/system/app.service.d/10-user.conf'
BAD_DROPIN_ERROR = '/etc/systemd/system/app.service.d/10-user.conf:2: error: '

GOOD_USER_SERVICE = """[Unit]
Description=Example user daemon

[Service]
ExecStart=/usr/bin/app-session
"""


class Test:
    def __init__(self):
        if len(sys.argv) < 3:
            sys.exit('usage: %s UNITGUARD SOURCE_ROOT' % sys.argv[0])
        self.exe = os.path.abspath(sys.argv[1])
        self.src = os.path.abspath(sys.argv[2])
        self.tmp = tempfile.mkdtemp(prefix='unitguard-example-')
        self.bin = os.path.join(self.tmp, 'bin')
        os.mkdir(self.bin)
        os.symlink(self.exe, os.path.join(self.bin, 'unitguard'))
        self.env = dict(os.environ)
        self.env['PATH'] = self.bin + os.pathsep + os.environ.get('PATH', '/usr/bin:/bin')
        self.env.pop('DEB_BUILD_OPTIONS', None)
        self.failures = 0

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    def write(self, rel, text, mode=0o644):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'w') as f:
            f.write(text)
        os.chmod(p, mode)
        return p

    def stub(self, name, script):
        """A program `name` on PATH, ahead of the system's."""
        return self.write(os.path.join('bin', name), '#!/bin/sh\n' + script, 0o755)

    def good_root(self, rel):
        self.write(rel + '/usr/lib/systemd/system/app.service', GOOD_SERVICE)
        return self.path(rel)

    def bad_root(self, rel):
        self.good_root(rel)
        self.write(rel + '/' + BAD_DROPIN_PATH, BAD_DROPIN)
        return self.path(rel)

    def example(self, *parts):
        return os.path.join(self.src, *parts)

    def run(self, argv, cwd=None, env=None, stdin=None, shell=False):
        p = subprocess.run(argv, cwd=cwd or self.tmp, env=env or self.env, shell=shell,
                           input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=300)
        return p

    def expect(self, cond, what, p=None):
        if cond:
            return
        self.failures += 1
        print('FAIL: ' + what)
        if p is not None:
            print('  exit status: %d' % p.returncode)
            print('  stdout:\n' + ''.join('    ' + line + '\n' for line in p.stdout.splitlines()))
            print('  stderr:\n' + ''.join('    ' + line + '\n' for line in p.stderr.splitlines()))

    def expect_rc(self, p, rc, what):
        self.expect(p.returncode == rc, '%s: exit status %d, expected %d' % (what, p.returncode, rc), p)

    def expect_in(self, needle, text, what, p=None):
        self.expect(needle in text, '%s: %r not in output' % (what, needle), p)

    def finish(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        if self.failures:
            print('%d check(s) failed' % self.failures)
            sys.exit(1)
        print('ok')
        sys.exit(0)

    def skip(self, why):
        shutil.rmtree(self.tmp, ignore_errors=True)
        print('SKIP: ' + why)
        sys.exit(SKIP)
