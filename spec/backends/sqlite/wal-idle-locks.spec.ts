// A connection to a WAL database holds SHARED on it for as long as it is open, idle or not, and closing any other
// descriptor of the file in the same process drops that lock unseen (POSIX fcntl semantics). A sqlite3 that then
// closes takes itself for the last connection and checkpoints and deletes the -wal while ours still uses it: in
// wal-read-race.spec.ts that lost the writer's last commit in 3 of ~125 runs under load. So between reads the posix
// engine keeps no SQLite connection open on a WAL file: no lock of ours on the file or its -shm.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { queryValue, SqliteFile } from '../../../src/sqlite/index.ts';
import { cli, lockingEnginesHere, tempEnv } from './helpers.ts';

/** The POSIX locks this process holds on a file (none on a file that is not there), from /proc/locks. */
function ourLocks(path: string): string[] {
  const ino = statSync(path, { throwIfNoEntry: false })?.ino;
  if (ino === undefined) return [];
  return readFileSync('/proc/locks', 'utf8')
    .split('\n')
    .filter((l) => l.includes(` ${process.pid} `) && new RegExp(`:${ino} `).test(l));
}

if (lockingEnginesHere().includes('posix'))
  test('posix: idle between reads of a WAL database, ours holds no lock on it or its -shm', async () => {
    const env = tempEnv('wal-idle-locks');
    try {
      const path = join(env.dir, 'state.db');
      assert.is(cli([path, 'PRAGMA journal_mode=WAL; CREATE TABLE t (v); INSERT INTO t VALUES (1)']).stdout, 'wal\n');
      const file = await SqliteFile.open(path, { engine: 'posix' });
      try {
        for (let i = 0; i < 3; i++) {
          assert.is(await file.read((db) => queryValue(db, 'SELECT count(*) FROM t')), 1);
          assert.equal(ourLocks(path), [], 'a lock on the database file while idle');
          assert.equal(ourLocks(`${path}-shm`), [], 'a lock on the -shm while idle: a connection is still open');
        }
      } finally {
        file.close();
      }
      assert.is(cli([path, 'PRAGMA integrity_check; SELECT count(*) FROM t']).stdout, 'ok\n1\n');
    } finally {
      env.done();
    }
  });

test.run();
