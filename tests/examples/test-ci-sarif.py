#!/usr/bin/env python3
"""examples/ci/github-actions-unitguard.yml: a well-formed workflow whose
SARIF report is the file upload-sarif uploads, and whose unitguard steps,
run as GitHub runs a `run:` step (bash -e), work on a scratch checkout with
good and bad units. Skipped (77) when this unitguard has no --format sarif."""
import json
import os
import re

from common import Test, GOOD_SERVICE, BAD_DROPIN

t = Test()
text = open(t.example('examples', 'ci', 'github-actions-unitguard.yml')).read()

try:
    import yaml
except ImportError:
    yaml = None
if yaml is not None:
    wf = yaml.safe_load(text)
    on = wf.get('on', wf.get(True))   # YAML 1.1 reads a bare `on` as true
    t.expect(on is not None and 'pull_request' in on, 'runs on pull requests')
    t.expect(wf.get('permissions', {}).get('security-events') == 'write',
             'security-events: write (needed by upload-sarif)')
    jobs = list(wf['jobs'].values())
    t.expect(len(jobs) == 1, 'one job')
    steps = jobs[0]['steps']
    t.expect(all(('run' in s) != ('uses' in s) for s in steps), 'each step runs or uses, not both')
    runs = [s['run'] for s in steps if 'run' in s]
    upload = [s for s in steps if s.get('uses', '').startswith('github/codeql-action/upload-sarif@')]
    t.expect(len(upload) == 1, 'one upload-sarif step')
    sarif_file = upload[0].get('with', {}).get('sarif_file') if upload else None
    t.expect(upload and upload[0].get('if') == 'always()', 'upload also after a failed step')
else:
    # Without PyYAML: the one-line `run:` steps and the upload, by their text.
    runs = re.findall(r'^\s+(?:- )?run: (.+)$', text, re.M)
    t.expect('uses: github/codeql-action/upload-sarif@' in text, 'an upload-sarif step')
    m = re.search(r'^\s+sarif_file: (\S+)$', text, re.M)
    sarif_file = m and m.group(1)

checks = [r for r in runs if r.startswith('unitguard ')]
sarif_steps = [r for r in checks if '--format sarif' in r]
t.expect(len(sarif_steps) == 1, 'one step writes SARIF: %r' % checks)
t.expect(sarif_file and sarif_steps and sarif_steps[0].endswith('> ' + sarif_file),
         'the SARIF step writes the uploaded file %r' % sarif_file)
t.expect(len(checks) == 2, 'a SARIF step and a step that fails the job: %r' % checks)
if t.failures:
    t.finish()

p = t.run(['unitguard', 'check', '--help'])
if 'sarif' not in p.stdout:
    t.skip('unitguard check --help does not mention sarif')


def checkout(rel, bad):
    t.write(rel + '/units/app.service', GOOD_SERVICE)
    t.write(rel + '/units/app.socket', '[Socket]\nListenStream=/run/app.sock\n')
    if bad:
        t.write(rel + '/units/app.service.d/10-user.conf', BAD_DROPIN)
    return t.path(rel)


def results(top):
    path = os.path.join(top, sarif_file)
    with open(path) as f:
        doc = json.load(f)
    t.expect(doc.get('version') == '2.1.0', 'SARIF version 2.1.0')
    t.expect(len(doc.get('runs', [])) == 1, 'one run')
    run = doc['runs'][0]
    t.expect(run.get('tool', {}).get('driver', {}).get('name') == 'unitguard', 'tool.driver.name')
    return run.get('results', [])


top = checkout('good', bad=False)
for step in checks:
    p = t.run(['bash', '-e', '-c', step], cwd=top)
    t.expect_rc(p, 0, 'good checkout: ' + step)
t.expect(not [r for r in results(top) if r.get('level') == 'error'], 'no errors in the SARIF of good units')

top = checkout('bad', bad=True)
p = t.run(['bash', '-e', '-c', sarif_steps[0]], cwd=top)
t.expect_rc(p, 0, 'the SARIF step does not fail the job (--fail-on never)')
uris = [loc.get('physicalLocation', {}).get('artifactLocation', {}).get('uri', '')
        for r in results(top) if r.get('level') == 'error' for loc in r.get('locations', [])]
t.expect('units/app.service.d/10-user.conf' in uris,
         'the rejected drop-in is an error result at its path in the checkout: %r' % uris)
p = t.run(['bash', '-e', '-c', checks[-1]], cwd=top)
t.expect_rc(p, 1, 'the last step fails the job on a rejected unit')
t.expect_in('units/app.service.d/10-user.conf:2: error: ', p.stdout, 'text findings in the log', p)

t.finish()
