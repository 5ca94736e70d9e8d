#!/usr/bin/env python3
"""check's three formats say the same thing, and the machine ones are valid.

For every golden case whose command is `check ...`, runs it as text (with
-v, so notes are shown) and as --format json and --format sarif, then
requires:
  - the JSON findings, rendered as 'PATH[:LINE]: severity: message
    [Section.Key] (rule)', are exactly the text output's lines (without the
    summary), in the same order, and the JSON summary equals the summary line
    (with "N fixed" for --fix, and "N waived", which must also be the number
    of findings a waiver turned into "waived: ..." notes);
  - with --fix, each format runs on a fresh copy of the case (the case
    itself is never rewritten), and the findings that carry a "fix" are
    about files that got a fix.applied finding;
  - the exit status is the same for all three formats;
  - the SARIF log has what the SARIF 2.1.0 schema requires (the schema's
    required properties and enums are written out below; the schema itself
    cannot be fetched here), one result per finding, rule indexes that point
    at the rule with the result's ruleId, and region lines that match.

Usage: check-formats.py UNITGUARD CASES_DIR
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

LEVELS = {'none', 'note', 'warning', 'error'}


def run(exe, case, words):
    if '--fix' in words:
        # --fix rewrites its input: run it on a copy.
        with tempfile.TemporaryDirectory(prefix='ug-formats-') as tmp:
            for n in os.listdir(case):
                if not n.startswith('expected'):
                    src, dst = os.path.join(case, n), os.path.join(tmp, n)
                    if os.path.isdir(src) and not os.path.islink(src):
                        shutil.copytree(src, dst, symlinks=True)
                    else:
                        shutil.copy2(src, dst, follow_symlinks=False)
            return run_in(exe, tmp, words)
    return run_in(exe, case, words)


def run_in(exe, case, words):
    inputs = sorted(n for n in os.listdir(case) if n.startswith('input'))
    argv = [exe] + [inputs[0] if w == 'INPUT' else w for w in words]
    stdin_path = os.path.join(case, 'stdin')
    stdin = open(stdin_path, 'rb').read() if os.path.exists(stdin_path) else b''
    p = subprocess.run(argv, cwd=case, input=stdin, capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode('utf-8', 'replace')


def names_unit(f):
    """Text output names the unit of a finding in a file the unit does not
    own alone (own: named after it, or in its NAME.d), unless the message
    starts with the name."""
    unit, path = f.get('unit'), f['path']
    if not unit or not path or f['message'].startswith(unit + ' '):
        return False
    parts = path.split('/')
    return len(parts) > 1 and parts[-1] != unit and parts[-2] != unit + '.d'


def render(f):
    s = f['path'] or '<unknown>'
    if f['line'] is not None:
        s += ':%d' % f['line']
    s += ': %s: ' % f['severity']
    if names_unit(f):
        s += f['unit'] + ': '
    s += f['message']
    if f['section'] or f['key']:
        s += ' [%s%s%s]' % (f['section'] or '', '.' if f['section'] and f['key'] else '', f['key'] or '')
    return s + ' (%s)' % f['rule']


def require(obj, props, where, problems):
    for p in props:
        if p not in obj:
            problems.append('%s: missing required property %r' % (where, p))


def check_sarif(doc, findings, problems):
    require(doc, ['version', 'runs'], 'sarifLog', problems)
    if doc.get('version') != '2.1.0':
        problems.append('sarifLog.version is not 2.1.0')
    runs = doc.get('runs', [])
    if len(runs) != 1:
        problems.append('expected one run')
        return
    run_ = runs[0]
    require(run_, ['tool'], 'run', problems)
    driver = run_.get('tool', {}).get('driver', {})
    require(driver, ['name'], 'toolComponent', problems)
    rules = driver.get('rules', [])
    for i, rule in enumerate(rules):
        require(rule, ['id'], 'rules[%d]' % i, problems)
        for k in ('shortDescription', 'help'):
            if k in rule:
                require(rule[k], ['text'], 'rules[%d].%s' % (i, k), problems)
    for name, base in run_.get('originalUriBaseIds', {}).items():
        if not base.get('uri', '').endswith('/'):
            problems.append('originalUriBaseIds.%s.uri must end with a slash' % name)
    results = run_.get('results', [])
    if len(results) != len(findings):
        problems.append('%d SARIF results for %d findings' % (len(results), len(findings)))
    for i, (res, f) in enumerate(zip(results, findings)):
        require(res, ['message'], 'results[%d]' % i, problems)
        if 'text' not in res.get('message', {}) and 'id' not in res.get('message', {}):
            problems.append('results[%d].message has neither text nor id' % i)
        if res.get('level', 'warning') not in LEVELS:
            problems.append('results[%d].level %r' % (i, res.get('level')))
        idx = res.get('ruleIndex')
        if idx is None or idx >= len(rules) or rules[idx]['id'] != res.get('ruleId'):
            problems.append('results[%d]: ruleIndex does not point at ruleId' % i)
        if res.get('ruleId') != f['rule'] or res['message'].get('text') != f['message']:
            problems.append('results[%d] differs from finding %d' % (i, i))
        for loc in res.get('locations', []):
            pl = loc.get('physicalLocation', {})
            al = pl.get('artifactLocation', {})
            if 'uri' not in al:
                problems.append('results[%d]: artifactLocation without uri' % i)
            if al.get('uriBaseId') and al['uriBaseId'] not in run_.get('originalUriBaseIds', {}):
                problems.append('results[%d]: unknown uriBaseId' % i)
            region = pl.get('region')
            if region is not None and (not isinstance(region.get('startLine'), int) or region['startLine'] < 1):
                problems.append('results[%d]: bad region' % i)
            if (region or {}).get('startLine') != f['line']:
                problems.append('results[%d]: line %r, finding line %r' % (i, (region or {}).get('startLine'), f['line']))


def main():
    exe = os.path.abspath(sys.argv[1])
    cases_dir = sys.argv[2]
    failures = checked = 0
    for name in sorted(os.listdir(cases_dir)):
        case = os.path.join(cases_dir, name)
        argsfile = os.path.join(case, 'args')
        if not os.path.exists(argsfile):
            continue
        words = shlex.split(open(argsfile).read().strip())
        if not words or words[0] != 'check' or '--format' in words:
            continue
        words = [w for w in words if w != '-v']
        problems = []
        rc_text, text = run(exe, case, words + ['-v'])
        rc_json, js = run(exe, case, words + ['--format', 'json'])
        rc_sarif, sarif = run(exe, case, words + ['--format', 'sarif'])
        if not (rc_text == rc_json == rc_sarif):
            problems.append('exit status: text %d, json %d, sarif %d' % (rc_text, rc_json, rc_sarif))
        if rc_json == 2:
            # A usage error: no document in any format, the same status.
            if problems or js or sarif:
                problems.append('usage error must write no document')
            checked += 1
            print('%s %s' % ('FAIL' if problems else 'ok', name))
            failures += bool(problems)
            for p in problems:
                print('  ' + p)
            continue
        doc = json.loads(js)
        lines = text.splitlines()
        summary = lines.pop() if lines else ''
        rendered = [render(f) for f in doc['findings']]
        if rendered != lines:
            problems.append('text and JSON findings differ:\n  text: %s\n  json: %s' % (lines, rendered))
        s = doc['summary']
        want = 'unitguard: %d units, %d rejected, %d changed, ' % (s['units'], s['rejected'], s['changed'])
        if s['fixed'] is not None:
            want += '%d fixed, ' % s['fixed']
        if (s['fixed'] is not None) != ('--fix' in words):
            problems.append('summary.fixed is %r with%s --fix' % (s['fixed'], '' if '--fix' in words else 'out'))
        want += '%d masked, %d errors, %d warnings, %d notes, %d waived' % (
            s['masked'], s['errors'], s['warnings'], s['notes'], s['waived'])
        if summary != want:
            problems.append('summary: text %r, json %r' % (summary, want))
        waived = sum(1 for f in doc['findings'] if f['message'].startswith('waived: '))
        if s['waived'] != waived:
            problems.append('summary.waived %d, but %d findings are waived' % (s['waived'], waived))
        fixed = {f['path'] for f in doc['findings'] if f['rule'] == 'fix.applied'}
        if s['fixed'] is not None and s['fixed'] != len(fixed):
            problems.append('summary.fixed %d, but %d fix.applied findings' % (s['fixed'], len(fixed)))
        for f in doc['findings']:
            if f['fix'] is not None and f['path'] not in fixed:
                problems.append('finding %r has a fix, but its file was not rewritten' % render(f))
        check_sarif(json.loads(sarif), doc['findings'], problems)
        checked += 1
        if problems:
            failures += 1
            print('FAIL %s' % name)
            for p in problems:
                print('  ' + p)
        else:
            print('ok %s' % name)
    print('%d check cases, %d failing' % (checked, failures))
    return 1 if failures or checked == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
