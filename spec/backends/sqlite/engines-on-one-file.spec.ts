// Two engines of ours on one file (docs/sqlite.md, Limits). native and posix both take SQLite's own POSIX locks, so
// they exclude each other as two sqlite3 processes do. wasm (Node 20) takes only our lock file and reads the others'
// POSIX locks from /proc/locks: it waits for a native writer as for a sqlite3, but a native writer never sees the
// lock file of a wasm one.
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ProseError } from '../../../src/core/errors.ts';
import { execute, queryRow, queryValue, SqliteFile } from '../../../src/sqlite/index.ts';
import { cli, commitLoops, lockingEnginesHere, spawnFixture, tempEnv } from './helpers.ts';

/** A child of `hold-write.ts`, resolved once it is inside its write transaction. */
async function holding(path: string, engine: string) {
  const child = spawnFixture('hold-write.ts', [path, engine]);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('in')) resolve();
    });
    child.on('close', (code) => reject(new Error(`holder exited (${code}) early: ${out}`)));
  });
  return child;
}

async function killed(child: ReturnType<typeof spawnFixture>) {
  child.kill('SIGKILL');
  await new Promise((r) => child.on('close', r));
}

if (lockingEnginesHere().length === 2) {
  test('native and posix writers on one file (two processes, 150 commits each) lose nothing, and a reader never sees half a commit', async () => {
    const env = tempEnv('engines-mixed');
    try {
      const path = join(env.dir, 'x.db');
      const reader = await SqliteFile.open(path, { engine: 'native' });
      await reader.write((db) =>
        db.exec(
          'CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); CREATE TABLE meta (n INTEGER); INSERT INTO meta VALUES (0)',
        ),
      );
      const N = 150;
      const writers = commitLoops(path, N, ['native', 'posix']);
      while (writers.running > 0) {
        const row = await reader.read((db) =>
          queryRow(db, 'SELECT (SELECT count(*) FROM t) AS rows, (SELECT n FROM meta) AS n'),
        );
        assert.is(row!.rows, row!.n, `a reader saw ${row!.rows} rows counted as ${row!.n}`);
        await new Promise((r) => setTimeout(r, 2));
      }
      assert.is(writers.stderr, '', 'the writers failed');
      assert.is(await reader.read((db) => queryValue(db, 'SELECT count(*) FROM t')), 2 * N);
      reader.close();
      assert.is(cli([path, 'PRAGMA integrity_check; SELECT n FROM meta']).stdout, `ok\n${2 * N}\n`);
    } finally {
      env.done();
    }
  });

  test('wasm beside a native writer: it waits for the native transaction as for a sqlite3, and past its timeout answers E_CONFLICT, the file untouched', async () => {
    const env = tempEnv('wasm-beside-native');
    try {
      const path = join(env.dir, 'x.db');
      assert.is(cli([path, "CREATE TABLE t (who TEXT); INSERT INTO t VALUES ('before')"]).status, 0);
      const holder = await holding(path, 'native');
      const wasm = await SqliteFile.open(path, { engine: 'wasm', timeoutMs: 400 });
      try {
        await wasm.write((db) => execute(db, "INSERT INTO t VALUES ('wasm')"));
        assert.unreachable('the wasm write should wait, then time out');
      } catch (err) {
        assert.instance(err, ProseError);
        assert.is((err as ProseError).code, 'E_CONFLICT', (err as Error).message);
      }
      await killed(holder); // its transaction never committed
      await wasm.write((db) => execute(db, "INSERT INTO t VALUES ('wasm')"));
      wasm.close();
      assert.is(cli([path, 'PRAGMA integrity_check; SELECT who FROM t ORDER BY who']).stdout, 'ok\nbefore\nwasm\n');
    } finally {
      env.done();
    }
  });

  test('native beside a wasm writer: the native write does not see the wasm lock file and commits while the wasm transaction is open (the exposure the Limits name)', async () => {
    const env = tempEnv('native-beside-wasm');
    try {
      const path = join(env.dir, 'x.db');
      assert.is(cli([path, "CREATE TABLE t (who TEXT); INSERT INTO t VALUES ('before')"]).status, 0);
      const holder = await holding(path, 'wasm');
      const native = await SqliteFile.open(path, { engine: 'native', timeoutMs: 2000 });
      await native.write((db) => execute(db, "INSERT INTO t VALUES ('native')"));
      native.close();
      await killed(holder);
      assert.is(cli([path, 'PRAGMA integrity_check; SELECT who FROM t ORDER BY who']).stdout, 'ok\nbefore\nnative\n');
    } finally {
      env.done();
    }
  });
}

test.run();
