import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { builtinSuite } from '../helpers/builtin-suite.ts';
import { runSuite } from '../../src/conformance/run-suite.ts';
import type { BackendFactory } from '../../src/core/backend.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { MUTANTS } from '../../src/selftest/mutants/index.ts';

const suite = builtinSuite();
const silent = { header() {}, result() {}, footer() {} };
const CASE = 'crash/in-process-restart-keeps-acknowledged';

async function outcome(factory: BackendFactory) {
  const [r] = await runSuite({
    suite,
    factories: [factory],
    decisions: DEFAULT_DECISIONS,
    filter: { areas: [], ids: [CASE] },
    listener: silent,
    seed: 7,
  });
  return r!.outcome;
}

test('the in-process crash case needs durable alone, so it runs where no second process can', () => {
  const c = suite.cases.find((x) => x.id === CASE)!;
  assert.equal(c.requires, ['durable']);
});

test('the reference filesystem backend keeps every binding acknowledged before each simulated crash', async () => {
  const o = await outcome(filesystemFactory);
  assert.is(o.status, 'passed');
  if (o.status === 'passed') assert.is(o.metrics?.['simulated crashes'], 20);
});

test('a backend that answers before it writes, durable but not multi-process, fails it', async () => {
  const m = MUTANTS.find((x) => x.name === 'acks-before-writing-in-process')!;
  assert.not.ok(m.factory.capabilities.includes('multi-process'));
  assert.ok(m.factory.capabilities.includes('durable'));
  const o = await outcome(m.factory);
  assert.is(o.status, 'failed');
  if (o.status === 'failed') assert.match(o.message, /acknowledged binding w0_\d+ is missing/);
});

test.run();
