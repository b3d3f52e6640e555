import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CURRENT_CORRECTIONS } from '../../../src/backends/sqlite/current-corrections.ts';
import {
  AGENTS_DDL,
  CURRENT_RUN_DDL,
  enginesAvailable,
  executeScript,
  queryRows,
  SqliteFile,
} from '../../../src/sqlite/index.ts';
import { cli, tempEnv } from './helpers.ts';

const { seed, corrected } = CURRENT_CORRECTIONS.bindingsDdl;
const TABLES = 'agent_segments agents bindings execution imports receipt run world_model_published world_model_version';
const upsert = (col: string) =>
  `INSERT OR REPLACE INTO bindings (name, execution_id, ${col}, value) VALUES ('x', NULL, 'let', 1), ('x', NULL, 'let', 2), ('x', 43, 'let', 3);`;

test("the current text's bindings DDL is refused by the sqlite3 CLI; the corrected one runs and keys on (name, scope)", () => {
  // The text's statement as quoted: v0's with kind renamed binding, the refused key line kept.
  assert.match(seed, /\n {4}binding TEXT, {2}-- input, output, let, const\n/);
  assert.match(
    seed,
    /\n {4}PRIMARY KEY \(name, IFNULL\(execution_id, -1\)\) {2}-- IFNULL handles NULL for root scope\n/,
  );
  assert.not.match(seed + corrected, /kind/);
  const refused = cli([':memory:', seed]);
  assert.is(refused.status, 1);
  assert.is(refused.stderr, 'Error: in prepare, expressions prohibited in PRIMARY KEY and UNIQUE constraints\n');
  const ran = cli([':memory:', `${corrected} ${upsert('binding')} SELECT count(*) FROM bindings;`]);
  assert.is(ran.stderr, '');
  assert.is(ran.stdout, '2\n');
});

test('the whole current DDL (corrected) runs through the sqlite3 CLI and makes every table of the text', () => {
  const env = tempEnv('current-ddl-cli');
  try {
    const db = join(env.dir, 'state.db');
    const made = cli(['-bail', db, CURRENT_RUN_DDL + AGENTS_DDL]);
    assert.is(made.stderr, '');
    assert.is(made.status, 0);
    assert.is(cli([db, '.tables']).stdout.split(/\s+/).filter(Boolean).sort().join(' '), TABLES);
  } finally {
    env.done();
  }
});

for (const engine of enginesAvailable()) {
  test(`engine ${engine}: the text's bindings DDL is refused, the current DDL (corrected) runs and upserts on the key`, async () => {
    const env = tempEnv(`current-ddl-${engine}`);
    const file = await SqliteFile.open(join(env.dir, 'state.db'), { engine });
    try {
      let error: unknown;
      await file.write((db) => executeScript(db, seed)).catch((err) => (error = err));
      assert.match(String((error as Error)?.message), /expressions prohibited in PRIMARY KEY and UNIQUE constraints/);
      const names = await file.write((db) => {
        executeScript(db, CURRENT_RUN_DDL + AGENTS_DDL + upsert('binding'));
        return queryRows(
          db,
          "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        );
      });
      assert.is(names.map((r) => r.name).join(' '), TABLES);
      const rows = await file.read((db) => queryRows(db, 'SELECT execution_id, value FROM bindings ORDER BY value'));
      assert.equal(rows, [
        { execution_id: null, value: '2' },
        { execution_id: 43, value: '3' },
      ]);
    } finally {
      file.close();
      env.done();
    }
  });
}

test.run();
