import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqlite3Command } from '../../../src/cli/commands/sqlite3.ts';
import type { CliIo } from '../../../src/cli/io.ts';
import { cli, tempEnv } from './helpers.ts';

async function shim(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    cwd,
  };
  const status = await sqlite3Command.run(argv, io);
  return { stdout, stderr, status };
}

const SETUP = `CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 'x'), (2.5, NULL), (NULL, 'a|b'), (1e20, 'line
break'), (-7, 'quote " and \\ backslash'), (0.1, char(1, 9, 10, 13, 8, 12)), (9007199254740993, 'é ✓ 😀');
CREATE TABLE u(k UNIQUE);`;

/** Each case runs on its own copy of the same database, through the real CLI and through the shim. */
const CASES: string[][] = [
  ['DB', 'SELECT * FROM t'],
  ['-json', 'DB', 'SELECT * FROM t'],
  ['DB', '-json', 'SELECT a AS "we""ird", b AS "back\\slash" FROM t; SELECT count(*) AS n FROM t; SELECT 1 WHERE 0'],
  ['-header', 'DB', 'SELECT a, b FROM t LIMIT 2; SELECT 3 AS c WHERE 0'],
  [
    '-json',
    'DB',
    'SELECT 1e300 * 1e10 AS inf, -1e300 * 1e10 AS ninf, 1.0 AS one, 100.0 AS h, 0.1 AS tenth, 2.5e-7 AS small, -0.0 AS z',
  ],
  ['DB', 'SELECT 1e300 * 1e10, 1.0, -0.0, 1e-7, 123456789012345678'],
  ['DB', 'SELECT * FROM nope'],
  ['DB', 'SELECT 1; selec 2; SELECT 3'],
  ['DB', '  SELECT\n  x FROM t'],
  ['DB', "SELECT a FROM t WHERE b = 'x' AND a IN (1, 2, 3) AND zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz = 1"],
  ['DB', 'INSERT INTO u VALUES (1); INSERT INTO u VALUES (1); INSERT INTO u VALUES (2)'],
  ['DB', "SELECT json_extract('{', '$.a')"],
  ['DB', 'SELECT abs(-9223372036854775808)'],
  ['DB', 'INSERT INTO t VALUES (1, 2, 3)'],
  ['DB', "CREATE TABLE z(a); INSERT INTO z VALUES ('made'); SELECT * FROM z"],
  ['DB', 'BEGIN; INSERT INTO u VALUES (42); COMMIT; SELECT k FROM u'],
  ['DB', 'BEGIN; INSERT INTO u VALUES (43)', 'SELECT count(*) FROM u'],
  ['-cmd', '.timeout 5000', 'DB', 'SELECT count(*) FROM t'],
  ['DB', 'SELECT 1', '.bogus'],
  ['-bogus', 'DB', 'SELECT 1'],
  ['DB', 'SELECT 1;;  ; SELECT 2', 'SELECT 3'],
];

test('the sqlite3 shim prints, fails and exits exactly like /usr/bin/sqlite3 3.40', async () => {
  const env = tempEnv('shim');
  try {
    const base = join(env.dir, 'base.db');
    assert.is(cli([base, SETUP]).status, 0);
    for (const [i, c] of CASES.entries()) {
      const real = join(env.dir, `real-${i}.db`);
      const ours = join(env.dir, `ours-${i}.db`);
      copyFileSync(base, real);
      copyFileSync(base, ours);
      const want = cli(
        c.map((a) => (a === 'DB' ? real : a)),
        { cwd: env.dir },
      );
      const got = await shim(
        c.map((a) => (a === 'DB' ? `ours-${i}.db` : a)),
        env.dir,
      );
      const label = JSON.stringify(c);
      assert.is(got.stdout, want.stdout, `stdout of ${label}`);
      assert.is(got.stderr, want.stderr, `stderr of ${label}`);
      assert.is(got.status, want.status, `exit code of ${label}`);
      // Whatever was committed must be the same, and our file must still be a sound database.
      const dump = (db: string) =>
        cli([
          db,
          "SELECT name, (SELECT group_concat(quote(k)) FROM u) FROM sqlite_master WHERE type = 'table' ORDER BY name",
        ]).stdout;
      assert.is(dump(ours), dump(real), `tables after ${label}`);
      assert.is(cli([ours, 'PRAGMA integrity_check']).stdout, 'ok\n');
    }
  } finally {
    env.done();
  }
});

test.run();
