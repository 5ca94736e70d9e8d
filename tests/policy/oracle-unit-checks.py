#!/usr/bin/env python3
"""Differential test of the unit-level checks (names against types, each
type's verification) against systemd itself.

Generates units of every type, each either clean or carrying one defect
that one of systemd's unit-level checks is about (a timer without a
trigger, an empty OnCalendar= that drops every trigger, a socket with
Accept=yes and Service=, a mount whose Where= does not match its name, a
scope unit file, ...), with the defect sometimes in a drop-in. systemd
verifies all of them in one `systemd-analyze verify` run; per unit its
verdict is
  refused  - "Refusing", "bad unit file setting", not found, failed to load
  warned   - a message naming the unit without a line ("... Ignoring.")
  clean    - nothing about the unit as a whole;
unitguard with the mirror policy of the same version must say the same
(exit 1 for refused; a ':mirror.CHECK' warning for warned). Lines systemd
reports with a line number are per-line findings, not compared here.
Prints a per-check agreement table.

  oracle-unit-checks.py UNITGUARD [COUNT] [--version 252|257] [--seed N]

--version 257 runs systemd 257 in the root of
/work/shared/tools/systemd-root (sd-run; $SD_ROOT names the root) and skips
(77) when the root or the tool is missing. Version 252 needs the host's
systemd-analyze 252 and skips (77) without it."""
import collections
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

SD_RUN = os.environ.get('SD_RUN', '/work/shared/tools/systemd-root/sd-run')


def svc(*lines):
    return ['[Service]'] + list(lines)


# Each generator: (label, version filter, function(i, rng) -> dict) where the
# dict has name, lines, optional dropin (lines), optional companions
# {name: text}. label is the unit check the defect is about, or 'clean:...'.
def g_service(rng, i):
    n = f'u{i}.service'
    choices = [
        ('clean:service', lambda: svc('ExecStart=/bin/true')),
        ('clean:service-oneshot', lambda: svc('Type=oneshot', 'ExecStart=/bin/true', 'ExecStart=/bin/false')),
        ('clean:service-remain', lambda: svc('Type=oneshot', 'RemainAfterExit=yes', 'ExecStop=/bin/true')),
        ('clean:service-restart', lambda: svc('Type=oneshot', 'Restart=' + rng.choice(['no', 'on-failure', 'on-abnormal']),
                                             'ExecStart=/bin/true')),
        ('clean:service-busname', lambda: svc('BusName=org.example.U%d' % i, 'ExecStart=/bin/true')),
        ('clean:service-pam', lambda: svc('ExecStart=/bin/true', 'PAMName=login',
                                         'KillMode=' + rng.choice(['mixed', 'control-group']))),
        ('clean:service-exit-cgroup', lambda: svc('ExitType=cgroup', 'ExecStart=/bin/true')),
        ('clean:service-reset', lambda: svc('ExecStart=/bin/a', 'ExecStart=', 'ExecStart=/bin/true')),
        ('service.no-command', lambda: svc('Type=' + rng.choice(['simple', 'oneshot', 'exec']))),
        ('service.no-exec-start', lambda: svc('Type=' + rng.choice(['simple', 'exec', 'notify']), 'RemainAfterExit=yes',
                                             'ExecStop=/bin/true')),
        ('service.nothing-remains', lambda: svc('ExecStop=/bin/true')),
        ('service.multiple-exec-start', lambda: svc('ExecStart=/bin/true', 'ExecStart=/bin/false')
         if rng.random() < 0.5 else svc('ExecStart=/bin/true ; /bin/false')),
        ('service.oneshot-restart', lambda: svc('Type=oneshot', 'Restart=' + rng.choice(['always', 'on-success']),
                                               'ExecStart=/bin/true')),
        ('service.oneshot-exit-cgroup', lambda: svc('Type=oneshot', 'ExitType=cgroup', 'ExecStart=/bin/true')),
        ('service.dbus-no-bus-name', lambda: svc('Type=dbus', 'ExecStart=/bin/true')),
        ('service.pam-kill-mode', lambda: svc('ExecStart=/bin/true', 'PAMName=login',
                                             'KillMode=' + rng.choice(['process', 'none']))),
        ('service.forking-private-pids', lambda: svc('Type=forking', 'PrivatePIDs=yes', 'ExecStart=/bin/true')),
        ('exec.dynamic-user-home', lambda: svc('ExecStart=/bin/true', 'DynamicUser=yes', 'WorkingDirectory=~')),
        ('service.oneshot-runtime-max', lambda: svc('Type=oneshot', 'RuntimeMaxSec=5', 'ExecStart=/bin/true')),
        ('service.usb-function', lambda: svc('ExecStart=/bin/true', rng.choice(['USBFunctionStrings=/x',
                                                                                 'USBFunctionDescriptors=/x']))),
    ]
    label, f = rng.choice(choices)
    unit = {'name': n, 'lines': f()}
    # Sometimes the last setting comes from a drop-in instead.
    if len(unit['lines']) > 2 and rng.random() < 0.25:
        unit['dropin'] = ['[Service]', unit['lines'].pop()]
    # A service emptied by a drop-in.
    if label == 'clean:service' and rng.random() < 0.2:
        label, unit['dropin'] = 'service.no-command', ['[Service]', 'ExecStart=']
    return label, unit


