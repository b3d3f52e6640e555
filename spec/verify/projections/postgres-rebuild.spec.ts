import * as assert from 'uvu/assert';
import { test } from 'uvu';
import {
  caseDatabaseName,
  openReadOnlyReader,
  openRebuildSession,
  probingReader,
} from '../../../src/backends/postgres/index.ts';
import { withDatabase } from '../../../src/backends/postgres/case-database.ts';
import type { PgDb } from '../../../src/backends/postgres/pg-db.ts';
import { verifyCommand } from '../../../src/cli/commands/verify.ts';
import type { Edition } from '../../../src/core/editions.ts';
import { checkPgSchema } from '../../../src/verify/postgres/check-pg-schema.ts';
import type { PgSchemaReader } from '../../../src/verify/postgres/pg-reader.ts';
import { rebuildPgSchema } from '../../../src/verify/postgres/rebuild-pg.ts';
import { onEachEngine, realServerTest, type TestFactory } from '../../backends/postgres/engines.ts';
import { tempEnv, VM } from '../../backends/postgres/helpers.ts';
import { captureIo } from '../../helpers/temp-suite.ts';

type Env = ReturnType<typeof tempEnv>;
const STALE = 'proj.world_model_published.stale';

/** A schema our backend wrote: node n rendered v1, failed, rendered v2; node it's rendered once. */
async function written(factory: TestFactory, env: Env, edition: Edition = 'current') {
  const b = await factory.open({ ...env, edition });
  const { run } = await b.call('createRun', { program: 'session "a"\n' }, VM);
  const files = (v: string) => ({ 'truth.json': v });
  const first = await b.call('commitWorldModel', { run, node: 'n', contract: 'c', files: files('{}') }, VM);
  await b.call('failRender', { run, node: 'n', contract: 'c', reason: 'r' }, VM);
  const second = await b.call('commitWorldModel', { run, node: 'n', contract: 'c', files: files('{"v":2}') }, VM);
  await b.call('commitWorldModel', { run, node: "it's", contract: 'c', files: files('{}') }, VM);
  await b.close();
  return { v1: (first as { version: string }).version, v2: (second as { version: string }).version };
}

/** Runs SQL on the schema as a writer would (never through verify). */
async function sql(factory: TestFactory, env: Env, statements: string[]): Promise<Record<string, unknown>[][]> {
  const db = (await factory.openDb({ ...env, edition: 'current' })) as PgDb;
  try {
    const out = [];
    for (const s of statements) out.push(await db.query(s));
    return out;
  } finally {
    await db.end();
  }
}

const caseUrl = (env: Env) => withDatabase(process.env.PROSE_STATE_TEST_PG_URL!, caseDatabaseName(env.storageKey));

/** verify's reader: on the real server the CLI's READ ONLY transaction on the case database. */
async function reader(factory: TestFactory, env: Env, label: string) {
  if (label !== 'real') return probingReader((await factory.openDb(env)) as PgDb);
  return openReadOnlyReader(caseUrl(env));
}

/** The rebuild with --write: on the real server in the CLI's serializable transaction, committed. */
async function rebuildWrite(factory: TestFactory, env: Env, label: string) {
  if (label !== 'real') {
    const r = probingReader((await factory.openDb(env)) as PgDb);
    try {
      return await rebuildPgSchema(r, true);
    } finally {
      await r.close();
    }
  }
  const s = await openRebuildSession(caseUrl(env));
  try {
    const outcome = await rebuildPgSchema(s, true);
    await s.commit();
    return outcome;
  } finally {
    await s.close();
  }
}

async function withReader<T>(factory: TestFactory, env: Env, label: string, fn: (r: PgSchemaReader) => Promise<T>) {
  const r = await reader(factory, env, label);
  try {
    return await fn(r);
  } finally {
    await r.close();
  }
}

const CANONICAL = [
  'SELECT * FROM openprose.receipt ORDER BY id',
  'SELECT node, version, artifact, attachment_path, created_at FROM openprose.world_model_version ORDER BY node, version',
];
const PUBLISHED = 'SELECT node, version FROM openprose.world_model_published ORDER BY node';

