import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { DEFAULT_DECISIONS, resolveDecisions, type Decisions } from '../../src/core/decisions.ts';
import { ProseError } from '../../src/core/errors.ts';
import { loadSuite } from '../../src/conformance/load-suite.ts';
import type { CaseResult } from '../../src/conformance/outcome.ts';
import { runSuite } from '../../src/conformance/run-suite.ts';
import { ONE_CASE_FILE, tempSuite } from '../helpers/temp-suite.ts';
import { builtinSuite } from '../helpers/builtin-suite.ts';

// Decisions skip-rule and semantic-diff: a case names the reading it checks (`readings:`) and runs only under it.
const FILE = (readings: string) => ONE_CASE_FILE.replace('cases:\n', `${readings}cases:\n`);

function loaded(yaml: string): { readings?: unknown } | ProseError {
  const dir = tempSuite({ 'a.yaml': yaml });
  try {
    return loadSuite(dir).cases[0]!;
  } catch (err) {
    return err as ProseError;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('readings: a file field reaches its cases, a case field wins key by key; absent, a case has none', () => {
  assert.equal((loaded(FILE('readings: { skipRule: before-render }\n')) as { readings?: unknown }).readings, {
    skipRule: 'before-render',
  });
  const both = FILE('readings: { skipRule: before-render }\n').replace(
    '    steps:',
    '    readings: { semanticDiff: render-supplied }\n    steps:',
  );
  assert.equal((loaded(both) as { readings?: unknown }).readings, {
    skipRule: 'before-render',
    semanticDiff: 'render-supplied',
  });
  assert.is((loaded(FILE('')) as { readings?: unknown }).readings, undefined);
});

test('readings naming a decision that is no choice, or a reading it has not, is E_CASE with file and line', () => {
  const numeric = loaded(FILE('readings: { anonWidth: 3 }\n')) as ProseError;
  assert.is(numeric.code, 'E_CASE');
  assert.match(numeric.message, /"readings" names "anonWidth"; known: skipRule, semanticDiff/);
  assert.is(numeric.location?.line, 2);
  const value = loaded(FILE('readings: { skipRule: on-wake }\n')) as ProseError;
  assert.match(value.message, /readings.skipRule is one of after-render, before-render, got "on-wake"/);
  const empty = loaded(FILE('readings: []\n')) as ProseError;
  assert.match(empty.message, /"readings" maps a decision to one of its readings/);
});

test('resolveDecisions takes a reading by its kebab or camel name and refuses any other value', () => {
  assert.is(resolveDecisions({ 'skip-rule': 'before-render' }).skipRule, 'before-render');
  assert.is(resolveDecisions({ semanticDiff: 'render-supplied' }).semanticDiff, 'render-supplied');
  assert.equal([DEFAULT_DECISIONS.skipRule, DEFAULT_DECISIONS.semanticDiff], ['after-render', 'computed']);
  assert.throws(() => resolveDecisions({ skipRule: 'sometimes' }), /one of after-render, before-render/);
  assert.throws(() => resolveDecisions({ skipRule: 2 }), /one of after-render, before-render/);
  assert.throws(() => resolveDecisions({ anonWidth: 'wide' }), /must be a positive integer/);
});

async function receiptCases(decisions: Decisions): Promise<CaseResult[]> {
  const suite = builtinSuite();
  const results: CaseResult[] = [];
  await runSuite({
    suite: { ...suite, cases: suite.cases.filter((c) => c.readings !== undefined && c.area === 'receipts') },
    factories: [filesystemFactory],
    decisions,
    filter: { areas: [], ids: [] },
    listener: { header() {}, result: (r) => void results.push(r), footer() {} },
  });
  return results;
}

const byStatus = (rs: CaseResult[]) =>
  Object.fromEntries(rs.map((r) => [r.id, r.outcome.status === 'skipped' ? r.outcome.reason : r.outcome.status]));

test('the filesystem backend passes the receipt cases of each reading it is given; the others skip, naming the flag', async () => {
  const spec = byStatus(await receiptCases(DEFAULT_DECISIONS));
  assert.is(spec['receipts/after-render-outputs-moved-inputs-same'], 'passed');
  assert.is(spec['receipts/semantic-diff-computed'], 'passed');
  assert.is(
    spec['receipts/before-render-nothing-moved-skips'],
    'checks the before-render reading of decision skipRule; this run pins after-render ' +
      '(--decision skipRule=before-render runs it)',
  );
  const runtime = byStatus(
    await receiptCases(resolveDecisions({ skipRule: 'before-render', semanticDiff: 'render-supplied' })),
  );
  for (const id of [
    'receipts/before-render-nothing-moved-skips',
    'receipts/before-render-input-moved-renders',
    'receipts/before-render-cold-start-renders',
    'receipts/before-render-failed-render-retried',
    'receipts/semantic-diff-render-supplied',
  ])
    assert.is(runtime[id], 'passed', id);
  assert.match(
    String(runtime['receipts/exact-envelope-skipped']),
    /checks the after-render reading of decision skipRule/,
  );
  assert.match(
    String(runtime['receipts/exact-envelope-rendered']),
    /checks the computed reading of decision semanticDiff/,
  );
});

test.run();