def g_socket(rng, i):
    n = f'u{i}.socket'
    comp = {f'u{i}.service': '[Service]\nExecStart=/bin/true\n',
            f'u{i}@.service': '[Service]\nExecStart=/bin/true\nStandardInput=socket\n',
            f'u{i}x.service': '[Service]\nExecStart=/bin/true\n'}
    path = f'/run/u{i}.sock'
    choices = [
        ('clean:socket', ['ListenStream=' + path]),
        ('clean:socket-accept', ['ListenStream=' + path, 'ListenSequentialPacket=/run/u%d.sp' % i, 'Accept=yes']),
        ('clean:socket-service', ['ListenStream=' + path, 'Service=u%dx.service' % i]),
        ('clean:socket-symlinks', ['ListenStream=' + path, 'ListenStream=127.0.0.1:%d' % (20000 + i), 'Symlinks=/run/u%d.l' % i]),
        ('clean:socket-pam', ['ListenStream=' + path, 'PAMName=login', 'KillMode=control-group']),
        ('socket.no-listen', ['Backlog=5'] if rng.random() < 0.5 else ['ListenStream=' + path, 'ListenStream=']),
        ('socket.accept-non-accepting', [rng.choice(['ListenDatagram=' + path, 'ListenFIFO=/run/u%d.fifo' % i]),
                                         'Accept=yes']),
        ('socket.accept-max-connections', ['ListenStream=' + path, 'Accept=yes', 'MaxConnections=0']),
        ('socket.max-connections', ['ListenStream=' + path, 'MaxConnections=0']),
        ('socket.accept-service', ['ListenStream=' + path, 'Accept=yes', 'Service=u%dx.service' % i]),
        ('exec.pam-kill-mode', ['ListenStream=' + path, 'PAMName=login', 'KillMode=process']),
        ('exec.pam-kill-mode:mixed', ['ListenStream=' + path, 'PAMName=login', 'KillMode=mixed']),
        ('socket.symlinks', ['ListenStream=127.0.0.1:%d' % (20000 + i), 'Symlinks=/run/u%d.l' % i]),
        ('socket.path-dotdot', [rng.choice(['ListenStream', 'ListenDatagram', 'ListenSequentialPacket']) + '=' +
                                rng.choice(['/run/../run/u%d.sock' % i, '/run/u%d/..' % i])]),
        ('clean:socket-dot', [rng.choice(['ListenStream=/run/./u%d.sock' % i, 'ListenStream=/run//u%d.sock' % i,
                                          'ListenStream=@/run/../u%d' % i])]),
    ]
    label, lines = rng.choice(choices)
    unit = {'name': n, 'lines': ['[Socket]'] + lines, 'companions': comp}
    if len(lines) > 1 and rng.random() < 0.25:
        unit['dropin'] = ['[Socket]', unit['lines'].pop()]
    return label, unit


