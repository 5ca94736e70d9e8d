#!/usr/bin/env python3
"""The shared corpus laid out as one root goes through unitguard-generator
under every shipped policy: no crash, exit 0, and exactly the outputs the
policy's verdicts predict, as `unitguard check --root DIR --format json`
gives them with the same policy:
  * a mask (symlink to /dev/null) for each rejected unit and each of its
    aliases (`unitguard units --root`), and no other mask;
  * for each changed unit, its sanitized copy (UNIT or UNIT.d/FILE), and
    no copy for any other unit;
  * the summary line's counts agree.

Usage: corpus-masks.py UNITGUARD GENERATOR CORPUS_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LAYOUT = os.path.join(HERE, '..', 'tools', 'corpus-root.py')


def aliases(exe, root):
    out = subprocess.run([exe, 'units', '--root', root], capture_output=True, text=True, check=True).stdout
    result, cur = {}, None
    for line in out.splitlines():
        m = re.match(r'^(\S+): ', line)
        if m:
            cur = m.group(1)
            result[cur] = []
        elif cur and line.startswith('  alias: '):
            result[cur].append(line[len('  alias: '):])
    return result


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    exe, gen, corpus = (os.path.abspath(a) for a in sys.argv[1:])
    work = tempfile.mkdtemp(prefix='ug-gen-corpus-')
    failures = 0
    try:
        root = os.path.join(work, 'root')
        subprocess.run([sys.executable, LAYOUT, corpus, root], check=True, stdout=subprocess.DEVNULL)
        names = aliases(exe, root)
        policies = [l.split()[0] for l in subprocess.run([exe, 'policy', 'list'], capture_output=True, text=True,
                                                         check=True).stdout.splitlines() if l.strip()]
        for policy in policies:
            doc = json.loads(subprocess.run([exe, 'check', '--root', root, '--policy', policy, '--format', 'json'],
                                            capture_output=True, text=True).stdout)
            rejected = {u['id'] for u in doc['units'] if u['verdict'] == 'rejected'}
            changed = {u['id'] for u in doc['units'] if u['verdict'] == 'changed'}
            want_masks = set()
            for u in rejected:
                want_masks.add(u)
                want_masks.update(names.get(u, []))

            out = os.path.join(work, 'out-' + policy)
            os.makedirs(out)
            p = subprocess.run([gen, '--root', root, '--policy', policy, '--log=stderr', out],
                               capture_output=True, text=True, timeout=300)
            masks, copies, problems = set(), set(), []
            for dirpath, dirnames, filenames in os.walk(out):
                for n in dirnames + filenames:
                    path = os.path.join(dirpath, n)
                    rel = os.path.relpath(path, out)
                    if os.path.islink(path):
                        if os.readlink(path) != '/dev/null':
                            problems.append('%s: symlink to %s' % (rel, os.readlink(path)))
                        masks.add(rel)
                    elif os.path.isfile(path):
                        copies.add(rel.split('/')[0][:-2] if '/' in rel else rel)
            summary = p.stderr.strip().split('\n')[-1]
            m = re.search(r'(\d+) masked, (\d+) condition set, (\d+) sanitized', summary)
            if p.returncode != 0:
                problems.append('exit status %d' % p.returncode)
            if masks != want_masks:
                problems.append('masks: missing %s, unexpected %s' % (sorted(want_masks - masks)[:10],
                                                                      sorted(masks - want_masks)[:10]))
            if copies != changed:
                problems.append('sanitized copies: missing %s, unexpected %s' % (sorted(changed - copies)[:10],
                                                                                 sorted(copies - changed)[:10]))
            if not m or (int(m.group(1)), int(m.group(2)), int(m.group(3))) != (len(rejected), 0, len(changed)):
                problems.append('summary does not match %d rejected, %d changed: %s' %
                                (len(rejected), len(changed), summary))
            if problems:
                failures += 1
                print('FAIL: %s' % policy)
                for pr in problems:
                    print('    ' + pr)
                print(p.stderr[-2000:])
            else:
                print('ok: %s: %d units masked (%d names), %d sanitized' % (policy, len(rejected), len(masks),
                                                                          len(changed)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
