#!/usr/bin/env python3
"""Differential test of the unit loader against systemd itself.

Builds random roots (unit files in several directories of the search path,
masks, aliases by relative and absolute symlinks, links into the search path
under the same name, linked unit files, drop-in directories for names,
templates, instances, dash prefixes and types, masked drop-ins, .wants/
links to instances, a merged or split /usr) and compares, for every unit
`unitguard units --root R --format json` reports, what
`systemd-analyze --root=R verify NAME` (debug dump) says: masked or not,
the fragment path, the aliases and the drop-in paths in order.

Usage: oracle-lookup.py UNITGUARD [N_TREES]   (ORACLE_SEED sets the seed)
Exits 77 (skipped) when systemd-analyze is not installed.
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

DIRS = ['etc/systemd/system', 'run/systemd/system', 'usr/local/lib/systemd/system',
        'lib/systemd/system', 'usr/lib/systemd/system']
NAMES = ['a.service', 'b.service', 'c.socket', 'foo-bar.service', 'foo-bar-baz.service',
         'foo.service', 't@.service', 'u@.service', 'x-y@.service', 'd.target', 'e.timer',
         'v.w-x.service']
INSTANCES = ['t@one.service', 't@two.service', 'u@one.service', 'x-y@z.service']
CONFS = ['10-a.conf', '20-b.conf', '50-c.conf', 'override.conf']
CONTENT = {
    'service': '[Service]\nExecStart=/bin/true\n',
    'socket': '[Socket]\nListenStream=/run/x.sock\n',
    'target': '[Unit]\nDescription=t\n',
    'timer': '[Timer]\nOnBootSec=1h\nUnit=a.service\n',
}


def suffix(name):
    return name.rsplit('.', 1)[1]


def dropin_keys():
    keys = NAMES + INSTANCES + ['foo-.service', 'foo-bar-.service', 'x-@.service', 'x-@z.service',
                                'v.w-.service', 'service', 'socket', 'timer']
    return keys


def build_tree(rnd, root):
    merged = rnd.random() < 0.5
    os.makedirs(os.path.join(root, 'usr/lib/systemd/system'))
    if merged:
        os.symlink('usr/lib', os.path.join(root, 'lib'))
    dirs = [d for d in DIRS if not (merged and d.startswith('lib/'))]
    for d in dirs:
        os.makedirs(os.path.join(root, d), exist_ok=True)
    os.makedirs(os.path.join(root, 'opt'), exist_ok=True)

    def put(d, name, text):
        p = os.path.join(root, d, name)
        if os.path.lexists(p):
            return
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'w') as f:
            f.write(text)

    def link(d, name, target):
        p = os.path.join(root, d, name)
        if os.path.lexists(p):
            return
        os.makedirs(os.path.dirname(p), exist_ok=True)
        os.symlink(target, p)

    for _ in range(rnd.randint(3, 10)):
        name = rnd.choice(NAMES)
        d = rnd.choice(dirs)
        kind = rnd.random()
        if kind < 0.55:
            put(d, name, CONTENT[suffix(name)])
        elif kind < 0.62:
            put(d, name, '')                        # empty file: masked
        elif kind < 0.7:
            link(d, name, '/dev/null')
        elif kind < 0.85:
            # alias to another name of the same type (maybe invalid)
            same = [n for n in NAMES if suffix(n) == suffix(name) and n != name]
            if same:
                t = rnd.choice(same)
                if rnd.random() < 0.5:
                    link(d, name, t)
                else:
                    link(d, name, '/' + rnd.choice(DIRS) + '/' + t)
        elif kind < 0.92:
            # same name elsewhere in the search path
            link(d, name, '/' + rnd.choice(DIRS) + '/' + name)
        else:
            # linked unit file outside the search path (relative, so the
            # host-side resolution of systemd-analyze stays inside the root)
            put('opt', name, CONTENT[suffix(name)])
            depth = d.count('/') + 1
            link(d, name, '../' * depth + 'opt/' + name)
    for _ in range(rnd.randint(0, 3)):
        inst = rnd.choice(INSTANCES)
        d = rnd.choice(dirs)
        if rnd.random() < 0.5:
            link(d + '/multi-user.target.wants', inst, '/usr/lib/systemd/system/' + inst.split('@')[0] + '@.service')
        else:
            link(d, inst, inst.split('@')[0] + '@.service')
    for _ in range(rnd.randint(0, 12)):
        key = rnd.choice(dropin_keys())
        d = rnd.choice(dirs)
        conf = rnd.choice(CONFS)
        if rnd.random() < 0.15:
            link(d + '/' + key + '.d', conf, '/dev/null')
        else:
            put(d + '/' + key + '.d', conf, '[Unit]\nDescription=%s\n' % conf)


def unitguard_units(exe, root):
    p = subprocess.run([exe, 'units', '--root', root, '--format', 'json'], capture_output=True, text=True)
    if p.returncode not in (0, 3):
        raise SystemExit('unitguard units failed: %d %s' % (p.returncode, p.stderr))
    return [json.loads(l) for l in p.stdout.splitlines()]


def systemd_view(root, names):
    env = dict(os.environ, SYSTEMD_LOG_LEVEL='debug', SYSTEMD_LOG_COLOR='0')
    p = subprocess.run(['systemd-analyze', '--root=' + root, 'verify'] + names, capture_output=True,
                       text=True, env=env, cwd='/')
    out = {}
    cur = None
    # The dump goes to stdout, the log ("is masked") to stderr.
    for line in (p.stdout + '\n' + p.stderr).splitlines():
        m = re.match(r'\s*-> Unit (\S+):$', line)
        if m:
            cur = {'masked': False, 'fragment': None, 'aliases': set(), 'dropins': []}
            out[m.group(1)] = cur
            continue
        m = re.match(r'Unit (\S+) is masked\.$', line)
        if m:
            out[m.group(1)] = {'masked': True}
            cur = None
            continue
        if cur is None:
            continue
        m = re.match(r'\s+Alias: (\S+)$', line)
        if m:
            cur['aliases'].add(m.group(1))
        m = re.match(r'\s+Fragment Path: (.*)$', line)
        if m:
            cur['fragment'] = m.group(1)
        m = re.match(r'\s+DropIn Path: (.*)$', line)
        if m:
            cur['dropins'].append(m.group(1))
    return out


def strip(root, p):
    return p[len(root):] if p and p.startswith(root) else p


def compare(root, ours, theirs):
    problems = []
    for u in ours:
        uid = u['id']
        if u['state'] in ('bad', 'dropins-only') or ('@' in uid and uid.split('@')[1].startswith('.')):
            continue        # templates cannot be verified; no unit to compare
        t = theirs.get(uid)
        if t is None:
            problems.append('%s: systemd did not load it (ours: %s)' % (uid, u['state']))
            continue
        if u['state'] == 'masked' or t['masked']:
            if not (u['state'] == 'masked' and t['masked']):
                problems.append('%s: masked: ours %s, systemd %s' % (uid, u['state'] == 'masked', t['masked']))
            continue
        frag = strip(root, t['fragment'])
        if frag != u['fragment']['path']:
            problems.append('%s: fragment: ours %s, systemd %s' % (uid, u['fragment']['path'], frag))
        aliases = {a for a in t['aliases']}
        if aliases != set(u['aliases']):
            problems.append('%s: aliases: ours %s, systemd %s' % (uid, sorted(u['aliases']), sorted(aliases)))
        dropins = [strip(root, d) for d in t['dropins']]
        mine = [d['path'] for d in u['dropins']]
        if dropins != mine:
            problems.append('%s: drop-ins:\n    ours    %s\n    systemd %s' % (uid, mine, dropins))
    return problems


def compare_root(exe, root):
    """One given root (e.g. the shared corpus laid out by tests/tools/corpus-root.py)."""
    root = os.path.abspath(root)
    ours = unitguard_units(exe, root)
    names = [u['id'] for u in ours if u['state'] in ('loaded', 'masked') and not re.search(r'@\.', u['id'])]
    theirs = {}
    for i in range(0, len(names), 100):
        theirs.update(systemd_view(root, names[i:i + 100]))
    problems = compare(root, [u for u in ours if u['id'] in names], theirs)
    for p in problems:
        print('  ' + p)
    print('%s: %d units compared, %d disagreements' % (root, len(names), len(problems)))
    return 1 if problems else 0


def main():
    if shutil.which('systemd-analyze') is None:
        print('systemd-analyze not installed')
        return 77
    exe = os.path.abspath(sys.argv[1])
    if len(sys.argv) > 3 and sys.argv[2] == '--root':
        return compare_root(exe, sys.argv[3])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    seed = int(os.environ.get('ORACLE_SEED', '1'))
    rnd = random.Random(seed)
    failures = 0
    compared = 0
    keep = None
    with tempfile.TemporaryDirectory(prefix='ug-lookup-') as tmp:
        for i in range(n):
            root = os.path.join(tmp, 'root%d' % i)
            os.makedirs(root)
            build_tree(rnd, root)
            ours = unitguard_units(exe, root)
            names = [u['id'] for u in ours if u['state'] in ('loaded', 'masked') and not re.search(r'@\.', u['id'])]
            if not names:
                continue
            theirs = systemd_view(root, names)
            problems = compare(root, [u for u in ours if u['id'] in names], theirs)
            compared += len(names)
            if problems:
                failures += 1
                keep = keep or tempfile.mkdtemp(prefix='ug-lookup-failed-')
                kept = os.path.join(keep, 'root%d' % i)
                shutil.copytree(root, kept, symlinks=True)
                print('tree %d (seed %d): %d disagreement(s); tree kept in %s' % (i, seed, len(problems), kept))
                for p in problems:
                    print('  ' + p)
    print('%d trees, %d units compared, %d trees with disagreements' % (n, compared, failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