def g_timer(rng, i):
    trig = lambda: rng.choice(['OnBootSec=5', 'OnCalendar=daily', 'OnActiveSec=1h', 'OnUnitActiveSec=10min',
                               'OnStartupSec=3', 'OnUnitInactiveSec=1'])
    empty = lambda: rng.choice(['OnCalendar=', 'OnBootSec=', 'OnActiveSec=', 'OnUnitInactiveSec='])
    choices = [
        ('clean:timer', lambda: [trig()]),
        ('clean:timer-readd', lambda: [trig(), empty(), trig()]),
        ('clean:timer-clock', lambda: [rng.choice(['OnClockChange=yes', 'OnTimezoneChange=yes'])]),
        ('timer.no-trigger', lambda: ['AccuracySec=1s']),
        ('timer.no-trigger', lambda: [trig(), trig(), empty()]),
    ]
    label, f = rng.choice(choices)
    unit = {'name': f'u{i}.timer', 'lines': ['[Timer]'] + f(),
            'companions': {f'u{i}.service': '[Service]\nExecStart=/bin/true\n'}}
    if len(unit['lines']) > 2 and rng.random() < 0.3:
        unit['dropin'] = ['[Timer]', unit['lines'].pop()]
    return label, unit


def g_path(rng, i):
    p = lambda: rng.choice(['PathExists=', 'PathExistsGlob=', 'PathChanged=', 'PathModified=',
                            'DirectoryNotEmpty=']) + '/tmp/u%d' % i
    choices = [
        ('clean:path', lambda: [p()]),
        ('path.no-path', lambda: ['MakeDirectory=yes']),
        ('path.no-path', lambda: [p(), 'PathExists=']),
    ]
    label, f = rng.choice(choices)
    unit = {'name': f'u{i}.path', 'lines': ['[Path]'] + f(),
            'companions': {f'u{i}.service': '[Service]\nExecStart=/bin/true\n'}}
    if len(unit['lines']) > 2 and rng.random() < 0.3:
        unit['dropin'] = ['[Path]', unit['lines'].pop()]
    return label, unit


def g_mount(rng, i):
    where = rng.choice([f'/mnt/u{i}', f'/srv/u-{i}/data', f'/mnt/u{i} x', f'/mnt/.u{i}'])
    name = unit_name_from_path(where, '.mount')
    choices = [
        ('clean:mount', name, ['What=/dev/disk/u%d' % i, 'Where=' + where]),
        ('clean:mount-noslash', name, ['What=/dev/disk/u%d' % i, 'Where=' + where.replace('/', '//') + '/']),
        ('clean:mount-nowhere', name, ['What=/dev/disk/u%d' % i]),
        ('mount.where-name', name, ['What=/dev/disk/u%d' % i, 'Where=/mnt/other%d' % i]),
        ('mount.no-what', name, ['Where=' + where]),
        ('exec.pam-kill-mode:mixed', name, ['What=/dev/disk/u%d' % i, 'PAMName=login', 'KillMode=mixed']),
        ('mount.api-file-system', rng.choice([f'sys-fs-cgroup-u{i}.mount', f'run-host-u{i}.mount']), ['What=tmpfs']),
        ('name.instance', f'mnt-u{i}@x.mount', ['What=/dev/disk/u%d' % i]),
    ]
    label, n, lines = rng.choice(choices)
    return label, {'name': n, 'lines': ['[Mount]'] + lines}


def g_automount(rng, i):
    where = rng.choice([f'/mnt/u{i}', f'/srv/u-{i}'])
    name = unit_name_from_path(where, '.automount')
    choices = [
        ('clean:automount', name, ['Where=' + where]),
        ('clean:automount-nowhere', name, ['TimeoutIdleSec=5']),
        ('automount.where-name', name, ['Where=/mnt/other%d' % i]),
    ]
    label, n, lines = rng.choice(choices)
    return label, {'name': n, 'lines': ['[Automount]'] + lines,
                   'companions': {n.replace('.automount', '.mount'): '[Mount]\nWhat=/dev/x\n'}}


def g_swap(rng, i):
    what = f'/dev/disk/by-id/u-{i}'
    name = unit_name_from_path(what, '.swap')
    choices = [
        ('clean:swap', name, ['What=' + what]),
        ('swap.what-name', name, ['What=/dev/sdz%d' % i]),
        ('name.instance', f'dev-u{i}@x.swap', ['What=' + what]),
    ]
    label, n, lines = rng.choice(choices)
    return label, {'name': n, 'lines': ['[Swap]'] + lines}


def g_other(rng, i):
    choices = [
        ('clean:slice', f'u{i}-a.slice', ['[Slice]', 'CPUWeight=50']),
        ('clean:target', f'u{i}@x.target', ['[Unit]', 'Description=t']),
        ('clean:device', f'dev-u{i}.device', ['[Unit]', 'Description=d']),
        ('slice.name', rng.choice([f'u{i}--a.slice', f'u{i}-.slice']), ['[Slice]']),
        ('name.instance', f'u{i}@x.slice', ['[Slice]']),
        ('scope.file', f'u{i}.scope', ['[Scope]', 'CPUWeight=5']),
    ]
    label, n, lines = rng.choice(choices)
    return label, {'name': n, 'lines': lines}


