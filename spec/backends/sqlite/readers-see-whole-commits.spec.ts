import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { queryRow, SqliteFile } from '../../../src/sqlite/index.ts';
import { cli, commitLoops, enginesHere, tempEnv } from './helpers.ts';

for (const engine of enginesHere())
  test(`${engine}: a reader in another process never sees a commit half-written, though pages are written in place`, async () => {
    const env = tempEnv(`readers-${engine}`);
    try {
      const path = join(env.dir, 'x.db');
      const file = await SqliteFile.open(path, { engine });
      await file.write((db) =>
        db.exec(
          'CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); CREATE TABLE meta (n INTEGER); INSERT INTO meta VALUES (0)',
        ),
      );
      const N = 300;
      const writers = commitLoops(path, N, [engine, engine]);
      const seen = new Set<number>();
      let reads = 0;
      while (writers.running > 0) {
        // Each commit adds a row and counts it: a reader between the two page writes would see them disagree.
        const row = await file.read((db) =>
          queryRow(db, 'SELECT (SELECT count(*) FROM t) AS rows, (SELECT n FROM meta) AS n'),
        );
        assert.is(row!.rows, row!.n, `a reader saw ${row!.rows} rows counted as ${row!.n}`);
        seen.add(Number(row!.n));
        reads++;
        await new Promise((r) => setImmediate(r)); // an uncontended read never waits: let the children's events in
      }
      assert.is(writers.stderr, '', 'the writers failed');
      const last = await file.read((db) => queryRow(db, 'SELECT count(*) AS rows FROM t'));
      file.close();
      assert.is(last!.rows, 2 * N);
      assert.ok(
        seen.size > 10,
        `the reader saw the count move while the writers ran (${seen.size} values in ${reads} reads)`,
      );
      assert.is(cli([path, 'PRAGMA integrity_check']).stdout, 'ok\n');
    } finally {
      env.done();
    }
  });

test.run();
