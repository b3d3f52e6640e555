import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { PG_MEM_CAPABILITIES, PostgresStore } from '../../../src/backends/postgres/index.ts';
import type { Backend, BackendEnv } from '../../../src/core/backend.ts';
import { createBackend } from '../../../src/core/semantics.ts';
import { checkedAndUnchecked, ownInsertsOnly } from './cache-cases.ts';
import { onEachEngine, rawQuery, type TestFactory } from './engines.ts';
import { agent, tempEnv } from './helpers.ts';

// Issue 35: on pg-mem the store keeps the number of the segment it last appended for each agent (segment-sql.ts)
// and numbers the next one from it while pg-mem's count of changes to that agent's rows says no one else wrote
// (mem-row-watch.ts). Another writer's segments, a higher number or a deletion must be seen by the next append.
// The same scenarios against a store whose watch counts only its own inserts show that they catch numbers kept
// without a check.

type Env = BackendEnv;

async function open(factory: TestFactory, env: Env, frozen: boolean): Promise<Backend> {
  const backend = await factory.open(env);
  if (!frozen) return backend;
  await backend.close();
  const db = await factory.openDb(env);
  const store = new PostgresStore(db, env.projectDir, env.decisions, 'v0', {
    segments: ownInsertsOnly(db, 'agent_segments'),
  });
  return createBackend({ store, decisions: env.decisions, capabilities: PG_MEM_CAPABILITIES });
}

const SCRIBE = agent('scribe');
const append = async (b: Backend, run: string, n: number) =>
  (await b.call('appendSegment', { agent: 'scribe', scope: 'execution', run, prompt: `p${n}`, summary: 's' }, SCRIBE))
    .number;

const raw = rawQuery;

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Each scenario: segment 1 is appended; another writer changes the agent's segments; the next number appended. */
const SCENARIOS: Record<string, { change: (f: TestFactory, e: Env, run: string) => Promise<void>; next: number }> = {
  'a raw INSERT adds segment 10': {
    change: (f, e, run) =>
      raw(
        f,
        e,
        `INSERT INTO openprose.agent_segments (agent_name, scope, run_id, segment_number, "timestamp", prompt, summary)
         VALUES ('scribe', 'execution', ${sqlText(run)}, 10, '2026-01-16T14:30:52Z', 'p', 's')`,
      ),
    next: 11,
  },
  "a raw DELETE removes the agent's segments": {
    change: (f, e, run) => raw(f, e, `DELETE FROM openprose.agent_segments WHERE run_id = ${sqlText(run)}`),
    next: 1,
  },
  'a raw UPDATE renumbers segment 1 to 5': {
    change: (f, e, run) =>
      raw(f, e, `UPDATE openprose.agent_segments SET segment_number = 5 WHERE run_id = ${sqlText(run)}`),
    next: 6,
  },
};

for (const [name, s] of Object.entries(SCENARIOS)) {
  checkedAndUnchecked(name, async (factory, env, frozen) => {
    const backend = await open(factory, env, frozen);
    try {
      const { run } = await backend.call('createRun', { program: 'session "a"\n' }, { role: 'vm' });
      assert.is(await append(backend, run, 1), 1);
      await s.change(factory, env, run);
      const next = await append(backend, run, 2);
      if (frozen) assert.is.not(next, s.next);
      else assert.is(next, s.next);
    } finally {
      await backend.close();
    }
  });
}

onEachEngine('another instance of ours appending in turn: the numbers run on, none shared', async (factory) => {
  const env = tempEnv();
  const one = await factory.open(env);
  const two = await factory.open(env);
  try {
    const { run } = await one.call('createRun', { program: 'session "a"\n' }, { role: 'vm' });
    const numbers = [];
    for (let i = 0; i < 6; i++) numbers.push(await append(i % 3 === 0 ? two : one, run, i));
    assert.equal(numbers, [1, 2, 3, 4, 5, 6]);
  } finally {
    await one.close();
    await two.close();
    await factory.dispose?.(env);
    env.cleanup();
  }
});

test.run();
