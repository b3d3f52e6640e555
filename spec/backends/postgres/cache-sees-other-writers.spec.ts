import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { worldModelHandlers } from '../../../src/canon/world-model-ops.ts';
import { PG_MEM_CAPABILITIES, PostgresStore } from '../../../src/backends/postgres/index.ts';
import type { Backend } from '../../../src/core/backend.ts';
import type { ExecutionEvent } from '../../../src/core/model.ts';
import { statement, trusting } from '../../helpers/trusting-store.ts';
import { assertOneListWhileAppending } from '../../helpers/log-handed-out.ts';
import { createPostgresMemFactory } from '../../../src/backends/postgres/index.ts';
import { createBackend } from '../../../src/core/semantics.ts';
import { onEachEngine, type TestFactory } from './engines.ts';
import { tempEnv, VM } from './helpers.ts';

// Issue 35: on pg-mem the store keeps each run's execution log between calls (event-log-cache.ts) and checks it
// against the engine's own count of changes to openprose.execution (mem-log-watch.ts); a real server's log is read
// whole. Here a long-lived backend makes two calls with another writer's change between them, and the second call
// must see it. The same scenarios against a store whose cache never checks show that they catch one.

/** A store that keeps the first log it read and only adds its own appends: a cache that does not check. */
const TrustingStore = trusting(PostgresStore);

type Env = ReturnType<typeof tempEnv>;

async function open(factory: TestFactory, env: Env, trusting: boolean): Promise<Backend> {
  const backend = await factory.open(env);
  if (!trusting) return backend;
  await backend.close();
  const store = new TrustingStore(await factory.openDb(env), env.projectDir, env.decisions);
  return createBackend({
    store,
    extraHandlers: worldModelHandlers(store),
    decisions: env.decisions,
    capabilities: PG_MEM_CAPABILITIES,
  });
}

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;
const metadata = (e: ExecutionEvent) => `${sqlText(JSON.stringify(e))}::jsonb`;

/** Each scenario: another writer changes the run (statement 1 completed); the position the next resume reports. */
const SCENARIOS: Record<string, { change: (f: TestFactory, e: Env, run: string) => Promise<void>; sees: unknown }> = {
  'another backend instance of ours records statement 2 (executing)': {
    change: async (f, e, run) => {
      const other = await f.open(e);
      await other.call('recordEvent', { run, event: statement(2, 'executing') }, VM);
      await other.close();
    },
    sees: { index: 2, text: 'step 2', status: 'executing' },
  },
  'a raw UPDATE sets statement 1 back to executing (no row is added)': {
    change: (f, e, run) =>
      raw(f, e, (db) =>
        db.query(
          `UPDATE openprose.execution SET status = 'executing', metadata = ${metadata(statement(1, 'executing'))}
           WHERE run_id = ${sqlText(run)} AND statement_index = 1`,
        ),
      ),
    sees: { index: 1, text: 'step 1', status: 'executing' },
  },
  'a raw INSERT adds statement 3': {
    change: (f, e, run) =>
      raw(f, e, (db) =>
        db.query(
          `INSERT INTO openprose.execution (run_id, event_type, statement_index, statement_text, status, metadata)
           VALUES (${sqlText(run)}, 'statement', 3, 'step 3', 'executing', ${metadata(statement(3, 'executing'))})`,
        ),
      ),
    sees: { index: 3, text: 'step 3', status: 'executing' },
  },
  'a raw DELETE removes the only event': {
    change: (f, e, run) =>
      raw(f, e, (db) => db.query(`DELETE FROM openprose.execution WHERE run_id = ${sqlText(run)}`)),
    sees: null,
  },
};

async function raw(f: TestFactory, env: Env, fn: (db: Awaited<ReturnType<TestFactory['openDb']>>) => Promise<unknown>) {
  const db = await f.openDb(env);
  try {
    await fn(db);
  } finally {
    await db.end();
  }
}

for (const [name, s] of Object.entries(SCENARIOS)) {
  for (const trusting of [false, true]) {
    const title = trusting ? `a cache that does not check misses it: ${name}` : `a long-lived backend sees it: ${name}`;
    onEachEngine(title, async (factory) => {
      const env = tempEnv();
      const backend = await open(factory, env, trusting);
      try {
        const { run } = await backend.call('createRun', { program: 'session "a"\nsession "b"\n' }, VM);
        await backend.call('recordEvent', { run, event: statement(1, 'completed') }, VM);
        const warm = (await backend.call('resume', { run }, VM)).position;
        assert.equal(warm, { index: 1, text: 'step 1', status: 'completed' });
        await s.change(factory, env, run);
        const position = (await backend.call('resume', { run }, VM)).position;
        if (trusting) assert.not.equal(position, s.sees);
        else assert.equal(position, s.sees);
      } finally {
        await backend.close();
        await factory.dispose?.(env);
        env.cleanup();
      }
    });
  }
}

// The checked cache hands out its append-only log itself (no copy per read), so the shared fold memo keys on it and
// resolve folds nothing again (issue 35); a real server's log is read whole per call, into a new list each time.
test('pg-mem: readEvents hands out the cached log itself while only this store appends', async () => {
  let store: PostgresStore | undefined;
  const factory = createPostgresMemFactory((s) => (store = s));
  const env = tempEnv();
  const backend = await factory.open(env);
  try {
    const { run } = await backend.call('createRun', { program: 'session "a"\n' }, VM);
    await assertOneListWhileAppending(store!, run);
  } finally {
    await backend.close();
    await factory.dispose?.(env);
    env.cleanup();
  }
});

test.run();
