#!/usr/bin/env python3
"""Lays ../shared/corpus out as DESTDIR roots: the package trees merged into
one root (or one root per package), with the symlinks listed in
SYMLINKS.tsv rebuilt as real symlinks (the corpus may carry them as small
files holding the target).

Usage: corpus-root.py CORPUS_DIR OUT_DIR [--per-package]
"""
import os
import shutil
import sys


def load_links(corpus):
    links = {}
    with open(os.path.join(corpus, 'SYMLINKS.tsv')) as f:
        next(f)
        for line in f:
            path, target = line.rstrip('\n').split('\t')
            links[path] = target
    return links


def copy_package(corpus, pkg, dest, links):
    base = os.path.join(corpus, 'debian', pkg)
    for dirpath, dirnames, filenames in os.walk(base):
        rel_dir = os.path.relpath(dirpath, base)
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            src = os.path.join(dirpath, name)
            rel = os.path.normpath(os.path.join(rel_dir, name))
            out = os.path.join(dest, rel)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            if os.path.lexists(out):
                continue            # the first package wins, as dpkg would refuse the clash
            key = 'debian/%s/%s' % (pkg, rel)
            if key in links:
                os.symlink(links[key], out)
            elif os.path.islink(src):
                os.symlink(os.readlink(src), out)
            else:
                shutil.copyfile(src, out)


def main():
    corpus, out = sys.argv[1], sys.argv[2]
    per_package = '--per-package' in sys.argv
    links = load_links(corpus)
    pkgs = sorted(os.listdir(os.path.join(corpus, 'debian')))
    for pkg in pkgs:
        copy_package(corpus, pkg, os.path.join(out, pkg) if per_package else out, links)
    return 0


if __name__ == '__main__':
    sys.exit(main())