onEachEngine(
  'postgres: a stale pointer is a warning, the plan lists exactly it and changes nothing',
  async (factory, label) => {
    const env = tempEnv();
    try {
      const { v1, v2 } = await written(factory, env);
      await sql(factory, env, [`UPDATE openprose.world_model_published SET version = '${v1}' WHERE node = 'n'`]);
      const { findings } = await withReader(factory, env, label, (r) => checkPgSchema(r));
      assert.equal(
        findings.map((f) => [f.rule, f.severity, f.table, f.row]),
        [[STALE, 'warning', 'openprose.world_model_published', "node='n'"]],
      );
      const before = await sql(factory, env, [...CANONICAL, PUBLISHED]);
      const plan = await withReader(factory, env, label, (r) => rebuildPgSchema(r, false));
      assert.equal(plan.plans[0]!.changes, [{ op: 'update', node: 'n', from: v1, to: v2 }]);
      assert.equal(plan.plans[0]!.held, []);
      assert.is(plan.written, 0);
      assert.equal(await sql(factory, env, [...CANONICAL, PUBLISHED]), before, 'a plan changes nothing');
      await factory.dispose!(env);
    } finally {
      env.cleanup();
    }
  },
);

onEachEngine(
  'postgres: --write applies the plan, no canonical row moves, verify is clean after',
  async (factory, label) => {
    const env = tempEnv();
    try {
      const { v1, v2 } = await written(factory, env);
      await sql(factory, env, [
        `UPDATE openprose.world_model_published SET version = '${v1}' WHERE node = 'n'`,
        `DELETE FROM openprose.world_model_published WHERE node = 'it''s'`,
      ]);
      const before = await sql(factory, env, CANONICAL);
      const outcome = await rebuildWrite(factory, env, label);
      assert.equal(
        outcome.plans[0]!.changes.map((c) => [c.op, c.node]),
        [
          ['insert', "it's"],
          ['update', 'n'],
        ],
      );
      assert.is(outcome.written, 2);
      assert.equal(await sql(factory, env, CANONICAL), before, 'receipt and world_model_version are unchanged');
      const [published] = await sql(factory, env, [PUBLISHED]);
      assert.equal(published!.find((r) => r.node === 'n')?.version, v2);
      const { findings } = await withReader(factory, env, label, (r) => checkPgSchema(r));
      assert.equal(findings, []);
      await factory.dispose!(env);
    } finally {
      env.cleanup();
    }
  },
);

onEachEngine(
  'postgres: a v0 schema (whose pointer stays wm.published-match) refuses a rebuild with E_USAGE',
  async (factory, label) => {
    const env = tempEnv();
    try {
      await written(factory, env, 'v0');
      const err = await withReader(factory, env, label, (r) => rebuildPgSchema(r, false)).catch((e: unknown) => e);
      assert.is((err as { code?: string }).code, 'E_USAGE');
      await factory.dispose!(env);
    } finally {
      env.cleanup();
    }
  },
);

realServerTest('verify --rebuild-projections postgres:URL --write never prints the URL [real server]', async () => {
  const env = tempEnv();
  const { postgresUrlFactory } = await import('../../../src/backends/postgres/index.ts');
  const factory = postgresUrlFactory(process.env.PROSE_STATE_TEST_PG_URL!, 'test') as TestFactory;
  try {
    const { v1 } = await written(factory, env);
    await sql(factory, env, [`UPDATE openprose.world_model_published SET version = '${v1}' WHERE node = 'n'`]);
    const url = caseUrl(env);
    for (const argv of [
      ['--rebuild-projections', `postgres:${url}`],
      ['--rebuild-projections', url, '--write'],
    ]) {
      const c = captureIo({});
      const code = await verifyCommand.run(argv, c.io);
      assert.is(code, 0, c.err());
      assert.match(c.out(), /postgres:\(URL not shown\)/);
      assert.not.ok((c.out() + c.err()).includes(url), 'the URL is never printed');
    }
    const c = captureIo({});
    assert.is(await verifyCommand.run([`postgres:${url}`], c.io), 0);
    assert.match(c.out(), /0 errors, 0 warnings/);
    await factory.dispose!(env);
  } finally {
    env.cleanup();
  }
});

test.run();
