import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyCommand } from '../../../src/cli/commands/verify.ts';
import { captureIo } from '../../helpers/temp-suite.ts';
import { realServerTest } from '../../backends/postgres/engines.ts';

// `verify postgres:env` reads the edition's env file (decision verify-postgres-env): v0 .prose/.env, current
// <openprose-root>/.env. Port 1 refuses connections, so a URL that was read shows as exit 3 (cannot reach) and one
// that was not as exit 2 (no URL); the password must never show either way.
const V0_URL = 'postgresql://bob:hunter2@127.0.0.1:1/v0db';
const CURRENT_URL = 'postgresql://carol:pa55word@127.0.0.1:1/currentdb';

/** Runs `verify` in a project holding the given env files (path -> URL), with an empty shell environment. */
async function verify(argv: string[], files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'prose-verify-pg-env-'));
  try {
    for (const [file, url] of Object.entries(files)) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), `# the project's database\nOPENPROSE_POSTGRES_URL=${url}\n`);
    }
    const c = captureIo({});
    const code = await verifyCommand.run(argv, { ...c.io, cwd: dir });
    const shown = c.out() + c.err();
    assert.not.match(shown, /hunter2|pa55word|bob|carol/, 'a URL or its password was printed');
    return { code, err: c.err() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the current edition's place, <openprose-root>/.env, is read (without --edition and with --edition current)", async () => {
  for (const argv of [['postgres:env'], ['postgres:env', '--edition', 'current']]) {
    const r = await verify(argv, { '.env': CURRENT_URL });
    assert.is(r.code, 3, r.err);
    assert.match(r.err, /cannot reach the PostgreSQL server/);
  }
});

test('--edition v0 reads .prose/.env only: a URL in .env alone is no URL, and the error names the file looked at', async () => {
  const r = await verify(['postgres:env', '--edition', 'v0'], { '.env': CURRENT_URL });
  assert.is(r.code, 2, r.err);
  assert.match(r.err, /found no database URL: looked at \.prose\/\.env \(the v0 edition's place\)/);
  assert.is((await verify(['postgres:env', '--edition', 'v0'], { '.prose/.env': V0_URL })).code, 3);
});

test('--edition current reads .env only: a URL in .prose/.env alone is no URL', async () => {
  const r = await verify(['postgres:env', '--edition', 'current'], { '.prose/.env': V0_URL });
  assert.is(r.code, 2, r.err);
  assert.match(r.err, /looked at \.env \(the current edition's place\)/);
});

test('both files naming different URLs are refused without --edition, naming both; --edition picks one', async () => {
  const both = { '.prose/.env': V0_URL, '.env': CURRENT_URL };
  const r = await verify(['postgres:env'], both);
  assert.is(r.code, 2, r.err);
  assert.match(r.err, /\.prose\/\.env and \.env set different OPENPROSE_POSTGRES_URL values/);
  assert.is((await verify(['postgres:env', '--edition', 'current'], both)).code, 3);
  assert.is((await verify(['postgres:env'], { '.prose/.env': V0_URL, '.env': V0_URL })).code, 3, 'the same URL twice');
});

test('no env file and an empty shell: the error names both places', async () => {
  const r = await verify(['postgres:env'], {});
  assert.is(r.code, 2);
  assert.match(r.err, /looked at \.prose\/\.env and \.env, then the shell/);
});

realServerTest('verify postgres:env reads <openprose-root>/.env and reaches the server [real server]', async (url) => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-verify-pg-env-'));
  try {
    writeFileSync(join(dir, '.env'), `OPENPROSE_POSTGRES_URL=${url}\n`);
    const c = captureIo({});
    const code = await verifyCommand.run(['postgres:env', '--edition', 'current', '--format', 'json'], {
      ...c.io,
      cwd: dir,
    });
    assert.is(code, 1, c.err());
    const report = JSON.parse(c.out()) as { path: string; edition: { edition: string } };
    assert.equal([report.path, report.edition.edition], ['postgres:env', 'current']);
    assert.not.ok(c.out().includes(url));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
