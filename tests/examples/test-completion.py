#!/usr/bin/env python3
"""shell-completion/: the bash completion, sourced into bash and called
as bash calls it (COMP_WORDS, COMP_CWORD), gives the expected COMPREPLY;
every option each `unitguard VERB --help` lists is completed by both
shells' files, and bash offers none that the help does not list; the zsh
file passes `zsh -n` (when zsh is installed); meson installs both where
bash-completion and zsh look."""
import json
import os
import re
import shutil
import subprocess
import sys

from common import Test

t = Test()
bash_file = t.example('shell-completion', 'bash', 'unitguard')
zsh_file = t.example('shell-completion', 'zsh', '_unitguard')
work = t.path('work')
os.makedirs(os.path.join(work, 'destdir'))
t.write('work/app.service', '')
t.write('work/site.yaml', '')


def complete(line):
    """COMPREPLY for the command line `line` with the cursor at its end;
    bash splits words at '=' as COMP_WORDBREAKS does."""
    words = re.findall(r'=|[^\s=]+', line)
    if line.endswith(' '):
        words.append('')
    script = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); '
              'COMP_LINE="${*}"; _unitguard; printf "%s\\n" "${COMPREPLY[@]}"')
    p = t.run(['bash', '-c', script, 'bash', bash_file] + words, cwd=work)
    t.expect(p.returncode == 0 and p.stderr == '', 'bash completion of %r ran cleanly' % line, p)
    return sorted(w for w in p.stdout.splitlines() if w)


def expect_completion(line, expected):
    got = complete(line)
    t.expect(got == sorted(expected), 'completing %r: got %r, expected %r' % (line, got, sorted(expected)))


policies = sorted(l.split()[0] for l in t.run(['unitguard', 'policy', 'list']).stdout.splitlines() if l.strip())
t.expect('default' in policies and 'debian' in policies, 'shipped policies: %r' % policies)

expect_completion('unitguard ', ['check', 'filter', 'hwdb', 'policy', 'units'])
expect_completion('unitguard ch', ['check'])
expect_completion('unitguard --', ['--help', '--version'])
expect_completion('unitguard check --f', ['--fail-on', '--fix', '--format'])
expect_completion('unitguard check --fail-on ', ['error', 'warning', 'note', 'never'])
expect_completion('unitguard check --fail-on=w', ['warning'])
expect_completion('unitguard check --fail-on=', ['error', 'warning', 'note', 'never'])
expect_completion('unitguard check --format ', ['text', 'json', 'sarif'])
expect_completion('unitguard filter --format ', ['unit', 'json'])
expect_completion('unitguard units -f ', ['text', 'json'])
expect_completion('unitguard check --root ', ['destdir'])
expect_completion('unitguard check --root=d', ['destdir'])
expect_completion('unitguard check --root destdir --us', ['--user'])
expect_completion('unitguard check --policy debian --root destdir ', ['app.service', 'destdir', 'site.yaml'])
expect_completion('unitguard check ', ['app.service', 'destdir', 'site.yaml'])
expect_completion('unitguard filter -p ', policies + ['app.service', 'destdir', 'site.yaml'])
expect_completion('unitguard check --policy s', [p for p in policies if p.startswith('s')] + ['site.yaml'])
expect_completion('unitguard policy ', ['check', 'show', 'list'])
expect_completion('unitguard policy show d', [p for p in policies if p.startswith('d')] + ['destdir'])
expect_completion('unitguard policy list ', [])
expect_completion('unitguard hwdb ', ['query', 'compile', 'check'])
expect_completion('unitguard hwdb compile --', ['--help', '--hwdb-dir', '--output', '--root'])
expect_completion('unitguard hwdb query --s', ['--stdin'])
expect_completion('unitguard hwdb compile -o ', ['app.service', 'destdir', 'site.yaml'])
expect_completion('unitguard units --root destdir ', [])
expect_completion('unitguard check --target-version ', [])


def help_options(*verb):
    p = t.run(['unitguard'] + list(verb) + ['--help'])
    t.expect_rc(p, 0, 'unitguard %s --help' % ' '.join(verb))
    opts = set()
    in_options = False
    for line in p.stdout.splitlines():
        if line.startswith('Options:'):
            in_options = True
        elif in_options and not line.startswith(' '):
            in_options = False
        elif in_options:
            # The option column only: the descriptions mention options too.
            opts.update(re.findall(r'(?<![\w-])--[a-z][a-z-]*', line[:24]))
    return opts


zsh_text = open(zsh_file).read()
check_has_sarif = 'sarif' in t.run(['unitguard', 'check', '--help']).stdout
for verb in ['check', 'filter', 'units']:
    documented = help_options(verb)
    t.expect(len(documented) >= 4, '%s --help lists options: %r' % (verb, documented))
    offered = set(complete('unitguard %s --' % verb))
    t.expect(documented <= offered, 'bash completes every option of %s: missing %r' % (verb, documented - offered))
    extra = offered - documented
    if verb == 'check' and not check_has_sarif:
        extra.discard('--format')   # check --format is being added beside this
    t.expect(not extra, 'bash offers options %s --help does not list: %r' % (verb, extra))
    body = re.search(r'^_unitguard_%s\(\) \{\n(.*?)^\}' % verb, zsh_text, re.M | re.S)
    t.expect(body is not None, 'zsh has _unitguard_%s' % verb)
    for opt in documented:
        t.expect(body and re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(opt), body.group(1)),
                 'zsh completes %s %s' % (verb, opt))

documented = help_options('hwdb')
offered = set()
for sub in ['query', 'compile', 'check']:
    offered |= set(complete('unitguard hwdb %s --' % sub))
t.expect(documented and documented == offered, 'hwdb: help %r, bash %r' % (documented, offered))

zsh = shutil.which('zsh')
if zsh:
    p = t.run([zsh, '-n', zsh_file])
    t.expect_rc(p, 0, 'zsh -n ' + zsh_file)
else:
    print('zsh is not installed: zsh -n not run')

# Installed where the shells look for them.
builddir = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
meson = shutil.which('meson')
if builddir and meson:
    p = t.run([meson, 'introspect', '--installed', builddir])
    t.expect_rc(p, 0, 'meson introspect --installed')
    installed = json.loads(p.stdout or '{}')
    dest = {os.path.relpath(src, t.src): dst for src, dst in installed.items()}
    t.expect(re.search(r'/bash-completion/completions/unitguard$', dest.get('shell-completion/bash/unitguard', '')),
             'bash completion installed into bash-completion\'s directory: %r' % dest.get('shell-completion/bash/unitguard'))
    t.expect(dest.get('shell-completion/zsh/_unitguard', '').endswith('/share/zsh/site-functions/_unitguard'),
             'zsh completion installed into site-functions: %r' % dest.get('shell-completion/zsh/_unitguard'))

t.finish()
