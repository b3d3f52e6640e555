import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { newDb } from 'pg-mem';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openReadOnlyReader, probingReader, type SchemaReader } from '../../../src/backends/postgres/index.ts';
import { withDatabase } from '../../../src/backends/postgres/case-database.ts';
import { PgDb, type PoolLike } from '../../../src/backends/postgres/pg-db.ts';
import { checkPgSchema } from '../../../src/verify/postgres/check-pg-schema.ts';
import { realServerTest } from '../../backends/postgres/engines.ts';

// The current postgres.md DDL, corrected only where it cannot run, and rows as its own INSERT examples write them.
const TEXT_DDL = readFileSync(
  new URL('../../backends/postgres/fixtures/current-postgres-md.sql', import.meta.url),
  'utf8',
);
const TEXT_ROWS = `
  INSERT INTO openprose.run (id, root_path, root_source, status)
    VALUES ('20260116-143052-a7b3c9', '/path/to/root.prose.md', 'root source...', 'running');
  INSERT INTO openprose.bindings (name, run_id, execution_id, binding, value, source_statement)
    VALUES ('research', '20260116-143052-a7b3c9', NULL, 'let', E'AI safety research covers alignment, robustness...',
      'let research = session: researcher')
    ON CONFLICT (name, run_id, COALESCE(execution_id, -1)) DO UPDATE SET value = EXCLUDED.value, updated_at = NOW();
`;

async function verifyClean(reader: SchemaReader): Promise<void> {
  try {
    const r = await checkPgSchema(reader);
    assert.equal(r.findings, []);
    assert.equal(r.edition, { edition: 'current', source: 'detected', evidence: 'bindings.binding' });
  } finally {
    await reader.close();
  }
}

test("verify accepts a schema made from the current text's own DDL, with the text's rows [pg-mem]", async () => {
  const mem = newDb({ noAstCoverageCheck: true });
  mem.public.none(TEXT_DDL);
  mem.public.none(TEXT_ROWS);
  const { Pool } = mem.adapters.createPg();
  await verifyClean(probingReader(new PgDb(new Pool() as PoolLike, undefined, true)));
});

realServerTest(
  "verify accepts a schema made from the current text's own DDL, with the text's rows [real server]",
  async (url) => {
    const name = `prose_text_ddl_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const c = new pg.Client({ connectionString: withDatabase(url, name) });
      await c.connect();
      await c.query(TEXT_DDL);
      await c.query(TEXT_ROWS);
      await c.end();
      await verifyClean(await openReadOnlyReader(withDatabase(url, name)));
    } finally {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    }
  },
);

test.run();
