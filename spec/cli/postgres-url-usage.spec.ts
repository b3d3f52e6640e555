import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EXIT } from '../../src/cli/io.ts';

const BIN = new URL('../../bin/prose-state.js', import.meta.url).pathname;

/** `prose-state test --quick --backend SPEC`, the way a user runs it; a PostgreSQL URL of the shell is not inherited. */
function runTest(backend: string) {
  const env = { ...process.env, OPENPROSE_POSTGRES_URL: '', DATABASE_URL: '' };
  const r = spawnSync(process.execPath, [BIN, 'test', '--quick', '--backend', backend], { encoding: 'utf8', env });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

for (const [what, url] of [
  ['not a URL at all', 'host=db password=hunter2-notaurl'],
  ['a URL of another scheme', 'http://agent:hunter2-scheme@db:5432/prose'],
  ['a postgres URL that does not parse', 'postgresql://agent:hunter2-broken@[db/prose'],
] as const) {
  test(`postgres:URL with ${what}: usage exit code, a message naming the problem, no URL or password`, () => {
    const r = runTest(`postgres:${url}`);
    assert.is(r.status, EXIT.usage, r.out);
    assert.match(r.out, /not a postgresql:\/\/user@host:port\/database URL/);
    assert.not.ok(r.out.includes('hunter2'), r.out);
  });
}

test('a postgres URL that parses but whose server is unreachable stays an infrastructure error (exit 3)', async () => {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  const r = runTest(`postgres:postgresql://agent:hunter2-closed@127.0.0.1:${port}/prose`);
  assert.is(r.status, EXIT.harness, r.out);
  assert.not.ok(r.out.includes('hunter2'), r.out);
});

test.run();
