#!/usr/bin/env python3
"""Proof that systemd itself sees what unitguard-generator wrote: systemd
252 (`systemd --test --system`, as nobody) runs the generator from
$SYSTEMD_GENERATOR_PATH over a fixture laid out at the real unit paths in a
private mount namespace, then dumps every unit it loaded. The real search
path applies, so the early generator directory outranks /etc exactly as at
boot. Each fixture runs twice, without and with the generator, so each
check also shows that the fixture needs the generator to pass.

Needs root (for the mount namespace), unshare(1), setpriv(1) and
/lib/systemd/systemd; skips (77) otherwise.

Usage: systemd-oracle.py GENERATOR"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixtures  # noqa: E402

SYSTEMD = '/lib/systemd/systemd'
SKIP = 77

NS_SCRIPT = r'''
set -e
fx=$1; gens=$2
mount -t tmpfs -o mode=755 tmpfs /etc/systemd/system
mount -t tmpfs -o mode=755 tmpfs /usr/lib/systemd/system
if [ -d "$fx/etc/systemd/system" ]; then cp -a "$fx/etc/systemd/system/." /etc/systemd/system/; fi
if [ -d "$fx/lib/systemd/system" ]; then cp -a "$fx/lib/systemd/system/." /usr/lib/systemd/system/; fi
exec env -i HOME=/tmp PATH=/usr/bin:/bin SYSTEMD_GENERATOR_PATH="$gens" \
    setpriv --reuid=nobody --regid=nogroup --clear-groups \
    /lib/systemd/systemd --test --system --no-pager
'''


def skip_reason():
    if os.geteuid() != 0:
        return 'needs root for a private mount namespace'
    for tool in ('unshare', 'setpriv'):
        if not shutil.which(tool):
            return '%s not found' % tool
    if not os.access(SYSTEMD, os.X_OK):
        return '%s not found' % SYSTEMD
    if subprocess.run(['unshare', '-m', 'true'], capture_output=True).returncode != 0:
        return 'unshare -m is not permitted here'
    return None


def parse_dump(text):
    """{unit: [lines]} from systemd --test's dump, aliases included as keys."""
    units, cur = {}, None
    for line in text.split('\n'):
        m = re.match(r'^\t-> Unit (.+):$', line)
        if m:
            cur = []
            units[m.group(1)] = cur
            continue
        if cur is not None and line.startswith('\t\t'):
            cur.append(line.strip())
            m = re.match(r'^Alias: (.+)$', line.strip())
            if m:
                units[m.group(1)] = cur
    return units


