import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { ProseError } from '../../src/core/errors.ts';
import { moduleFactory } from '../../src/plugin/module-factory.ts';
import { tempEnv } from './fixtures/temp-env.ts';

test('a TypeScript default export loads; plain Errors keep their contract code, others are E_BACKEND', async () => {
  const f = await moduleFactory(new URL('./fixtures/modules/default-export.ts', import.meta.url).pathname);
  assert.is(f.name, 'default-ts');
  assert.match(f.description, 'default-export.ts');
  const env = tempEnv('module-errors');
  const b = await f.open(env);
  try {
    const notFound = await b.call('getRun', { run: 'x' }, VM).catch((e: unknown) => e);
    assert.instance(notFound, ProseError);
    assert.is((notFound as ProseError).code, 'E_NOT_FOUND');
    const broken = await b.call('listBindings', { run: 'x' }, VM).catch((e: unknown) => e);
    assert.is((broken as ProseError).code, 'E_BACKEND');
  } finally {
    await b.close();
    env.cleanup();
  }
});

test.run();
