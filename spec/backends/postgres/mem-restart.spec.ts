import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresMemFactory } from '../../../src/backends/postgres/index.ts';
import { tempEnv, VM, sub } from './helpers.ts';

// pg-mem keeps its data in the factory, per storage key: a restart sees it, dispose forgets it.
test('pg-mem: close then open on the same env sees the data; dispose forgets it', async () => {
  const f = createPostgresMemFactory();
  const env = tempEnv();
  try {
    let b = await f.open(env);
    const { run } = await b.call('createRun', { program: 'let x = session "a"' }, VM);
    await b.call('bind', { run, name: 'x', kind: 'let', value: 'kept' }, sub('x'));
    await b.close();
    b = await f.open(env);
    assert.is((await b.call('resolve', { run, name: 'x' }, VM)).value, 'kept');
    await b.close();
    const other = await f.open({ ...env, storageKey: `${env.storageKey}-other` });
    const err = await other.call('getRun', { run }, VM).catch((e) => e);
    assert.is(err.code, 'E_NOT_FOUND', 'another storage key is another database');
    await other.close();
    await f.dispose!(env);
    b = await f.open(env);
    assert.is(
      (await b.call('getRun', { run }, VM).catch((e) => e)).code,
      'E_NOT_FOUND',
      'dispose removed the database',
    );
    await b.close();
    await f.dispose!(env);
  } finally {
    env.cleanup();
  }
});

test.run();