def run_systemd(work, name, with_generator, gen):
    fx = os.path.join(work, name + ('-gen' if with_generator else '-plain'))
    os.makedirs(fx)
    policy = fixtures.build(fx, name)
    gens = os.path.join(work, 'gens-' + name + ('-on' if with_generator else '-off'))
    os.makedirs(gens)
    if with_generator:
        wrapper = os.path.join(gens, 'unitguard-generator')
        with open(wrapper, 'w') as f:
            f.write('#!/bin/sh\nexec %s --policy %s --log=stderr "$@"\n' % (gen, policy))
        os.chmod(wrapper, 0o755)
    for dirpath, dirnames, filenames in os.walk(work):
        os.chmod(dirpath, 0o755)
    p = subprocess.run(['unshare', '-m', 'sh', '-c', NS_SCRIPT, 'sh', fx, gens],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit('systemd --test failed (%d):\n%s%s' % (p.returncode, p.stdout[-3000:], p.stderr[-3000:]))
    return parse_dump(p.stdout), p.stdout + p.stderr


class Checker:
    def __init__(self):
        self.failures = 0

    def check(self, ok, what, lines=None):
        if ok:
            print('ok: %s' % what)
        else:
            self.failures += 1
            print('FAIL: %s' % what)
            for line in (lines or []):
                print('    ' + line)


def field(lines, key):
    return [l[len(key) + 2:] for l in lines if l.startswith(key + ': ')]


def has(lines, needle):
    return any(needle in l for l in lines)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    why = skip_reason()
    if why:
        print('skipped: ' + why)
        return SKIP
    gen = os.path.abspath(sys.argv[1])
    c = Checker()
    work = tempfile.mkdtemp(prefix='ug-gen-oracle-')
    os.chmod(work, 0o755)
    try:
        # --- basic: masks, sanitized unit files and drop-ins -------------
        plain, _ = run_systemd(work, 'basic', False, gen)
        dump, log = run_systemd(work, 'basic', True, gen)
        u = lambda d, n: d.get(n, [])  # noqa: E731
        c.check(field(u(plain, 'bad.service'), 'Unit Load State') == ['bad-setting'],
                'without the generator bad.service is bad-setting', u(plain, 'bad.service'))
        c.check(field(u(dump, 'bad.service'), 'Unit Load State') == ['masked'], 'bad.service masked', u(dump, 'bad.service'))
        c.check(field(u(dump, 'bad-alias.service'), 'Unit Load State') == ['masked'], 'its alias bad-alias.service masked',
                u(dump, 'bad-alias.service'))
        c.check(field(u(plain, 'dropbad.service'), 'Unit Load State') == ['loaded'],
                'without the generator dropbad.service (fatal line in a drop-in) loads', u(plain, 'dropbad.service'))
        c.check(field(u(dump, 'dropbad.service'), 'Unit Load State') == ['masked'], 'dropbad.service masked',
                u(dump, 'dropbad.service'))
        fx = u(dump, 'fixme.service')
        c.check(has(u(plain, 'fixme.service'), 'DEBUG=1'), 'without the generator fixme.service has DEBUG=1')
        c.check(field(fx, 'Unit Load State') == ['loaded'] and not has(fx, 'DEBUG=') and has(fx, 'KEEP=1')
                and 'PrivateTmp: yes' in fx and has(field(fx, 'Fragment Path'), '/generator.early/fixme.service'),
                'fixme.service loads the sanitized copy: DEBUG= removed, PrivateTmp=yes added', fx)
        df = u(dump, 'dropfix.service')
        c.check(has(u(plain, 'dropfix.service'), 'DEBUG=1'), 'without the generator dropfix.service has DEBUG=1')
        c.check(not has(df, 'DEBUG=') and has(df, 'KEEP=2') and 'Nice: 5' in df
                and field(df, 'Fragment Path') == ['/lib/systemd/system/dropfix.service']
                and has(field(df, 'DropIn Path'), '/generator.early/dropfix.service.d/10-env.conf')
                and has(field(df, 'DropIn Path'), '/lib/systemd/system/dropfix.service.d/20-keep.conf'),
                'dropfix.service: the sanitized drop-in shadows the original, the other still applies', df)
        tp = u(dump, 'tpl@a.service')
        c.check(has(u(plain, 'tpl@a.service'), 'DEBUG=a'), 'without the generator tpl@a.service has DEBUG=a')
        c.check(field(tp, 'Unit Load State') == ['loaded'] and not has(tp, 'DEBUG='),
                'instance tpl@a.service without DEBUG=', tp)
        c.check(field(u(dump, 'good.service'), 'Fragment Path') == ['/lib/systemd/system/good.service'],
                'good.service untouched', u(dump, 'good.service'))
        c.check(field(u(dump, 'gone.service'), 'Unit Load State') == ['masked'], 'gone.service stays masked')
        c.check(field(u(plain, 'lax.service'), 'Unit Load State') == ['loaded'],
                'without the generator lax.service (User=0day) loads')
        c.check(field(u(dump, 'lax.service'), 'Unit Load State') == ['masked'], 'lax.service masked')
        c.check('User: root' in u(plain, 'rootreset.service'), 'without the generator rootreset.service runs as root')
        c.check(field(u(dump, 'rootreset.service'), 'Unit Load State') == ['masked'],
                'rootreset.service masked: a sanitized copy of its drop-in would set User=root')
        c.check(field(u(plain, 'badtpl@x.service'), 'Unit Load State') == ['bad-setting'],
                'without the generator badtpl@x.service is bad-setting', u(plain, 'badtpl@x.service'))
        c.check(field(u(dump, 'badtpl@x.service'), 'Unit Load State') == ['masked'],
                'badtpl@x.service, an instance the generator did not know, masked with its template',
                u(dump, 'badtpl@x.service'))
        c.check('unitguard-generator: 2 masked' not in log and re.search(r'5 masked, 0 condition set, 4 sanitized', log),
                'the generator logged its summary through systemd', log.split('\n')[-20:])

        # --- condition: a failing condition instead of a mask ------------
        dump, _ = run_systemd(work, 'condition', True, gen)
        db = u(dump, 'dropbad.service')
        c.check(field(db, 'Unit Load State') == ['loaded']
                and has(field(db, 'DropIn Path'), '/generator.early/dropbad.service.d/zz-unitguard.conf')
                and has(db, 'PathExists: !/'),
                'dropbad.service (systemd loads it) gets the failing condition', db)
        lx = u(dump, 'lax.service')
        c.check(field(lx, 'Unit Load State') == ['loaded'] and has(lx, 'PathExists: !/'),
                'lax.service (systemd loads it) gets the failing condition', lx)
        c.check(field(u(dump, 'bad.service'), 'Unit Load State') == ['masked'],
                'bad.service (systemd refuses it) is masked: a drop-in cannot make it load', u(dump, 'bad.service'))

        # --- userreset: the guard against copies that set User=root --------
        plain, _ = run_systemd(work, 'userreset', False, gen)
        dump, _ = run_systemd(work, 'userreset', True, gen)
        c.check('User: root' in u(plain, 'rootreset.service'), 'without the generator rootreset.service runs as root')
        c.check(field(u(dump, 'rootreset.service'), 'Unit Load State') == ['masked'],
                'rootreset.service (mirror policy: changed) masked, not given a User=root copy')

        # --- typewide: per-unit copies of a type-wide drop-in --------------
        plain, _ = run_systemd(work, 'typewide', False, gen)
        dump, _ = run_systemd(work, 'typewide', True, gen)
        for name in ('one.service', 'two.service'):
            lines = u(dump, name)
            c.check(has(u(plain, name), 'DEBUG=all'), 'without the generator %s has DEBUG=all' % name)
            c.check(not has(lines, 'DEBUG=') and has(lines, 'ALL=1')
                    and has(field(lines, 'DropIn Path'), '/generator.early/%s.d/50-all.conf' % name),
                    '%s: its copy of service.d/50-all.conf shadows the original' % name, lines)
        late = u(dump, 'late.service')
        drop = field(late, 'DropIn Path')
        c.check(len(drop) >= 2 and drop[-1].endswith('/late.service.d/zzz-late~unitguard.conf') and has(late, 'PathExists: !/'),
                'late.service: the condition drop-in sorts after zzz-late.conf', late)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
