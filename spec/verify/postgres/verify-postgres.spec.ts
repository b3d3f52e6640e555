import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { openReadOnlyReader } from '../../../src/backends/postgres/index.ts';
import type { PgDb } from '../../../src/backends/postgres/pg-db.ts';
import type { Edition } from '../../../src/core/editions.ts';
import { checkPgSchema } from '../../../src/verify/postgres/check-pg-schema.ts';
import type { PgSchemaReader } from '../../../src/verify/postgres/pg-reader.ts';
import { onEachEngine, realServerTest, type TestFactory } from '../../backends/postgres/engines.ts';
import { tempEnv, VM } from '../../backends/postgres/helpers.ts';
import { readerFor } from './reader-for.ts';

/** A schema our backend wrote in `edition`: two nodes, one with a rendered, a failed and a second rendered commit. */
async function written(factory: TestFactory, edition: Edition, env: ReturnType<typeof tempEnv>) {
  const b = await factory.open({ ...env, edition });
  const { run } = await b.call('createRun', { program: 'session "a"\n' }, VM);
  const first = await b.call('commitWorldModel', { run, node: 'n', contract: 'c', files: { 'truth.json': '{}' } }, VM);
  await b.call('failRender', { run, node: 'n', contract: 'c', reason: 'r' }, VM);
  await b.call('commitWorldModel', { run, node: 'n', contract: 'c', files: { 'truth.json': '{"v":2}' } }, VM);
  await b.call('commitWorldModel', { run, node: "it's", contract: 'c', files: { 'truth.json': '{}' } }, VM);
  await b.close();
  return { run, first };
}

async function verifyWith(
  factory: TestFactory,
  env: ReturnType<typeof tempEnv>,
  label: string,
  edition?: Edition,
): Promise<{ rules: string[]; edition: string | null }> {
  const reader = await readerFor(factory, env, label);
  try {
    const r = await checkPgSchema(reader as PgSchemaReader, edition);
    return { rules: r.findings.map((f) => f.rule).sort(), edition: r.edition.edition };
  } finally {
    await reader.close();
  }
}

/** Each tampering and the rule that names it, per edition where they differ. */
const TAMPER: Record<
  string,
  { sql: (first: { contentHash: string; version: string }) => string[]; rule: string | Record<Edition, string> }
> = {
  'a forked chain (prev of the second receipt rewritten)': {
    sql: (f) => [
      `UPDATE openprose.receipt SET prev = '${f.contentHash.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}' WHERE id = (SELECT MIN(id) + 1 FROM openprose.receipt WHERE node = 'n')`,
    ],
    rule: 'wm.chain.prev',
  },
  'a receipt rewritten in place (its status)': {
    sql: () => [
      `UPDATE openprose.receipt SET status = 'skipped' WHERE id = (SELECT MAX(id) FROM openprose.receipt WHERE node = 'n')`,
    ],
    rule: 'wm.receipt.hash',
  },
  'a version blob that does not hash to its address': {
    sql: (f) => [
      `UPDATE openprose.world_model_version SET artifact = decode('00', 'hex') WHERE version = '${f.version}' AND node = 'n'`,
    ],
    rule: 'wm.bin-hash',
  },
  'a published pointer naming an older version': {
    sql: (f) => [`UPDATE openprose.world_model_published SET version = '${f.version}' WHERE node = 'n'`],
    // The current texts call the pointer a projection: stale, rebuildable (decision sql-projections).
    rule: { v0: 'wm.published-match', current: 'proj.world_model_published.stale' },
  },
};

for (const edition of ['v0', 'current'] as const) {
  onEachEngine(`verify postgres: a ${edition} schema our backend wrote is clean`, async (factory, label) => {
    const env = tempEnv();
    try {
      await written(factory, edition, env);
      assert.equal(await verifyWith(factory, env, label), { rules: [], edition });
      await factory.dispose!(env);
    } finally {
      env.cleanup();
    }
  });

  for (const [what, t] of Object.entries(TAMPER)) {
    const rule = typeof t.rule === 'string' ? t.rule : t.rule[edition];
    onEachEngine(`verify postgres (${edition}): ${what} is ${rule}`, async (factory, label) => {
      const env = tempEnv();
      try {
        const { first } = await written(factory, edition, env);
        const db = (await factory.openDb({ ...env, edition })) as PgDb;
        for (const sql of t.sql(first as never)) await db.query(sql);
        await db.end();
        const { rules } = await verifyWith(factory, env, label, edition);
        assert.ok(rules.includes(rule), `${rule} in ${rules.join(', ')}`);
        await factory.dispose!(env);
      } finally {
        env.cleanup();
      }
    });
  }
}

onEachEngine('verify postgres (current): a v0 column name is db.column-missing', async (factory, label) => {
  const env = tempEnv();
  try {
    await written(factory, 'current', env);
    const db = (await factory.openDb({ ...env, edition: 'current' })) as PgDb;
    await db.query('ALTER TABLE openprose.bindings RENAME COLUMN binding TO kind');
    await db.end();
    const found = await verifyWith(factory, env, label);
    assert.equal(found, { rules: ['db.column-missing'], edition: 'current' });
    await factory.dispose!(env);
  } finally {
    env.cleanup();
  }
});

realServerTest(
  'the read-only reader never writes: a write inside its transaction is refused [real server]',
  async (url) => {
    const reader = await openReadOnlyReader(url);
    const err = await reader.query('CREATE TABLE x_should_not_exist (a int)').catch((e: any) => e);
    await reader.close();
    assert.match(String(err?.message), /read-only transaction/);
  },
);

test.run();
