// node:sqlite enforces foreign keys unless told not to; the sqlite3 CLI and WASM SQLite leave them off. Every engine
// leaves them off, so a row the CLI accepts (a dangling parent, as in the seed's files and verify's broken corpus)
// is accepted by ours too.
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execute, queryRows, queryValue, SqliteFile } from '../../../src/sqlite/index.ts';
import { enginesHere, tempEnv } from './helpers.ts';

for (const engine of enginesHere()) {
  test(`${engine}: foreign keys are off, as in the sqlite3 CLI: a row whose parent is missing is stored`, async () => {
    const env = tempEnv(`fk-${engine}`);
    try {
      const path = join(env.dir, 'state.db');
      const file = await SqliteFile.open(path, { engine });
      await file.write((db) => {
        execute(db, 'CREATE TABLE p (id INTEGER PRIMARY KEY)');
        execute(db, 'CREATE TABLE c (pid INTEGER REFERENCES p(id))');
      });
      await file.write((db) => execute(db, 'INSERT INTO c VALUES (999)'));
      assert.is(await file.read((db) => queryValue(db, 'PRAGMA foreign_keys')), 0);
      assert.equal(await file.read((db) => queryRows(db, 'SELECT pid FROM c')), [{ pid: 999 }]);
      file.close();
    } finally {
      env.done();
    }
  });
}

test.run();
