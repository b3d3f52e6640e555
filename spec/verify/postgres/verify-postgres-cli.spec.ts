import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyCommand } from '../../../src/cli/commands/verify.ts';
import { captureIo } from '../../helpers/temp-suite.ts';
import { realServerTest } from '../../backends/postgres/engines.ts';

/** Runs `verify` in a directory without .prose/.env, so postgres:env reads only the env given. */
async function verify(argv: string[], env: Record<string, string | undefined> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'prose-verify-pg-'));
  try {
    const c = captureIo(env);
    const io = { ...c.io, cwd: dir };
    const code = await verifyCommand.run(argv, io);
    return { code, out: c.out(), err: c.err() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('verify postgres:URL on an unreachable server is exit 3 and never prints the URL or its password', async () => {
  for (const target of [
    'postgres:postgresql://alice:s3cret-pw@127.0.0.1:1/db',
    'postgresql://alice:s3cret-pw@127.0.0.1:1/db',
  ]) {
    const r = await verify([target]);
    assert.is(r.code, 3, r.err);
    assert.match(r.err, /cannot reach the PostgreSQL server/);
    assert.not.match(r.out + r.err, /s3cret|alice|127\.0\.0\.1:1/);
  }
});

test('options for trees are refused with a postgres target, quoting the option', async () => {
  const r = await verify(['postgres:env', '--since', '.']);
  assert.is(r.code, 2);
  assert.match(r.err, /--since does not apply to a postgres target/);
});

test('verify postgres:env without a URL is a usage error naming where it looked', async () => {
  const r = await verify(['postgres:env']);
  assert.is(r.code, 2);
  assert.match(r.err, /postgres:env found no database URL/);
  assert.match(r.err, /OPENPROSE_POSTGRES_URL/);
});

test('verify postgres:env reads DATABASE_URL, and an unreachable one is reported without it', async () => {
  const r = await verify(['postgres:env'], { DATABASE_URL: 'postgres://bob:hunter2@127.0.0.1:1/x' });
  assert.is(r.code, 3);
  assert.not.match(r.out + r.err, /hunter2|bob/);
});

realServerTest(
  'verify postgres:URL on a database with no schema openprose cannot tell its edition [real server]',
  async (url) => {
    const r = await verify([`postgres:${url}`]);
    assert.is(r.code, 3, r.out + r.err);
    assert.match(r.err, /no bindings table to tell its edition by/);
    const given = await verify([`postgres:${url}`, '--edition', 'current', '--format', 'json']);
    assert.is(given.code, 1);
    const report = JSON.parse(given.out);
    assert.is(report.path, 'postgres:(URL not shown)');
    assert.ok(report.findings.every((f: { rule: string }) => f.rule === 'db.table-missing'));
  },
);

test.run();
