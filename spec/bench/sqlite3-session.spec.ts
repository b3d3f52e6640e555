import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Sqlite3Session } from '../../src/bench/sqlite3-session.ts';

// The real sqlite3 CLI (CI installs Debian's): the bench's batched peer runs its statements through one of these.
const dir = mkdtempSync(join(tmpdir(), 'sqlite3-session-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const count = (db: string) => spawnSync('sqlite3', [db, 'SELECT count(*) FROM t'], { encoding: 'utf8' }).stdout.trim();

test('one process runs batches one at a time, each done when run() resolves', async () => {
  const db = join(dir, 'a.db');
  const s = Sqlite3Session.open('sqlite3', db);
  await s.run('CREATE TABLE t(v);');
  await s.run("INSERT INTO t VALUES ('x');\nINSERT INTO t VALUES ('y');");
  assert.is(count(db), '2'); // committed before the process ends: each INSERT autocommits
  await s.run("INSERT INTO t VALUES ('z');");
  await s.close();
  assert.is(count(db), '3');
});

test('an SQL error rejects the batch with the CLI message', async () => {
  const s = Sqlite3Session.open('sqlite3', join(dir, 'b.db'));
  try {
    await s.run('INSERT INTO missing VALUES (1);');
    assert.unreachable('the batch should fail');
  } catch (err) {
    assert.match((err as Error).message, /no such table: missing/);
  }
  await s.close().catch(() => undefined);
});

test.run();
