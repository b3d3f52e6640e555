import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { badCitations, citedDecisions } from '../../src/conformance/decision-citations.ts';
import { loadDecisionRows } from '../../src/conformance/load-decisions.ts';
import { tempSuite } from '../helpers/temp-suite.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ROWS = new Set(loadDecisionRows(join(root, 'conformance')).map((r) => r.id));

test('citations: single ids, lists with commas and "and", several "decision" words in one spec', () => {
  assert.equal(citedDecisions('decision names; filesystem.md agents/{name}/'), ['names']);
  assert.equal(citedDecisions('decisions execution-events, loop-iterations, retries and parallel-join'), [
    'execution-events',
    'loop-iterations',
    'retries',
    'parallel-join',
  ]);
  assert.equal(citedDecisions('decision names (x), decision custom-scope, decision check-args (E_INVALID_ARGUMENT)'), [
    'names',
    'custom-scope',
    'check-args',
  ]);
  assert.equal(citedDecisions('filesystem.md "Memory Scoping" only'), []);
});

test('every decision the shipped cases cite has a row', () => {
  assert.equal(badCitations(join(root, 'conformance', 'cases'), ROWS), []);
});

test('a planted citation of a missing decision is reported with file and line, and the check script exits 1', () => {
  const dir = tempSuite({
    'a.yaml': `area: a\nspec: 'decision names'\ncases:\n  - id: a/one\n    title: one\n    spec: 'decision run statuses: four of them'\n    steps:\n      - op: getRun\n`,
  });
  try {
    const bad = badCitations(join(dir, 'cases'), ROWS);
    assert.equal(
      bad.map((b) => [b.id, b.line]),
      [['run', 6]],
    );
    let status = 0;
    let stderr = '';
    try {
      execFileSync(
        process.execPath,
        ['--import', 'tsx', join(root, 'scripts', 'check-decision-citations.ts'), join(dir, 'cases')],
        { cwd: root, stdio: 'pipe' },
      );
    } catch (err) {
      status = (err as { status: number }).status;
      stderr = String((err as { stderr: Buffer }).stderr);
    }
    assert.is(status, 1);
    assert.match(stderr, /a\.yaml:6: cites decision "run"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
