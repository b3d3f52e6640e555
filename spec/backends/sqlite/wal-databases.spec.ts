// Cases named native or posix are registered only where node:sqlite exists (Node 24); Node 20 runs the wasm ones.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SqliteFile, queryValue } from '../../../src/sqlite/index.ts';
import { ProseError } from '../../../src/core/errors.ts';
import { cli, enginesHere, lockingEnginesHere, tempEnv } from './helpers.ts';

/** A WAL database whose last commit is only in its -wal: copied while the CLI still had it open (unchecked). */
function walWithFrames(dir: string): string {
  const src = join(dir, 'src.db');
  const db = join(dir, 'state.db');
  const r = cli([
    src,
    "PRAGMA journal_mode=WAL; CREATE TABLE t(a); INSERT INTO t VALUES ('cli')",
    `.shell cp ${src} ${db} && cp ${src}-wal ${db}-wal`,
  ]);
  assert.is(r.status, 0, r.stderr);
  assert.ok(readFileSync(`${db}-wal`).length > 0, 'the copy has frames in its -wal');
  return db;
}

for (const engine of enginesHere()) {
  test(`${engine}: a WAL database the sqlite3 CLI left checkpointed opens, and our commit writes it back in rollback mode`, async () => {
    const env = tempEnv('wal');
    try {
      const db = join(env.dir, 'state.db');
      assert.is(cli([db, "PRAGMA journal_mode=WAL; CREATE TABLE t(a); INSERT INTO t VALUES ('cli')"]).stdout, 'wal\n');
      const file = await SqliteFile.open(db, { engine });
      assert.is(await file.read((d) => queryValue(d, 'SELECT a FROM t')), 'cli');
      await file.write((d) => d.exec("INSERT INTO t VALUES ('ours')"));
      file.close();
      assert.is(
        cli([db, 'PRAGMA journal_mode; PRAGMA integrity_check; SELECT a FROM t ORDER BY a']).stdout,
        'delete\nok\ncli\nours\n',
      );
    } finally {
      env.done();
    }
  });
}

test('wasm: a read of a WAL database with un-checkpointed changes in its -wal is refused with E_FORMAT, file untouched', async () => {
  const engine = 'wasm';
  {
    const env = tempEnv('wal-read');
    try {
      const db = walWithFrames(env.dir);
      const before = readFileSync(db);
      const wal = readFileSync(`${db}-wal`);
      const file = await SqliteFile.open(db, { engine });
      try {
        await file.read((d) => queryValue(d, 'SELECT count(*) FROM t'));
        assert.unreachable('should refuse');
      } catch (err) {
        assert.instance(err, ProseError);
        assert.is((err as ProseError).code, 'E_FORMAT');
        assert.match((err as ProseError).hint ?? '', /journal_mode=DELETE/);
      }
      file.close();
      assert.ok(readFileSync(db).equals(before));
      assert.ok(readFileSync(`${db}-wal`).equals(wal));
    } finally {
      env.done();
    }
  }
});

for (const engine of lockingEnginesHere())
  test(`${engine}: a read of a WAL database with un-checkpointed changes checkpoints them first, as the CLI does on close`, async () => {
    const env = tempEnv('wal-read-posix');
    try {
      const db = walWithFrames(env.dir);
      const file = await SqliteFile.open(db, { engine });
      assert.is(await file.read((d) => queryValue(d, 'SELECT a FROM t')), 'cli');
      file.close();
      assert.is(cli([db, 'PRAGMA journal_mode; PRAGMA integrity_check; SELECT a FROM t']).stdout, 'wal\nok\ncli\n');
    } finally {
      env.done();
    }
  });

for (const engine of lockingEnginesHere())
  test(`${engine}: a write to a WAL database with un-checkpointed changes checkpoints them first (as the CLI leaving WAL mode does): nothing lost`, async () => {
    const env = tempEnv('wal-write');
    try {
      const db = walWithFrames(env.dir);
      const file = await SqliteFile.open(db, { engine });
      await file.write((d) => d.exec("INSERT INTO t VALUES ('ours')"));
      file.close();
      assert.not.ok(existsSync(`${db}-wal`));
      assert.is(
        cli([db, 'PRAGMA journal_mode; PRAGMA integrity_check; SELECT a FROM t ORDER BY a']).stdout,
        'delete\nok\ncli\nours\n',
      );
    } finally {
      env.done();
    }
  });

test('wasm: a write to a WAL database with un-checkpointed changes is refused with E_FORMAT and left untouched', async () => {
  const env = tempEnv('wal-pending');
  try {
    const db = walWithFrames(env.dir);
    copyFileSync(db, `${db}.before`);
    const file = await SqliteFile.open(db, { engine: 'wasm' });
    try {
      await file.write((d) => d.exec("INSERT INTO t VALUES ('ours')"));
      assert.unreachable('should refuse');
    } catch (err) {
      assert.instance(err, ProseError);
      assert.is((err as ProseError).code, 'E_FORMAT');
    }
    file.close();
    assert.ok(readFileSync(db).equals(readFileSync(`${db}.before`)));
  } finally {
    env.done();
  }
});

test.run();