GENERATORS = [g_service, g_service, g_service, g_socket, g_socket, g_timer, g_path, g_mount, g_automount,
              g_swap, g_other]


def unit_name_from_path(path, suffix):
    parts = [p for p in path.split('/') if p and p != '.']
    s = '/'.join(parts)
    if not s:
        return '-' + suffix
    out = []
    for k, c in enumerate(s.encode()):
        ch = chr(c)
        if ch == '/':
            out.append('-')
        elif (ch == '.' and k == 0) or not (ch.isascii() and (ch.isalnum() or ch in ':_.')):
            out.append('\\x%02x' % c)
        else:
            out.append(ch)
    return ''.join(out) + suffix


def systemd_verdicts(names, sd_dir, version):
    """Runs verify once over all units; returns {name: (verdict, [messages])}."""
    files = [os.path.join(sd_dir, n) for n in names]
    if version == 252:
        p = subprocess.run(['systemd-analyze', 'verify', '--man=no', '--recursive-errors=no'] + files,
                           capture_output=True, text=True, errors='replace', timeout=300)
    else:
        # The whole directory, so that the services of sockets and timers
        # come along (the units around them are verified too, and ignored).
        p = subprocess.run([SD_RUN, 'verify', sd_dir], capture_output=True, text=True, errors='replace', timeout=600)
    out = (p.stdout + p.stderr).splitlines()
    res = {n: ['clean', []] for n in names}
    for line in out:
        m = (re.match(r'Failed to (?:prepare filename|load unit file) (\S.*?): ', line) or
             re.match(r'Unit (\S+) (?:has a bad unit file setting|not found|failed to load properly)', line))
        if m:
            n = os.path.basename(m.group(1))
            if n in res:
                res[n][0] = 'refused'
                res[n][1].append(line)
            continue
        m = re.match(r'(\S+?): (.*)', line)
        if not m or m.group(1) not in res or re.match(r'.*:\d+$', m.group(1)):
            continue
        n = m.group(1)
        res[n][1].append(line)
        if 'Refusing' in line or 'not loading' in line:
            res[n][0] = 'refused'
        elif res[n][0] == 'clean':
            res[n][0] = 'warned'
    return res


# systemd names no unit when it fails to load for these (a bare "Access
# denied" from the mount dependencies of a socket path with ".."): each is
# verified alone, and a failing verify is its refusal.
ALONE = ('socket.path-dotdot', 'clean:socket-dot')


def systemd_verdict_alone(u, tmp, version):
    d = tempfile.mkdtemp(dir=tmp)
    with open(os.path.join(d, u['name']), 'w') as f:
        f.write('\n'.join(u['lines']) + '\n')
    if u.get('dropin'):
        os.makedirs(os.path.join(d, u['name'] + '.d'))
        with open(os.path.join(d, u['name'] + '.d', 'over.conf'), 'w') as f:
            f.write('\n'.join(u['dropin']) + '\n')
    for cn, ct in u.get('companions', {}).items():
        with open(os.path.join(d, cn), 'w') as f:
            f.write(ct)
    if version == 252:
        cmd = ['systemd-analyze', 'verify', '--man=no', '--recursive-errors=no', os.path.join(d, u['name'])]
    else:
        cmd = [SD_RUN, 'verify', d]
    p = subprocess.run(cmd, capture_output=True, text=True, errors='replace', timeout=120)
    msgs = [l for l in (p.stdout + p.stderr).splitlines() if l.strip()]
    return ('refused' if p.returncode != 0 else 'clean'), msgs


def unitguard_verdict(exe, udir, version):
    p = subprocess.run([exe, 'filter', '--policy', f'systemd-{version}', udir], capture_output=True, text=True,
                       errors='replace', timeout=60)
    if p.returncode == 1:
        return 'refused', p.stderr
    if p.returncode != 0:
        return f'exit {p.returncode}', p.stderr
    if re.search(r'warning: .*\(systemd-\d+:mirror\.[a-z.-]+\)', p.stderr):
        return 'warned', p.stderr
    return 'clean', p.stderr


