import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AGENTS_DDL, RUN_DDL } from '../../../src/sqlite/index.ts';
import { cli, runFixture, tempEnv } from './helpers.ts';

test("4 processes running the seed's INSERT through `prose-state sqlite3` 25 times each lose nothing", async () => {
  const env = tempEnv('shim-writers');
  try {
    const db = join(env.dir, 'state.db');
    assert.is(cli([db, RUN_DDL + AGENTS_DDL]).status, 0);
    const results = await Promise.all([0, 1, 2, 3].map((p) => runFixture('shim-writer.ts', [db, `p${p}`, '25'])));
    for (const r of results) assert.is(r.stdout, 'failures=0\n', r.stderr);
    assert.is(cli([db, 'SELECT count(*) FROM bindings']).stdout, '100\n');
    assert.is(cli([db, 'PRAGMA integrity_check']).stdout, 'ok\n');
  } finally {
    env.done();
  }
});

test("the WASM bytes can be handed in before the first open (the single binary's SEA asset), not after", async () => {
  const env = tempEnv('wasm-bytes');
  try {
    const db = join(env.dir, 'x.db');
    const r = await runFixture('injected-wasm.ts', [db]);
    assert.is(r.stdout, 'late=E_USAGE\n', r.stderr);
    assert.is(cli([db, 'SELECT a FROM t']).stdout, 'from injected wasm\n');
  } finally {
    env.done();
  }
});

test.run();
