import { createServer } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postgresUrlFactory } from '../../../src/backends/postgres/index.ts';
import { tempEnv } from './helpers.ts';

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

test('an unreachable server: a clear error that says what to do, with the URL and password hidden', async () => {
  const url = `postgresql://agent:hunter2-unreachable@127.0.0.1:${await closedPort()}/prose`;
  const env = tempEnv();
  try {
    const err = await postgresUrlFactory(url)
      .open(env)
      .then(
        () => undefined,
        (e: any) => e,
      );
    assert.is(err?.code, 'E_BACKEND');
    assert.match(err.message, /cannot reach the PostgreSQL server/);
    assert.match(err.hint, /with-postgres\.sh/);
    const all = [err.message, err.hint, err.stack, JSON.stringify(err)].join('\n');
    assert.not.ok(all.includes('hunter2-unreachable') || all.includes(url), all);
  } finally {
    env.cleanup();
  }
});

test('a value that is not a postgres URL is a usage error that does not echo it', async () => {
  const env = tempEnv();
  try {
    const err = await postgresUrlFactory('host=db password=hunter2-notaurl')
      .open(env)
      .then(
        () => undefined,
        (e: any) => e,
      );
    assert.is(err?.code, 'E_USAGE');
    assert.not.ok(`${err.message}${err.hint}`.includes('hunter2-notaurl'));
  } finally {
    env.cleanup();
  }
});

test.run();
