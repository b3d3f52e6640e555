import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SqliteFile } from '../../../src/sqlite/index.ts';
import { cli, tempEnv } from './helpers.ts';

/** Bytes this process has passed to write(2)/pwrite(2) so far, as the kernel counts them (Linux). */
function bytesWritten(): number {
  return Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
}

/** What each of `n` one-row commits wrote, in bytes, sorted. */
async function commitCosts(file: SqliteFile, n: number, tag: string): Promise<number[]> {
  const costs: number[] = [];
  for (let i = 0; i < n; i++) {
    const before = bytesWritten();
    await file.write((db) => db.exec({ sql: 'INSERT INTO t (v) VALUES (?)', bind: [`${tag}${i}`.padEnd(1100, '.')] }));
    costs.push(bytesWritten() - before);
  }
  return costs.sort((a, b) => a - b);
}

test('a commit writes its changed pages and their journal, not the database: its bytes stay flat as the file grows', async () => {
  if (!existsSync('/proc/self/io')) return; // the kernel's count is the witness; elsewhere there is none
  const env = tempEnv('commit-bytes');
  try {
    const path = join(env.dir, 'x.db');
    const file = await SqliteFile.open(path);
    await file.write((db) => db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)'));
    const small = await commitCosts(file, 21, 'a');
    // Grow it to ~4 MB in one transaction, then commit single rows again.
    await file.write((db) => {
      for (let i = 0; i < 3500; i++)
        db.exec({ sql: 'INSERT INTO t (v) VALUES (?)', bind: [`bulk${i}`.padEnd(1100, '.')] });
    });
    const size = statSync(path).size;
    const large = await commitCosts(file, 21, 'b');
    file.close();

    const median = (xs: number[]) => xs[Math.floor(xs.length / 2)]!;
    assert.ok(size > 4_000_000, `the database grew (${size} bytes)`);
    // A one-row commit changes ~3 pages of 4 KiB: each is written to the journal and then in place.
    assert.ok(median(small) < 48 * 1024, `a commit on a small file wrote ${median(small)} bytes`);
    assert.ok(median(large) < 48 * 1024, `a commit on a ${size}-byte file wrote ${median(large)} bytes`);
    assert.ok(
      median(large) <= 2 * median(small),
      `commit cost grew with the file: ${median(small)} -> ${median(large)} bytes`,
    );
    // Growing the file ahead (zero-filled space, at most 1 MiB at a time) is paid now and then, not by every commit.
    const worst = large[large.length - 1]!;
    assert.ok(
      worst < 1.1 * 1024 * 1024 && worst < size / 3,
      `the costliest commit wrote ${worst} bytes, against a ${size}-byte file`,
    );
    assert.is(cli([path, 'PRAGMA integrity_check; SELECT count(*) FROM t']).stdout, 'ok\n3542\n');
  } finally {
    env.done();
  }
});

test.run();
