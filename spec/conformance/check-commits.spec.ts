import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { VM } from '../../src/core/actor.ts';
import type { Backend } from '../../src/core/backend.ts';
import { checkCommits } from '../../src/conformance/check-commits.ts';
import { workItem } from '../../src/conformance/workload.ts';
import { tempEnv } from '../plugin/fixtures/temp-env.ts';

const WM_ONLY = ['world-model', 'receipts', 'world-model-only'] as const;

/** Commits items 0..n-1 of writer 0 as the crash workload does; answers the run and the acknowledgements. */
async function committed(b: Backend, n: number) {
  const { run } = await b.call('createRun', { program: 'p' }, VM);
  const acks = new Map<string, unknown>();
  for (let i = 0; i < n; i++) {
    const item = workItem('bindings', run, 0, i, WM_ONLY, 100);
    acks.set(item.key, await b.call(item.op, item.args as never, item.actor));
  }
  return { run, acks };
}

async function withFs(fn: (b: Backend) => Promise<void>) {
  const env = tempEnv('check-commits');
  const b = await filesystemFactory.open(env);
  try {
    await fn(b);
  } finally {
    await b.close();
    env.cleanup();
  }
}

test('a world-model-only backend writes any workload as commits of node-{writer}', () => {
  const item = workItem('segments', '20260101-000000-abcdef', 3, 5, WM_ONLY, 100);
  assert.is(item.key, 'commit w3_5');
  assert.is(item.op, 'commitWorldModel');
  assert.is((item.args as { node: string }).node, 'node-3');
});

test('every acknowledged commit in the ledger, read back and published: nothing to report', () =>
  withFs(async (b) => {
    const { run, acks } = await committed(b, 3);
    assert.is(await checkCommits(b, run, acks, true), undefined);
  }));

test('an acknowledged commit missing from the ledger is named', () =>
  withFs(async (b) => {
    const { run, acks } = await committed(b, 2);
    const lost = { status: 'rendered', version: null, contentHash: `sha256:${'0'.repeat(64)}`, prev: null };
    acks.set('commit w0_7', lost);
    assert.is(
      await checkCommits(b, run, acks, false),
      `acknowledged commit w0_7 (receipt sha256:${'0'.repeat(64)}) is missing from node-0's ledger`,
    );
  }));

test('a node publishing a version older than its last acknowledged commit is named', () =>
  withFs(async (b) => {
    const { run, acks } = await committed(b, 2);
    // The node is moved back to item 0's files: a later receipt, an older version published.
    const first = workItem('bindings', run, 0, 0, WM_ONLY, 100);
    await b.call('commitWorldModel', first.args as never, VM);
    const message = await checkCommits(b, run, acks, false);
    assert.match(message ?? '', /^node-0 publishes sha256:[0-9a-f]{64}, older than its last acknowledged commit w0_1$/);
  }));

test('with every writer finished, a ledger holding more receipts than acknowledged commits is named', () =>
  withFs(async (b) => {
    const { run, acks } = await committed(b, 2);
    acks.delete('commit w0_0');
    assert.is(
      await checkCommits(b, run, acks, true),
      'node-0 has 1 acknowledged commits but its ledger holds 2 receipts',
    );
  }));

test.run();
