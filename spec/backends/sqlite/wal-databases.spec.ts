import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SqliteFile, queryValue } from '../../../src/sqlite/index.ts';
import { ProseError } from '../../../src/core/errors.ts';
import { cli, tempEnv } from './helpers.ts';

test('a WAL database the sqlite3 CLI left checkpointed opens, and our commit writes it back in rollback mode', async () => {
  const env = tempEnv('wal');
  try {
    const db = join(env.dir, 'state.db');
    assert.is(cli([db, "PRAGMA journal_mode=WAL; CREATE TABLE t(a); INSERT INTO t VALUES ('cli')"]).stdout, 'wal\n');
    const file = await SqliteFile.open(db);
    assert.is(await file.read((d) => queryValue(d, 'SELECT a FROM t')), 'cli');
    await file.write((d) => d.exec("INSERT INTO t VALUES ('ours')"));
    file.close();
    assert.is(cli([db, 'PRAGMA journal_mode; PRAGMA integrity_check; SELECT a FROM t ORDER BY a']).stdout, 'delete\nok\ncli\nours\n');
  } finally {
    env.done();
  }
});

test('a WAL database with un-checkpointed changes in its -wal file is refused with E_FORMAT and left untouched', async () => {
  const env = tempEnv('wal-pending');
  try {
    const db = join(env.dir, 'state.db');
    cli([db, "PRAGMA journal_mode=WAL; CREATE TABLE t(a); INSERT INTO t VALUES ('cli')"]);
    writeFileSync(`${db}-wal`, Buffer.alloc(4096, 1)); // stands in for a writer that has not checkpointed yet
    const before = readFileSync(db);
    const file = await SqliteFile.open(db);
    try {
      await file.write((d) => d.exec("INSERT INTO t VALUES ('ours')"));
      assert.unreachable('should refuse');
    } catch (err) {
      assert.instance(err, ProseError);
      assert.is((err as ProseError).code, 'E_FORMAT');
      assert.match((err as ProseError).hint ?? '', /journal_mode=DELETE/);
    }
    file.close();
    assert.ok(readFileSync(db).equals(before));
  } finally {
    env.done();
  }
});

test.run();
