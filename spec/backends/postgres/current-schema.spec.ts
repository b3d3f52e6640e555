import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newDb } from 'pg-mem';
import { CURRENT_DDL, CURRENT_TABLES } from '../../../src/backends/postgres/ddl-current.ts';
import { onEachEngine, type TestFactory } from './engines.ts';
import { pgView, tempEnv } from './helpers.ts';

const current = (env: ReturnType<typeof tempEnv>) => ({ ...env, edition: 'current' as const });

onEachEngine('the current edition creates its own schema, marked with its edition', async (factory: TestFactory) => {
  const env = current(tempEnv());
  try {
    const b = await factory.open(env);
    const view = pgView(b);
    assert.equal(await view.query(`SELECT key, value FROM openprose.x_prose_meta ORDER BY key`), [
      { key: 'created_by', value: 'prose-state' },
      { key: 'edition', value: 'current' },
      { key: 'schema_version', value: '1' },
    ]);
    for (const t of CURRENT_TABLES) await view.query(`SELECT * FROM openprose.${t} LIMIT 0`);
    await view.query(`SELECT root_path, root_source FROM openprose.run LIMIT 0`);
    await view.query(`SELECT binding FROM openprose.bindings LIMIT 0`);
    await view.query(`SELECT source_ref, resolved_at, requires_schema, ensures_schema FROM openprose.imports LIMIT 0`);
    const v0Column = await view.query(`SELECT kind FROM openprose.bindings LIMIT 0`).then(
      () => 'present',
      () => 'absent',
    );
    assert.is(v0Column, 'absent', 'bindings.kind is the v0 name');
    await b.close();
    await factory.dispose!(env);
  } finally {
    env.cleanup();
  }
});

for (const [made, opened] of [
  ['v0', 'current'],
  ['current', 'v0'],
] as const) {
  onEachEngine(`a schema made for ${made} is refused when opened in ${opened}`, async (factory: TestFactory) => {
    const env = tempEnv();
    try {
      const first = await factory.open({ ...env, edition: made });
      await first.close();
      const err = await factory.open({ ...env, edition: opened }).then(
        () => undefined,
        (e: any) => e,
      );
      assert.is(err?.code, 'E_CORRUPT');
      assert.match(err.message, new RegExp(`made for the ${made} edition.*uses the ${opened} edition`));
      assert.match(err.hint, /its own database/);
      // Still usable in the edition that made it.
      const again = await factory.open({ ...env, edition: made });
      await again.close();
      await factory.dispose!(env);
    } finally {
      env.cleanup();
    }
  });
}

// The text's own key for versions: two nodes with the same artifact cannot both be stored (pg-current-version-key).
test('postgres.md version PRIMARY KEY refuses a second node with the same artifact; the corrected key stores both', () => {
  const asWritten = newDb({ noAstCoverageCheck: true });
  asWritten.public.none(`CREATE SCHEMA openprose;
    CREATE TABLE openprose.world_model_version (version TEXT PRIMARY KEY, node TEXT NOT NULL, artifact BYTEA)`);
  asWritten.public.none(`INSERT INTO openprose.world_model_version (version, node) VALUES ('sha256:e', 'a')`);
  assert.throws(
    () => asWritten.public.none(`INSERT INTO openprose.world_model_version (version, node) VALUES ('sha256:e', 'b')`),
    /duplicate key/,
  );
  const corrected = newDb({ noAstCoverageCheck: true });
  for (const sql of CURRENT_DDL) corrected.public.none(sql);
  corrected.public.none(
    `INSERT INTO openprose.world_model_version (version, node) VALUES ('sha256:e', 'a'), ('sha256:e', 'b')`,
  );
  assert.throws(
    () => corrected.public.none(`INSERT INTO openprose.world_model_published (node, version) VALUES ('c', 'sha256:e')`),
    /foreign key|violates/i,
  );
});

// pg-current-indexes: why the text's partial indexes lose their WHERE on both engines.
test('pg-mem answers from a partial index as if it held every row (so the current DDL has none)', () => {
  const mem = newDb({ noAstCoverageCheck: true });
  mem.public.none(`CREATE TABLE agents (name TEXT, run_id TEXT);
    CREATE INDEX idx_agents_project_scoped ON agents(name) WHERE run_id IS NULL;
    INSERT INTO agents VALUES ('captain', 'r1')`);
  assert.equal(mem.public.many(`SELECT run_id FROM agents WHERE name = 'captain'`), [], 'pg-mem 3.0.14 loses the row');
  const fixed = newDb({ noAstCoverageCheck: true });
  for (const sql of CURRENT_DDL) fixed.public.none(sql);
  fixed.public.none(`INSERT INTO openprose.agents (name, run_id, scope) VALUES ('captain', 'r1', 'execution')`);
  assert.equal(fixed.public.many(`SELECT run_id FROM openprose.agents WHERE name = 'captain'`), [{ run_id: 'r1' }]);
});

test.run();
