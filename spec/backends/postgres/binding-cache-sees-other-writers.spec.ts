import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { worldModelHandlers } from '../../../src/canon/world-model-ops.ts';
import { newDb } from 'pg-mem';
import { PG_MEM_CAPABILITIES, PostgresStore } from '../../../src/backends/postgres/index.ts';
import { ensureSchema } from '../../../src/backends/postgres/ensure-schema.ts';
import { memBindingWatch } from '../../../src/backends/postgres/mem-row-watch.ts';
import { memLogWatch } from '../../../src/backends/postgres/mem-log-watch.ts';
import { MemPool } from '../../../src/backends/postgres/mem-pool.ts';
import { PgDb } from '../../../src/backends/postgres/pg-db.ts';
import type { Backend, BackendEnv } from '../../../src/core/backend.ts';
import { ProseError } from '../../../src/core/errors.ts';
import type { BindingRecord } from '../../../src/core/model.ts';
import { createBackend } from '../../../src/core/semantics.ts';
import { checkedAndUnchecked } from './cache-cases.ts';
import { rawQuery, type TestFactory } from './engines.ts';
import { sub, tempEnv, VM } from './helpers.ts';

// Issue 35: on pg-mem the store keeps each run's bindings between calls (binding-cache.ts) and checks each name
// against the engine's own count of changes to openprose.bindings (mem-row-watch.ts); a real server is asked
// every time. A long-lived backend resolves a name, another writer changes it, and the next resolve must see the
// change. The same scenarios against a store that keeps what it read show that they catch a cache that does not check.

/** A store that keeps each binding it read or wrote and never asks again: a cache that does not check. */
class TrustingStore extends PostgresStore {
  private readonly kept = new Map<string, BindingRecord | undefined>();
  override async writeBinding(run: string, b: BindingRecord, attach: boolean): Promise<{ location: string }> {
    const out = await super.writeBinding(run, b, attach);
    this.kept.set(`${run}\n${b.name}`, b);
    return out;
  }
  override async readBinding(run: string, name: string, executionId: number | null) {
    const key = `${run}\n${name}`;
    if (!this.kept.has(key)) this.kept.set(key, await super.readBinding(run, name, executionId));
    return this.kept.get(key);
  }
  override async resolveBinding(run: string, name: string, chain: (number | null)[]) {
    const key = `${run}\n${name}`;
    if (!this.kept.has(key)) this.kept.set(key, await super.resolveBinding(run, name, chain));
    return this.kept.get(key);
  }
}

type Env = BackendEnv;

async function open(factory: TestFactory, env: Env, trusting: boolean): Promise<Backend> {
  const backend = await factory.open(env);
  if (!trusting) return backend;
  await backend.close();
  const store = new TrustingStore(await factory.openDb(env), env.projectDir, env.decisions);
  const extraHandlers = worldModelHandlers(store);
  return createBackend({ store, extraHandlers, decisions: env.decisions, capabilities: PG_MEM_CAPABILITIES });
}

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

const raw = rawQuery;

/** What resolving `name` answers: its value, or the error code. */
async function resolved(b: Backend, run: string, name: string): Promise<string> {
  try {
    return (await b.call('resolve', { run, name }, VM)).value;
  } catch (err) {
    if (err instanceof ProseError) return err.code;
    throw err;
  }
}

/** Each scenario: `x` is bound to "one" and resolved (and `y` looked up, unbound); another writer changes a name. */
const SCENARIOS: Record<
  string,
  { change: (f: TestFactory, e: Env, run: string) => Promise<void>; name: string; sees: string }
> = {
  'another backend instance of ours binds x again': {
    change: async (f, e, run) => {
      const other = await f.open(e);
      await other.call('bind', { run, name: 'x', kind: 'let', value: 'two' }, sub('x'));
      await other.close();
    },
    name: 'x',
    sees: 'two',
  },
  'another backend instance of ours binds y, which was not bound': {
    change: async (f, e, run) => {
      const other = await f.open(e);
      await other.call('bind', { run, name: 'y', kind: 'let', value: 'new' }, sub('y'));
      await other.close();
    },
    name: 'y',
    sees: 'new',
  },
  'a raw UPDATE changes the value of x': {
    change: (f, e, run) =>
      raw(f, e, `UPDATE openprose.bindings SET value = 'edited' WHERE run_id = ${sqlText(run)} AND name = 'x'`),
    name: 'x',
    sees: 'edited',
  },
  'a raw DELETE removes x': {
    change: (f, e, run) => raw(f, e, `DELETE FROM openprose.bindings WHERE run_id = ${sqlText(run)} AND name = 'x'`),
    name: 'x',
    sees: 'E_NOT_FOUND',
  },
  'a raw UPDATE renames x to y': {
    change: (f, e, run) =>
      raw(f, e, `UPDATE openprose.bindings SET name = 'y' WHERE run_id = ${sqlText(run)} AND name = 'x'`),
    name: 'y',
    sees: 'one',
  },
};

for (const [name, s] of Object.entries(SCENARIOS)) {
  checkedAndUnchecked(name, async (factory, env, trusting) => {
    const backend = await open(factory, env, trusting);
    try {
      const { run } = await backend.call('createRun', { program: 'session "a"\n' }, VM);
      await backend.call('bind', { run, name: 'x', kind: 'let', value: 'one' }, sub('x'));
      assert.is(await resolved(backend, run, 'x'), 'one');
      assert.is(await resolved(backend, run, 'y'), 'E_NOT_FOUND');
      await s.change(factory, env, run);
      const seen = await resolved(backend, run, s.name);
      if (trusting) assert.is.not(seen, s.sees);
      else assert.is(seen, s.sees);
    } finally {
      await backend.close();
    }
  });
}

test('on pg-mem a resolve after our own bind, or rebind, of the name asks no query of bindings', async () => {
  const mem = newDb({ noAstCoverageCheck: true });
  const queried: string[] = [];
  const pool = new MemPool(mem);
  const query = pool.query.bind(pool);
  pool.query = (text, values) => (queried.push(text), query(text, values));
  const db = new PgDb(pool, undefined, true);
  await ensureSchema(db);
  const env = tempEnv();
  const store = new PostgresStore(db, env.projectDir, env.decisions, 'v0', {
    log: memLogWatch(mem),
    bindings: memBindingWatch(mem),
  });
  const backend = createBackend({ store, decisions: env.decisions, capabilities: PG_MEM_CAPABILITIES });
  const bindingReads = () => queried.filter((q) => /^\s*SELECT[^;]*FROM openprose\.bindings/.test(q)).length;
  try {
    const { run } = await backend.call('createRun', { program: 'session "a"\n' }, VM);
    await backend.call('bind', { run, name: 'x', kind: 'let', value: 'one' }, sub('x'));
    const afterFirstRead = bindingReads();
    assert.is(await resolved(backend, run, 'x'), 'one');
    await backend.call('bind', { run, name: 'x', kind: 'let', value: 'two' }, sub('x'));
    assert.is(await resolved(backend, run, 'x'), 'two');
    assert.is(bindingReads(), afterFirstRead, 'no SELECT of bindings after the run was read once');
  } finally {
    await backend.close();
    env.cleanup();
  }
});

test.run();
