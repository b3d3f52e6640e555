import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqlite3Command } from '../../src/cli/commands/sqlite3.ts';
import { captureIo } from '../helpers/temp-suite.ts';

/** `prose-state sqlite3 ARGS` in `cwd`, its output captured. */
async function shim(cwd: string, ...argv: string[]) {
  const c = captureIo();
  const status = await sqlite3Command.run(argv, { ...c.io, cwd });
  return { status, stdout: c.out(), stderr: c.err() };
}

/**
 * docs/sqlite.md (the shim's differences): like the real CLI, the shim's SQL reaches files beside its DB through
 * ATTACH and VACUUM INTO; it is documented, not refused. These cases pin what it does today. SQLite resolves a
 * relative name there against the process's directory, so the cases give absolute ones.
 */
test('ATTACH of an existing file writes into that file, and VACUUM INTO writes a new copy', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-shim-other-'));
  try {
    assert.is((await shim(dir, 'main.db', 'CREATE TABLE t(x); INSERT INTO t VALUES (1)')).status, 0);
    writeFileSync(join(dir, 'other.db'), '');
    const attach = await shim(
      dir,
      'main.db',
      `ATTACH '${join(dir, 'other.db')}' AS o; CREATE TABLE o.u(y); INSERT INTO o.u VALUES (7)`,
    );
    assert.is(attach.status, 0, attach.stderr);
    assert.is((await shim(dir, 'other.db', 'SELECT y FROM u')).stdout, '7\n');
    assert.is((await shim(dir, 'main.db', `VACUUM INTO '${join(dir, 'copy.db')}'`)).status, 0);
    assert.is((await shim(dir, 'copy.db', 'SELECT x FROM t')).stdout, '1\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ATTACH of a missing file and a write to it: "unable to open database" (14), where the CLI creates it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-shim-other-'));
  try {
    await shim(dir, 'main.db', 'CREATE TABLE t(x)');
    const r = await shim(
      dir,
      'main.db',
      `ATTACH '${join(dir, 'missing.db')}' AS o; CREATE TABLE o.u(y); INSERT INTO o.u VALUES (7)`,
    );
    assert.is(r.status, 14, r.stderr);
    assert.match(r.stderr, /unable to open database: .*missing\.db \(14\)/);
    assert.not.ok(existsSync(join(dir, 'missing.db')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
