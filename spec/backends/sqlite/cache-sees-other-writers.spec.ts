import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { worldModelHandlers } from '../../../src/canon/world-model-ops.ts';
import { SQLITE_CAPABILITIES, sqliteFactory, SqliteStore } from '../../../src/backends/sqlite/index.ts';
import type { Backend } from '../../../src/core/backend.ts';
import { statement, trusting } from '../../helpers/trusting-store.ts';
import { createBackend } from '../../../src/core/semantics.ts';
import { cli, runFixture, SQLITE3, tempEnv } from './helpers.ts';

// Issue 35: the sqlite store keeps each run's execution log between calls (event-cache.ts) and reads only the rows
// added since, unless PRAGMA data_version says another connection committed. Here a long-lived backend makes two
// calls with another process's change between them, and the second call must see it. The same scenarios against a
// store whose cache never checks show that they catch one.

const vm = { role: 'vm' } as const;

/** A store that keeps the first log it read and only adds its own appends: a cache that does not check. */
const TrustingStore = trusting(SqliteStore);

type Env = ReturnType<typeof tempEnv>;

async function open(env: Env, trusting: boolean): Promise<Backend> {
  if (!trusting) return sqliteFactory.open(env);
  const store = new TrustingStore(env.projectDir, env.homeDir, env.decisions);
  return createBackend({
    store,
    extraHandlers: worldModelHandlers(store),
    decisions: env.decisions,
    capabilities: SQLITE_CAPABILITIES,
  });
}

/** A run with statement 1 completed, resumed once (the cache is warm), and the path of its state.db. */
async function warmRun(backend: Backend, env: Env) {
  const { run } = await backend.call('createRun', { program: 'session "a"\nsession "b"\n' }, vm);
  await backend.call('recordEvent', { run, event: statement(1, 'completed') }, vm);
  assert.equal((await backend.call('resume', { run }, vm)).position, { index: 1, text: 'step 1', status: 'completed' });
  return { run, db: join(env.projectDir, '.prose', 'runs', run, 'state.db') };
}

/** Each scenario: another process changes the run; the position the next resume reports. */
const SCENARIOS: Record<
  string,
  { needsCli?: true; change: (e: Env, run: string, db: string) => Promise<void>; sees: object }
> = {
  'another process of ours records statement 2 (executing)': {
    change: async (e, run) => {
      const r = await runFixture('event-writer.ts', [e.projectDir, e.homeDir, run, '2', 'executing']);
      assert.is(r.code, 0, r.stderr);
    },
    sees: { index: 2, text: 'step 2', status: 'executing' },
  },
  'the sqlite3 CLI sets statement 1 back to executing (an UPDATE: no row is added)': {
    needsCli: true,
    change: async (_e, _run, db) => {
      const r = cli([db, "UPDATE execution SET status = 'executing' WHERE statement_index = 1"]);
      assert.is(r.status, 0, r.stderr);
    },
    sees: { index: 1, text: 'step 1', status: 'executing' },
  },
  'the sqlite3 CLI inserts statement 3 as the seed does (a row without our metadata)': {
    needsCli: true,
    change: async (_e, _run, db) => {
      const sql = "INSERT INTO execution (statement_index, statement_text, status) VALUES (3, 'step 3', 'executing')";
      const r = cli([db, sql]);
      assert.is(r.status, 0, r.stderr);
    },
    sees: { index: 3, text: 'step 3', status: 'executing' },
  },
};

const hasCli = existsSync(SQLITE3);
if (!hasCli) console.log(`cache-sees-other-writers: the sqlite3 scenarios are skipped: no ${SQLITE3} on this machine`);

for (const [name, s] of Object.entries(SCENARIOS)) {
  if (s.needsCli && !hasCli) continue;
  test(`a long-lived backend sees it: ${name}`, async () => {
    const env = tempEnv('cache');
    const backend = await open(env, false);
    try {
      const { run, db } = await warmRun(backend, env);
      await s.change(env, run, db);
      assert.equal((await backend.call('resume', { run }, vm)).position, s.sees);
    } finally {
      await backend.close();
      env.done();
    }
  });

  test(`a cache that does not check misses it: ${name}`, async () => {
    const env = tempEnv('cache-trusting');
    const backend = await open(env, true);
    try {
      const { run, db } = await warmRun(backend, env);
      await s.change(env, run, db);
      assert.not.equal((await backend.call('resume', { run }, vm)).position, s.sees);
    } finally {
      await backend.close();
      env.done();
    }
  });
}

test.run();