def main():
    args = sys.argv[1:]
    exe = os.path.abspath(args.pop(0))
    version, seed, count = 252, int(os.environ.get('ORACLE_SEED', '10')), 200
    while args:
        a = args.pop(0)
        if a == '--version':
            version = int(args.pop(0))
        elif a == '--seed':
            seed = int(args.pop(0))
        else:
            count = int(a)
    if version == 252:
        v = subprocess.run(['systemd-analyze', '--version'], capture_output=True, text=True) \
            if shutil.which('systemd-analyze') else None
        if not v or not v.stdout.startswith('systemd 252'):
            print('systemd-analyze 252 is not installed; skipping')
            sys.exit(77)
    else:
        root = os.environ.get('SD_ROOT', os.path.join(os.environ.get('TMPDIR', '/tmp'), 'sd257-root'))
        if not os.access(SD_RUN, os.X_OK) or not os.path.exists(os.path.join(root, 'usr/bin/systemd-analyze')):
            print(f'no systemd {version} root ({root}; build it with make-root.sh, see its README); skipping')
            sys.exit(77)

    rng = random.Random(seed)
    table = collections.defaultdict(lambda: [0, 0])
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        sd_dir = os.path.join(tmp, 'sd')
        os.mkdir(sd_dir)
        units = []
        for i in range(count):
            label, u = rng.choice(GENERATORS)(rng, i)
            # systemd has no check of its own for PrivatePIDs= before 257.
            if label == 'service.forking-private-pids' and version < 257:
                label = 'clean:private-pids-unknown'
            if label == 'exec.dynamic-user-home' and version < 257:
                label = 'clean:dynamic-user-home'
            # 257 allows KillMode=mixed with PAMName= on every type.
            if label == 'exec.pam-kill-mode:mixed':
                label = 'exec.pam-kill-mode' if version < 257 else 'clean:pam-mixed'
            if label == 'service.pam-kill-mode' and version >= 257:
                label = 'exec.pam-kill-mode'
            # 257 refuses MaxConnections=0 whatever Accept= says.
            if label == 'socket.max-connections' and version < 257:
                label = 'clean:max-connections-no-accept'
            if label == 'socket.accept-max-connections' and version >= 257:
                label = 'socket.max-connections'
            text = '\n'.join(u['lines']) + '\n'
            udir = os.path.join(tmp, 'ug', str(i))
            os.makedirs(udir)
            for d in (sd_dir, udir):
                with open(os.path.join(d, u['name']), 'w') as f:
                    f.write(text)
                if u.get('dropin'):
                    os.makedirs(os.path.join(d, u['name'] + '.d'), exist_ok=True)
                    with open(os.path.join(d, u['name'] + '.d', 'over.conf'), 'w') as f:
                        f.write('\n'.join(u['dropin']) + '\n')
            for cn, ct in u.get('companions', {}).items():
                with open(os.path.join(sd_dir, cn), 'w') as f:
                    f.write(ct)
            units.append((label, u, udir, text))
        sd = systemd_verdicts([u['name'] for _, u, _, _ in units], sd_dir, version)
        for label, u, udir, text in units:
            s_verdict, s_msgs = sd[u['name']] if label not in ALONE else systemd_verdict_alone(u, tmp, version)
            ug, ug_err = unitguard_verdict(exe, udir, version)
            key = label.split(':')[0] if not label.startswith('clean:') else 'clean (' + label[6:] + ')'
            table[key][0] += 1
            if ug == s_verdict:
                table[key][1] += 1
            else:
                failures.append(f'{u["name"]} [{label}]: systemd {s_verdict}, unitguard {ug}\n'
                                f'    unit: {text!r} drop-in: {u.get("dropin")!r}\n'
                                f'    systemd: {" | ".join(s_msgs)}\n'
                                f'    unitguard: {ug_err.strip()}')
    print(f'systemd {version}, {count} units, seed {seed}')
    print(f'{"check":40} {"units":>6} {"agree":>6}')
    for k in sorted(table):
        n, a = table[k]
        print(f'{k:40} {n:6} {a:6}{"" if n == a else "  <-- " + str(n - a) + " differ"}')
    total = sum(v[0] for v in table.values())
    agree = sum(v[1] for v in table.values())
    print(f'{"total":40} {total:6} {agree:6}')
    for f in failures:
        print('FAIL ' + f)
    sys.exit(1 if failures else 0)


main()
