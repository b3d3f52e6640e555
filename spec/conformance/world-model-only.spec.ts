import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import type { BackendFactory } from '../../src/core/backend.ts';
import { WORLD_MODEL_ONLY_OPS } from '../../src/core/world-model-only.ts';
import { findStrace } from '../../src/conformance/crash-states/record.ts';
import { builtinSuite } from '../helpers/builtin-suite.ts';
import { runSuite } from '../../src/conformance/run-suite.ts';
import { moduleFactory } from '../../src/plugin/module-factory.ts';
import { MUTANTS } from '../../src/selftest/mutants/index.ts';

const PLUGIN = 'conformance/plugins/world-model-only/index.js';
const suite = builtinSuite();
const silent = { header() {}, result() {}, footer() {} };
const worker = [process.execPath, fileURLToPath(new URL('../../bin/prose-state.js', import.meta.url))];
const CRASH = 'crash/world-model-commits-survive-kills';
const CRASH_STATES = 'crash-states/world-model-every-crash-point';
const strace = findStrace();

const run = (f: BackendFactory, ids: string[] = [], areas: string[] = []) =>
  runSuite({
    suite,
    factories: [f],
    decisions: DEFAULT_DECISIONS,
    filter: { areas, ids },
    listener: silent,
    workerCommand: worker,
    seed: 7,
  });

const plugin = async (): Promise<BackendFactory> => ({ ...(await moduleFactory(PLUGIN)), spec: `module:${PLUGIN}` });

test('the plugin keeps exactly the operations the runner takes a world-model-only backend to keep', async () => {
  // Plain JavaScript with no types of its own: loaded by URL, as the module loader does.
  const { KEPT } = (await import(new URL(`../../${PLUGIN}`, import.meta.url).href)) as { KEPT: Set<string> };
  assert.equal([...KEPT].sort(), [...WORLD_MODEL_ONLY_OPS].sort());
});

test('a backend keeping only world-models and receipts passes the suite, its crash areas run through commits', async () => {
  const results = await run(await plugin());
  const bad = results.filter((r) => r.outcome.status === 'failed' || r.outcome.status === 'errored');
  assert.equal(bad, []);
  const passed = (area: string) => results.filter((r) => r.area === area && r.outcome.status === 'passed').length;
  for (const area of ['world-model', 'receipts', 'facets', 'crash']) assert.ok(passed(area) > 0, area);
  const crash = results.find((r) => r.id === CRASH)!.outcome;
  assert.is(crash.status, 'passed');
  if (crash.status === 'passed') assert.is(crash.metrics?.kills, 20);
  if (!('skip' in strace)) assert.is(results.find((r) => r.id === CRASH_STATES)!.outcome.status, 'passed');
  // Cases calling what it does not keep are skipped, each saying which calls: the whole envelope area among them.
  const envelope = results.filter((r) => r.area === 'envelope').map((r) => r.outcome);
  assert.ok(envelope.length > 0);
  assert.equal(
    envelope.filter((o) => o.status !== 'skipped'),
    [],
  );
  const writeRead = results.find((r) => r.id === 'envelope/write-read')!.outcome;
  if (writeRead.status === 'skipped')
    assert.is(
      writeRead.reason,
      'calls writeEnvelope, readEnvelope, which world-model-only does not keep (it declares world-model-only)',
    );
  // The world-model part of the render's write ban runs; its envelope part is an envelope case.
  const wm = results.find((r) => r.id === 'world-model/render-may-not-write')!.outcome;
  assert.is(wm.status, 'passed');
});

test('in the current edition too: durable chains across runs, the crash areas through commits', async () => {
  const path = 'spec/conformance/fixtures/world-model-only-filesystem.ts';
  const f = { ...(await moduleFactory(path)), spec: `module:${path}`, edition: 'current' as const };
  const results = await run(f, [], ['crash', 'crash-states', 'concurrency', 'receipts']);
  const bad = results.filter((r) => r.outcome.status === 'failed' || r.outcome.status === 'errored');
  assert.equal(bad, []);
  assert.is(results.find((r) => r.id === 'receipts/chain-continues-across-runs')!.outcome.status, 'passed');
  assert.is(results.find((r) => r.id === CRASH)!.outcome.status, 'passed');
});

test('a world-model-only backend that answers a commit before writing it is caught by the crash areas', async () => {
  const m = MUTANTS.find((x) => x.name === 'commit-acked-before-durable')!;
  const results = await run(m.factory, [CRASH, CRASH_STATES]);
  const crash = results.find((r) => r.id === CRASH)!.outcome;
  assert.is(crash.status, 'failed');
  if (crash.status === 'failed')
    assert.match(crash.message, /acknowledged commit w0_\d+ \(receipt sha256:[0-9a-f]{64}\) is missing/);
  if ('skip' in strace) return;
  const states = results.find((r) => r.id === CRASH_STATES)!.outcome;
  assert.is(states.status, 'failed');
  if (states.status === 'failed') assert.match(states.message, /acknowledged commit w0_\d+/);
});

test.run();
