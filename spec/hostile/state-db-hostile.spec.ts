import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_ROWS_CHECKED } from '../../src/verify/state-db/query-budget.ts';
import type { VerifyResult } from '../../src/verify/registry.ts';
import type { Finding } from '../../src/verify/finding.ts';
import { FindingSink } from '../../src/verify/kit/finding-sink.ts';
import { checkStateDb } from '../../src/verify/state-db/check-state-db.ts';
import { STATE_DB_RULES } from '../../src/verify/state-db/rules.ts';
import { seedDb, type SeedDb } from '../verify/state-db/seed-db.ts';
import { bounded } from './bounded-verify.ts';

// A hostile state.db given to verify (issue 34): a view where a core table belongs (one over an endless recursive
// CTE), triggers, a table of more rows than verify checks, a file that is not SQLite. verify finishes in bounded time
// and memory (a child process), reads nothing it should not and writes nothing.

async function withDb(sql: string, check: (db: SeedDb) => void | Promise<void>): Promise<void> {
  const db = await seedDb();
  try {
    if (sql) await db.exec(sql);
    await check(db);
  } finally {
    db.cleanup();
  }
}

const rules = (r: VerifyResult, rule: string) => r.findings.filter((f) => f.rule === rule);
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

test('bindings as a view over an endless recursive CTE: db.not-a-table, never read, in bounded time', async () => {
  await withDb(
    `DROP TABLE bindings;
     CREATE VIEW bindings AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
       SELECT 'b' || i AS name, NULL AS execution_id, 'let' AS kind, 'v' AS value, NULL AS source_statement,
         NULL AS created_at, NULL AS updated_at, NULL AS attachment_path FROM n;`,
    (db) => {
      const r = bounded(db.db, 'state-db');
      assert.equal(
        rules(r, 'db.not-a-table').map((f) => f.table),
        ['bindings'],
      );
      assert.match(rules(r, 'db.not-a-table')[0]!.message, 'view');
    },
  );
});

test('run as a view: db.not-a-table, and no run-row finding read through it', async () => {
  await withDb(`ALTER TABLE run RENAME TO x_run; CREATE VIEW run AS SELECT * FROM x_run;`, (db) => {
    const r = bounded(db.db, 'state-db');
    assert.equal(
      rules(r, 'db.not-a-table').map((f) => f.table),
      ['run'],
    );
  });
});

test('triggers on the core tables: verify writes nothing (the file is byte for byte the same)', async () => {
  await withDb(
    `CREATE TABLE x_log (what TEXT);
     CREATE TRIGGER t1 AFTER UPDATE ON run BEGIN INSERT INTO x_log VALUES ('updated'); END;
     CREATE TRIGGER t2 BEFORE INSERT ON bindings BEGIN SELECT RAISE(ABORT, 'no'); END;`,
    (db) => {
      const before = sha(db.db);
      const r = bounded(db.db, 'state-db');
      assert.equal(rules(r, 'db.open'), []);
      assert.is(sha(db.db), before);
    },
  );
});

test(`a bindings table of more rows than verify checks: db.budget names the table and the count checked`, async () => {
  await withDb(
    `INSERT INTO bindings (name, execution_id, kind, value)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT ${MAX_ROWS_CHECKED + 5})
       SELECT 'b' || i, i, 'let', 'v' FROM n;`,
    (db) => {
      const r = bounded(db.db, 'state-db');
      const budget = rules(r, 'db.budget');
      assert.equal(
        budget.map((f) => f.table),
        ['bindings'],
      );
      assert.match(budget[0]!.message, `more than ${MAX_ROWS_CHECKED} rows`);
      assert.match(budget[0]!.message, `first ${MAX_ROWS_CHECKED}`);
    },
  );
});

test('past the time budget SQLite is interrupted: db.budget saying so, not db.open, not a hang', async () => {
  await withDb(
    `INSERT INTO bindings (name, execution_id, kind, value)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 50000) SELECT 'b' || i, i, 'let', 'v' FROM n;`,
    async (db) => {
      const out: Finding[] = [];
      const t0 = performance.now();
      await checkStateDb(db.db, new FindingSink(STATE_DB_RULES, out), {
        file: 'state.db',
        thresholdBytes: 102400,
        dbKind: 'run',
        budgetMs: 1,
      });
      assert.ok(performance.now() - t0 < 5000);
      const budget = out.filter((f) => f.rule === 'db.budget');
      assert.is(budget.length, 1, JSON.stringify(out));
      assert.match(budget[0]!.message, 'took over 1 ms: interrupted');
      assert.equal(
        out.filter((f) => f.rule === 'db.open'),
        [],
      );
    },
  );
});

test('a state.db that is not SQLite, named with --kind state-db: one db.open finding', async () => {
  await withDb('', (db) => {
    writeFileSync(db.db, 'CREATE TABLE run (id TEXT); -- a SQL script, not a database\n');
    const r = bounded(db.db, 'state-db');
    assert.equal(
      r.findings.map((f) => f.rule),
      ['db.open'],
    );
  });
});

test('an empty state.db named with --kind state-db: db.table-missing for each core table, no crash', async () => {
  await withDb('', (db) => {
    writeFileSync(join(db.db), '');
    const r = bounded(db.db, 'state-db');
    assert.ok(r.findings.length > 0);
    assert.ok(
      r.findings.every((f) => f.rule === 'db.table-missing' || f.rule === 'db.open'),
      JSON.stringify(r.findings),
    );
  });
});

test.run();
