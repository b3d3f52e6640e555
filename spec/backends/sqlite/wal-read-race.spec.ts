// A WAL database a sqlite3 keeps committing to (docs/sqlite.md, Limits). native reads it as SQLite does, through the
// -wal: every read is a whole commit, none refused. posix checkpoints, then reads through the WASM VFS, which cannot
// read -wal frames: frames a sqlite3 appends in between make that read fail (E_FORMAT, E_IO or SQLITE_CANTOPEN), never
// torn.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ProseError } from '../../../src/core/errors.ts';
import { queryRow, SqliteFile } from '../../../src/sqlite/index.ts';
import { cli, lockingEnginesHere, SQLITE3, tempEnv } from './helpers.ts';

const COMMITS = 300;

for (const engine of lockingEnginesHere()) {
  test(`${engine}: reads of a WAL database while a sqlite3 commits ${COMMITS} times into its -wal are whole commits${engine === 'native' ? ', none refused' : ' or refused'}`, async () => {
    const env = tempEnv(`wal-race-${engine}`);
    try {
      const path = join(env.dir, 'state.db');
      const setup =
        'PRAGMA journal_mode=WAL; CREATE TABLE t (v TEXT); CREATE TABLE meta (n INTEGER); INSERT INTO meta VALUES (0)';
      assert.is(cli([path, setup]).stdout, 'wal\n');
      const writer = spawn(SQLITE3, ['-cmd', '.timeout 10000', path], { stdio: ['pipe', 'ignore', 'pipe'] });
      let stderr = '';
      writer.stderr.on('data', (d) => (stderr += d));
      let running = true;
      writer.on('close', () => (running = false));
      const txs = Array.from(
        { length: COMMITS },
        (_, i) => `BEGIN; INSERT INTO t VALUES ('${i}'); UPDATE meta SET n = n + 1; COMMIT; SELECT 1 WHERE 0;`,
      );
      // Paced, so the reads land among the commits.
      (async () => {
        for (const tx of txs) {
          writer.stdin.write(`${tx}\n`);
          await new Promise((r) => setTimeout(r, 2));
        }
        writer.stdin.end();
      })();
      const file = await SqliteFile.open(path, { engine });
      let whole = 0;
      let refused = 0;
      while (running) {
        try {
          const row = await file.read((db) =>
            queryRow(db, 'SELECT (SELECT count(*) FROM t) AS rows, (SELECT n FROM meta) AS n'),
          );
          assert.is(row!.rows, row!.n, `a read saw ${row!.rows} rows counted as ${row!.n}`);
          whole++;
        } catch (err) {
          // posix: the -wal gained frames after our checkpoint; the read fails instead of answering a torn state, with
          // E_FORMAT (our VFS saw the frames), E_IO (SQLITE_IOERR_READ, the same refusal met while opening) or
          // SQLite's SQLITE_CANTOPEN (the frames appeared mid-read).
          const known =
            (err instanceof ProseError && (err.code === 'E_FORMAT' || err.code === 'E_IO')) ||
            /SQLITE_CANTOPEN/.test((err as Error).message);
          if (!known || engine === 'native') throw err;
          refused++;
        }
        await new Promise((r) => setTimeout(r, 1));
      }
      file.close();
      assert.is(stderr, '');
      assert.ok(whole > 0, `some reads answered (${whole} whole, ${refused} refused)`);
      console.log(`  ${engine}: ${whole} whole reads, ${refused} refused`);
      assert.is(cli([path, 'PRAGMA integrity_check; SELECT count(*) FROM t']).stdout, `ok\n${COMMITS}\n`);
    } finally {
      env.done();
    }
  });
}

test.run();
