#!/usr/bin/env python3
"""Every file under a tree given to unitguard is accounted for.

`check -v --format json TREE` must, for every entry below TREE (files and
symlinks, found without following symlinks), either list it among the files
of a judged unit, or name it (or a directory above it inside the tree) in a
finding: judged, reported as not a unit, or skipped with the reason. Files in
= files of units + files named in findings; nothing is dropped silently.

Two trees: a synthetic one with every kind of entry the walker meets (units,
drop-ins, files that are not units, hidden files and directories, dependency
directories, masks and aliases, a nested *.d directory that is not a drop-in
directory, a symlinked drop-in directory, an unreadable drop-in), and the
shared corpus laid out as one root with its links rebuilt.

Each tree is also read both ways the walker can read files (batched
through io_uring where the kernel offers it, and one by one with
UNITGUARD_IO_URING=0): `check -v --format json` and `filter` must give the
same output, errors and exit status; so must the same files named one
by one on the command line, a directory among them (read ahead in
batches too, lent the batch's buffers up to that directory, their types taken
from one listing of a directory that holds many of them, where plain reads
look at each path by itself), and `check --root` and
`filter --root`, which read a root's units ahead in batches, on the same
trees and on a root of units that cannot be read as files (a FIFO, a
directory, an empty file, a drop-in shared by several units).

Usage: tree-accounting.py UNITGUARD CORPUS_DIR CORPUS_ROOT_TOOL
"""
import json
import os
import subprocess
import sys
import tempfile


def entries(tree):
    out = []
    for dirpath, dirnames, filenames in os.walk(tree):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            out.append(os.path.join(dirpath, name))
    return out


def accounted(exe, tree):
    p = subprocess.run([exe, 'check', '-v', '--format', 'json', '--fail-on', 'never', tree],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1, 3):
        print('%s: unexpected exit %d: %s' % (tree, p.returncode, p.stderr))
        return None
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        print('%s: check --format json did not write one JSON document (%s): %r' % (tree, e, p.stdout[:200]))
        return None
    files = set()
    for u in doc['units']:
        files.update(os.path.normpath(f) for f in u['files'])
    named = {os.path.normpath(f['path']) for f in doc['findings'] if f['path']}
    return files, named


def check_tree(exe, tree, label):
    got = accounted(exe, tree)
    if got is None:
        return 1
    files, named = got
    missing = []
    for e in entries(tree):
        e = os.path.normpath(e)
        if e in files or e in named:
            continue
        # A symlinked directory that was followed: its files were judged.
        if os.path.islink(e) and any(f.startswith(e + '/') for f in files):
            continue
        # Covered by a finding about a directory above it in the tree.
        d = os.path.dirname(e)
        while len(d) >= len(tree) and d not in named:
            d = os.path.dirname(d)
        if len(d) < len(tree):
            missing.append(os.path.relpath(e, tree))
    n = len(entries(tree))
    if missing:
        print('%s: %d of %d entries neither judged nor named in a finding:' % (label, len(missing), n))
        for m in sorted(missing)[:40]:
            print('  ' + m)
        return 1
    print('%s: all %d entries accounted for (%d in units, %d named in findings)'
          % (label, n, len(files), len(named)))
    return 0


def same_either_way(exe, tree, label, modes=('tree', 'root', 'files')):
    plain = dict(os.environ, UNITGUARD_IO_URING='0')
    runs = []
    if 'tree' in modes:
        runs += [['check', '-v', '--format', 'json', '--fail-on', 'never', tree], ['filter', tree]]
    if 'files' in modes:
        # Every entry named on the command line (units, drop-ins beside
        # their units and alone, symlinks, FIFOs, directories), twice over.
        # A directory among them halfway: it is walked through the same
        # batch that lends the files named before it their buffers.
        given = sorted(entries(tree))
        half = len(given) // 2
        given = given[:half] + [os.path.dirname(given[-1])] + given[half:]
        given += [os.path.dirname(given[0]), given[0] + '.missing'] + given[:3]
        runs += [['check', '-v', '--format', 'json', '--fail-on', 'never'] + given, ['filter'] + given]
    if 'root' in modes:
        runs += [['check', '-v', '--format', 'json', '--fail-on', 'never', '--root', tree],
                 ['filter', '--root', tree], ['filter', '--format', 'json', '--root', tree]]
    for args in runs:
        a = subprocess.run([exe] + args, capture_output=True)
        b = subprocess.run([exe] + args, capture_output=True, env=plain)
        shown = ' '.join(args) if len(args) < 12 else '%s ... (%d arguments)' % (' '.join(args[:6]), len(args))
        if (a.returncode, a.stdout, a.stderr) != (b.returncode, b.stdout, b.stderr):
            print('%s: %s differs between batched and one-by-one reads (exit %d vs %d)'
                  % (label, shown, a.returncode, b.returncode))
            return 1
        if not a.stdout and not a.stderr:
            print('%s: %s wrote nothing' % (label, shown))
            return 1
    print('%s: %d runs give the same output with batched and one-by-one reads' % (label, len(runs)))
    return 0


