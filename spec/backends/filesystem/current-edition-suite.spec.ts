import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import { DEFAULT_DECISIONS } from '../../../src/core/decisions.ts';
import { builtinSuite } from '../../helpers/builtin-suite.ts';
import type { CaseResult } from '../../../src/conformance/outcome.ts';
import { QUICK, quickSuite } from '../../../src/conformance/quick.ts';
import { runSuite } from '../../../src/conformance/run-suite.ts';

const ROOT = join(import.meta.dirname, '../../..');
// The crash and concurrency areas start this CLI as their workers; the edition reaches them in the BackendEnv.
const WORKER = [process.execPath, join(ROOT, 'bin/prose-state.js')];

/**
 * The whole suite on the filesystem backend in the current edition (until `test --edition current` lands): every
 * case passes or is skipped with a reason, and the v0-only cases are skipped as such. Quick counts keep the crash
 * and concurrency areas to seconds (the same cases, fewer kills and writes).
 */
test('the filesystem backend passes the suite in the current edition, every skip explained', async () => {
  const results: CaseResult[] = [];
  await runSuite({
    suite: quickSuite(builtinSuite(), QUICK),
    quick: QUICK,
    factories: [{ ...filesystemFactory, name: 'filesystem@current', edition: 'current', spec: 'filesystem' }],
    decisions: DEFAULT_DECISIONS,
    filter: { areas: (process.env.CURRENT_AREAS ?? '').split(',').filter(Boolean), ids: [] },
    listener: { header() {}, result: (r) => void results.push(r), footer() {} },
    workerCommand: WORKER,
  });
  const bad = results.filter((r) => r.outcome.status !== 'passed' && r.outcome.status !== 'skipped');
  assert.equal(
    bad.map((r) => `${r.id}: ${JSON.stringify(r.outcome).slice(0, 600)}`),
    [],
  );
  const skipped = results.flatMap((r) => (r.outcome.status === 'skipped' ? [r.outcome.reason] : []));
  assert.ok(
    skipped.every((reason) => reason.trim().length > 0),
    'every skip carries its reason',
  );
  const v0Only = results.filter((r) => r.outcome.status === 'skipped' && /v0 edition's text/.test(r.outcome.reason));
  assert.ok(v0Only.length > 0, 'the v0-only cases are skipped as such');
  if (process.env.CURRENT_SKIPS)
    for (const r of results) if (r.outcome.status === 'skipped') console.log(r.id, r.outcome.reason);
});

test.run();
