"""Fixture roots for unitguard-generator tests: unit search path and site
policy, each file given here so that the trees are easy to read and to
build in a scratch directory (symlinks included).

A value is the file's text, or ('link', TARGET) for a symlink."""
import os

LIB = 'lib/systemd/system/'
ETC = 'etc/systemd/system/'

# A site policy: the default, plus a rewrite that removes DEBUG= from the
# environment and one that adds PrivateTmp=yes to the service "fixme".
POLICY = '''version: 1
extends: default
rewrites:
  - id: no-debug-env
    remove: {section: Service, key: Environment, matching: "^DEBUG="}
  - id: fixme-private-tmp
    when: {unit: "fixme.service"}
    set: {section: Service, key: PrivateTmp, value: "yes"}
'''

BASIC = {
    # systemd --test starts from default.target: it pulls every unit in.
    LIB + 'default.target': '[Unit]\nDescription=Fixture\n'
                            'Wants=good.service bad.service bad-alias.service fixme.service dropfix.service '
                            'dropbad.service tpl@a.service gone.service lax.service rootreset.service badtpl@x.service\n',
    LIB + 'good.service': '[Service]\nExecStart=/bin/true\nUser=svc\n',
    # Invalid user name: fatal in the unit file (systemd: bad-setting).
    LIB + 'bad.service': '[Service]\nExecStart=/bin/true\nUser=a:b\n',
    # A name systemd 252 accepts with a warning, the default policy's
    # strict rule does not: systemd would load it.
    LIB + 'lax.service': '[Service]\nExecStart=/bin/true\nUser=0day\n',
    ETC + 'bad-alias.service': ('link', '/lib/systemd/system/bad.service'),
    # Changed by the rewrites: DEBUG= removed, PrivateTmp=yes added.
    LIB + 'fixme.service': '[Service]\nExecStart=/bin/true\nEnvironment=DEBUG=1\nEnvironment=KEEP=1\n',
    # Changed in a drop-in only; the other drop-in stays as it is.
    LIB + 'dropfix.service': '[Service]\nExecStart=/bin/true\nUser=svc\n',
    ETC + 'dropfix.service.d/10-env.conf': '[Service]\nEnvironment=DEBUG=1\nNice=5\n',
    LIB + 'dropfix.service.d/20-keep.conf': '[Service]\nEnvironment=KEEP=2\n',
    # A fatal line in a drop-in: systemd 252 loads the unit anyway, the
    # default policy rejects it.
    LIB + 'dropbad.service': '[Service]\nExecStart=/bin/true\n',
    ETC + 'dropbad.service.d/override.conf': '[Service]\nUser=0day\n',
    # A template and an instance pulled in by a wants link.
    LIB + 'tpl@.service': '[Service]\nExecStart=/bin/echo %i\nEnvironment=DEBUG=%i\n',
    ETC + 'multi-user.target.wants/tpl@a.service': ('link', '/lib/systemd/system/tpl@.service'),
    # A drop-in that needs a change and sets User=root over the unit's
    # own user: its copy would reset User= to root, so the unit is masked.
    LIB + 'rootreset.service': '[Service]\nExecStart=/bin/true\nUser=svc\n',
    ETC + 'rootreset.service.d/10-root.conf': '[Service]\nUser=root\nEnvironment=DEBUG=1\n',
    # A rejected template; its instance is named only inside
    # default.target, so the generator knows just the template: masking
    # it must mask the instance too.
    LIB + 'badtpl@.service': '[Service]\nExecStart=/bin/echo %i\nUser=a:b\n',
    # Masked by the administrator: not judged, left alone.
    LIB + 'gone.service': '[Service]\nExecStart=/bin/true\nUser=0day\n',
    ETC + 'gone.service': ('link', '/dev/null'),
}

# The same units with the policy asking for conditions instead of masks.
CONDITION_POLICY = POLICY + 'generator:\n  rejected: condition\n'

# A type-wide drop-in that needs a change: every service gets its own
# sanitized copy; a unit's own drop-in sorting after zz- keeps the
# condition drop-in last.
TYPEWIDE = {
    LIB + 'default.target': '[Unit]\nWants=one.service two.service late.service\n',
    LIB + 'one.service': '[Service]\nExecStart=/bin/true\n',
    LIB + 'two.service': '[Service]\nExecStart=/bin/true\nUser=svc\n',
    LIB + 'service.d/50-all.conf': '[Service]\nEnvironment=DEBUG=all\nEnvironment=ALL=1\n',
    LIB + 'late.service': '[Service]\nExecStart=/bin/true\n',
    LIB + 'late.service.d/zzz-late.conf': '[Service]\nUser=0day\n',
}

# Under a policy that mirrors systemd 252, a unit that names User= but
# would run as root is only a warning: the generator's own guard masks it,
# as the sanitized copy of its drop-in would set User=root.
MIRROR_POLICY = '''version: 1
extends: systemd-252
rewrites:
  - id: no-debug-env
    remove: {section: Service, key: Environment, matching: "^DEBUG="}
'''

USERRESET = {
    LIB + 'default.target': '[Unit]\nWants=rootreset.service\n',
    LIB + 'rootreset.service': '[Service]\nExecStart=/bin/true\nUser=svc\n',
    ETC + 'rootreset.service.d/10-root.conf': '[Service]\nUser=root\nEnvironment=DEBUG=1\n',
}

# A policy that predicts systemd 233 (no type-wide drop-ins yet): the
# unit set is still the one the installed systemd assembles, with
# service.d/ applied, so its changed copy is written for every service.
POLICY_233 = MIRROR_POLICY.replace('systemd-252', 'systemd-233')

FIXTURES = {
    'typewide-233': {'files': TYPEWIDE, 'policy': POLICY_233},
    'userreset': {'files': USERRESET, 'policy': MIRROR_POLICY},
    'basic': {'files': BASIC, 'policy': POLICY},
    'condition': {'files': BASIC, 'policy': CONDITION_POLICY},
    'typewide': {'files': TYPEWIDE, 'policy': CONDITION_POLICY},
}


def build(root, name):
    """Writes fixture name below root; returns the policy's path or None."""
    fx = FIXTURES[name]
    for rel, content in sorted(fx['files'].items()):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(content, tuple):
            os.symlink(content[1], path)
        else:
            with open(path, 'w') as f:
                f.write(content)
    if fx.get('policy') is None:
        return None
    policy = os.path.join(root, 'etc/unitguard/policy.yaml')
    os.makedirs(os.path.dirname(policy), exist_ok=True)
    with open(policy, 'w') as f:
        f.write(fx['policy'])
    return policy


def listing(top):
    """The whole output tree as text: every directory, symlink (with its
    target) and file (with its mode and content), sorted by path."""
    paths = []
    for dirpath, dirnames, filenames in os.walk(top):
        paths.extend(os.path.join(dirpath, n) for n in dirnames + filenames)
    out = []
    for path in sorted(paths):
        rel = os.path.relpath(path, top)
        st = os.lstat(path)
        if os.path.islink(path):
            out.append('%s -> %s' % (rel, os.readlink(path)))
        elif os.path.isdir(path):
            out.append('%s/' % rel)
        else:
            with open(path, errors='replace') as f:
                body = f.read()
            out.append('%s (mode %o):' % (rel, st.st_mode & 0o7777))
            out.extend('  | ' + line for line in body.split('\n'))
    return '\n'.join(out) + '\n'
