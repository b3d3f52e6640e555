// The native and posix engines against the real /usr/bin/sqlite3: its locks and ours are the same POSIX locks.
// Registered only where node:sqlite exists (Node 24); the Node 20 on PATH runs the wasm engine, whose limits
// docs/sqlite.md lists.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ProseError } from '../../../src/core/errors.ts';
import { queryRows, queryValue, SqliteFile } from '../../../src/sqlite/index.ts';
import { cli, lockingEnginesHere, SQLITE3, tempEnv } from './helpers.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

/** A sqlite3 process fed on stdin, resolved once it printed `marker` (what it ran before is then done). */
async function heldCli(path: string, sql: string, marker: string) {
  const child = spawn(SQLITE3, [path], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.write(`${sql}\nSELECT '${marker}';\n`);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes(marker)) resolve();
    });
    child.on('close', (code) => reject(new Error(`sqlite3 exited (${code}) early: ${out}`)));
  });
  return child;
}

for (const engine of lockingEnginesHere()) {
  test(`${engine}: a sqlite3 holding BEGIN EXCLUSIVE is waited for by our reads and writes, which then succeed`, async () => {
    const env = tempEnv('cli-exclusive');
    try {
      const path = join(env.dir, 'x.db');
      assert.is(cli([path, "CREATE TABLE t (who TEXT); INSERT INTO t VALUES ('before')"]).status, 0);
      const file = await SqliteFile.open(path, { engine, timeoutMs: 10_000 });
      const native = await heldCli(path, "BEGIN EXCLUSIVE;\nINSERT INTO t VALUES ('cli');", 'in');
      let read = false;
      let wrote = false;
      const reading = file
        .read((db) => queryRows(db, 'SELECT who FROM t ORDER BY who'))
        .then((r) => ((read = true), r));
      const writing = file.write((db) => db.exec("INSERT INTO t VALUES ('ours')")).then(() => (wrote = true));
      await sleep(400);
      assert.not.ok(read, 'our read waits while sqlite3 holds EXCLUSIVE');
      assert.not.ok(wrote, 'our write waits while sqlite3 holds EXCLUSIVE');
      native.stdin.end('COMMIT;\n');
      await new Promise((r) => native.on('close', r));
      const rows = await reading;
      await writing;
      // The read ran after the CLI's commit, before or after ours: never a half of either.
      assert.ok(['before,cli', 'before,cli,ours'].includes(rows.map((r) => r.who).join()), JSON.stringify(rows));
      file.close();
      assert.is(
        cli([path, 'PRAGMA integrity_check; SELECT who FROM t ORDER BY who']).stdout,
        'ok\nbefore\ncli\nours\n',
      );
    } finally {
      env.done();
    }
  });

  test(`${engine}: past the busy timeout a write held off by sqlite3 fails with E_CONFLICT "database is locked", the file untouched`, async () => {
    const env = tempEnv('cli-timeout');
    try {
      const path = join(env.dir, 'x.db');
      assert.is(cli([path, "CREATE TABLE t (who TEXT); INSERT INTO t VALUES ('before')"]).status, 0);
      const file = await SqliteFile.open(path, { engine, timeoutMs: 300 });
      const native = await heldCli(path, 'BEGIN EXCLUSIVE;', 'in');
      const started = Date.now();
      try {
        await file.write((db) => db.exec("INSERT INTO t VALUES ('ours')"));
        assert.unreachable('should time out');
      } catch (err) {
        assert.instance(err, ProseError);
        assert.is((err as ProseError).code, 'E_CONFLICT');
        assert.match((err as ProseError).message, /database is locked.*busy timeout \(300 ms\)/);
        assert.ok(Date.now() - started >= 300, 'it waited the busy timeout first');
      }
      native.stdin.end('ROLLBACK;\n');
      await new Promise((r) => native.on('close', r));
      file.close();
      assert.is(cli([path, 'PRAGMA integrity_check; SELECT who FROM t']).stdout, 'ok\nbefore\n');
    } finally {
      env.done();
    }
  });

  test(`${engine}: while our write holds the file, a sqlite3 writer without a busy timeout is told "database is locked"`, async () => {
    const env = tempEnv('cli-sees-ours');
    try {
      const path = join(env.dir, 'x.db');
      assert.is(cli([path, 'CREATE TABLE t (who TEXT)']).status, 0);
      const file = await SqliteFile.open(path, { engine });
      const [writer, reader] = await file.write((db) => {
        db.exec("INSERT INTO t VALUES ('ours')");
        return [
          spawnSync(SQLITE3, [path, "INSERT INTO t VALUES ('cli')"], { encoding: 'utf8' }),
          spawnSync(SQLITE3, [path, 'SELECT count(*) FROM t'], { encoding: 'utf8' }),
        ];
      });
      assert.is.not(writer!.status, 0);
      assert.match(writer!.stderr, /database is locked/);
      // native holds RESERVED until its COMMIT, as the CLI does: a reader reads the last commit; posix holds EXCLUSIVE.
      if (engine === 'native') assert.is(reader!.stdout, '0\n', reader!.stderr);
      else assert.match(reader!.stderr, /database is locked/);
      file.close();
      assert.is(cli([path, 'SELECT who FROM t']).stdout, 'ours\n');
    } finally {
      env.done();
    }
  });

  test(`${engine}: the hot journal of a sqlite3 SIGKILLed with pages of its transaction written in place is rolled back when we open`, async () => {
    const env = tempEnv('cli-killed');
    try {
      const path = join(env.dir, 'x.db');
      assert.is(
        cli([
          path,
          "PRAGMA page_size=4096; CREATE TABLE t (v TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 200) INSERT INTO t SELECT 'old' || i || printf('%.500c', 'x') FROM n",
        ]).status,
        0,
      );
      // A tiny cache makes the CLI spill: it writes pages of its open transaction into the file before COMMIT.
      const native = await heldCli(
        path,
        "PRAGMA cache_size=2; BEGIN; UPDATE t SET v = 'new' || substr(v, 4);",
        'spilled',
      );
      native.kill('SIGKILL');
      await new Promise((r) => native.on('close', r));
      assert.ok(
        readFileSync(`${path}-journal`).subarray(0, 8).equals(JOURNAL_MAGIC),
        'the dead sqlite3 left a hot journal',
      );
      const file = await SqliteFile.open(path, { engine });
      assert.is(await file.read((db) => queryValue(db, "SELECT count(*) FROM t WHERE v LIKE 'old%'")), 200);
      file.close();
      assert.is(cli([path, "PRAGMA integrity_check; SELECT count(*) FROM t WHERE v LIKE 'new%'"]).stdout, 'ok\n0\n');
    } finally {
      env.done();
    }
  });
}

test.run();
