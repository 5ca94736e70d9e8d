#!/usr/bin/env python3
"""examples/host/check-loaded-units.sh: the pipeline over `systemctl cat`,
with a stub systemctl that replays a recorded stream (data/*.txt) and logs
its arguments, so no running systemd is needed."""
import os

from common import Test

t = Test()
script = t.example('examples', 'host', 'check-loaded-units.sh')
data = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data')
log = t.path('systemctl.args')
t.stub('systemctl', 'printf "%s\\n" "$*" >>"$SYSTEMCTL_LOG"\n'
       '[ -n "$SYSTEMCTL_CAT" ] && cat "$SYSTEMCTL_CAT"\n'
       'echo "No files found for dev-sda.device." >&2\nexit 1\n')


def host(stream, *args):
    if os.path.exists(log):
        os.unlink(log)
    env = dict(t.env, SYSTEMCTL_CAT=stream and os.path.join(data, stream), SYSTEMCTL_LOG=log)
    p = t.run(['/bin/sh', script] + list(args), env=env)
    p.systemctl = open(log).read() if os.path.exists(log) else ''
    return p


p = host('systemctl-cat-host.txt')
t.expect_rc(p, 0, 'a clean host')
t.expect(p.systemctl == "--system cat --no-pager *\n", 'systemctl arguments: %r' % p.systemctl)
t.expect_in('unitguard: 4 units, 0 rejected', p.stdout, 'every unit of the stream is judged', p)

p = host('systemctl-cat-0day.txt')
t.expect_rc(p, 1, 'a drop-in with User=0day')
t.expect_in('/etc/systemd/system/app-sync.service.d/zz-local.conf:3: error: ', p.stdout,
            'the finding names the drop-in and its line', p)
t.expect_in('1 rejected', p.stdout, 'the unit is rejected', p)

# Options go to unitguard check; --user to systemctl.
p = host('systemctl-cat-0day.txt', '--fail-on', 'never')
t.expect_rc(p, 0, '--fail-on never')
t.expect_in('zz-local.conf:3: error: ', p.stdout, 'still reported with --fail-on never', p)
p = host('systemctl-cat-host.txt', '--user')
t.expect_rc(p, 0, '--user')
t.expect(p.systemctl == "--user cat --no-pager *\n", 'systemctl --user: %r' % p.systemctl)
p = host('systemctl-cat-host.txt', '--policy', 'no-such-policy')
t.expect_rc(p, 2, 'a usage error of unitguard is passed on')

# No systemd (e.g. in a container): systemctl prints nothing.
p = host('')
t.expect_rc(p, 3, 'an empty stream')
t.expect_in('returned no unit files', p.stderr, 'an empty stream', p)

# The temporary copy of the stream is removed.
tmpdir = t.path('tmp')
os.mkdir(tmpdir)
env = dict(t.env, TMPDIR=tmpdir, SYSTEMCTL_CAT=os.path.join(data, 'systemctl-cat-0day.txt'), SYSTEMCTL_LOG=log)
p = t.run(['/bin/sh', script], env=env)
t.expect_rc(p, 1, 'with TMPDIR')
t.expect(os.listdir(tmpdir) == [], 'temporary files left: %r' % os.listdir(tmpdir))

t.finish()
