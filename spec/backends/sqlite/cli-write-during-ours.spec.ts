import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SqliteFile } from '../../../src/sqlite/index.ts';
import { ProseError } from '../../../src/core/errors.ts';
import { cli, SQLITE3, tempEnv } from './helpers.ts';

test('wasm: a real sqlite3 write landing while our transaction runs is kept: our transaction is redone on top of it', async () => {
  const env = tempEnv('cli-race');
  try {
    const path = join(env.dir, 'x.db');
    assert.is(cli([path, 'CREATE TABLE t(who TEXT)']).status, 0);
    const file = await SqliteFile.open(path, { engine: 'wasm' }); // the posix engine excludes such a sqlite3 (native-locks-with-cli.spec.ts)
    let attempts = 0;
    await file.write((db) => {
      attempts++;
      // The first time, a sqlite3 process (which knows nothing of our lock) writes the file in place meanwhile.
      if (attempts === 1) spawnSync(SQLITE3, [path, "INSERT INTO t VALUES ('cli')"]);
      db.exec("INSERT INTO t VALUES ('ours')");
    });
    file.close();
    assert.is(attempts, 2);
    assert.is(cli([path, 'SELECT who FROM t ORDER BY who']).stdout, 'cli\nours\n');
    assert.is(cli([path, 'PRAGMA integrity_check']).stdout, 'ok\n');
  } finally {
    env.done();
  }
});

test('wasm: a commit undone behind our back (a sqlite3 rolling our live journal back) is answered E_CONFLICT, not acknowledged', async () => {
  const env = tempEnv('cli-rollback');
  try {
    const path = join(env.dir, 'x.db');
    assert.is(cli([path, "CREATE TABLE t(who TEXT); INSERT INTO t VALUES ('before')"]).status, 0);
    const before = readFileSync(path);
    const file = await SqliteFile.open(path, { engine: 'wasm' }); // the posix engine excludes such a sqlite3 (native-locks-with-cli.spec.ts)
    try {
      await file.write(
        (db) => {
          db.exec("INSERT INTO t VALUES ('ours')");
          writeFileSync(path, before); // what a sqlite3 playing our journal back leaves: the file as it was
        },
        { transaction: false },
      );
      assert.unreachable('the lost commit was acknowledged');
    } catch (err) {
      assert.is((err as ProseError).code, 'E_CONFLICT');
    }
    file.close();
    assert.is(cli([path, 'PRAGMA integrity_check; SELECT who FROM t']).stdout, 'ok\nbefore\n');
  } finally {
    env.done();
  }
});

test.run();
