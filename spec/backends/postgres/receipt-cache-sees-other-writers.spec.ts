import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { worldModelHandlers } from '../../../src/canon/world-model-ops.ts';
import { PG_MEM_CAPABILITIES, PostgresStore } from '../../../src/backends/postgres/index.ts';
import type { Backend, BackendEnv } from '../../../src/core/backend.ts';
import { createBackend } from '../../../src/core/semantics.ts';
import { checkedAndUnchecked, ownInsertsOnly } from './cache-cases.ts';
import { rawQuery, type TestFactory } from './engines.ts';
import { VM } from './helpers.ts';

// Issue 35: on pg-mem the store keeps each node's receipts between calls (receipt-cache.ts), checked against
// pg-mem's count of changes to that run's rows of the node (mem-row-watch.ts). Another writer's receipt or a
// deletion must be seen by the next listing; a store whose watch counts only its own inserts misses them.

type Env = BackendEnv;

async function open(factory: TestFactory, env: Env, trusting: boolean): Promise<Backend> {
  const backend = await factory.open(env);
  if (!trusting) return backend;
  await backend.close();
  const db = await factory.openDb(env);
  const store = new PostgresStore(db, env.projectDir, env.decisions, 'v0', { receipts: ownInsertsOnly(db, 'receipt') });
  const extraHandlers = worldModelHandlers(store);
  return createBackend({ store, extraHandlers, decisions: env.decisions, capabilities: PG_MEM_CAPABILITIES });
}

let version = 0;
const commit = (b: Backend, run: string) =>
  b.call('commitWorldModel', { run, node: 'n', contract: 'c', files: { 'v.json': String(version++) } }, VM);
const listed = async (b: Backend, run: string) =>
  (await b.call('listReceipts', { run, node: 'n' }, VM)).receipts.length;

const SCENARIOS: Record<string, { change: (f: TestFactory, e: Env, run: string) => Promise<void>; sees: number }> = {
  'another backend instance of ours commits node n again': {
    change: async (f, e, run) => {
      const other = await f.open(e);
      await commit(other, run);
      await other.close();
    },
    sees: 2,
  },
  "a raw DELETE removes node n's receipts": {
    change: (f, e, run) => rawQuery(f, e, `DELETE FROM openprose.receipt WHERE run_id = '${run.replace(/'/g, "''")}'`),
    sees: 0,
  },
};

for (const [name, s] of Object.entries(SCENARIOS)) {
  checkedAndUnchecked(name, async (factory, env, trusting) => {
    const backend = await open(factory, env, trusting);
    try {
      const { run } = await backend.call('createRun', { program: 'session "a"\n' }, VM);
      await commit(backend, run);
      assert.is(await listed(backend, run), 1);
      await s.change(factory, env, run);
      const seen = await listed(backend, run);
      if (trusting) assert.is.not(seen, s.sees);
      else assert.is(seen, s.sees);
    } finally {
      await backend.close();
    }
  });
}

test.run();