def unreadable_root(tree):
    """A root whose units include files that cannot be read as unit files,
    around the batch size (64 files), so batches hold both kinds."""
    sysd = os.path.join(tree, 'usr/lib/systemd/system')
    for i in range(150):
        write(os.path.join(sysd, 'u%03d.service' % i), '[Service]\nExecStart=/bin/true %d\n' % i)
        if i % 3 == 0:
            write(os.path.join(sysd, 'u%03d.service.d/10-a.conf' % i), '[Service]\nNice=%d\n' % (i % 19))
    os.mkfifo(os.path.join(sysd, 'u009.service.d/20-fifo.conf'))
    os.mkfifo(os.path.join(sysd, 'fifo.service'))
    os.makedirs(os.path.join(sysd, 'dir.service'))
    write(os.path.join(sysd, 'empty.service'), '')
    write(os.path.join(sysd, 'bad.service'), '[Service]\nUser=0day\nExecStart=/bin/true\n')
    write(os.path.join(sysd, 'shared.conf'), '[Service]\nUser=nobody\n')
    for i in range(0, 150, 7):
        os.makedirs(os.path.join(sysd, 'u%03d.service.d' % i), exist_ok=True)
        os.symlink('../shared.conf', os.path.join(sysd, 'u%03d.service.d/30-shared.conf' % i))
    etc = os.path.join(tree, 'etc/systemd/system')
    write(os.path.join(etc, 'u020.service'), '[Service]\nExecStart=/bin/false\n')
    os.makedirs(etc, exist_ok=True)
    os.symlink('/dev/null', os.path.join(etc, 'u030.service'))
    write(os.path.join(tree, 'run/systemd/system/u040.service.d/override.conf'), '[Service]\nUser=\n')


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)


def synthetic(tree):
    svc = '[Service]\nExecStart=/bin/true\n'
    sysd = os.path.join(tree, 'usr/lib/systemd/system')
    write(os.path.join(sysd, 'a.service'), svc)
    write(os.path.join(sysd, 'a.service.d/10-x.conf'), '[Service]\nNice=1\n')
    write(os.path.join(sysd, 'a.service.d/README'), 'not a drop-in\n')
    write(os.path.join(sysd, 'a.service.d/.hidden.conf'), '[Service]\nUser=0day\n')
    write(os.path.join(sysd, '.hidden.service'), svc)
    write(os.path.join(sysd, '.git/config'), '[core]\n')
    write(os.path.join(sysd, 'b.service.bak'), svc)
    write(os.path.join(sysd, 'orphan.service.d/10-y.conf'), '[Service]\nNice=2\n')
    write(os.path.join(sysd, 'service.d/10-all.conf'), '[Service]\nPrivateTmp=yes\n')
    write(os.path.join(sysd, 'multi-user.target.wants/.keep'), '')
    os.symlink('../a.service', os.path.join(sysd, 'multi-user.target.wants/a.service'))
    os.symlink('/dev/null', os.path.join(sysd, 'masked.service'))
    os.symlink('a.service', os.path.join(sysd, 'alias.service'))
    write(os.path.join(tree, 'usr/lib/dracut/modules.d/90x/x.service'), svc)
    write(os.path.join(tree, 'usr/lib/dracut/modules.d/90x/module-setup.sh'), '#!/bin/sh\n')
    write(os.path.join(tree, 'etc/systemd/system/c.service'), svc)
    os.makedirs(os.path.join(tree, 'etc/systemd/system/empty.d'))
    os.symlink('../../../usr/lib/systemd/system/a.service.d',
               os.path.join(tree, 'etc/systemd/system/c.service.d'))
    write(os.path.join(tree, 'etc/systemd/system/d.service'), svc)
    write(os.path.join(tree, 'etc/systemd/system/d.service.d/locked.conf'), '[Service]\nUser=app\n')
    if os.geteuid() != 0:
        os.chmod(os.path.join(tree, 'etc/systemd/system/d.service.d/locked.conf'), 0)


def main():
    exe, corpus, corpus_root = sys.argv[1:4]
    failed = 0
    with tempfile.TemporaryDirectory(prefix='ug-accounting-') as tmp:
        tree = os.path.join(tmp, 'synthetic')
        synthetic(tree)
        failed += check_tree(exe, tree, 'synthetic tree')
        failed += same_either_way(exe, tree, 'synthetic tree')
        hostile = os.path.join(tmp, 'unreadable')
        unreadable_root(hostile)
        failed += same_either_way(exe, hostile, 'root with unreadable units', modes=('root', 'files'))
        root = os.path.join(tmp, 'corpus')
        subprocess.run([sys.executable, corpus_root, corpus, root], check=True)
        failed += check_tree(exe, root, 'corpus as one tree')
        failed += same_either_way(exe, root, 'corpus as one tree')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
