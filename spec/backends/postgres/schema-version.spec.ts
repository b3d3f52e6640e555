import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  caseDatabaseName,
  CORE_TABLES,
  postgresUrlFactory,
  SCHEMA_VERSION,
} from '../../../src/backends/postgres/index.ts';
import type { PgDb } from '../../../src/backends/postgres/pg-db.ts';
import { onEachEngine, realServerTest, type TestFactory } from './engines.ts';
import { pgView, tempEnv } from './helpers.ts';

// The spec's own (corrected) DDL leaves tables without our marker; another prose-state version leaves another marker.
const FOREIGN: Record<string, string[]> = {
  "the spec's tables without a version marker": [
    'CREATE SCHEMA openprose',
    'CREATE TABLE openprose.run (id TEXT PRIMARY KEY, status TEXT)',
  ],
  'a schema of another version': [
    'CREATE SCHEMA openprose',
    'CREATE TABLE openprose.x_prose_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
    `INSERT INTO openprose.x_prose_meta VALUES ('schema_version', '0')`,
  ],
};

onEachEngine('a database without the schema gets it, with the version marker', async (factory: TestFactory) => {
  const env = tempEnv();
  try {
    const b = await factory.open(env);
    const view = pgView(b);
    assert.equal(await view.query(`SELECT value FROM openprose.x_prose_meta WHERE key = 'schema_version'`), [
      { value: SCHEMA_VERSION },
    ]);
    for (const t of CORE_TABLES) await view.query(`SELECT * FROM openprose.${t} LIMIT 0`);
    await b.close();
    await factory.dispose!(env);
  } finally {
    env.cleanup();
  }
});

for (const [what, ddl] of Object.entries(FOREIGN)) {
  onEachEngine(`${what} is refused with a hint, and left as it was`, async (factory: TestFactory) => {
    const env = tempEnv();
    try {
      const setup = await factory.openDb(env);
      for (const sql of ddl) await setup.query(sql);
      await setup.end();
      const err = await factory.open(env).then(
        () => undefined,
        (e: any) => e,
      );
      assert.is(err?.code, 'E_CORRUPT');
      assert.match(err.hint, /fresh database|DROP SCHEMA openprose/);
      const after: PgDb = await factory.openDb(env);
      const bindings = await after.query(`SELECT 1 FROM openprose.bindings LIMIT 0`).then(
        () => 'created',
        () => 'absent',
      );
      assert.is(bindings, 'absent', 'nothing was added to the foreign schema');
      await after.query(
        ddl[1]!.startsWith('CREATE TABLE openprose.run')
          ? 'SELECT id FROM openprose.run'
          : 'SELECT value FROM openprose.x_prose_meta',
      );
      await after.end();
      await factory.dispose!(env);
    } finally {
      env.cleanup();
    }
  });
}

// A database open() created and then could not set up is dropped again: nothing half-created is left behind.
// template1 gets a foreign openprose schema for a moment, so the new case database inherits it and open fails.
realServerTest('a case database that cannot be set up is dropped again [real server]', async (url) => {
  const tpl = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/template1' }).toString() });
  await tpl.connect();
  const env = tempEnv();
  try {
    await tpl.query('CREATE SCHEMA openprose; CREATE TABLE openprose.run (id TEXT)');
    await tpl.end();
    const f = postgresUrlFactory(url, 'test');
    const err = await f.open(env).then(
      () => undefined,
      (e: any) => e,
    );
    assert.is(err?.code, 'E_CORRUPT');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const left = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [caseDatabaseName(env.storageKey)]);
    await admin.end();
    assert.is(left.rowCount, 0, 'the case database is gone');
  } finally {
    const fix = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/template1' }).toString() });
    await fix.connect();
    await fix.query('DROP SCHEMA IF EXISTS openprose CASCADE');
    await fix.end();
    env.cleanup();
  }
});

test.run();
