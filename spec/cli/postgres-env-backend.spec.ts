import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveBackends } from '../../src/cli/backend-kinds.ts';
import { ProseError } from '../../src/core/errors.ts';

// `test --backend postgres:env` finds its URL as `verify postgres:env` does with no --edition (decision
// pg-url-precedence, verify-postgres-env): v0's .prose/.env and the current texts' <openprose-root>/.env.
const URL_A = 'postgresql://agent:hunter2-a@127.0.0.1:5432/prose';
const URL_B = 'postgresql://agent:hunter2-b@127.0.0.1:5432/other';

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'prose-pg-env-'));
  for (const [rel, url] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), `OPENPROSE_POSTGRES_URL=${url}\n`);
  }
  return dir;
}

async function nameOrError(files: Record<string, string>): Promise<string> {
  const cwd = project(files);
  try {
    const [factory] = await resolveBackends('postgres:env', { env: {}, cwd });
    return factory!.name;
  } catch (err) {
    assert.instance(err, ProseError);
    return `${(err as ProseError).code}: ${(err as ProseError).message}`;
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

test("a current project's .env at the openprose root is read, and named, never its URL", async () => {
  const name = await nameOrError({ '.env': URL_A });
  assert.is(name, 'postgres:.env OPENPROSE_POSTGRES_URL');
});

test("a v0 project's .prose/.env is read as before", async () => {
  assert.is(await nameOrError({ '.prose/.env': URL_A }), 'postgres:.prose/.env OPENPROSE_POSTGRES_URL');
});

test('both files naming the same URL: that URL', async () => {
  assert.match(await nameOrError({ '.prose/.env': URL_A, '.env': URL_A }), /^postgres:/);
});

test('the two files naming different URLs: a usage error naming both files, no URL or password', async () => {
  const r = await nameOrError({ '.prose/.env': URL_A, '.env': URL_B });
  assert.match(r, /^E_USAGE: .*\.prose\/\.env and \.env/);
  assert.not.ok(r.includes('hunter2'), r);
});

test('no file and no shell variable: a usage error naming where it looked', async () => {
  assert.match(
    await nameOrError({}),
    /^E_USAGE: postgres:env found no database URL: looked at \.prose\/\.env and \.env/,
  );
});

test.run();
