import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli as run } from '../helpers/run-cli.ts';
import { PASS_FAIL_SKIP_CASES, tempSuite } from '../helpers/temp-suite.ts';

const suiteDir = tempSuite({ 'a.yaml': PASS_FAIL_SKIP_CASES });
const oldFile = join(suiteDir, 'old.jsonl');
const newFile = join(suiteDir, 'new.jsonl');

/** The old report with some outcomes changed, as a later run on a changed backend would write them. */
function edit(text: string, change: Record<string, Record<string, unknown>>): string {
  return text
    .trim()
    .split('\n')
    .map((l) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      const to = o.type === 'case' ? change[`${o.backend} ${o.id}`] : undefined;
      if (!to) return l;
      const { type, backend, id, area, title, spec, durationMs } = o;
      return JSON.stringify({ type, backend, id, area, title, spec, durationMs, ...to });
    })
    .join('\n');
}

// v0 alone: a report of one run per backend (filesystem also declares the current edition, a second run).
test('setup: a report of two backends', async () => {
  const r = await run([
    ...'test --backend filesystem --backend in-context --edition v0 --reporter json --no-probe'.split(' '),
    '--suite',
    suiteDir,
  ]);
  assert.is(r.code, 1);
  writeFileSync(oldFile, r.out);
  writeFileSync(
    newFile,
    edit(r.out, {
      'filesystem a/fails': { status: 'passed', layoutChecks: 0, layoutNotApplicable: 0 },
      'in-context a/passes': {
        status: 'failed',
        at: { file: 'cases/a.yaml', line: 6 },
        step: 'resolve',
        message: 'answered ok, expected E_NOT_FOUND',
      },
      'filesystem a/passes': { status: 'skipped', reason: 'needs capability x' },
    }),
  );
});

test('report diff lists newly failing, passing and skipped cases, and exits 1 when something newly fails', async () => {
  const r = await run(['report', 'diff', oldFile, newFile]);
  assert.is(r.code, 1);
  assert.match(r.out, /1 newly failing, 1 newly passing, 1 newly skipped/);
  assert.match(r.out, /newly failing:\n {2}in-context a\/passes: failed \(was passed\): cases\/a\.yaml:6: answered ok/);
  assert.match(r.out, /newly passing:\n {2}filesystem a\/fails: passed \(was failed\)/);
  assert.match(r.out, /newly skipped:\n {2}filesystem a\/passes: skipped \(was passed\): needs capability x/);
});

test('a report against itself changes nothing: exit 0', async () => {
  const r = await run(['report', 'diff', oldFile, oldFile]);
  assert.is(r.code, 0);
  assert.match(r.out, /0 newly failing, 0 newly passing, 0 newly skipped\n$/);
});

test('report diff writes markdown and HTML, and names cases the new report lacks', async () => {
  const md = await run(['report', 'diff', oldFile, newFile, '--format', 'md']);
  assert.match(md.out, /## newly failing\n\n\| backend \| case \| now \| before \| why \|/);
  assert.match(md.out, /\| in-context \| a\/passes \| failed \| was passed \|/);
  const html = join(suiteDir, 'diff.html');
  const h = await run(['report', 'diff', oldFile, newFile, '--format', 'html', '--output', html]);
  assert.is(h.code, 1);
  const page = readFileSync(html, 'utf8');
  assert.match(page, /<h2 id="newlyFailing">newly failing \(1\)<\/h2>/);
  assert.match(page, /<td>in-context<\/td><td>a\/passes<\/td><td>failed<\/td>/);
  assert.match(h.out, /1 newly failing/);
  const short = join(suiteDir, 'short.jsonl');
  writeFileSync(short, readFileSync(oldFile, 'utf8').split('\n').slice(0, 5).join('\n') + '\n');
  const g = await run(['report', 'diff', oldFile, short]);
  assert.match(g.out, /not in the new report:\n {2}in-context a\/passes \(was passed\)/);
});

test('report diff refuses a wrong argument count, format or file', async () => {
  assert.is((await run(['report', 'diff', oldFile])).code, 2);
  assert.is((await run(['report', 'diff', oldFile, newFile, '--format', 'pdf'])).code, 2);
  const missing = await run(['report', 'diff', oldFile, join(suiteDir, 'nope.jsonl')]);
  assert.is(missing.code, 3);
  assert.match(missing.err, /nope\.jsonl: cannot read the report/);
  assert.is((await run(['report', 'nosuch'])).code, 2);
});

test.run();
