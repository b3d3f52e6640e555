import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { queryRows, SqliteFile } from '../../../src/sqlite/index.ts';
import { cli, SQLITE3, tempEnv } from './helpers.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a real sqlite3 inside a write transaction is waited for (its lock seen in /proc/locks), and its commit kept', async () => {
  if (!existsSync('/proc/locks')) return; // native locks are only visible on Linux
  const env = tempEnv('native-writer');
  try {
    const path = join(env.dir, 'x.db');
    assert.is(cli([path, "CREATE TABLE t (who TEXT); INSERT INTO t VALUES ('before')"]).status, 0);
    const file = await SqliteFile.open(path, { timeoutMs: 10_000 });
    await file.read((db) => queryRows(db, 'SELECT 1')); // opened and checked before the CLI holds its lock

    const native = spawn(SQLITE3, [path], { stdio: ['pipe', 'pipe', 'pipe'] });
    native.stdin.write("BEGIN IMMEDIATE;\nINSERT INTO t VALUES ('cli');\nSELECT 'in';\n");
    await new Promise<void>((resolve) => native.stdout.on('data', (d) => String(d).includes('in') && resolve()));

    // A read goes on (RESERVED is not EXCLUSIVE) and sees only what is committed.
    assert.equal(await file.read((db) => queryRows(db, 'SELECT who FROM t ORDER BY who')), [{ who: 'before' }]);
    let done = false;
    const ours = file.write((db) => db.exec("INSERT INTO t VALUES ('ours')")).then(() => (done = true));
    await sleep(400);
    assert.not.ok(done, 'our write waits while the native writer holds RESERVED');

    native.stdin.end('COMMIT;\n');
    await new Promise((r) => native.on('close', r));
    await ours;
    file.close();
    assert.is(cli([path, 'PRAGMA integrity_check; SELECT who FROM t ORDER BY who']).stdout, 'ok\nbefore\ncli\nours\n');
  } finally {
    env.done();
  }
});

test.run();
