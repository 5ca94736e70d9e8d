#!/usr/bin/env python3
""".pre-commit-hooks.yaml: well-formed hook definitions in pre-commit's
format, a `files` pattern that selects unit files and drop-ins and nothing
else, and each hook's command run the way pre-commit runs it (entry, then
args, then the selected file names when pass_filenames is true) on a
scratch repository with the built unitguard on PATH."""
import os
import re
import shlex

from common import Test, GOOD_SERVICE, BAD_DROPIN

# pre-commit's keys for a hook definition (required ones first).
REQUIRED = {'id', 'name', 'entry', 'language'}
OPTIONAL = {'alias', 'files', 'exclude', 'types', 'types_or', 'exclude_types', 'always_run',
            'fail_fast', 'verbose', 'pass_filenames', 'require_serial', 'description',
            'language_version', 'log_file', 'minimum_pre_commit_version', 'args', 'stages',
            'additional_dependencies'}


def parse_minimal(text):
    """The subset of YAML the file uses: a list of flat mappings with plain
    or quoted scalars and [a, b] lists."""
    hooks = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        m = re.match(r'^(- |  )(\w+): (.*)$', line)
        assert m, 'unexpected line: ' + line
        if m.group(1) == '- ':
            hooks.append({})
        key, value = m.group(2), m.group(3).strip()
        if value.startswith("'"):
            assert value.endswith("'"), line
            value = value[1:-1].replace("''", "'")
        elif value.startswith('['):
            value = [v.strip() for v in value.strip('[]').split(',') if v.strip()]
        elif value in ('true', 'false'):
            value = value == 'true'
        hooks[-1][key] = value
    return hooks


t = Test()
text = open(t.example('.pre-commit-hooks.yaml')).read()
hooks = parse_minimal(text)
try:
    import yaml
except ImportError:
    yaml = None
if yaml is not None:
    t.expect(yaml.safe_load(text) == hooks, 'PyYAML and the minimal reader agree')

ids = [h.get('id') for h in hooks]
t.expect(ids == ['unitguard', 'unitguard-tree'], 'hook ids: %r' % ids)
for h in hooks:
    t.expect(REQUIRED <= set(h), '%s: has %s' % (h.get('id'), sorted(REQUIRED)))
    t.expect(set(h) <= REQUIRED | OPTIONAL, '%s: unknown keys %s' % (h.get('id'), set(h) - REQUIRED - OPTIONAL))
    t.expect(h.get('language') == 'system', '%s: language: system' % h.get('id'))
    t.expect(isinstance(h.get('pass_filenames'), bool), '%s: pass_filenames is a boolean' % h.get('id'))
    t.expect(shlex.split(h['entry'])[:2] == ['unitguard', 'check'], '%s: runs unitguard check' % h.get('id'))

    files = re.compile(h['files'])   # pre-commit uses re.search
    for name in ['app.service', 'units/app.service', 'debian/foo.socket', 'a/b/backup.timer',
                 'x/getty@.service', 'units/app.service.d/10-user.conf', 'system/service.d/10-all.conf',
                 'units/foo-.service.d/50-x.conf', 'data/local-fs.target', 'srv-data.mount',
                 'units/user.slice', 'x.path', 'dev-sda.swap', 'home.automount', 'x.scope',
                 'sys-foo.device']:
        t.expect(files.search(name), '%s: selects %s' % (h['id'], name))
    for name in ['README.md', 'app.service.bak', 'app.service~', 'units/app.service.d/README',
                 'src/service.c', 'foo.conf', 'service', 'units/app.service.d', 'app.services',
                 'etc/app.conf', 'myservice.d/x.conf', 'units/app.service.d/x.conf.orig']:
        t.expect(not files.search(name), '%s: leaves out %s' % (h['id'], name))


def repo(rel, bad):
    t.write(rel + '/units/app.service', GOOD_SERVICE)
    t.write(rel + '/units/app.socket', '[Socket]\nListenStream=/run/app.sock\n')
    t.write(rel + '/README.md', 'An app.\n')
    t.write(rel + '/units/app.service.bak', 'not a unit\n')
    if bad:
        t.write(rel + '/units/app.service.d/10-user.conf', BAD_DROPIN)
    else:
        t.write(rel + '/units/app.service.d/10-mem.conf', '[Service]\nMemoryMax=1G\n')
    top = t.path(rel)
    names = []
    for d, dirs, fs in os.walk(top):
        dirs.sort()
        names += sorted(os.path.relpath(os.path.join(d, f), top) for f in fs)
    return top, names


def run_hook(h, top, names):
    files = re.compile(h['files'])
    selected = [n for n in names if files.search(n) and os.path.isfile(os.path.join(top, n))
                and not os.path.islink(os.path.join(top, n))]
    argv = shlex.split(h['entry']) + list(h.get('args', []))
    if h['pass_filenames']:
        argv += selected
    return t.run(argv, cwd=top), selected


for h in hooks:
    top, names = repo('good-' + h['id'], bad=False)
    p, selected = run_hook(h, top, names)
    t.expect(sorted(selected) == ['units/app.service', 'units/app.service.d/10-mem.conf', 'units/app.socket'],
             '%s: selected %r' % (h['id'], selected))
    t.expect_rc(p, 0, h['id'] + ' on good units')

    top, names = repo('bad-' + h['id'], bad=True)
    p, selected = run_hook(h, top, names)
    t.expect_rc(p, 1, h['id'] + ' on a rejected drop-in')
    t.expect(re.search(r'^(\./)?units/app\.service\.d/10-user\.conf:2: error: ', p.stdout, re.M),
             h['id'] + ': the drop-in is reported with its line', p)

t.finish()
